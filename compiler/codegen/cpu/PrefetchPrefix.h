// Prefetches that matter only in a loop's first steps, and the split that leaves the rest
// of the loop without them; the prefetches of a register tile's output block.
//
// A register tile's k loop prefetches its output block for writing, one line per step
// (VectorizeContractions.cc). Each prefetch computes its line from the step and clamps
// it, about ten scalar instructions per step of 24 FMAs; after the last line, the steps
// repeat it. Marked with the number of steps that prefetch something new, the loop is
// split there: the first steps keep the prefetches, the rest of the loop runs without
// them (4096^3: 512 steps per tile, of which 24 prefetch).
#pragma once

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler::cpu {

// A 2-D block of a memref (rank 2, its rows contiguous): `rows` rows of `columns` elements
// from (`at`[0], `at`[1]), what a register tile writes.
struct OutputBlock {
  mlir::Value base;
  llvm::SmallVector<mlir::Value, 2> at;
  int64_t rows = 0, columns = 0;
};

// Prefetches (for writing) every cache line of `block` at the rewriter's insertion point.
void PrefetchForWrite(mlir::RewriterBase& rewriter, mlir::Location loc, const OutputBlock& block);

// Prefetches (for writing) the cache lines of `block` spread over the first steps of
// `loop`: step s prefetches line min(s, lines - 1), row by row. A burst of one prefetch per
// line at the tile's start (24 lines for 6 x 64 f32) filled the core's fill buffers and
// stalled the first loads of the k loop for about one L3 latency per tile. The prefetch
// is marked (kPrefetchStepsAttr) with its number of lines: SplitPrefetchPrefix leaves the
// steps after them without it. Returns false, emitting nothing, when `loop` is not a
// 0-based unit-step loop of a dynamic number of steps or of at least that many.
bool PrefetchForWriteOverSteps(mlir::RewriterBase& rewriter, mlir::Location loc, const OutputBlock& block,
                               mlir::scf::ForOp loop);

// On a memref.prefetch directly in an scf.for's body: an integer N such that from the
// loop's N-th step on, the prefetch repeats an address an earlier step prefetched.
inline constexpr llvm::StringLiteral kPrefetchStepsAttr = "kiln.prefetch_steps";

// Marks `prefetch` (a memref.prefetch) with kPrefetchStepsAttr = `steps`.
void MarkPrefetchSteps(mlir::Operation* prefetch, int64_t steps);

// When `loop` (static lower bound and step) has prefetches marked with kPrefetchStepsAttr
// in its body and more steps than the largest mark N, or a dynamic number of steps:
// splits it into a loop of its first N steps (at most), unchanged, and a loop of the rest
// (its iteration arguments continuing from the first's results) without the marked
// prefetches and the arithmetic only they used. Otherwise leaves it as it is. Removes the
// marks either way.
void SplitPrefetchPrefix(mlir::RewriterBase& rewriter, mlir::scf::ForOp loop);

}  // namespace kiln::compiler::cpu
