// Lowering of kiln's chlo ops, run by kiln-lower-stablehlo beside the stablehlo lowerings
// (compiler/input/stablehlo/lowering/Lowering.h, the same table type): broadcasting ops
// become stablehlo.broadcast_in_dim and the stablehlo op of the same name, lowered at once;
// elementwise functions become linalg.generic ops of math ops (SpecialFunctions.h for the
// ones math has no op for); top_k becomes iree_linalg_ext.topk.
#pragma once

#include "compiler/input/stablehlo/lowering/Lowering.h"

namespace kiln::compiler::chlo {

void AddBroadcastingLowerings(stablehlo::LoweringTable& table);
void AddElementwiseLowerings(stablehlo::LoweringTable& table);
void AddTopKLowerings(stablehlo::LoweringTable& table);

// Every chlo op kiln lowers, by name ("chlo.broadcast_add").
const stablehlo::LoweringTable& Lowerings();

}  // namespace kiln::compiler::chlo
