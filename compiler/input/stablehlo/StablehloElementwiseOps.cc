// The elementwise ops' pretty form and verifiers (StablehloElementwiseOps.td).
#include "compiler/input/stablehlo/StablehloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

// What an operand is called in diagnostics: StableHLO's names by arity.
std::string OperandName(Operation* op, unsigned index) {
  static const char* const kUnary[] = {"operand"};
  static const char* const kBinary[] = {"lhs", "rhs"};
  std::string name = "operand #" + std::to_string(index);
  if (op->getNumOperands() == 1) return name + " (" + kUnary[0] + ")";
  if (op->getNumOperands() == 2) return name + " (" + kBinary[index] + ")";
  return name;
}

// The parsed type after `:`, as operand types and one result type.
ParseResult ResolveTypes(OpAsmParser& parser, SMLoc loc, Type type,
                         ArrayRef<OpAsmParser::UnresolvedOperand> operands, OperationState& result) {
  SmallVector<Type> operand_types;
  if (auto function = dyn_cast<FunctionType>(type)) {
    if (function.getNumResults() != 1) return parser.emitError(loc) << "expected one result type, got " << type;
    operand_types.assign(function.getInputs().begin(), function.getInputs().end());
    result.addTypes(function.getResult(0));
  } else {
    operand_types.assign(operands.size(), type);
    result.addTypes(type);
  }
  return parser.resolveOperands(operands, operand_types, loc, result.operands);
}

void PrintTypes(OpAsmPrinter& printer, Operation* op) {
  printer << " : ";
  Type result = op->getResult(0).getType();
  if (llvm::all_of(op->getOperandTypes(), [&](Type t) { return t == result; })) {
    printer << result;
  } else {
    printer.printFunctionalType(op);
  }
}

bool IsZeroD(Type type) { return cast<RankedTensorType>(type).getRank() == 0; }

}  // namespace

ParseResult ParseElementwise(OpAsmParser& parser, OperationState& result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseOperandList(operands) || parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(type)) {
    return failure();
  }
  return ResolveTypes(parser, loc, type, operands, result);
}

void PrintElementwise(OpAsmPrinter& printer, Operation* op) {
  printer << ' ';
  printer.printOperands(op->getOperands());
  printer.printOptionalAttrDict(op->getAttrs());
  PrintTypes(printer, op);
}

LogicalResult VerifyElementwise(Operation* op, ElementRule rule) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (failed(verifyCompatibleShape(type, result))) {
      return op->emitOpError() << OperandName(op, index) << " of type " << type
                               << " does not have the result's shape (" << result << ")";
    }
    Type element = type.getElementType();
    if (rule == ElementRule::kSame && element != result.getElementType()) {
      return op->emitOpError() << OperandName(op, index) << " has element type " << element
                               << " but the result has " << result.getElementType();
    }
  }
  Type element = cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  if (rule == ElementRule::kBool && (!isa<FloatType>(element) || !result.getElementType().isInteger(1))) {
    return op->emitOpError() << "takes floats and gives i1, not " << element << " to " << result.getElementType();
  }
  if (rule == ElementRule::kSameWidth &&
      (!element.isIntOrFloat() || !result.getElementType().isIntOrFloat() ||
       element.getIntOrFloatBitWidth() != result.getElementType().getIntOrFloatBitWidth())) {
    return op->emitOpError() << "operand element type " << element << " and result element type "
                             << result.getElementType() << " differ in width (only equal widths are supported)";
  }
  return success();
}

