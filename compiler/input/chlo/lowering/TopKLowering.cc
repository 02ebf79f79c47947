// chlo.top_k becomes iree_linalg_ext.topk along the last dimension, its outputs starting
// as the worst values (-inf, or the integer minimum) so that every input beats them.
#include "compiler/input/chlo/ChloDialect.h"
#include "compiler/input/chlo/lowering/Lowering.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::chlo {

using namespace mlir;

namespace {

Value Filled(OpBuilder& b, Location loc, RankedTensorType type, TypedAttr value) {
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, init).getResult(0);
}

LogicalResult LowerTopK(RewriterBase& rewriter, Operation* op) {
  if (failed(stablehlo::RequireStatic(op))) return failure();
  auto top_k = cast<TopKOp>(op);
  Location loc = op->getLoc();
  RankedTensorType values = top_k.getValues().getType(), indices = top_k.getIndices().getType();
  Type element = values.getElementType();
  TypedAttr worst;
  if (auto float_type = dyn_cast<FloatType>(element)) {
    worst = rewriter.getFloatAttr(float_type, APFloat::getInf(float_type.getFloatSemantics(), /*Negative=*/true));
  } else if (auto int_type = dyn_cast<IntegerType>(element); int_type && int_type.isSignless()) {
    worst = rewriter.getIntegerAttr(int_type, APInt::getSignedMinValue(int_type.getWidth()));
  } else {
    return op->emitError() << "'chlo.top_k' of " << element << " is not lowered yet";
  }
  Value init_values = Filled(rewriter, loc, values, worst);
  Value init_indices = Filled(rewriter, loc, indices, rewriter.getI32IntegerAttr(0));
  auto topk = iree::TopkOp::create(rewriter, loc, TypeRange{values, indices},
                                   rewriter.getI64IntegerAttr(values.getRank() - 1), ValueRange{top_k.getOperand()},
                                   ValueRange{init_values, init_indices});
  Block* block = rewriter.createBlock(&topk.getRegion(), {}, {element, element}, {loc, loc});
  rewriter.setInsertionPointToEnd(block);
  Value a = block->getArgument(0), b = block->getArgument(1);
  Value better = isa<FloatType>(element) ? Value(arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, a, b))
                                         : Value(arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt, a, b));
  iree::YieldOp::create(rewriter, loc, ValueRange{better});
  rewriter.replaceOp(op, topk.getResults());
  return success();
}

}  // namespace

void AddTopKLowerings(stablehlo::LoweringTable& table) { table["chlo.top_k"] = LowerTopK; }

}  // namespace kiln::compiler::chlo
