// Tiling of linalg ops on buffers into scf.for loops, shared by kiln's CPU tiling passes.
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace kiln::compiler::cpu {

// Tiles `op` with `sizes` (one per loop dimension, 0: not tiled), its loops nested in
// `order` (a permutation of the loop dimensions; empty: dimension order), and replaces it
// by the tile, which it returns; the loops made (one per non-zero size, outermost first)
// go to `loops` if given. Null (and `op` unchanged) if tiling fails.
mlir::linalg::LinalgOp TileLinalgOp(mlir::RewriterBase& rewriter, mlir::linalg::LinalgOp op,
                                    llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> order = {},
                                    llvm::SmallVectorImpl<mlir::LoopLikeOpInterface>* loops = nullptr);

}  // namespace kiln::compiler::cpu
