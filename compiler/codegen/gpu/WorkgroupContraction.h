// The GPU's workgroup strategy for contraction dispatches (kiln-gpu-select-workgroup-strategies
// marks them, kiln-gpu-tile-contractions lays them out): each workgroup computes output
// tiles of tile_m x tile_n, stages the operands' k-slices through LDS, and each work-item
// accumulates a register tile of reg_m x reg_n from LDS. Convolutions take the same
// strategy as implicit GEMMs: their m, n and k are groups of loop dimensions, flattened,
// and staging reads the input through its indexing map (the im2col matrix is never stored).
#pragma once

#include <optional>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kiln::compiler::gpu {

// The value of kiln.workgroup_strategy for dispatches of this strategy.
inline constexpr llvm::StringLiteral kContractionStrategy = "gpu.workgroup_contraction";
// On a dispatch function the strategy laid out: its worker id and count are its workgroup's
// id and the workgroup count (every work-item of a workgroup shares them; the work-item
// reads gpu.thread_id itself), and kiln.gpu.workgroup_size gives the workgroup's size.
inline constexpr llvm::StringLiteral kWorkgroupWorkersAttr = "kiln.gpu.workgroup_workers";

// The loop dimensions of a contraction the strategy computes. m, n and k are each one or
// more loop dimensions, in loop order, flattened with the last varying fastest: a
// convolution's m is (batch, output image), its n the output channels and its k (filter
// window, input channel).
struct WorkgroupContractionDims {
  llvm::SmallVector<unsigned> batch;
  llvm::SmallVector<unsigned> m;
  llvm::SmallVector<unsigned> n;
  llvm::SmallVector<unsigned> k;
};

// `op`'s dimensions if the strategy computes it: two inputs and one output, integer or
// float element types, and either a contraction (a multiply-add body, casts allowed as in
// mixed-precision products; projected-permutation indexing maps; batch dimensions and
// non-empty m, n and k) or a convolution with products in its body, output and input
// channels (its depth dimensions, as in grouped convolutions, are batch dimensions; a
// depthwise convolution has no n and is not taken).
std::optional<WorkgroupContractionDims> MatchWorkgroupContraction(mlir::linalg::LinalgOp op);

// Whether elementwise generic `root` can be computed as the epilogue of `contraction`
// (a match of MatchWorkgroupContraction), element by element from its register tiles:
// `root` reads the contraction's result (`result`: its tensor result, or on buffers its
// output buffer) through an identity map as its input `input`, has only parallel loops
// and an identity output map, does not read its output, has a body of arith and math ops,
// and reads its other inputs from bindings (`is_binding`) through projected permutations
// (a bias broadcast along rows, a scale per column).
bool IsContractionEpilogue(mlir::linalg::GenericOp root, mlir::Value result,
                           llvm::function_ref<bool(mlir::Value)> is_binding, unsigned& input);

// Tile sizes, chosen per element width: the workgroup's output tile, the depth staged
// through LDS per step, and each work-item's register tile.
struct WorkgroupContractionTiles {
  int64_t tile_m = 64;
  int64_t tile_n = 64;
  int64_t tile_k = 16;
  int64_t reg_m = 4;
  int64_t reg_n = 4;
  int64_t WorkgroupSize() const { return (tile_m / reg_m) * (tile_n / reg_n); }
};
WorkgroupContractionTiles ChooseWorkgroupContractionTiles(mlir::linalg::LinalgOp op);

// The k of the 32x32 MFMA that computes `op`'s products on chips with MFMA: 2 for f32
// inputs, 8 for f16 or bf16 inputs (the body extends them), each with an f32 output,
// `i8_depth` (the chip's: 16 on gfx942, 8 on gfx90a; 0 for none) for i8 inputs with an
// i32 output (the body sign-extends them), and with `f8_fnuz` (gfx942) 16 for
// f8E4M3FNUZ or f8E5M2FNUZ inputs, the two alike or mixed, with an f32 output (the body
// extends them); always with a plain multiply-add body. 0 when no MFMA computes it
// exactly that way.
int64_t MfmaDepth(mlir::linalg::LinalgOp op, int64_t i8_depth, bool f8_fnuz);

// The k of the 16x16 WMMA (RDNA3, wave32) that computes `op`'s products: 16 for f16 or
// bf16 inputs with an f32 output and for i8 inputs with an i32 output (the body extends
// them), with a plain multiply-add body; 0 otherwise.
int64_t WmmaDepth(mlir::linalg::LinalgOp op);

}  // namespace kiln::compiler::gpu