// stablehlo.compare DIRECTION, %lhs, %rhs (, TYPE)? attr-dict : types
ParseResult CompareOp::parse(OpAsmParser& parser, OperationState& result) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef direction_name;
  OpAsmParser::UnresolvedOperand lhs, rhs;
  if (parser.parseKeyword(&direction_name) || parser.parseComma() || parser.parseOperand(lhs) ||
      parser.parseComma() || parser.parseOperand(rhs)) {
    return failure();
  }
  std::optional<ComparisonDirection> direction = symbolizeComparisonDirection(direction_name);
  if (!direction) return parser.emitError(loc) << "unknown comparison direction '" << direction_name << "'";
  MLIRContext* context = parser.getContext();
  result.addAttribute("comparison_direction", ComparisonDirectionAttr::get(context, *direction));
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc type_loc = parser.getCurrentLocation();
    StringRef type_name;
    if (parser.parseKeyword(&type_name)) return failure();
    std::optional<ComparisonType> compare_type = symbolizeComparisonType(type_name);
    if (!compare_type) return parser.emitError(type_loc) << "unknown comparison type '" << type_name << "'";
    result.addAttribute("compare_type", ComparisonTypeAttr::get(context, *compare_type));
  }
  Type type;
  SMLoc type_loc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() || parser.parseType(type)) {
    return failure();
  }
  return ResolveTypes(parser, type_loc, type, {lhs, rhs}, result);
}

void CompareOp::print(OpAsmPrinter& printer) {
  printer << ' ' << stringifyComparisonDirection(getComparisonDirection()) << ", " << getLhs() << ", " << getRhs();
  if (getCompareType()) printer << ", " << stringifyComparisonType(*getCompareType());
  printer.printOptionalAttrDict((*this)->getAttrs(), {"comparison_direction", "compare_type"});
  PrintTypes(printer, *this);
}

LogicalResult CompareOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto result = cast<RankedTensorType>(getType());
  if (lhs.getElementType() != rhs.getElementType() || failed(verifyCompatibleShape(lhs, rhs))) {
    return emitOpError() << "operand #1 (rhs) of type " << rhs << " differs from operand #0 (lhs), " << lhs;
  }
  if (!result.getElementType().isInteger(1) || failed(verifyCompatibleShape(lhs, result))) {
    return emitOpError() << "result " << result << " is not an i1 tensor of the operands' shape";
  }
  std::optional<ComparisonType> compare_type = getCompareType();
  bool is_float = isa<FloatType>(lhs.getElementType());
  if (compare_type && ((is_float && (*compare_type == ComparisonType::SIGNED || *compare_type == ComparisonType::UNSIGNED)) ||
                       (!is_float && *compare_type == ComparisonType::FLOAT))) {
    return emitOpError() << "comparison type " << stringifyComparisonType(*compare_type) << " does not apply to "
                         << lhs.getElementType();
  }
  return success();
}

LogicalResult SelectOp::verify() {
  auto pred = cast<RankedTensorType>(getPred().getType());
  auto on_true = cast<RankedTensorType>(getOnTrue().getType());
  if (!pred.getElementType().isInteger(1)) {
    return emitOpError() << "operand #0 (pred) has element type " << pred.getElementType() << ", not i1";
  }
  if (pred.getRank() != 0 && failed(verifyCompatibleShape(pred, on_true))) {
    return emitOpError() << "operand #0 (pred) of type " << pred << " is neither 0-d nor of on_true's shape ("
                         << on_true << ")";
  }
  if (getOnFalse().getType() != on_true) {
    return emitOpError() << "operand #2 (on_false) of type " << getOnFalse().getType() << " differs from on_true's "
                         << on_true;
  }
  if (getType() != on_true) return emitOpError() << "result type " << getType() << " differs from on_true's " << on_true;
  return success();
}

LogicalResult ClampOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  if (getType() != operand) return emitOpError() << "result type " << getType() << " differs from the operand's " << operand;
  for (auto [index, bound] : llvm::enumerate(ValueRange{getMin(), getMax()})) {
    auto type = cast<RankedTensorType>(bound.getType());
    const char* name = index == 0 ? "operand #0 (min)" : "operand #2 (max)";
    if (type.getElementType() != operand.getElementType()) {
      return emitOpError() << name << " has element type " << type.getElementType() << " but the operand has "
                           << operand.getElementType();
    }
    if (!IsZeroD(type) && failed(verifyCompatibleShape(type, operand))) {
      return emitOpError() << name << " of type " << type << " is neither 0-d nor of the operand's shape ("
                           << operand << ")";
    }
  }
  return success();
}

}  // namespace kiln::compiler::stablehlo
