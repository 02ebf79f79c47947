// Prefetches that matter only in a loop's first steps, and the split that leaves the rest
// of the loop without them.
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

// On a memref.prefetch directly in an scf.for's body: an integer N such that from the
// loop's N-th step on, the prefetch repeats an address an earlier step prefetched.
inline constexpr llvm::StringLiteral kPrefetchStepsAttr = "kiln.prefetch_steps";

// Marks `prefetch` (a memref.prefetch) with kPrefetchStepsAttr = `steps`.
void MarkPrefetchSteps(mlir::Operation* prefetch, int64_t steps);

// When `loop` (static bounds and step) has prefetches marked with kPrefetchStepsAttr in its
// body and more steps than the largest mark N: splits it into a loop of its first N steps,
// unchanged, and a loop of the rest (its iteration arguments continuing from the first's
// results) without the marked prefetches and the arithmetic only they used. Otherwise
// leaves it as it is. Removes the marks either way.
void SplitPrefetchPrefix(mlir::RewriterBase& rewriter, mlir::scf::ForOp loop);

}  // namespace kiln::compiler::cpu
