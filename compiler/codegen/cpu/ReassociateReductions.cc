#include "compiler/codegen/cpu/Passes.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_REASSOCIATEREDUCTIONS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

bool IsReassociableCombiner(Operation* op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaxNumFOp, arith::MinNumFOp, arith::MaximumFOp,
             arith::MinimumFOp>(op);
}

void MarkCombiners(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0) return;
  Block* body = op.getBlock();
  for (OpOperand& init : op.getDpsInitsMutable()) {
    BlockArgument accumulator = op.getMatchingBlockArgument(&init);
    for (Operation* user : accumulator.getUsers()) {
      auto fastmath = dyn_cast<arith::ArithFastMathInterface>(user);
      if (!fastmath || user->getBlock() != body || !IsReassociableCombiner(user)) continue;
      arith::FastMathFlags flags = fastmath.getFastMathFlagsAttr().getValue() | arith::FastMathFlags::reassoc;
      user->setAttr(fastmath.getFastMathAttrName(), arith::FastMathFlagsAttr::get(op.getContext(), flags));
    }
  }
}

struct ReassociateReductionsPass : impl::ReassociateReductionsBase<ReassociateReductionsPass> {
  void runOnOperation() override {
    getOperation().walk([](linalg::LinalgOp op) { MarkCombiners(op); });
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
