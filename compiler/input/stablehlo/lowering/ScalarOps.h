// The scalar computation of stablehlo's elementwise ops, as StableHLO's specification
// defines it: used in the bodies of the generics that elementwise ops become, and to lower
// the 0-d computations in reduce, sort and scatter bodies.
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace kiln::compiler::stablehlo {

// Whether EmitScalar computes `op`.
bool HasScalarForm(mlir::Operation* op);

// `op` applied to one element of each operand (`args`, scalars of the operands' element
// types); its result has the element type of `op`'s result. Fails with an error at `op` for
// element types it does not support.
mlir::FailureOr<mlir::Value> EmitScalar(mlir::OpBuilder& b, mlir::Location loc, mlir::Operation* op,
                                        mlir::ValueRange args);

// The values a stablehlo body (whose arguments and results are 0-d tensors) returns for
// scalar `args`, computed by scalar ops inserted at `b`'s insertion point.
mlir::FailureOr<llvm::SmallVector<mlir::Value>> InlineScalarBody(mlir::OpBuilder& b, mlir::Location loc,
                                                                 mlir::Block& body, mlir::ValueRange args);

}  // namespace kiln::compiler::stablehlo
