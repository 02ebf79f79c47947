// Reading off a distributed dispatch body how many of its workers have work.
#pragma once

#include <optional>

#include "compiler/utils/WorkgroupBound.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler::gpu {

// Workers w >= ceil(E / T) of `body` do nothing, when its work is one grid-stride loop
//   scf.for %i = %id * T to E step %count * T   (T = 1: %id to E step %count)
// (or several such loops one after the other, with constant extents: the largest of their
// bounds)
// over its worker id and count (the two arguments after its push constants), with E a
// constant or an index push constant, and every other op at its top level free of memory
// effects other than allocation (or a workgroup barrier): a worker that runs no iteration
// then has no effect. Returns that bound in workers (word: the push-constant word of E,
// from the words each constant takes), or nothing when the body has another form.
std::optional<WorkgroupBound> FindWorkerBound(mlir::func::FuncOp body, size_t binding_count,
                                              llvm::ArrayRef<int64_t> word_of_constant);

}  // namespace kiln::compiler::gpu
