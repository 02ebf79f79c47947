// Lowering of kiln's stablehlo ops to linalg / tensor / arith / math and iree_linalg_ext
// (run by kiln-lower-stablehlo, compiler/transforms/LowerStablehlo.cc). Each op group has
// its own translation unit; each registers its ops' lowerings in a LoweringTable.
#pragma once

#include "llvm/ADT/StringMap.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::stablehlo {

// Replaces `op` (a top-level stablehlo op: its regions, if any, are lowered with it) by
// ops of the target dialects, or emits an error at it and fails.
using LowerFn = mlir::LogicalResult (*)(mlir::RewriterBase& rewriter, mlir::Operation* op);
using LoweringTable = llvm::StringMap<LowerFn>;

void AddElementwiseLowerings(LoweringTable& table);
void AddShapeLowerings(LoweringTable& table);
void AddStructuredLowerings(LoweringTable& table);
void AddScatterLowerings(LoweringTable& table);
void AddWindowLowerings(LoweringTable& table);
void AddConvolutionLowerings(LoweringTable& table);
void AddCustomCallLowerings(LoweringTable& table);
void AddRngLowerings(LoweringTable& table);

// Every op kiln lowers, by name ("stablehlo.add").
const LoweringTable& Lowerings();

}  // namespace kiln::compiler::stablehlo
