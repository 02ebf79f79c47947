// tosa.apply_scale in integer arithmetic (kiln-lower-tosa-apply-scale).
#pragma once

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"

namespace kiln::compiler {

// The TOSA 1.0 apply_scale_32/apply_scale_16 of `value` (i32, or i48 with a 16-bit
// multiplier), `multiplier` and `shift` (i8), scalars or vectors alike, as the spec
// computes it in 64 bits:
//   round = shift > 0 ? 1 << (shift - 1) : 0
//   DOUBLE_ROUND and shift > 31: round += value >= 0 ? 1 << 30 : -(1 << 30)
//   result = (sext(value) * sext(multiplier) + round) >> shift   (arithmetic shift)
// truncated to `result_type`. The multiplier may be negative (tosa.mul passes its second
// operand), which the same formula handles: a rounding right shift of the exact
// product, ties towards +infinity. INEXACT_ROUND computes SINGLE_ROUND's exact result,
// one of the values INEXACT_ROUND allows. The caller ensures the product fits in 64 bits
// (ApplyScaleFitsInt64).
mlir::Value BuildApplyScale(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value, mlir::Value multiplier,
                            mlir::Value shift, mlir::tosa::RoundingMode rounding, mlir::Type result_type);

// Whether value * multiplier + round cannot overflow 64 bits: their widths add up to at
// most 64 (i32 x i32, i48 x i16).
bool ApplyScaleFitsInt64(mlir::tosa::ApplyScaleOp op);

}  // namespace kiln::compiler
