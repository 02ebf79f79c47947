// The host twin's SIMT emulation of a workgroup-cooperative kernel: the kernel runs once
// per workgroup and its work-items run in loops split at the barriers (DESIGN.md section 7).
//
//   %t = gpu.thread_id x          scf.for %i = 0 to N { A(%i); store %a -> spill[%i] }
//   A(%t)                   ==>   scf.for %k = ... {            (uniform: once per workgroup)
//   scf.for %k = ... {              scf.for %i = 0 to N { B(%i, spill[%i]) }
//     B                             scf.for %i = 0 to N { C(%i) }
//     gpu.barrier                 }
//     C
//     gpu.barrier
//   }
//
// Every work-item finishes the code before a barrier before any starts the code after it,
// which is what gpu.barrier guarantees; code between barriers runs work-item after
// work-item, which is one of the interleavings the GPU allows (a kernel whose result
// depends on the interleaving has a data race on the GPU too).
#pragma once

#include <cstdint>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler::gpu {

// Whether `op` synchronises the work-items of a wave or workgroup, so that the twin ends
// its work-item loops there: gpu.barrier, gpu.shuffle, amdgpu.mfma, amdgpu.wmma.
bool IsWorkItemSynchronisation(mlir::Operation* op);

// Whether `op` is or contains a gpu.barrier (or another IsWorkItemSynchronisation op).
bool ContainsBarrier(mlir::Operation* op);

// Rewrites `kernel` (one block; gpu.thread_id x its only work-item id; workgroup ids already
// replaced) to run all `items` work-items of a workgroup:
// - ops without memory effects whose operands are the same in every work-item (uniform)
//   run once, in place;
// - the other ops between two barriers run in a loop over the work-items;
// - ops containing barriers (scf.for, scf.if) must have uniform bounds and conditions and
//   no results: they run once and their bodies are split in turn;
// - a work-item's values used after a barrier are recomputed there when they are free of
//   memory effects, else kept in per-work-item arrays; its private allocations (memref.alloca
//   at a split level) become slices of per-work-item buffers.
// A barrier under divergent control flow, or in an op other than scf.for/scf.if, is an
// error on that op (the GPU would hang or the emulation would be wrong).
mlir::LogicalResult RunWorkItemsInLoops(mlir::func::FuncOp kernel, int64_t items);

}  // namespace kiln::compiler::gpu
