// stablehlo.custom_call: the targets kiln knows (StablehloCustomCallOp.td); any other is an
// error naming it.
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

// The predicate's value when it is a constant.
std::optional<bool> ConstantPredicate(Value predicate) {
  Attribute value;
  if (auto constant = predicate.getDefiningOp<ConstantOp>()) value = constant.getValue();
  else if (!matchPattern(predicate, m_Constant(&value))) return std::nullopt;
  auto elements = dyn_cast<DenseElementsAttr>(value);
  if (!elements || !elements.isSplat()) return std::nullopt;
  return elements.getSplatValue<bool>();
}

// JAX's shape check: dropped when statically true, an error when statically false, else a
// run-time check (cf.assert, which fails the call with the message).
LogicalResult LowerShapeAssertion(RewriterBase& rewriter, CustomCallOp call) {
  Value predicate = call.getInputs()[0];
  std::string message = "shape assertion failed";
  if (auto text = call->getAttrOfType<StringAttr>("error_message")) message = text.str();
  if (std::optional<bool> holds = ConstantPredicate(predicate)) {
    if (!*holds) return call.emitError() << "@shape_assertion is false: " << message;
    rewriter.eraseOp(call);
    return success();
  }
  if (cast<RankedTensorType>(predicate.getType()).getRank() != 0) {
    call.emitWarning() << "@shape_assertion with a " << predicate.getType()
                       << " predicate is not JAX's form (a 0-d i1); it is not checked, as IREE does not check it";
    rewriter.eraseOp(call);
    return success();
  }
  Location loc = call.getLoc();
  Value holds = tensor::ExtractOp::create(rewriter, loc, predicate, ValueRange{});
  cf::AssertOp::create(rewriter, loc, holds, message);
  rewriter.eraseOp(call);
  return success();
}

LogicalResult LowerCustomCall(RewriterBase& rewriter, Operation* op) {
  auto call = cast<CustomCallOp>(op);
  if (call.getCallTargetName() == "shape_assertion") return LowerShapeAssertion(rewriter, call);
  return op->emitError() << "'stablehlo.custom_call' target @" << call.getCallTargetName()
                         << " is unknown to kiln: only @shape_assertion is lowered";
}

}  // namespace

void AddCustomCallLowerings(LoweringTable& table) { table["stablehlo.custom_call"] = LowerCustomCall; }

}  // namespace kiln::compiler::stablehlo
