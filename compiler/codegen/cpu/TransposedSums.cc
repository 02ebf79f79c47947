#include "compiler/codegen/cpu/TransposedSums.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// A vector of partial sums in groups of equal, contiguous lanes: group g holds partial
// sums of input `owners[g]` (kept to check the order of the result).
struct Groups {
  Value vector;
  llvm::SmallVector<int64_t> owners;
};

// The lanes of each group's first (`second` false) or second half, group after group, for
// a vector.shuffle of `a` (lanes [0, lanes)) and, unless `b_offset` is negative, `b`
// (lanes [b_offset, b_offset + lanes)): a's group g then b's group g, for every g.
llvm::SmallVector<int64_t> HalfLanes(int64_t groups, int64_t group_lanes, bool second, int64_t b_offset) {
  llvm::SmallVector<int64_t> mask;
  int64_t half = group_lanes / 2, start = second ? half : 0;
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t i = 0; i < half; ++i) mask.push_back(g * group_lanes + start + i);
    if (b_offset < 0) continue;
    for (int64_t i = 0; i < half; ++i) mask.push_back(b_offset + g * group_lanes + start + i);
  }
  return mask;
}

}  // namespace

bool CanSumEachVector(int64_t count, int64_t lanes) {
  return count > 0 && lanes > 0 && llvm::isPowerOf2_64(count) && llvm::isPowerOf2_64(lanes) && count <= lanes;
}

Value SumEachVector(OpBuilder& builder, Location loc, llvm::ArrayRef<Value> vectors) {
  auto type = cast<VectorType>(vectors.front().getType());
  int64_t lanes = type.getNumElements(), count = vectors.size();
  assert(CanSumEachVector(count, lanes) && "see CanSumEachVector");
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddFOp::create(builder, loc, a, b, arith::FastMathFlags::reassoc);
  };
  llvm::SmallVector<Groups> level;
  for (auto [i, vector] : llvm::enumerate(vectors)) level.push_back({vector, {static_cast<int64_t>(i)}});
  // Pairs of vectors of g groups (of lanes / g lanes) become one vector of 2g groups of
  // half as many lanes: the first halves of every group of both, plus the second halves.
  // Vector p pairs with vector p + half, so that the groups end in the inputs' order.
  while (level.size() > 1) {
    llvm::SmallVector<Groups> next;
    size_t half = level.size() / 2;
    for (size_t p = 0; p < half; ++p) {
      const Groups &a = level[p], &b = level[p + half];
      int64_t groups = a.owners.size(), group_lanes = lanes / groups;
      Value first = vector::ShuffleOp::create(builder, loc, a.vector, b.vector,
                                              HalfLanes(groups, group_lanes, false, lanes));
      Value second = vector::ShuffleOp::create(builder, loc, a.vector, b.vector,
                                               HalfLanes(groups, group_lanes, true, lanes));
      Groups folded{add(first, second), {}};
      for (int64_t g = 0; g < groups; ++g) folded.owners.append({a.owners[g], b.owners[g]});
      next.push_back(std::move(folded));
    }
    level = std::move(next);
  }
  // One vector of `count` groups: fold each group's halves until a group is one lane.
  Groups last = level.front();
  int64_t width = lanes;
  while (width > count) {
    int64_t group_lanes = width / count;
    Value first = vector::ShuffleOp::create(builder, loc, last.vector, last.vector,
                                            HalfLanes(count, group_lanes, false, -1));
    Value second = vector::ShuffleOp::create(builder, loc, last.vector, last.vector,
                                             HalfLanes(count, group_lanes, true, -1));
    last.vector = add(first, second);
    width /= 2;
  }
  assert(llvm::equal(last.owners, llvm::seq<int64_t>(0, count)) && "lane i sums input i");
  return last.vector;
}

}  // namespace kiln::compiler::cpu
