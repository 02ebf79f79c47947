// The threshold filter of topk and topk_v2 lines on vectors. In a long line most
// elements are not better than the worst of the k kept so far, so each vector of L
// elements is compared with that worst at once, and only the elements whose compare holds
// go through the op's scalar insertion, in line order. After every insertion the rest of
// the vector is compared again with the new worst: the elements inserted are exactly the
// ones the scalar loop inserts, whatever the comparator and the initial outputs.
#pragma once

#include "compiler/codegen/cpu/LineAccess.h"

namespace kiln::compiler::cpu {

// The lanes of the filter's vectors for `values` (vector_bits wide, at most 64), or 0 when
// the line stays scalar: it must run along the memref's last dimension with unit stride,
// hold integers or floats of 8 to 64 bits, and `comparator` must be made of elementwise
// ops (and constants) on its two arguments only.
int64_t TopkFilterLanes(const Line& values, mlir::Block& comparator, int64_t vector_bits);

// What a topk line's loop carries from element to element (the k kept, when they live in
// registers; empty when they live in the outputs), how the worst of them is read and how an
// element is inserted (returning the new state).
using TopkState = llvm::SmallVector<mlir::Value>;
using TopkWorst = llvm::function_ref<mlir::Value(mlir::OpBuilder&, mlir::Location, mlir::ValueRange state)>;
using TopkInsert =
    llvm::function_ref<TopkState(mlir::OpBuilder&, mlir::Location, mlir::ValueRange state, mlir::Value i)>;

// What lets the vector filter skip lanes before comparing them with the worst kept: when
// the comparator is one strict comparison of its two arguments (MatchRadixComparator: a
// strict weak order once NaNs are out) and the k kept are in order, the sequential
// insertions leave the stable k best of the kept and the line. A value that at least k
// elements of the line reach (the k-th best of the vector lanes' bests, for k <= lanes)
// then bounds the result: elements worse than it cannot be among the k best and are
// skipped. A pass over the line finds the bound and whether the line holds a NaN (which
// makes it unusable).
struct TopkBound {
  int64_t k;                   // static, at most the filter's lanes
  mlir::Value kept_in_order;   // i1: no kept element goes before its predecessor (nor is NaN)
};

// The loop over the elements [0, n) of a topk line: `insert(i)` for each i, in order, for
// which `comparator(values[i], worst())` holds when its turn comes. With lanes > 0 (see
// TopkFilterLanes), [0, n - n % lanes) is compared a vector at a time first, the rest
// element by element; with a `bound`, the vector part skips what TopkBound allows.
// Returns the final state.
TopkState ForEachBetterElement(mlir::OpBuilder& b, mlir::Location loc, mlir::Block& comparator, const Line& values,
                               mlir::Value n, int64_t lanes, const TopkBound* bound, mlir::ValueRange state,
                               TopkWorst worst, TopkInsert insert);

}  // namespace kiln::compiler::cpu
