// How kiln's CPU code generation tiles matmul-like contractions (kiln-cpu-tile-contractions
// and kiln-cpu-vectorize-contractions).
#pragma once

#include <optional>

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kiln::compiler::cpu {

// Marks the register tiles that kiln-cpu-vectorize-contractions turns into vector code.
inline constexpr llvm::StringLiteral kRegisterTileAttr = "kiln.register_tile";

// Tile sizes per loop dimension of a contraction (0: not tiled).
struct ContractionTilePlan {
  llvm::SmallVector<int64_t> cache_tile;     // blocks that stay in L1/L2 between reuses
  llvm::SmallVector<int64_t> cache_order;    // loop order of the blocks (n, k, m)
  llvm::SmallVector<int64_t> register_tile;  // m x n accumulators held in vector registers, k = 1
  unsigned m_dim = 0;
  unsigned n_dim = 0;
};

// The plan for `op`, if it is a contraction kiln vectorises: buffer semantics, one m, n
// and k dimension (any batch dimensions), f32 or f64 operands and result, and the n
// dimension innermost in both the output and the right-hand operand, so that a register
// tile's rows are contiguous vector loads and stores.
// `vector_bits` is the width of the target's vector registers.
std::optional<ContractionTilePlan> PlanContractionTiles(mlir::linalg::LinalgOp op, int64_t vector_bits);

}  // namespace kiln::compiler::cpu
