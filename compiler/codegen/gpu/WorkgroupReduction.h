// The GPU's workgroup strategy for row reductions (kiln-gpu-select-workgroup-strategies
// marks them, kiln-gpu-tile-reductions lays them out): each workgroup reduces whole rows,
// its work-items striding along the row, then combines their partial values through
// subgroup shuffles and LDS, and one work-item folds the total into the output.
#pragma once

#include <optional>
#include <string>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kiln::compiler::gpu {

// The value of kiln.workgroup_strategy for dispatches of this strategy.
inline constexpr llvm::StringLiteral kReductionStrategy = "gpu.workgroup_reduction";

// What the strategy needs of a reduction: its one reduction dimension, and the combiner,
// a single associative and commutative arith op of (element, accumulator) with a neutral
// element, where the element is an input's block argument or computed from them by the
// body's other ops (a dot product's multiply).
struct WorkgroupReductionDims {
  unsigned reduction = 0;
  mlir::Operation* combiner = nullptr;
  mlir::TypedAttr neutral;
  mlir::Value element;
};

// `op`'s dimensions if the strategy computes it: one or more inputs and one output,
// integer or float elements, projected-permutation maps, exactly one reduction dimension
// (every input's innermost), a body that yields one combiner of the accumulator (used by
// nothing else) and an element computed by arith and math ops (a matvec: the rows of the
// matrix times the vector).
std::optional<WorkgroupReductionDims> MatchWorkgroupReduction(mlir::linalg::LinalgOp op);

// Work-items per workgroup for the reduction strategy.
inline constexpr int64_t kReductionWorkgroupSize = 256;

// Combines the `partial` value of every work-item of a workgroup of kReductionWorkgroupSize
// (`thread` its id, waves of `wave_size`): a gpu.shuffle xor butterfly leaves each wave's
// total in its lanes, lane 0 of each wave stores it to `lds` (workgroup memory of one
// element per wave), a barrier, then work-item 0 folds the waves' totals into `init()`
// with `combine(in, acc)` and hands the result to `use_total`; `barrier` builds the
// barrier (gpu.barrier, or kiln.workgroup_barrier on tensors). The caller places the
// barrier that protects `lds` from the next combine. Builds at `b`'s insertion point;
// the callbacks build there too.
void BuildWorkgroupCombine(mlir::OpBuilder& b, mlir::Location loc, mlir::Value partial, mlir::Value lds,
                           mlir::Value thread, int64_t wave_size,
                           llvm::function_ref<mlir::Value(mlir::Value in, mlir::Value acc)> combine,
                           llvm::function_ref<mlir::Value()> init, llvm::function_ref<void(mlir::Value total)> use_total,
                           llvm::function_ref<void()> barrier);

}  // namespace kiln::compiler::gpu
