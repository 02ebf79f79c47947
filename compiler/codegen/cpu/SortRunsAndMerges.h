// The marked sorts of kiln-cpu-split-long-sorts (Passes.td): a long line sorted as K runs,
// each by the ordinary sort on its own, then merged pairwise in log2(K) passes, every
// step spread over the workgroups of its dispatch. Both forms are iree_linalg_ext.sort
// ops with `ins` (one per output, what the outputs are computed from):
//
//   kiln.sort_run_count = K               each line of the outputs: the line of the inputs
//                                         as K runs of R = max(1, ceil(n / K)) elements
//                                         (the last shorter or empty), each sorted stably;
//                                         workgroup g sorts runs g, g + count, ...
//   kiln.sort_merge = array<i64: K, m>    the inputs' lines are sorted runs of w = m * R;
//                                         the outputs' lines, runs of 2w: each pair of
//                                         runs merged stably (left run first on ties)
//
// A merge pass splits each line's outputs into one contiguous block per workgroup: the
// block finds where it starts in each pair of runs it covers by one merge-path binary
// search (MergePath.h), then merges sequentially, one comparison per output. K is a power
// of two, so the last pass leaves one run: the stable sort of the line.
//
// These roots distribute themselves: kiln-cpu-distribute-to-workgroups marks their
// dispatch distributed without tiling, and the lowering reads the workgroup id and count
// (the function's last two arguments), so a dispatch left as one workgroup (id 0 of 1)
// computes everything.
#pragma once

#include "compiler/input/iree/IreeDialects.h"

namespace kiln::compiler::cpu {

inline constexpr llvm::StringLiteral kSortRunCountAttr = "kiln.sort_run_count";
inline constexpr llvm::StringLiteral kSortMergeAttr = "kiln.sort_merge";

// Whether `op` is one of the two marked sorts.
bool IsSplitSortStep(mlir::Operation* op);

// Lowers a marked sort on memrefs into loops (this workgroup's share of the work); an
// error on a malformed mark or one without `ins`.
mlir::LogicalResult LowerSplitSortStep(mlir::OpBuilder& b, iree::SortOp op, mlir::Value workgroup_id, mlir::Value workgroup_count);

}  // namespace kiln::compiler::cpu
