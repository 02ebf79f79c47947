#include "compiler/input/iree/IreeDialects.h"
#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_LOWERIREEINPUT
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// A constant of `value` behind an optimisation barrier, cast to `type` first if it differs.
Value UnfoldableConstant(RewriterBase& rewriter, Location loc, TypedAttr value, Type type) {
  Value constant = arith::ConstantOp::create(rewriter, loc, value);
  if (constant.getType() != type) constant = tensor::CastOp::create(rewriter, loc, type, constant);
  return iree::OptimizationBarrierOp::create(rewriter, loc, ValueRange{constant}).getResult(0);
}

void Lower(RewriterBase& rewriter, Operation* op) {
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (auto constant = dyn_cast<iree::UnfoldableConstantOp>(op)) {
    rewriter.replaceOp(op, UnfoldableConstant(rewriter, loc, cast<TypedAttr>(constant.getValue()), constant.getType()));
  } else if (auto constant = dyn_cast<iree::TensorDynamicConstantOp>(op)) {
    rewriter.replaceOp(op, UnfoldableConstant(rewriter, loc, cast<TypedAttr>(constant.getValue()), constant.getType()));
  } else if (auto tie = dyn_cast<iree::TensorTieShapeOp>(op)) {
    rewriter.replaceOp(op, tie.getOperand());
  } else if (auto expect = dyn_cast<iree::ExpectEqConstOp>(op)) {
    Value expected = arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(expect.getValue()));
    rewriter.replaceOpWithNewOp<iree::ExpectEqOp>(op, expect.getLhs(), expected);
  } else if (auto expect = dyn_cast<iree::ExpectAlmostEqConstOp>(op)) {
    Value expected = arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(expect.getValue()));
    rewriter.replaceOpWithNewOp<iree::ExpectAlmostEqOp>(op, expect.getLhs(), expected, expect.getAtolAttr(),
                                                       expect.getRtolAttr());
  }
}

struct LowerIreeInputPass : impl::LowerIreeInputBase<LowerIreeInputPass> {
  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation()->walk([&](Operation* op) {
      if (isa<iree::UnfoldableConstantOp, iree::TensorDynamicConstantOp, iree::TensorTieShapeOp, iree::ExpectEqConstOp,
              iree::ExpectAlmostEqConstOp>(op)) {
        ops.push_back(op);
      }
    });
    IRRewriter rewriter(&getContext());
    for (Operation* op : ops) Lower(rewriter, op);
  }
};

}  // namespace
}  // namespace kiln::compiler
