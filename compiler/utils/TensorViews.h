// Tensor ops that are views on the host: the result shares its operand's buffer (the host
// writer gives it a new buffer view of the same buffer, no dispatch, no copy).
#pragma once

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Operation.h"

namespace kiln::compiler {

inline bool IsTensorView(mlir::Operation* op) {
  return mlir::isa<mlir::tensor::CollapseShapeOp, mlir::tensor::ExpandShapeOp, mlir::tensor::CastOp,
                   mlir::tensor::BitcastOp, mlir::tensor::ReshapeOp>(op);
}

}  // namespace kiln::compiler
