// Blocked float sums (kiln-cpu-block-reductions): how long sums are split so that their
// rounding error grows with the logarithm of their length rather than with the length.
#pragma once

#include <optional>

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::cpu {

// The innermost block when the reduction loop is the innermost loop: elements summed
// into one fresh accumulator. LLVM vectorises that sum with several vector accumulators
// (64 lanes with AVX-512), so each lane adds about kSumBlock / 64 values in sequence; the
// lanes are combined by a tree.
inline constexpr int64_t kSumBlock = 4096;
// The innermost block when the reduction loop is not innermost (a sum over rows,
// vectorised across columns): each accumulator element then adds every value of its
// block in sequence.
inline constexpr int64_t kSumBlockAcrossLanes = 64;
// Each level above sums kSumLevelFactor blocks of the level below; levels are added while
// the block is below kSumCapacity elements (every level up to it for a dynamic extent),
// so sums of up to 2^28 elements see at most kSumLevelFactor sequential additions per
// accumulator above the innermost block (longer ones add more at the top).
inline constexpr int64_t kSumLevelFactor = 16;
inline constexpr int64_t kSumCapacity = int64_t{1} << 28;
// Accumulators hold at most this many elements (parallel loops inside the reduction loop
// are tiled to fit), so that they stay on the stack and in L1.
inline constexpr int64_t kSumAccumulatorElements = 1024;

// The reduction loop of `op` that BlockSum splits, if `op` is a float sum on buffers:
// one output, one reduction loop whose static extent is unknown or above its innermost
// block (kSumBlock, or kSumBlockAcrossLanes when it is not the innermost loop), and a
// body yielding `addf` of the output's value (used by nothing else) and a value computed
// from the inputs. Such sums may be reassociated (kiln-cpu-reassociate-reductions).
std::optional<unsigned> BlockedSumDimension(mlir::linalg::LinalgOp op);

// Splits the sum `op` (see BlockedSumDimension) into levels of blocks, the innermost
// block first, kSumLevelFactor times more per level above, as many levels as the
// reduction loop needs (all of them when its extent is dynamic): each block sums into a
// fresh zeroed accumulator that is then added to the level above (the op's output at the
// top). Parallel loops outside the reduction loop are tiled by one, those inside it to
// fit kSumAccumulatorElements. Returns false if `op` is not such a sum.
bool BlockSum(mlir::RewriterBase& rewriter, mlir::linalg::LinalgOp op);

}  // namespace kiln::compiler::cpu
