// The merge path of two sorted runs: where the k-th output of their stable merge splits
// them, shared by the GPU's merge passes (gpu/SplitLongSorts.h: one search per element)
// and the CPU's (cpu/SortRunsAndMerges.h: one search per workgroup's block of outputs,
// then a sequential merge).
#pragma once

#include "mlir/IR/Builders.h"

namespace kiln::compiler {

// Whether element `b_at` of run B goes before element `a_at` of run A (positions in the
// line): the comparator applied to (B's element, A's element).
using RunLess = llvm::function_ref<mlir::Value(mlir::OpBuilder&, mlir::Location, mlir::Value b_at, mlir::Value a_at)>;

// The number i of elements run A = [a_start, a_start + a_len) gives to the first k
// outputs of the stable merge of A then B = [b_start, b_start + b_len) (0 <= k <= a_len
// + b_len; B gives k - i): the first i in [max(0, k - b_len), min(k, a_len)] whose A[i]
// does not go after B[k - 1 - i], found by binary search (an scf.while, ~log2(min(k,
// a_len)) comparisons). Ties go to A (stable).
mlir::Value MergePathSplit(mlir::OpBuilder& b, mlir::Location loc, mlir::Value a_start, mlir::Value a_len,
                           mlir::Value b_start, mlir::Value b_len, mlir::Value k, RunLess b_before_a);

}  // namespace kiln::compiler
