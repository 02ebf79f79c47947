// The kiln dialect (KilnOps.td) and the attribute names the pipeline shares.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/dialect/KilnOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "compiler/dialect/KilnOps.h.inc"

namespace kiln::compiler {

// Marks the nested module holding every executable function (one CPU ELF per module).
inline constexpr llvm::StringLiteral kExecutableAttr = "kiln.executable";
// On a host function made from a util.initializer (kiln-convert-util-ops): the host program
// runs it when a session is created, in module order with the globals' initial values.
inline constexpr llvm::StringLiteral kInitializerAttr = "kiln.initializer";
// On an executable function: per binding (inputs, then outputs), per dimension, the index
// of the push-constant operand carrying that dimension, or -1 for a static dimension.
inline constexpr llvm::StringLiteral kBindingDimsAttr = "kiln.binding_dims";
// On an executable function: the number of input bindings (the rest are outputs).
inline constexpr llvm::StringLiteral kInputCountAttr = "kiln.input_count";
// On an executable function: the outputs (indices among the output bindings) whose binding
// holds the tied in_place operand's old contents, of which the kernel changes a part.
inline constexpr llvm::StringLiteral kInPlaceResultsAttr = "kiln.in_place_results";
// On the op an executable function was formed around.
inline constexpr llvm::StringLiteral kRootAttr = "kiln.root";
// On an executable function whose work is split across workgroups along one loop: the
// host may launch any number of workgroups. Without it the host launches exactly one.
inline constexpr llvm::StringLiteral kDistributedAttr = "kiln.distributed";
// On an executable function whose workgroups a target-specific strategy lays out (the name
// of that strategy, a string): the generic workgroup distribution leaves it whole, and the
// strategy's own pass, after bufferization, distributes it or says why it could not.
inline constexpr llvm::StringLiteral kWorkgroupStrategyAttr = "kiln.workgroup_strategy";
// On an executable function: its source location as "file:line:col", for diagnostics.
inline constexpr llvm::StringLiteral kSourceLocationAttr = "kiln.source_location";
// On an executable function: its cost formulas (kiln-annotate-dispatch-costs), a dictionary
// with `flops`, `bytes_read`, `bytes_written`, each an array of terms
// `array<i64: coefficient, word...>` (coefficient times those push-constant words); a
// missing key is an unknown cost.
inline constexpr llvm::StringLiteral kCostAttr = "kiln.cost";
// On an executable function with kiln.index_check ops: the distinct sites, in the order of
// the export's check_sites (the record stores 1 + the position of its site here).
inline constexpr llvm::StringLiteral kIndexCheckSitesAttr = "kiln.index_check_sites";
// On the argument of an executable function that receives its workgroup's index check
// record (a memref<3xi64>: site, index, bound).
inline constexpr llvm::StringLiteral kIndexCheckRecordAttr = "kiln.index_check_record";
// On an iree_linalg_ext op that a target's code generation computes whole (the GPU's
// flash attention): kiln-decompose-linalg-ext leaves it to dispatch formation.
inline constexpr llvm::StringLiteral kUndecomposedAttr = "kiln.undecomposed";

}  // namespace kiln::compiler
