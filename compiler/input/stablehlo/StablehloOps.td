// Every op of kiln's stablehlo dialect, for one TableGen run.
#ifndef KILN_COMPILER_INPUT_STABLEHLO_OPS
#define KILN_COMPILER_INPUT_STABLEHLO_OPS

include "StablehloBase.td"
include "StablehloElementwiseOps.td"
include "StablehloShapeOps.td"
include "StablehloStructuredOps.td"
include "StablehloCustomCallOp.td"
include "StablehloRngOps.td"

#endif  // KILN_COMPILER_INPUT_STABLEHLO_OPS
