// kiln's `stablehlo` dialect: StableHLO's ops as JAX, TensorFlow/XLA and PyTorch/XLA export
// them, parsed in StableHLO's syntax and lowered by kiln-lower-stablehlo
// (compiler/input/stablehlo/lowering). docs/compiler.md, "StableHLO input".
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/input/stablehlo/StablehloDialect.h.inc"
#include "compiler/input/stablehlo/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/input/stablehlo/StablehloAttrs.h.inc"

namespace kiln::compiler::stablehlo {

// What an elementwise op's result element type must be, given its operands'.
enum class ElementRule {
  kSame,       // the operands' (add, exponential, ...)
  kBool,       // i1 (is_finite)
  kAny,        // any (convert)
  kSameWidth,  // any of the same bit width (bitcast_convert)
};

// StableHLO's pretty form of elementwise ops: `operands attr-dict : type` when every operand
// and the result have that type, else `: (operand types) -> result type`.
mlir::ParseResult ParseElementwise(mlir::OpAsmParser& parser, mlir::OperationState& result);
void PrintElementwise(mlir::OpAsmPrinter& printer, mlir::Operation* op);
// Operands and result of one shape; element types by `rule`. Names the operand that breaks it.
mlir::LogicalResult VerifyElementwise(mlir::Operation* op, ElementRule rule);

}  // namespace kiln::compiler::stablehlo

#define GET_OP_CLASSES
#include "compiler/input/stablehlo/StablehloOps.h.inc"

namespace kiln::compiler::stablehlo {

void RegisterStablehloDialect(mlir::DialectRegistry& registry);

}  // namespace kiln::compiler::stablehlo
