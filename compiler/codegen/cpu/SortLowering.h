// The loop lowering of iree_linalg_ext.sort on memrefs (LinalgExtToLoops.cc), for the
// marked sorts of kiln-cpu-split-long-sorts too (SortRunsAndMerges.h).
#pragma once

#include "compiler/codegen/cpu/LineAccess.h"
#include "compiler/input/iree/IreeDialects.h"

namespace kiln::compiler::cpu {

// Whether the sort comparator places `lhs` (one value per operand) before `rhs`.
mlir::Value SortsBefore(mlir::OpBuilder& b, mlir::Block& comparator, mlir::ValueRange lhs, mlir::ValueRange rhs);

// Writes positions [out, out_end) of `target` with the stable merge of the sorted runs of
// `source` from i (run A, up to a_end) and j (run B, a_end <= j, up to b_end): B's element
// only when it goes before A's (A first on ties). One comparison and one store of every
// operand per output, without branches; a_end > 0 (the merge clamps loads into the runs).
void EmitStableMerge(mlir::OpBuilder& b, mlir::Location loc, mlir::Block& comparator, llvm::ArrayRef<Line> source,
                     llvm::ArrayRef<Line> target, mlir::Value out, mlir::Value out_end, mlir::Value i,
                     mlir::Value a_end, mlir::Value j, mlir::Value b_end);

// One of several merges of the same pair of runs that EmitStableMerges interleaves: the
// next output position and the next positions in runs A and B.
struct MergeStream {
  mlir::Value out, i, j;
};

// EmitStableMerge of `steps` outputs for each stream, all in one loop: the streams'
// dependency chains (load, compare, select the next positions) overlap, where one merge
// waits for each load. Most steps run in chunks that no stream can finish a run in, with
// neither clamps nor end checks (half the instructions of a clamped step); the steps
// from where a run may end on are clamped. Returns where each stream stopped.
llvm::SmallVector<MergeStream> EmitStableMerges(mlir::OpBuilder& b, mlir::Location loc, mlir::Block& comparator,
                                                llvm::ArrayRef<Line> source, llvm::ArrayRef<Line> target,
                                                llvm::ArrayRef<MergeStream> streams, mlir::Value steps,
                                                mlir::Value a_end, mlir::Value b_end);

// Sorts every line of `sources` into the same line of `targets` (memrefs of one shape,
// one per comparator operand pair; `sources` may be `targets`: in place), stably, with
// `comparator`: a radix sort when it is one plain comparison (RadixSort.h), else insertion
// sorts of short runs and merge passes between two scratch lines.
void LowerSortInto(mlir::OpBuilder& b, mlir::Location loc, mlir::Block& comparator, int64_t dimension,
                   mlir::ValueRange sources, mlir::ValueRange targets);

// LowerSortInto for a sort on memrefs without `ins`: its outputs in place.
void LowerSort(mlir::OpBuilder& b, iree::SortOp op);

}  // namespace kiln::compiler::cpu
