// Flash attention on the CPU: iree_linalg_ext.attention computed in blocks of query rows
// and key blocks with an online softmax, so that no [queries, keys] matrix exists in
// memory (kiln-cpu-keep-flash-attention, kiln-cpu-lower-flash-attention).
//
// Each block of kFlashQueryRows query rows keeps, on the stack, its rows of Q scaled by
// scale * log2(e) (IREE's base-2 scores, docs/iree-compatibility.md; scale alone with
// use_exp2 = false), an accumulator [rows, n], the row maxima and row sums; each block of
// kFlashKeys keys then computes S = Qs K^T into a [rows, keys] scratch, applies the score
// region, raises the maxima, rescales the sums and the accumulator by exp2(old - new),
// replaces S by exp2(S - max) (P), adds P's row sums and P V to the accumulator. Finally
// the output rows are acc / sum. f16 or bf16 K and V are widened into f32 scratch a key
// block at a time, Q as it is scaled. Q K^T and P V are linalg contractions on buffers with
// the layouts of a linear layer (K is [keys, k1]) and of a matmul (V is [keys, n]), so
// kiln-cpu-tile-contractions and kiln-cpu-vectorize-contractions give them the matmul's
// packed register kernels; the softmax steps are generics that LLVM vectorises, exp2
// through kiln-cpu-approximate-math's polynomial.
#pragma once

#include <optional>
#include <string>

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::cpu {

inline constexpr int64_t kFlashQueryRows = 64;
inline constexpr int64_t kFlashKeys = 128;

// The loops of an attention the CPU computes as flash attention: Q (batch..., m, k1),
// K (batch..., k2, k1), V (batch..., k2, n), output (batch..., m, n), the same batch
// loops in the same order in all four.
struct FlashAttentionLoops {
  llvm::SmallVector<unsigned> batch;
  unsigned m = 0, k1 = 0, k2 = 0, n = 0;
};

// The loops of `op` if the CPU computes it as flash attention: an iree_linalg_ext.attention
// (not online_attention) without a mask, with Q, K, V, scale and output of f32, f16 or
// bf16 (narrower ones widened as read, every step in f32 as in the decomposition, the
// output rounded once) and the layout above, its score region (if any) f32 to f32;
// otherwise why not, in `why`.
std::optional<FlashAttentionLoops> MatchCpuFlashAttention(mlir::Operation* op, std::string& why);

// Replaces `op`, a matching attention on memrefs, by the loops and linalg ops above.
mlir::LogicalResult LowerToFlashAttention(mlir::RewriterBase& rewriter, mlir::Operation* op);

}  // namespace kiln::compiler::cpu
