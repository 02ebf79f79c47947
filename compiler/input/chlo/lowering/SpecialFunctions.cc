#include "compiler/input/chlo/lowering/SpecialFunctions.h"

#include <cmath>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace kiln::compiler::chlo {

using namespace mlir;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Scalar arithmetic on values of one float type, written as formulas.
struct Scalar {
  OpBuilder& b;
  Location loc;
  Type type;

  Value c(double value) { return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value)); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value log(Value x) { return math::LogOp::create(b, loc, x); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value floor(Value x) { return math::FloorOp::create(b, loc, x); }
  Value lt(Value x, Value y) { return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y); }
  Value eq(Value x, Value y) { return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y); }
  Value select(Value p, Value x, Value y) { return arith::SelectOp::create(b, loc, p, x, y); }
  Value both(Value p, Value q) { return arith::AndIOp::create(b, loc, p, q); }
  // Horner: coefficients from the highest power down.
  Value poly(Value x, llvm::ArrayRef<double> coefficients) {
    Value p = c(coefficients.front());
    for (double k : coefficients.drop_front()) p = add(c(k), mul(p, x));
    return p;
  }
  // x - floor(x), in [0, 1): where sin(pi x) and tan(pi x) repeat.
  Value fraction(Value x) { return sub(x, floor(x)); }
  // Whether x is 0 or a negative integer (a pole of gamma).
  Value pole(Value x) { return both(eq(x, floor(x)), arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, c(0))); }
};

// `f` computed in f32 for narrower floats.
Value InF32AtLeast(OpBuilder& b, Location loc, Value x, llvm::function_ref<Value(Scalar&, Value)> f) {
  auto type = cast<FloatType>(x.getType());
  if (type.getWidth() >= 32) {
    Scalar s{b, loc, type};
    return f(s, x);
  }
  Scalar s{b, loc, b.getF32Type()};
  Value wide = arith::ExtFOp::create(b, loc, s.type, x);
  return arith::TruncFOp::create(b, loc, type, f(s, wide));
}

// Lanczos' sum for x >= 0.5: log(gamma(x)).
Value LanczosLgamma(Scalar& s, Value x) {
  static const double kCoefficients[] = {676.5203681218851,   -1259.1392167224028,  771.32342877765313,
                                         -176.61502916214059, 12.507343278686905,   -0.13857109526572012,
                                         9.9843695780195716e-6, 1.5056327351493116e-7};
  constexpr double kG = 7;
  Value z = s.sub(x, s.c(1));
  Value sum = s.c(0.99999999999980993);
  for (int i = 0; i < 8; ++i) sum = s.add(sum, s.div(s.c(kCoefficients[i]), s.add(z, s.c(i + 1))));
  Value t = s.add(z, s.c(kG + 0.5));
  // 0.5 log(2 pi) + (z + 0.5) log(t) - t + log(sum); (z + 0.5) log(t) - t as
  // (z + 0.5) (log(t) - 1) - (kG) keeps the two large terms from cancelling late.
  Value main = s.sub(s.mul(s.add(z, s.c(0.5)), s.sub(s.log(t), s.c(1))), s.c(kG));
  return s.add(s.add(s.c(0.5 * std::log(2 * kPi)), main), s.log(sum));
}

}  // namespace

Value ErfInv(OpBuilder& b, Location loc, Value x) {
  auto type = cast<FloatType>(x.getType());
  Value result = InF32AtLeast(b, loc, x, [&](Scalar& s, Value v) {
    Value w = s.sub(s.c(0), s.log(s.mul(s.sub(s.c(1), v), s.add(s.c(1), v))));
    Value central = s.poly(s.sub(w, s.c(2.5)), {2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                                                0.00021858087, -0.00125372503, -0.00417768164, 0.246640727,
                                                1.50140941});
    Value tail = s.poly(s.sub(math::SqrtOp::create(b, loc, w), s.c(3)),
                        {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                         -0.0076224613, 0.00943887047, 1.00167406, 2.83297682});
    Value p = s.select(s.lt(w, s.c(5)), central, tail);
    // +-1 give +-inf (w is inf there and the tail polynomial overflows to it as well, but
    // say so exactly); |x| > 1 gives NaN through log of a negative number.
    Value inf = s.c(INFINITY);
    Value at_one = s.eq(s.abs(v), s.c(1));
    return s.select(at_one, s.mul(v, inf), s.mul(p, v));
  });
  if (type.getWidth() <= 32) return result;
  // Newton on erf(y) - x = 0: y -= (erf(y) - x) / (2 / sqrt(pi) exp(-y^2)).
  Scalar s{b, loc, type};
  for (int step = 0; step < 2; ++step) {
    Value error = s.sub(math::ErfOp::create(b, loc, result), x);
    Value slope = s.mul(s.c(2 / std::sqrt(kPi)),
                        math::ExpOp::create(b, loc, s.sub(s.c(0), s.mul(result, result))));
    Value refined = s.sub(result, s.div(error, slope));
    // Keep the infinities at +-1 (the step would make them NaN).
    Value finite = s.lt(s.abs(result), s.c(INFINITY));
    result = s.select(finite, refined, result);
  }
  return result;
}

Value Lgamma(OpBuilder& b, Location loc, Value x) {
  return InF32AtLeast(b, loc, x, [&](Scalar& s, Value v) {
    Value reflect = s.lt(v, s.c(0.5));
    Value positive = LanczosLgamma(s, s.select(reflect, s.sub(s.c(1), v), v));
    // log(pi / |sin(pi x)|) - lgamma(1 - x).
    Value sine = s.abs(math::SinOp::create(b, loc, s.mul(s.c(kPi), s.fraction(v))));
    Value reflected = s.sub(s.sub(s.c(std::log(kPi)), s.log(sine)), positive);
    Value result = s.select(reflect, reflected, positive);
    Value is_inf = s.eq(s.abs(v), s.c(INFINITY));
    return s.select(arith::OrIOp::create(b, loc, s.pole(v), is_inf), s.c(INFINITY), result);
  });
}

Value Digamma(OpBuilder& b, Location loc, Value x) {
  return InF32AtLeast(b, loc, x, [&](Scalar& s, Value v) {
    Value reflect = s.lt(v, s.c(0.5));
    Value y = s.select(reflect, s.sub(s.c(1), v), v);
    // psi(y) = psi(y + 1) - 1/y while y < 6 (y >= 0.5, so six steps reach it).
    Value shift = s.c(0);
    for (int step = 0; step < 6; ++step) {
      Value small = s.lt(y, s.c(6));
      shift = s.select(small, s.sub(shift, s.div(s.c(1), y)), shift);
      y = s.select(small, s.add(y, s.c(1)), y);
    }
    // log(y) - 1/(2y) - sum B_2k / (2k y^2k).
    Value inv2 = s.div(s.c(1), s.mul(y, y));
    Value series = s.mul(inv2, s.poly(inv2, {-1.0 / 132, 1.0 / 240, -1.0 / 252, 1.0 / 120, -1.0 / 12}));
    Value positive = s.add(shift, s.add(s.sub(s.log(y), s.div(s.c(0.5), y)), series));
    // psi(1 - x) - pi / tan(pi x).
    Value tangent = math::TanOp::create(b, loc, s.mul(s.c(kPi), s.fraction(v)));
    Value reflected = s.sub(positive, s.div(s.c(kPi), tangent));
    Value result = s.select(reflect, reflected, positive);
    return s.select(s.pole(v), s.c(NAN), result);
  });
}

}  // namespace kiln::compiler::chlo
