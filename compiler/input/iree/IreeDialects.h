// IREE's input-compatibility dialects (util, flow, check): the ops IREE's test programs
// use, parsed in IREE's syntax. See docs/iree-compatibility.md for what kiln makes of them.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/input/iree/UtilOpsDialect.h.inc"
#include "compiler/input/iree/FlowOpsDialect.h.inc"
#include "compiler/input/iree/CheckOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "compiler/input/iree/UtilOps.h.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/FlowOps.h.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/CheckOps.h.inc"

namespace kiln::compiler::iree {

void RegisterIreeInputDialects(mlir::DialectRegistry& registry);

}  // namespace kiln::compiler::iree
