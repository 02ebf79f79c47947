#include "compiler/codegen/cpu/PrefetchPrefix.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::compiler::cpu {

using namespace mlir;

void MarkPrefetchSteps(Operation* prefetch, int64_t steps) {
  Builder b(prefetch->getContext());
  prefetch->setAttr(kPrefetchStepsAttr, b.getI64IntegerAttr(steps));
}

void SplitPrefetchPrefix(RewriterBase& rewriter, scf::ForOp loop) {
  SmallVector<memref::PrefetchOp> marked;
  int64_t steps = 0;
  for (auto prefetch : loop.getBody()->getOps<memref::PrefetchOp>()) {
    auto attr = prefetch->getAttrOfType<IntegerAttr>(kPrefetchStepsAttr);
    if (!attr) continue;
    marked.push_back(prefetch);
    steps = std::max<int64_t>(steps, attr.getInt());
    rewriter.modifyOpInPlace(prefetch, [&] { prefetch->removeAttr(kPrefetchStepsAttr); });
  }
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (marked.empty() || !lower || !upper || !step || *step <= 0 || steps <= 0) return;
  const int64_t split = *lower + steps * *step;
  if (split >= *upper) return;  // every step prefetches something new

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  Value at = arith::ConstantOp::create(rewriter, loop.getLoc(), loop.getLowerBound().getType(),
                                       rewriter.getIntegerAttr(loop.getLowerBound().getType(), split));
  auto prefix = cast<scf::ForOp>(rewriter.clone(*loop.getOperation()));
  rewriter.modifyOpInPlace(prefix, [&] { prefix.getUpperBoundMutable().assign(at); });
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getLowerBoundMutable().assign(at);
    loop.getInitArgsMutable().assign(prefix.getResults());
  });
  for (memref::PrefetchOp prefetch : marked) rewriter.eraseOp(prefetch);
  // The prefetches' address arithmetic, now unused, in reverse order so that each op's
  // users go before it.
  SmallVector<Operation*> body =
      llvm::map_to_vector(loop.getBody()->without_terminator(), [](Operation& op) { return &op; });
  for (Operation* op : llvm::reverse(body)) {
    if (isOpTriviallyDead(op)) rewriter.eraseOp(op);
  }
}

}  // namespace kiln::compiler::cpu
