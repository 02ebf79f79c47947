// Sorts whose lines exceed what one workgroup sorts in LDS, on the GPU
// (kiln-gpu-split-long-sorts, Passes.td): on tensors, before dispatch formation, and only
// when every target is a GPU (one dispatch formation serves every target; CPU-only
// compiles split long lines their own way: kiln-cpu-split-long-sorts). Such a sort
// becomes several dispatches:
//
//   runs = the sort with kSortRunLengthAttr = R   (WorkgroupSort.h: one workgroup per run
//                                                  of R elements, in LDS, stable)
//   for (w = R; w < n; w *= 2)                     (unrolled for a static n, a host
//     runs = merge(runs, w)                         scf.while for a dynamic one; each
//                                                   merge a linalg.generic: w -> 2w)
//
// R is the largest power of two the LDS holds with every operand kept. A merge pass is an
// elementwise generic over the operands' shape: output element p of a line finds its
// source by a binary search along the merge path of its pair of runs (left run first on
// ties, so the passes keep the stable order of the runs), reading the previous pass's
// tensors with tensor.extract and inlining the comparator; it is computed by the generic
// GPU path, every work-item of the grid one element. Unrolled passes share one command
// buffer, and their intermediates the transient slab (placed by liveness, so two buffers
// ping-pong); the last one writes the sort's result.
#pragma once
