// stablehlo.custom_call's pretty form `@target(operands) attr-dict : functional-type` and
// its verifier (StablehloCustomCallOp.td).
#include "compiler/input/stablehlo/StablehloDialect.h"

#include "mlir/IR/Builders.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

ParseResult CustomCallOp::parse(OpAsmParser& parser, OperationState& result) {
  StringAttr target;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseSymbolName(target) ||
      parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon()) {
    return failure();
  }
  result.addAttribute("call_target_name", target);
  SMLoc loc = parser.getCurrentLocation();
  FunctionType type;
  if (parser.parseType(type)) return failure();
  result.addTypes(type.getResults());
  return parser.resolveOperands(operands, type.getInputs(), loc, result.operands);
}

void CustomCallOp::print(OpAsmPrinter& printer) {
  printer << ' ';
  printer.printSymbolName(getCallTargetName());
  printer << '(' << getInputs() << ')';
  printer.printOptionalAttrDict((*this)->getAttrs(), {"call_target_name"});
  printer << " : ";
  printer.printFunctionalType(*this);
}

LogicalResult CustomCallOp::verify() {
  if (getCallTargetName().empty()) return emitOpError() << "needs a call_target_name";
  if (getCallTargetName() == "shape_assertion") {
    auto predicate = getInputs().empty() ? nullptr : dyn_cast<RankedTensorType>(getInputs()[0].getType());
    if (!predicate || !predicate.getElementType().isInteger(1)) {
      return emitOpError() << "@shape_assertion takes an i1 tensor predicate as operand #0";
    }
    if (!getResults().empty()) return emitOpError() << "@shape_assertion has no results";
  }
  return success();
}

}  // namespace kiln::compiler::stablehlo
