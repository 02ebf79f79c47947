#include "compiler/utils/SmallFloats.h"

#include <cmath>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

namespace kiln::compiler {

namespace {

using namespace mlir;

class Ints {
 public:
  Ints(OpBuilder& b, Location loc) : b_(b), loc_(loc) {}
  Value C(int64_t v) { return arith::ConstantIntOp::create(b_, loc_, b_.getI32Type(), v); }
  Value And(Value a, Value c) { return arith::AndIOp::create(b_, loc_, a, c); }
  Value Or(Value a, Value c) { return arith::OrIOp::create(b_, loc_, a, c); }
  Value Add(Value a, Value c) { return arith::AddIOp::create(b_, loc_, a, c); }
  Value Sub(Value a, Value c) { return arith::SubIOp::create(b_, loc_, a, c); }
  Value Shl(Value a, int64_t n) { return arith::ShLIOp::create(b_, loc_, a, C(n)); }
  Value Shr(Value a, int64_t n) { return arith::ShRUIOp::create(b_, loc_, a, C(n)); }
  Value Eq(Value a, Value c) { return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, a, c); }
  Value Ugt(Value a, Value c) { return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ugt, a, c); }
  Value Ult(Value a, Value c) { return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, a, c); }
  Value Select(Value cond, Value t, Value f) { return arith::SelectOp::create(b_, loc_, cond, t, f); }
  Value OrBool(Value a, Value c) { return arith::OrIOp::create(b_, loc_, a, c); }

 private:
  OpBuilder& b_;
  Location loc_;
};

}  // namespace

std::optional<Float8Format> GetFloat8Format(Type type) {
  using Nan = Float8Format::Nan;
  if (isa<Float8E5M2Type>(type)) return Float8Format{5, 2, 15, Nan::kIeee, 0x7b};
  if (isa<Float8E4M3FNType>(type)) return Float8Format{4, 3, 7, Nan::kAllOnes, 0x7e};
  if (isa<Float8E5M2FNUZType>(type)) return Float8Format{5, 2, 16, Nan::kNegativeZero, 0x7f};
  if (isa<Float8E4M3FNUZType>(type)) return Float8Format{4, 3, 8, Nan::kNegativeZero, 0x7f};
  return std::nullopt;
}

Value BuildFloat8ToF32(OpBuilder& b, Location loc, Value bits, const Float8Format& f) {
  Ints i(b, loc);
  Type f32 = b.getF32Type();
  Value x = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
  Value sign = i.Shl(i.And(x, i.C(0x80)), 24);
  Value exponent = i.And(i.Shr(x, f.mantissa_bits), i.C((1 << f.exponent_bits) - 1));
  Value mantissa = i.And(x, i.C((1 << f.mantissa_bits) - 1));
  Value normal = i.Or(sign, i.Or(i.Shl(i.Add(exponent, i.C(127 - f.bias)), 23), i.Shl(mantissa, 23 - f.mantissa_bits)));
  // Subnormal: mantissa * 2^(1 - bias - mantissa_bits), exact in f32.
  Value scale = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(std::ldexp(1.0f, 1 - f.bias - f.mantissa_bits)));
  Value magnitude = arith::MulFOp::create(b, loc, arith::UIToFPOp::create(b, loc, f32, mantissa), scale);
  Value subnormal = i.Or(arith::BitcastOp::create(b, loc, b.getI32Type(), magnitude), sign);
  Value result = i.Select(i.Eq(exponent, i.C(0)), subnormal, normal);
  Value nan_bits = i.Or(sign, i.C(0x7fc00000));
  switch (f.nan) {
    case Float8Format::Nan::kIeee: {
      Value special = i.Eq(exponent, i.C((1 << f.exponent_bits) - 1));
      Value inf = i.Or(sign, i.C(0x7f800000));
      result = i.Select(special, i.Select(i.Eq(mantissa, i.C(0)), inf, nan_bits), result);
      break;
    }
    case Float8Format::Nan::kAllOnes:
      result = i.Select(i.Eq(i.And(x, i.C(0x7f)), i.C(0x7f)), nan_bits, result);
      break;
    case Float8Format::Nan::kNegativeZero:
      result = i.Select(i.Eq(x, i.C(0x80)), i.C(0x7fc00000), result);
      break;
  }
  return arith::BitcastOp::create(b, loc, f32, result);
}

Value BuildF32ToFloat8(OpBuilder& b, Location loc, Value value, const Float8Format& f) {
  Ints i(b, loc);
  Type f32 = b.getF32Type();
  Value u = arith::BitcastOp::create(b, loc, b.getI32Type(), value);
  Value sign = i.Shr(u, 31);
  Value abs = i.And(u, i.C(0x7fffffff));
  Value is_nan = i.Ugt(abs, i.C(0x7f800000));
  Value is_inf = i.Eq(abs, i.C(0x7f800000));
  const int shift = 23 - f.mantissa_bits;
  // Normal in the target: rebias the exponent, round the mantissa to nearest even (a carry
  // into the exponent is the right answer), drop the low bits.
  Value rebiased = i.Sub(abs, i.C(int64_t{127 - f.bias} << 23));
  Value round = i.Add(i.C((1 << (shift - 1)) - 1), i.And(i.Shr(rebiased, shift), i.C(1)));
  Value normal = i.Shr(i.Add(rebiased, round), shift);
  // Subnormal (or zero) in the target: count units of the smallest subnormal, rounding to
  // nearest even; a count of 2^mantissa_bits is the smallest normal, as it should be.
  Value magnitude = arith::BitcastOp::create(b, loc, f32, abs);
  Value units = arith::MulFOp::create(
      b, loc, magnitude,
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(std::ldexp(1.0f, f.bias + f.mantissa_bits - 1))));
  Value subnormal = arith::FPToUIOp::create(b, loc, b.getI32Type(), math::RoundEvenOp::create(b, loc, units));
  Value is_subnormal = i.Ult(abs, i.C(int64_t{127 - f.bias + 1} << 23));
  Value bits = i.Select(is_subnormal, subnormal, normal);
  Value overflow = i.Ugt(bits, i.C(f.max_finite_bits));
  Value result;
  switch (f.nan) {
    case Float8Format::Nan::kIeee: {
      Value inf = i.C(0x7c);
      bits = i.Select(i.OrBool(overflow, is_inf), inf, bits);
      bits = i.Select(is_nan, i.C(0x7e), bits);
      result = i.Or(bits, i.Shl(sign, 7));
      break;
    }
    case Float8Format::Nan::kAllOnes:
      bits = i.Select(i.OrBool(i.OrBool(overflow, is_inf), is_nan), i.C(0x7f), bits);
      result = i.Or(bits, i.Shl(sign, 7));
      break;
    case Float8Format::Nan::kNegativeZero: {
      // No negative zero: the sign only applies to non-zero values; 0x80 is NaN.
      Value signed_bits = i.Select(i.Eq(bits, i.C(0)), bits, i.Or(bits, i.Shl(sign, 7)));
      result = i.Select(i.OrBool(i.OrBool(overflow, is_inf), is_nan), i.C(0x80), signed_bits);
      break;
    }
  }
  return arith::TruncIOp::create(b, loc, b.getI8Type(), result);
}

Type Bf16BitsType(Type type) {
  Type i16 = IntegerType::get(type.getContext(), 16);
  if (type.isBF16()) return i16;
  if (auto vector = dyn_cast<VectorType>(type); vector && vector.getElementType().isBF16()) return vector.clone(i16);
  return {};
}

}  // namespace kiln::compiler
