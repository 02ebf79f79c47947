#include "compiler/dialect/KilnDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

#include "compiler/dialect/KilnOpsDialect.cpp.inc"

#define GET_OP_CLASSES
#include "compiler/dialect/KilnOps.cpp.inc"

namespace kiln::compiler {

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "compiler/dialect/KilnOps.cpp.inc"
      >();
}

mlir::LogicalResult DispatchOp::verify() {
  int64_t dynamic = 0;
  for (mlir::Type type : getResultTypes()) {
    dynamic += llvm::cast<mlir::RankedTensorType>(type).getNumDynamicDims();
  }
  if (dynamic != static_cast<int64_t>(getResultDims().size())) {
    return emitOpError() << "has " << getResultDims().size() << " result_dims but its results have " << dynamic
                         << " dynamic dimensions";
  }
  for (mlir::Value constant : getConstants()) {
    mlir::Type type = constant.getType();
    if (!type.isIndex() && !type.isIntOrFloat()) {
      return emitOpError() << "constant of type " << type << " is not an index, integer or float scalar";
    }
    if (type.isIntOrFloat() && type.getIntOrFloatBitWidth() > 64) {
      return emitOpError() << "constant of type " << type << " is wider than 64 bits";
    }
  }
  return mlir::success();
}

}  // namespace kiln::compiler
