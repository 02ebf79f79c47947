// The GPU's workgroup strategy for row-wise dispatches such as softmax
// (kiln-gpu-select-workgroup-strategies marks them, kiln-gpu-tile-rows lays them out): a
// chain of elementwise ops and row reductions over the innermost dimension, computed per
// row by a workgroup, every intermediate recomputed from the bindings where it is used,
// so that no row is ever held in a temporary (no scratch, dynamic row lengths need no
// dynamically sized buffer).
#pragma once

#include <string>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler::gpu {

// The value of kiln.workgroup_strategy for dispatches of this strategy.
inline constexpr llvm::StringLiteral kRowStrategy = "gpu.workgroup_rows";

// Whether dispatch function `fn` (on tensors) is a row-wise chain the strategy computes:
// linalg.generic ops of one rank, the innermost loop parallel (elementwise) or the only
// reduction (a row reduction by one associative, commutative combiner with a neutral
// element, initialised by a fill); inputs are bindings read whole or per row, earlier
// results read whole (elementwise) or per row (reductions); bodies without regions; one
// result, the root's, written to one output binding. Otherwise `why` says what not.
bool IsRowDispatch(mlir::func::FuncOp fn, std::string& why);

}  // namespace kiln::compiler::gpu
