// The dialects kiln accepts as input, and which of their ops it can compile.
#pragma once

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"

namespace kiln::compiler {

// Registers every dialect an input program may use (func, arith, math, tensor, linalg, scf,
// cf, tosa, the builtin dialect, and IREE's util, flow and check: compiler/input/iree;
// stablehlo: compiler/input/stablehlo).
void RegisterInputDialects(mlir::DialectRegistry& registry);

// Whether kiln can compile `op`: ops of the input dialects, except tensor ops outside the
// supported list (DESIGN.md section 7; e.g. tensor.generate is not supported).
bool IsSupportedInputOp(mlir::Operation* op);

// A one-line description of the supported input, for diagnostics.
const char* SupportedInputSummary();

}  // namespace kiln::compiler
