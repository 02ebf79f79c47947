#include "compiler/transforms/Passes.h"
#include "compiler/transforms/WidenedAccumulators.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_WIDENREDUCTIONACCUMULATORS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// The addf that combines an addend with `op`'s accumulator and is yielded, if that is all
// the accumulator is used for.
arith::AddFOp SumCombiner(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0) return nullptr;
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!element.isF16() && !element.isBF16()) return nullptr;
  BlockArgument accumulator = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!accumulator.hasOneUse()) return nullptr;
  auto add = dyn_cast<arith::AddFOp>(*accumulator.getUsers().begin());
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  if (!add || !add->hasOneUse() || yield.getNumOperands() != 1 || yield.getOperand(0) != add.getResult()) {
    return nullptr;
  }
  return add;
}

void Widen(RewriterBase& rewriter, linalg::GenericOp op, arith::AddFOp add) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value init = op.getDpsInits()[0];
  Value wide_init = WidenInit(rewriter, loc, init);
  BlockArgument accumulator = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Value addend = add.getLhs() == accumulator ? add.getRhs() : add.getLhs();
  auto sum = linalg::GenericOp::create(
      rewriter, loc, wide_init.getType(), op.getDpsInputs(), wide_init, op.getIndexingMapsArray(),
      op.getIteratorTypesArray(), [&](OpBuilder& b, Location body_loc, ValueRange args) {
        IRMapping map;
        for (auto [old_arg, new_arg] : llvm::zip(op.getBlock()->getArguments(), args)) map.map(old_arg, new_arg);
        for (Operation& body_op : op.getBlock()->without_terminator()) {
          if (&body_op != add.getOperation()) b.clone(body_op, map);
        }
        Value wide_addend = arith::ExtFOp::create(b, body_loc, b.getF32Type(), map.lookupOrDefault(addend));
        Value total = arith::AddFOp::create(b, body_loc, wide_addend, args.back(), add.getFastmathAttr());
        linalg::YieldOp::create(b, body_loc, total);
      });
  rewriter.replaceOp(op, NarrowResult(rewriter, loc, sum.getResult(0), init));
}

struct WidenReductionAccumulatorsPass : impl::WidenReductionAccumulatorsBase<WidenReductionAccumulatorsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, arith::AddFOp>> sums;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (arith::AddFOp add = SumCombiner(op)) sums.emplace_back(op, add);
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, add] : sums) Widen(rewriter, op, add);
  }
};

}  // namespace
}  // namespace kiln::compiler
