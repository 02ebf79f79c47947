// IREE's input-compatibility dialects (util, flow, check, iree_linalg_ext): the ops IREE's test programs
// use, parsed in IREE's syntax. See docs/iree-compatibility.md for what kiln makes of them.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/input/iree/UtilOpsDialect.h.inc"
#include "compiler/input/iree/FlowOpsDialect.h.inc"
#include "compiler/input/iree/CheckOpsDialect.h.inc"
#include "compiler/input/iree/LinalgExtOpsDialect.h.inc"
#include "compiler/input/iree/StreamOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/input/iree/UtilTypes.h.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/UtilAttrs.h.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/FlowAttrs.h.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/StreamAttrs.h.inc"

#define GET_OP_CLASSES
#include "compiler/input/iree/UtilOps.h.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/FlowOps.h.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/CheckOps.h.inc"
#define GET_OP_CLASSES
#include "compiler/input/iree/LinalgExtOps.h.inc"

namespace kiln::compiler::iree {

void RegisterIreeInputDialects(mlir::DialectRegistry& registry);

// A global's parameter binding (#stream.parameter.named or #flow.parameter.named): scope
// ("" when none was written) and key; nullopt for any other attribute.
struct NamedParameter {
  llvm::StringRef scope, key;
};
std::optional<NamedParameter> AsNamedParameter(mlir::Attribute attr);

// The number of batch dimensions of a gather's or scatter's `indices` whose index depth
// is `depth`: all but the last when the last dimension is the depth, else all of them
// (an implied depth of 1).
int64_t IndexBatchRank(mlir::ShapedType indices, int64_t depth);

}  // namespace kiln::compiler::iree
