// The GPU's workgroup strategy for iree_linalg_ext.sort (kiln-gpu-select-workgroup-strategies
// marks the dispatches, kiln-gpu-tile-sorts lays them out): each workgroup sorts whole
// lines, one after another, with a bitonic network whose compare-exchange steps its
// work-items share between barriers.
//
// A line that fits in LDS is loaded there with every element's position, sorted with the
// position as the last key (so the order is the CPU's stable one), and written to the
// output bindings: no temporary, and an output nothing reads is never written. A longer
// line that kiln-gpu-split-long-sorts left whole (the CPU is a target too) is sorted in
// place in the output bindings (global memory), where there is no room for positions:
// elements the comparator ties may then come in another order than on the CPU.
//
// A sort carrying kSortRunLengthAttr (made by kiln-gpu-split-long-sorts, GPU-only) sorts
// each run of that many consecutive elements of every line on its own: one workgroup per
// (line, run) unit, in LDS with positions, so each run is in the stable order; the merge
// passes that follow (SplitLongSorts.h) make the runs one.
//
// iree_linalg_ext.topk with a static k and line takes the LDS path too: its candidates
// are the outputs' k initial elements (which come before every input) and then the
// line, sorted together; the first k are its result, which is exactly the CPU's
// insertion order. A topk whose k + line exceeds the LDS keeps the per-work-item path
// unless kiln-gpu-split-long-topks made it topks of chunks and of their candidates.
#pragma once

#include <string>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Types.h"

namespace kiln::compiler::gpu {

// The value of kiln.workgroup_strategy for dispatches of this strategy.
inline constexpr llvm::StringLiteral kSortStrategy = "gpu.workgroup_sort";

// Work-items per workgroup for the sort strategy.
inline constexpr int64_t kSortWorkgroupSize = 256;

// LDS a line may take (the whole of a workgroup's on every supported chip): a sorting
// workgroup runs alone on its compute unit's LDS, which longer resident lines repay.
inline constexpr int64_t kSortLdsBytes = 64 * 1024;

// On an iree_linalg_ext.sort: each run of this many (an integer attribute) consecutive
// elements of every line is sorted on its own, not the whole line. Only the GPU's sort
// strategy computes such a sort (an error names any dispatch it cannot take).
inline constexpr llvm::StringLiteral kSortRunLengthAttr = "kiln.sort_run_length";

// The elements of a line the LDS path holds when the operands of `kept_types` are kept
// (written out or read by the comparator), each with its position.
int64_t SortLdsCapacity(llvm::ArrayRef<mlir::Type> kept_types);

// Whether dispatch function `fn` (on tensors) is a sort the strategy computes: its root is
// an iree_linalg_ext.sort without `ins` (or a topk as above), each operand read from a binding or computed
// element by element from bindings and positions (linalg.fill, elementwise generics with
// identity maps and flat bodies), each result written to one output binding or unused,
// and nothing else computed. Otherwise `why` says what not.
bool IsSortDispatch(mlir::func::FuncOp fn, std::string& why);

}  // namespace kiln::compiler::gpu
