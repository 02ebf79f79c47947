// The combiner of a reduction's body: how a reduction folds each element into its
// accumulator, when it does so with one associative op that has a neutral element.
#pragma once

#include <optional>

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace kiln::compiler {

// A body that yields `combiner(element, accumulator)`: `combiner` is a commutative arith op
// of two operands with a neutral element (addf, mulf, maximumf, addi, maxsi, andi, ...),
// the accumulator (the output's block argument) is used by nothing else, and `element` is
// computed from the inputs by the body's other ops (or is an input's block argument).
// Such a reduction may be evaluated in any order and in pieces: each piece folded from
// `neutral`, the pieces then folded with `combiner`.
struct ReductionCombiner {
  mlir::Operation* combiner = nullptr;
  mlir::TypedAttr neutral;
  mlir::Value element;
};

// `op`'s combiner if `op` has one output, at least one reduction loop, and a body of that
// form; nullopt otherwise.
std::optional<ReductionCombiner> MatchReductionCombiner(mlir::linalg::LinalgOp op);

}  // namespace kiln::compiler
