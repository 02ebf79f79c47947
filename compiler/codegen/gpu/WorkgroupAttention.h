// The GPU's flash-attention strategy for iree_linalg_ext.attention and online_attention.
//
// kiln-gpu-keep-flash-attention (in the host pipeline, before kiln-decompose-linalg-ext,
// when every target is a GPU) marks the ops the strategy computes kiln.undecomposed, so
// they reach dispatch formation whole and become the roots of their own dispatches;
// kiln-gpu-select-workgroup-strategies marks those dispatches and kiln-gpu-tile-attention
// lays them out. A workgroup owns kFlashAttentionRows query rows of one batch position
// (one work-item per row) and walks the keys in blocks of kFlashAttentionKeys: the block
// of K and V is staged in LDS (barriers around it), each work-item computes its row's
// scores for the block with IREE's numerics (docs/iree-compatibility.md: Q scaled in
// its element type, the score region, the mask), keeps a running max and sum (online
// softmax) and rescales and accumulates its output row in private memory, and the row
// is divided (attention) or written with its max and sum (online_attention) at the end.
// No [query, key] matrix exists anywhere; private memory is the head sizes and one block.
#pragma once

#include <string>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln::compiler::gpu {

// The value of kiln.workgroup_strategy for dispatches of this strategy.
inline constexpr llvm::StringLiteral kFlashAttentionStrategy = "gpu.workgroup_flash_attention";

// Query rows per workgroup: its work-items, one row each.
inline constexpr int64_t kFlashAttentionRows = 64;
// Keys per block staged in LDS.
inline constexpr int64_t kFlashAttentionKeys = 16;
// The largest head size (Q's and V's last loop) the strategy keeps per work-item.
inline constexpr int64_t kFlashAttentionMaxHeadSize = 256;

// Whether the strategy computes attention or online_attention `op` (on tensors, before
// dispatch formation): one query row, dot product, key and value loop, any number of
// batch loops indexed by Q, K, V and the output (the mask may broadcast over them);
// static head sizes up to kFlashAttentionMaxHeadSize; f32 arithmetic (outputs of at
// most 32 bits) and Q wider than 8 bits; operands that dispatch formation turns into
// bindings, fills or splats. Otherwise `why` says what not.
bool CanFlashAttention(mlir::Operation* op, std::string& why);

// Whether dispatch function `fn` (on tensors) is an attention the strategy computes: its
// root a kept attention op as above, its operands read from bindings (or fills and
// splats), each result written to one output binding (online_attention's may be unused),
// and nothing else computed. Otherwise `why` says what not.
bool IsFlashAttentionDispatch(mlir::func::FuncOp fn, std::string& why);

}  // namespace kiln::compiler::gpu
