#include "compiler/host/TransientPlan.h"

#include <algorithm>
#include <vector>

#include "compiler/dialect/KilnDialect.h"
#include "compiler/utils/TensorViews.h"
#include "llvm/Support/MathExtras.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler {

namespace {

using namespace mlir;

// The last position in `block` where `value` or a view of it is used, or nullopt if one
// of them escapes the block.
std::optional<int64_t> LastUse(Value value, Block& block, const llvm::DenseMap<Operation*, int64_t>& position) {
  int64_t last = position.lookup(value.getDefiningOp());
  std::vector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value v = worklist.back();
    worklist.pop_back();
    for (Operation* user : v.getUsers()) {
      if (user->getBlock() != &block) return std::nullopt;
      auto dispatch = dyn_cast<DispatchOp>(user);
      if (dispatch && llvm::is_contained(dispatch.getInPlace(), v)) return std::nullopt;  // lives on as a result
      if (IsTensorView(user)) {
        worklist.push_back(user->getResult(0));
      } else if (!isa<DispatchOp, tensor::DimOp, tensor::ExtractOp>(user)) {
        return std::nullopt;  // returned, passed to a call or a branch, selected, ...
      }
      last = std::max(last, position.lookup(user));
    }
  }
  return last;
}


}  // namespace

TransientPlan PlanTransients(Block& block, const std::function<std::optional<int64_t>(RankedTensorType)>& tensor_bytes,
                             int64_t alignment) {
  llvm::DenseMap<Operation*, int64_t> position;
  int64_t index = 0;
  for (Operation& op : block) position[&op] = index++;

  struct Interval {
    Value value;
    int64_t start, end, bytes, offset = 0;
  };
  std::vector<Interval> intervals;
  for (Operation& op : block) {
    auto dispatch = dyn_cast<DispatchOp>(op);
    if (!dispatch) continue;
    for (OpResult result : dispatch->getResults()) {
      if (dispatch.getTiedOperand(result.getResultNumber())) continue;  // not allocated
      auto type = cast<RankedTensorType>(result.getType());
      std::optional<int64_t> bytes = type.hasStaticShape() ? tensor_bytes(type) : std::nullopt;
      if (!bytes) continue;
      std::optional<int64_t> end = LastUse(result, block, position);
      if (!end) continue;
      int64_t size = std::max<int64_t>(1, *bytes);
      intervals.push_back({result, position[&op], *end, static_cast<int64_t>(llvm::alignTo(size, alignment))});
    }
  }

  // First fit in address order among the intervals whose live ranges overlap.
  TransientPlan plan;
  std::vector<const Interval*> placed;
  for (Interval& interval : intervals) {
    std::vector<std::pair<int64_t, int64_t>> busy;  // [offset, offset + bytes) of live neighbours
    for (const Interval* other : placed) {
      // Inclusive: a dispatch that reads one transient must not write into its memory.
      bool live_together = other->start <= interval.end && interval.start <= other->end;
      if (live_together) busy.push_back({other->offset, other->offset + other->bytes});
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (auto [begin, end] : busy) {
      if (offset + interval.bytes <= begin) break;
      offset = std::max(offset, end);
    }
    interval.offset = offset;
    placed.push_back(&interval);
    plan.offsets[interval.value] = offset;
    plan.slab_bytes = std::max(plan.slab_bytes, offset + interval.bytes);
  }
  return plan;
}

}  // namespace kiln::compiler
