// The chlo dialect's registration, attributes and verifiers (ChloOps.td).
#include "compiler/input/chlo/ChloDialect.h"

#include "compiler/input/chlo/ChloBroadcast.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"

#include "compiler/input/chlo/ChloDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/input/chlo/ChloAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "compiler/input/chlo/ChloOps.cpp.inc"

namespace kiln::compiler::chlo {

using namespace mlir;

void ChloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compiler/input/chlo/ChloOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compiler/input/chlo/ChloAttrs.cpp.inc"
      >();
}

namespace {

// The broadcast of `operands` (named `names`) must be the result's shape, with
// `result_element` its element type (null: any).
LogicalResult VerifyBroadcasting(Operation* op, ArrayRef<const char*> names,
                                 std::optional<ArrayRef<int64_t>> broadcast_dimensions, Type result_element) {
  SmallVector<RankedTensorType> types =
      llvm::map_to_vector(op->getOperandTypes(), [](Type t) { return cast<RankedTensorType>(t); });
  std::string error;
  SmallVector<int64_t> shape = BroadcastShape(types, names, broadcast_dimensions, error);
  if (!error.empty()) return op->emitOpError() << error;
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (failed(verifyCompatibleShape(result.getShape(), shape))) {
    return op->emitOpError() << "result type " << result << " does not have the operands' broadcast shape ["
                             << llvm::make_range(shape.begin(), shape.end()) << "] (kDynamic: ?)";
  }
  if (result_element && result.getElementType() != result_element) {
    return op->emitOpError() << "result element type " << result.getElementType() << " is not " << result_element;
  }
  return success();
}

}  // namespace

#define KILN_CHLO_BINARY_VERIFIER(Op)                                                                \
  LogicalResult Op::verify() {                                                                       \
    Type lhs = getElementTypeOrSelf(getLhs().getType()), rhs = getElementTypeOrSelf(getRhs().getType()); \
    if (lhs != rhs) {                                                                                \
      return emitOpError() << "operand #1 (rhs) has element type " << rhs << " but operand #0 (lhs) has " << lhs; \
    }                                                                                                \
    return VerifyBroadcasting(*this, {"operand #0 (lhs)", "operand #1 (rhs)"}, getBroadcastDimensions(), \
                              isa<BroadcastCompareOp>(getOperation()) ? Type(IntegerType::get(getContext(), 1)) : lhs); \
  }
KILN_CHLO_BINARY_VERIFIER(BroadcastAddOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastSubOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastMulOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastDivOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastRemOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastMaxOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastMinOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastPowOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastAtan2Op)
KILN_CHLO_BINARY_VERIFIER(BroadcastAndOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastOrOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastXorOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastShiftLeftOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastShiftRightArithmeticOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastShiftRightLogicalOp)
KILN_CHLO_BINARY_VERIFIER(BroadcastCompareOp)
#undef KILN_CHLO_BINARY_VERIFIER

LogicalResult BroadcastSelectOp::verify() {
  Type pred = getElementTypeOrSelf(getPred().getType());
  if (!pred.isInteger(1)) return emitOpError() << "operand #0 (pred) has element type " << pred << ", not i1";
  Type on_true = getElementTypeOrSelf(getOnTrue().getType()), on_false = getElementTypeOrSelf(getOnFalse().getType());
  if (on_true != on_false) {
    return emitOpError() << "operand #2 (on_false) has element type " << on_false << " but operand #1 (on_true) has "
                         << on_true;
  }
  return VerifyBroadcasting(*this, {"operand #0 (pred)", "operand #1 (on_true)", "operand #2 (on_false)"},
                            std::nullopt, on_true);
}

LogicalResult VerifyUnary(Operation* op, bool gives_bool) {
  auto operand = cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (!isa<FloatType>(operand.getElementType())) {
    return op->emitOpError() << "operand #0 (operand) has element type " << operand.getElementType()
                             << "; it takes floats";
  }
  if (failed(verifyCompatibleShape(operand, result))) {
    return op->emitOpError() << "result type " << result << " does not have the operand's shape (" << operand << ")";
  }
  Type expected = gives_bool ? Type(IntegerType::get(op->getContext(), 1)) : operand.getElementType();
  if (result.getElementType() != expected) {
    return op->emitOpError() << "result element type " << result.getElementType() << " is not " << expected;
  }
  return success();
}

LogicalResult TopKOp::verify() {
  RankedTensorType operand = getOperand().getType();
  if (operand.getRank() < 1) return emitOpError() << "operand #0 (operand) must have a dimension to select along";
  int64_t k = getK(), last = operand.getRank() - 1;
  int64_t size = operand.getDimSize(last);
  if (k < 0 || (!ShapedType::isDynamic(size) && k > size)) {
    return emitOpError() << "k = " << k << " is not in [0, " << size << "], the operand's last dimension";
  }
  SmallVector<int64_t> shape(operand.getShape());
  shape[last] = k;
  for (auto [name, type, element] :
       {std::tuple<const char*, RankedTensorType, Type>{"result #0 (values)", getValues().getType(), operand.getElementType()},
        {"result #1 (indices)", getIndices().getType(), IntegerType::get(getContext(), 32)}}) {
    if (failed(verifyCompatibleShape(type.getShape(), shape)) || type.getElementType() != element) {
      return emitOpError() << name << " of type " << type << " is not " << RankedTensorType::get(shape, element);
    }
  }
  return success();
}

void RegisterChloDialect(DialectRegistry& registry) { registry.insert<ChloDialect>(); }

}  // namespace kiln::compiler::chlo
