// Source locations as kiln reports them: "file.mlir:12:3".
#pragma once

#include <string>

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

namespace kiln::compiler {

// The first file:line:col found in `loc` (looking through names, call sites and fused
// locations), or an empty string.
std::string LocationString(mlir::Location loc);

// How an index check names the index it guards: `what` of `op` and its location,
// "the slice offset into dimension 0 of the source of iree_linalg_ext.gather
// (model.mlir:4:8)"; the location is left out when `op` has none.
std::string IndexCheckSite(mlir::Operation* op, llvm::StringRef what);
// The site of a gather or scatter slice offset: "the slice offset into dimension `dimension`
// of the `operand`" of `op`.
std::string SliceOffsetSite(mlir::Operation* op, int64_t dimension, llvm::StringRef operand);

}  // namespace kiln::compiler
