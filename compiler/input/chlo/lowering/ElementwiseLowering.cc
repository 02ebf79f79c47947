// chlo's elementwise functions become linalg.generic ops: math ops where math has one,
// SpecialFunctions.h where not, compares with infinity for the class tests.
#include "compiler/input/chlo/ChloDialect.h"
#include "compiler/input/chlo/lowering/Lowering.h"
#include "compiler/input/chlo/lowering/SpecialFunctions.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace kiln::compiler::chlo {

using namespace mlir;

namespace {

// x == inf (`sign` 1), x == -inf (-1) or |x| == inf (0).
Value IsInfinite(OpBuilder& b, Location loc, Value x, int sign) {
  auto type = cast<FloatType>(x.getType());
  Value inf = arith::ConstantOp::create(b, loc, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics(), sign < 0)));
  if (sign == 0) x = math::AbsFOp::create(b, loc, x);
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, inf);
}

Value Scalar(OpBuilder& b, Location loc, Operation* op, Value x) {
  return TypeSwitch<Operation*, Value>(op)
      .Case([&](AcosOp) { return math::AcosOp::create(b, loc, x); })
      .Case([&](AcoshOp) { return math::AcoshOp::create(b, loc, x); })
      .Case([&](AsinOp) { return math::AsinOp::create(b, loc, x); })
      .Case([&](AsinhOp) { return math::AsinhOp::create(b, loc, x); })
      .Case([&](AtanOp) { return math::AtanOp::create(b, loc, x); })
      .Case([&](AtanhOp) { return math::AtanhOp::create(b, loc, x); })
      .Case([&](CoshOp) { return math::CoshOp::create(b, loc, x); })
      .Case([&](SinhOp) { return math::SinhOp::create(b, loc, x); })
      .Case([&](TanOp) { return math::TanOp::create(b, loc, x); })
      .Case([&](ErfOp) { return math::ErfOp::create(b, loc, x); })
      .Case([&](ErfcOp) { return math::ErfcOp::create(b, loc, x); })
      .Case([&](ErfInvOp) { return ErfInv(b, loc, x); })
      .Case([&](LgammaOp) { return Lgamma(b, loc, x); })
      .Case([&](DigammaOp) { return Digamma(b, loc, x); })
      .Case([&](IsInfOp) { return IsInfinite(b, loc, x, 0); })
      .Case([&](IsPosInfOp) { return IsInfinite(b, loc, x, 1); })
      .Case([&](IsNegInfOp) { return IsInfinite(b, loc, x, -1); });
}

LogicalResult LowerUnary(RewriterBase& rewriter, Operation* op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Value result = stablehlo::ElementwiseGeneric(
      rewriter, op->getLoc(), type, op->getOperands(),
      [&](OpBuilder& b, Location loc, ValueRange args) { return Scalar(b, loc, op, args[0]); });
  rewriter.replaceOp(op, result);
  return success();
}

}  // namespace

void AddElementwiseLowerings(stablehlo::LoweringTable& table) {
  for (StringRef name : {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh", "tan", "erf", "erfc",
                         "erf_inv", "lgamma", "digamma", "is_inf", "is_pos_inf", "is_neg_inf"}) {
    table[("chlo." + name).str()] = LowerUnary;
  }
}

}  // namespace kiln::compiler::chlo
