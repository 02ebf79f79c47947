// Builders the stablehlo lowerings share.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler::stablehlo {

// Fails with an error naming `op` unless all its operands and results have static shapes.
mlir::LogicalResult RequireStatic(mlir::Operation* op);

// A tensor.empty of `type`; its dynamic sizes are those of `like` (of the same rank).
mlir::Value EmptyTensor(mlir::OpBuilder& b, mlir::Location loc, mlir::RankedTensorType type, mlir::Value like);

// A linalg.generic over the dimensions of `type` computing one result from `operands`,
// each read at the same position, or at none when 0-d (a scalar broadcast to every element);
// `body` gets the operands' elements and returns the result element.
mlir::Value ElementwiseGeneric(mlir::OpBuilder& b, mlir::Location loc, mlir::RankedTensorType type,
                               mlir::ValueRange operands,
                               llvm::function_ref<mlir::Value(mlir::OpBuilder&, mlir::Location, mlir::ValueRange)> body);

// `value` (static shape) in the static shape `type` of as many elements, through one
// dimension: collapsed, then expanded (either step skipped when its side already is 1-d).
mlir::Value Reshape(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value, mlir::RankedTensorType type);

// `value` with its dimensions permuted (result dimension i is dimension permutation[i]);
// `value` itself when the permutation is the identity.
mlir::Value Transpose(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value, llvm::ArrayRef<int64_t> permutation);

// `value` (static shape) padded by `low` and `high` (non-negative) with `scalar`: tensor.pad.
mlir::Value PadWith(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value, llvm::ArrayRef<int64_t> low,
                    llvm::ArrayRef<int64_t> high, mlir::Value scalar);

// The element of a 0-d tensor, as an index (integers are sign-extended or truncated).
mlir::Value ExtractIndex(mlir::OpBuilder& b, mlir::Location loc, mlir::Value scalar_tensor);

}  // namespace kiln::compiler::stablehlo
