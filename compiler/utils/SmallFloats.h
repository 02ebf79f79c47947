// The 8-bit float formats LLVM has no type for (f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ),
// and conversions between them and f32 built from integer and f32 arithmetic. Rounding is
// to nearest even; each format's own rules apply to NaN, infinity, overflow and zero:
//   f8E5M2      IEEE-like: infinities, NaNs with an all-ones exponent; overflow -> inf
//   f8E4M3FN    no infinities; S.1111.111 is NaN; overflow and inf -> NaN
//   f8E4M3FNUZ, f8E5M2FNUZ  no infinities, no negative zero; 0x80 is the only NaN;
//               overflow and inf -> NaN, -0 -> +0
// These match APFloat (and so MLIR's constant folding) and ml_dtypes.
#pragma once

#include <optional>

#include "mlir/IR/Builders.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

namespace kiln::compiler {

struct Float8Format {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  enum class Nan { kIeee, kAllOnes, kNegativeZero } nan;
  // The largest finite value's bit pattern without the sign.
  int max_finite_bits;
};

// The format of `type`, or nullopt when it is not one of the four 8-bit formats above.
// The i16 type of the same shape as `type` when its elements are bf16 (a scalar or a
// vector), else null: the bits bf16 values move as where LLVM's x86 backend would round
// them through compiler-rt (kiln-cpu-expand-arith, kiln-cpu-load-bf16-as-bits).
mlir::Type Bf16BitsType(mlir::Type type);

std::optional<Float8Format> GetFloat8Format(mlir::Type type);

// `bits` (i8) holding a value of `format`, as an f32 (exact).
mlir::Value BuildFloat8ToF32(mlir::OpBuilder& b, mlir::Location loc, mlir::Value bits, const Float8Format& format);
// `value` (f32) rounded to `format`, as its i8 bit pattern.
mlir::Value BuildF32ToFloat8(mlir::OpBuilder& b, mlir::Location loc, mlir::Value value, const Float8Format& format);

}  // namespace kiln::compiler
