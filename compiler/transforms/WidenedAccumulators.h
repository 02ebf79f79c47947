#ifndef KILN_COMPILER_TRANSFORMS_WIDENEDACCUMULATORS_H_
#define KILN_COMPILER_TRANSFORMS_WIDENEDACCUMULATORS_H_

// The two ends of an f16 or bf16 accumulation carried out in f32
// (kiln-widen-reduction-accumulators, kiln-widen-matmul-accumulators): the initial value
// widened before it, and the result rounded back after it.

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"

namespace kiln::compiler {

// `init` (a ranked tensor of f16 or bf16) in f32: a fill of the widened value when `init`
// is a linalg.fill, else an elementwise extf into a new tensor of the same shape.
mlir::Value WidenInit(mlir::RewriterBase& rewriter, mlir::Location loc, mlir::Value init);

// `wide` (f32, of `init`'s shape) rounded to `init`'s element type by an elementwise
// truncf that writes into `init`, as the op it replaces did (one rounding, to nearest even).
mlir::Value NarrowResult(mlir::RewriterBase& rewriter, mlir::Location loc, mlir::Value wide, mlir::Value init);

}  // namespace kiln::compiler

#endif  // KILN_COMPILER_TRANSFORMS_WIDENEDACCUMULATORS_H_
