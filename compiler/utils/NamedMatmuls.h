// Rebuilding linalg.matmul and linalg.batch_matmul over other operands. Their region's
// argument types follow the operands, so an operand of another element type (a widened
// copy, a wider accumulator) needs a new op rather than an operand swap.
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kiln::compiler {

// A new op of `op`'s kind (linalg.matmul or linalg.batch_matmul) at the builder's
// insertion point over `inputs` and `outputs`, with `op`'s indexing maps, cast and
// discardable attributes; its results are those of `outputs` that are tensors. Null for
// any other op. `op` itself is left in place.
mlir::linalg::LinalgOp RebuildNamedMatmul(mlir::OpBuilder& b, mlir::linalg::LinalgOp op, mlir::ValueRange inputs,
                                          mlir::ValueRange outputs);

}  // namespace kiln::compiler
