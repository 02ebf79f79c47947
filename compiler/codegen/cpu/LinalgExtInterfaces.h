// Interfaces that let the iree_linalg_ext dispatch roots (sort, topk, topk_v2, scan,
// scatter) go through workgroup distribution and bufferization like linalg ops:
// - TilingInterface for sort, topk, topk_v2 and scan: every dimension but the op's
//   `dimension` is a parallel loop; a tile takes whole lines of every operand.
//   scatter is not tiled (updates may land anywhere): its dispatch is one workgroup (GPU
//   targets split its output among workgroups instead: gpu/WorkgroupScatter.h).
// - TilingInterface for attention (kept whole for kiln-cpu-lower-flash-attention): the
//   loops the output indexes are parallel; a tile slices every operand by its map.
// - BufferizableOpInterface for all six: destination-passing, outputs updated in place.
#pragma once

#include "mlir/IR/DialectRegistry.h"

namespace kiln::compiler::cpu {

void RegisterLinalgExtInterfaces(mlir::DialectRegistry& registry);

}  // namespace kiln::compiler::cpu
