// kiln's `chlo` dialect: CHLO's client ops (broadcasting binary ops, special functions,
// top_k) as JAX emits them beside StableHLO, lowered by kiln-lower-stablehlo
// (compiler/input/chlo/lowering). docs/compiler.md, "StableHLO input".
#pragma once

#include "compiler/input/stablehlo/StablehloDialect.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/input/chlo/ChloDialect.h.inc"

namespace kiln::compiler::chlo {
using stablehlo::ComparisonDirection;
using stablehlo::ComparisonType;
}  // namespace kiln::compiler::chlo

#define GET_ATTRDEF_CLASSES
#include "compiler/input/chlo/ChloAttrs.h.inc"

namespace kiln::compiler::chlo {

// An elementwise function's operand and result: one shape; the result of the operand's
// element type (a float), or i1 when `gives_bool`.
mlir::LogicalResult VerifyUnary(mlir::Operation* op, bool gives_bool);

}  // namespace kiln::compiler::chlo

#define GET_OP_CLASSES
#include "compiler/input/chlo/ChloOps.h.inc"

namespace kiln::compiler::chlo {

void RegisterChloDialect(mlir::DialectRegistry& registry);

}  // namespace kiln::compiler::chlo
