// Where iree_linalg_ext.scatter's update slices land: the op's semantics (a masked update
// or a slice that does not fit inside the original is skipped), shared by the CPU's loops
// (LinalgExtToLoops.cc) and the GPU's scatter strategy (gpu/WorkgroupScatter.h), so that
// both skip exactly the same updates.
#pragma once

#include "compiler/input/iree/IreeDialects.h"
#include "mlir/IR/Builders.h"

namespace kiln::compiler::cpu {

// How a scatter's operands divide into batch and slice dimensions.
struct ScatterShape {
  int64_t batch_rank = 0;       // leading dimensions of updates and indices
  int64_t first_slice_dim = 0;  // the original's dimension the updates' first slice dimension lands on
  bool explicit_depth = false;  // indices have a trailing dimension of one entry per dimension_map entry
  static ScatterShape Of(iree::ScatterOp op);
};

// Where the update slice of batch position `batch` lands (the scatter on buffers).
struct ScatterSliceOrigin {
  llvm::SmallVector<mlir::Value> offsets;  // per dimension of the original; 0 where none is indexed
  llvm::SmallVector<mlir::Value> rooms;    // per dimension_map entry: the largest offset that fits
  mlir::Value enabled;                     // the mask's element, or null without a mask
  mlir::Value fits;                        // enabled, and every offset in [0, its room]
};

// Reads the mask and indices of batch position `batch` at `b`. `slice_sizes` are the
// updates' slice dimensions and `original_sizes` the original's.
ScatterSliceOrigin BuildScatterSliceOrigin(mlir::OpBuilder& b, mlir::Location loc, iree::ScatterOp op,
                                           const ScatterShape& shape, mlir::ValueRange batch,
                                           llvm::ArrayRef<mlir::Value> slice_sizes,
                                           llvm::ArrayRef<mlir::Value> original_sizes);

// Checked mode: a kiln.index_check of each indexed offset of `origin` against its room
// (enabled by the mask), at `b`, so that a skipped out-of-range update is reported.
void BuildScatterIndexChecks(mlir::OpBuilder& b, mlir::Location loc, iree::ScatterOp op,
                             const ScatterSliceOrigin& origin);

}  // namespace kiln::compiler::cpu
