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
  std::optional<llvm::ArrayRef<int64_t>> tied = getTiedResults();
  size_t tied_count = tied ? tied->size() : 0;
  if (tied_count != getInPlace().size()) {
    return emitOpError() << "has " << getInPlace().size() << " in_place operands but " << tied_count
                         << " tied_results";
  }
  llvm::SmallDenseSet<int64_t> seen;
  for (size_t i = 0; i < tied_count; ++i) {
    int64_t result = (*tied)[i];
    if (result < 0 || result >= static_cast<int64_t>(getNumResults()) || !seen.insert(result).second) {
      return emitOpError() << "tied_results[" << i << "] = " << result << " is not a distinct result index";
    }
    if (getInPlace()[i].getType() != getResult(result).getType()) {
      return emitOpError() << "in_place operand " << i << " of type " << getInPlace()[i].getType()
                           << " cannot hold result " << result << " of type " << getResult(result).getType();
    }
  }
  return mlir::success();
}

mlir::Value DispatchOp::getTiedOperand(unsigned i) {
  std::optional<llvm::ArrayRef<int64_t>> tied = getTiedResults();
  if (!tied) return {};
  for (auto [k, result] : llvm::enumerate(*tied)) {
    if (result == static_cast<int64_t>(i)) return getInPlace()[k];
  }
  return {};
}

}  // namespace kiln::compiler
