// Register tiles of dynamic but bounded size: the last block of columns of a contraction
// whose n is no multiple of the register tile's (n = 1000 with tiles of 64 columns leaves
// 40), and the one-row tiles beside it.
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::cpu {

// Replaces `tile`, a contraction (HasMultiplyAddBody, operands and result of one element
// type, buffer semantics) whose loop sizes are dynamic, by vector code at the sizes'
// constant upper bounds, rounded up to powers of two: each operand is read as a vector of
// its bounded shape, the dimensions that may be shorter read out of bounds (masked loads
// of the elements inside; the padding, 0, adds nothing to the sums), the product is a
// vector.contract with the tile's indexing maps, and the output is written back with the
// same dimensions out of bounds (masked stores). Before, such tiles became scalar loops.
// Fails and leaves `tile` alone when a size has no constant bound or a bounded operand
// would exceed kMaxBoundedTileElements.
inline constexpr int64_t kMaxBoundedTileElements = 4096;
mlir::LogicalResult VectorizeBoundedContractionTile(mlir::RewriterBase& rewriter, mlir::linalg::LinalgOp tile);

}  // namespace kiln::compiler::cpu
