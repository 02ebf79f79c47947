// Rebuilding a linalg.generic on buffers without its reduction loops of one iteration.
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

// `op` rebuilt without its reduction loops of one iteration (a packed binding's loop over
// the one byte of a nibble pair, say), inserted before `op`, which stays: each operand
// dimension such a loop indexes (of size 1) is dropped by a rank-reducing subview, and
// linalg.index of the loop is 0. Null (nothing created) when `op` has none, is not on
// buffers, or uses one otherwise than as a whole operand dimension.
mlir::linalg::GenericOp DropUnitReductionLoops(mlir::RewriterBase& b, mlir::linalg::GenericOp op);

}  // namespace kiln::compiler
