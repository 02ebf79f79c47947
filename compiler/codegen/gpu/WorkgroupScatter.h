// The GPU's workgroup strategy for iree_linalg_ext.scatter (kiln-gpu-select-workgroup-strategies
// marks the dispatches, kiln-gpu-tile-scatters lays them out on buffers).
//
// A dispatch's output must hold the original before any update lands, and a kernel has no
// barrier across workgroups; so the grid splits the output instead of the updates: each
// workgroup owns a block of the output's rows (dimension 0, at least kScatterBlockElements
// elements), copies (or fills) that block, and after a workgroup barrier applies the part
// of every update slice that lands in it.
// No other workgroup writes the block, so the CPU's semantics hold per element:
// - a combiner with an atomic read-modify-write (add, max, min, and, or, xor on 32- or
//   64-bit integers and floats) and an overwrite with unique_indices(true) whose slices
//   cannot overlap (no indexed dimension is sliced): the block's work-items take update
//   rows t, t + 256, ... (or, for slices of a static size of at least 256 elements, take
//   the rows in turn and share each slice) and combine with memref.atomic_rmw (or plain
//   stores). Integer results and max/min are exact; a float sum may round differently
//   from the CPU's serial order;
// - any other combiner, and an overwrite whose slices may meet (the last update wins):
//   the ordered path, one update row after another in batch order, a slice of 64 static
//   elements or more shared by the work-items with a barrier between rows, smaller ones
//   applied by one work-item of the block.
// Masks and slices that do not fit inside the original are skipped exactly as on the CPU
// (LinalgExtToLoops).
#pragma once

#include <string>

#include "compiler/input/iree/IreeDialects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler::gpu {

// The value of kiln.workgroup_strategy for dispatches of this strategy.
inline constexpr llvm::StringLiteral kScatterStrategy = "gpu.workgroup_scatter";

// Work-items per workgroup for the scatter strategy.
inline constexpr int64_t kScatterWorkgroupSize = 256;

// The fewest output elements a workgroup's block holds (but for the last block): the
// workgroups with a block each read all the indices, which small blocks would not repay.
inline constexpr int64_t kScatterBlockElements = 4096;

// On the ordered path, the fewest elements of a static update slice that the work-items
// share (a barrier after each update row); smaller or dynamic slices are applied by one
// work-item per block, in order.
inline constexpr int64_t kScatterOrderedShareElements = 64;

// How a scatter's combiner updates an element of the output.
struct ScatterCombine {
  enum class Update { kStore, kAtomic, kOrdered };
  Update update = Update::kOrdered;
  mlir::arith::AtomicRMWKind kind = mlir::arith::AtomicRMWKind::assign;  // for kAtomic
  std::string why;  // for kOrdered: why updates cannot be applied in parallel
};

// Classifies `op`'s combiner: kStore for a yield of the update with unique_indices(true)
// where no indexed dimension is also a slice dimension (distinct slices then never meet),
// kAtomic for one commutative arith op of the update and the old value that
// memref.atomic_rmw expresses on an i32, i64, f32 or f64 element, kOrdered otherwise.
ScatterCombine ClassifyScatterCombiner(iree::ScatterOp op);

// Whether dispatch function `fn` (on tensors) is a scatter the strategy computes: its root
// is an iree_linalg_ext.scatter whose updates, indices and mask are read from bindings,
// whose original is read from a binding or is a linalg.fill, and whose result is written
// to one output binding, with nothing else computed. Otherwise `why` says what not.
bool IsScatterDispatch(mlir::func::FuncOp fn, std::string& why);

}  // namespace kiln::compiler::gpu
