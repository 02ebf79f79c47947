#include "compiler/input/iree/IreeDialects.h"

#include "compiler/input/iree/CodegenHints.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

#include "compiler/input/iree/FlowOpsDialect.cpp.inc"
#include "compiler/input/iree/CheckOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/FlowAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/FlowOps.cpp.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/CheckOps.cpp.inc"

namespace kiln::compiler::iree {

using namespace mlir;

void FlowDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compiler/input/iree/FlowOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compiler/input/iree/FlowAttrs.cpp.inc"
      >();
}

void CheckDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compiler/input/iree/CheckOps.cpp.inc"
      >();
}

LogicalResult TensorDynamicConstantOp::verify() {
  auto value_type = cast<ShapedType>(getValue().getType());
  auto result_type = getType();
  if (value_type.getElementType() != result_type.getElementType() || value_type.getRank() != result_type.getRank()) {
    return emitOpError() << "result type " << result_type << " does not match the value's type " << value_type;
  }
  for (int64_t d = 0; d < result_type.getRank(); ++d) {
    if (!result_type.isDynamicDim(d) && result_type.getDimSize(d) != value_type.getDimSize(d)) {
      return emitOpError() << "dimension " << d << " of " << result_type << " disagrees with the value's type "
                           << value_type;
    }
  }
  return success();
}

namespace {

// Checks that `dims` names exactly the dynamic dimensions of `type`.
LogicalResult VerifyDims(Operation* op, RankedTensorType type, ValueRange dims, StringRef what) {
  if (dims.size() != type.getNumDynamicDims()) {
    return op->emitOpError() << what << " type " << type << " has " << type.getNumDynamicDims()
                             << " dynamic dimensions but " << dims.size() << " were given";
  }
  return success();
}

std::optional<int64_t> StaticBits(RankedTensorType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat()) return std::nullopt;
  return type.getNumElements() * type.getElementType().getIntOrFloatBitWidth();
}

// Both dimension lists of a flow view op (bitcast, reshape) against their types.
template <typename ViewOp>
LogicalResult VerifyViewDims(ViewOp op) {
  if (failed(VerifyDims(op, cast<RankedTensorType>(op.getSource().getType()), op.getSourceDims(), "source"))) {
    return failure();
  }
  return VerifyDims(op, cast<RankedTensorType>(op.getType()), op.getResultDims(), "result");
}

}  // namespace

LogicalResult TensorBitCastOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = cast<RankedTensorType>(getType());
  if (failed(VerifyViewDims(*this))) return failure();
  std::optional<int64_t> source_bits = StaticBits(source), result_bits = StaticBits(result);
  if (source_bits && result_bits && *source_bits != *result_bits) {
    return emitOpError() << "source " << source << " holds " << *source_bits << " bits but result " << result
                         << " holds " << *result_bits;
  }
  return success();
}

LogicalResult TensorReshapeOp::verify() {
  auto source = cast<RankedTensorType>(getSource().getType());
  auto result = cast<RankedTensorType>(getType());
  if (failed(VerifyViewDims(*this))) return failure();
  if (source.getElementType() != result.getElementType()) {
    return emitOpError() << "changes the element type from " << source.getElementType() << " to "
                         << result.getElementType() << "; use flow.tensor.bitcast";
  }
  if (source.hasStaticShape() && result.hasStaticShape() && source.getNumElements() != result.getNumElements()) {
    return emitOpError() << "source " << source << " and result " << result << " differ in element count";
  }
  return success();
}

namespace {

LogicalResult VerifyConstantMatches(Operation* op, Type lhs, ElementsAttr value) {
  if (value.getType() != lhs) {
    return op->emitOpError() << "constant of type " << value.getType() << " compared with a value of type " << lhs;
  }
  return success();
}

}  // namespace

LogicalResult ExpectEqConstOp::verify() { return VerifyConstantMatches(*this, getLhs().getType(), getValue()); }
LogicalResult ExpectAlmostEqConstOp::verify() {
  return VerifyConstantMatches(*this, getLhs().getType(), getValue());
}

void RegisterIreeInputDialects(DialectRegistry& registry) {
  registry.insert<UtilDialect, FlowDialect, StreamDialect, CheckDialect, LinalgExtDialect,
                  codegen::IreeCodegenDialect, gpu::IreeGpuDialect, cpu::IreeCpuDialect>();
}

}  // namespace kiln::compiler::iree
