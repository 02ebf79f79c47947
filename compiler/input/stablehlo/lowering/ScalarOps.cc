#include "compiler/input/stablehlo/lowering/ScalarOps.h"

#include "compiler/input/stablehlo/StablehloDialect.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

Type ElementType(Type type) { return cast<ShapedType>(type).getElementType(); }

Value IntConstant(OpBuilder& b, Location loc, Type type, const APInt& value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}
Value IntConstant(OpBuilder& b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}
Value FloatConstant(OpBuilder& b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

// Integer division and remainder with StableHLO's edge cases: x / 0 is -1 and x % 0 is x;
// INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0 (where two's complement would trap).
Value DivRem(OpBuilder& b, Location loc, Value lhs, Value rhs, bool remainder) {
  Type type = lhs.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = IntConstant(b, loc, type, 0), one = IntConstant(b, loc, type, 1);
  Value minus_one = IntConstant(b, loc, type, -1);
  Value min = IntConstant(b, loc, type, APInt::getSignedMinValue(width));
  Value by_zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value overflow = arith::AndIOp::create(b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, min),
                                         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minus_one));
  Value unsafe = arith::OrIOp::create(b, loc, by_zero, overflow);
  Value safe_rhs = arith::SelectOp::create(b, loc, unsafe, one, rhs);
  if (remainder) {
    Value r = arith::RemSIOp::create(b, loc, lhs, safe_rhs);
    return arith::SelectOp::create(b, loc, by_zero, lhs, arith::SelectOp::create(b, loc, overflow, zero, r));
  }
  Value q = arith::DivSIOp::create(b, loc, lhs, safe_rhs);
  return arith::SelectOp::create(b, loc, by_zero, minus_one, arith::SelectOp::create(b, loc, overflow, min, q));
}

// Shifts by at least the width give 0 (left, logical) or the sign (arithmetic).
Value Shift(OpBuilder& b, Location loc, Value lhs, Value rhs, Operation* op) {
  Type type = lhs.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value in_range = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rhs, IntConstant(b, loc, type, width));
  if (isa<ShiftRightArithmeticOp>(op)) {
    Value amount = arith::SelectOp::create(b, loc, in_range, rhs, IntConstant(b, loc, type, width - 1));
    return arith::ShRSIOp::create(b, loc, lhs, amount);
  }
  Value shifted = isa<ShiftLeftOp>(op) ? Value(arith::ShLIOp::create(b, loc, lhs, rhs))
                                       : Value(arith::ShRUIOp::create(b, loc, lhs, rhs));
  return arith::SelectOp::create(b, loc, in_range, shifted, IntConstant(b, loc, type, 0));
}

// A float's bits as a signed integer ordered as StableHLO's TOTALORDER orders the floats.
Value TotalOrderKey(OpBuilder& b, Location loc, Value x) {
  unsigned width = x.getType().getIntOrFloatBitWidth();
  Type int_type = b.getIntegerType(width);
  Value bits = arith::BitcastOp::create(b, loc, int_type, x);
  Value sign = arith::ShRSIOp::create(b, loc, bits, IntConstant(b, loc, int_type, width - 1));
  Value magnitude_mask = arith::ShRUIOp::create(b, loc, sign, IntConstant(b, loc, int_type, 1));
  return arith::XOrIOp::create(b, loc, bits, magnitude_mask);
}

Value Compare(OpBuilder& b, Location loc, CompareOp op, Value lhs, Value rhs) {
  ComparisonDirection direction = op.getComparisonDirection();
  Type element = lhs.getType();
  std::optional<ComparisonType> type = op.getCompareType();
  bool is_float = isa<FloatType>(element);
  if (is_float && type == ComparisonType::TOTALORDER) {
    lhs = TotalOrderKey(b, loc, lhs);
    rhs = TotalOrderKey(b, loc, rhs);
    is_float = false;
    type = ComparisonType::SIGNED;
  }
  if (is_float) {
    static const arith::CmpFPredicate kFloat[] = {arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
                                                  arith::CmpFPredicate::OGE, arith::CmpFPredicate::OGT,
                                                  arith::CmpFPredicate::OLE, arith::CmpFPredicate::OLT};
    return arith::CmpFOp::create(b, loc, kFloat[static_cast<int>(direction)], lhs, rhs);
  }
  // Booleans compare as unsigned (true > false).
  bool is_unsigned = type == ComparisonType::UNSIGNED || element.isInteger(1);
  static const arith::CmpIPredicate kSigned[] = {arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
                                                 arith::CmpIPredicate::sge, arith::CmpIPredicate::sgt,
                                                 arith::CmpIPredicate::sle, arith::CmpIPredicate::slt};
  static const arith::CmpIPredicate kUnsigned[] = {arith::CmpIPredicate::eq,  arith::CmpIPredicate::ne,
                                                   arith::CmpIPredicate::uge, arith::CmpIPredicate::ugt,
                                                   arith::CmpIPredicate::ule, arith::CmpIPredicate::ult};
  return arith::CmpIOp::create(b, loc, (is_unsigned ? kUnsigned : kSigned)[static_cast<int>(direction)], lhs, rhs);
}

FailureOr<Value> Convert(OpBuilder& b, Location loc, Operation* op, Value x, Type to) {
  Type from = x.getType();
  if (from == to) return x;
  auto from_int = dyn_cast<IntegerType>(from), to_int = dyn_cast<IntegerType>(to);
  auto from_float = dyn_cast<FloatType>(from), to_float = dyn_cast<FloatType>(to);
  if ((from_int && !from_int.isSignless()) || (to_int && !to_int.isSignless())) {
    return op->emitError() << "unsigned element types are not lowered yet: '" << op->getName() << "' from " << from
                           << " to " << to;
  }
  if (to_int && to_int.getWidth() == 1) {
    if (from_float) return Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, FloatConstant(b, loc, from, 0)));
    if (from_int) return Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, IntConstant(b, loc, from, 0)));
  }
  if (from_int && to_int) {
    if (from_int.getWidth() == 1) return Value(arith::ExtUIOp::create(b, loc, to, x));
    if (from_int.getWidth() < to_int.getWidth()) return Value(arith::ExtSIOp::create(b, loc, to, x));
    return Value(arith::TruncIOp::create(b, loc, to, x));
  }
  if (from_float && to_float) {
    if (from_float.getWidth() < to_float.getWidth()) return Value(arith::ExtFOp::create(b, loc, to, x));
    if (from_float.getWidth() > to_float.getWidth()) return Value(arith::TruncFOp::create(b, loc, to, x));
    return Value(arith::TruncFOp::create(b, loc, to, arith::ExtFOp::create(b, loc, b.getF32Type(), x)));
  }
  if (from_int && to_float) {
    if (from_int.getWidth() == 1) return Value(arith::UIToFPOp::create(b, loc, to, x));
    return Value(arith::SIToFPOp::create(b, loc, to, x));
  }
  if (from_float && to_int) return Value(arith::FPToSIOp::create(b, loc, to, x));
  return op->emitError() << "'" << op->getName() << "' from " << from << " to " << to << " is not lowered yet";
}

// Floats, signless integers and i1 each have their own form of most ops.
template <typename FloatOp, typename IntOp>
Value FloatOrInt(OpBuilder& b, Location loc, ValueRange args) {
  if (isa<FloatType>(args[0].getType())) return FloatOp::create(b, loc, args);
  return IntOp::create(b, loc, args);
}

FailureOr<Value> Unary(OpBuilder& b, Location loc, Operation* op, Value x) {
  Type type = x.getType();
  bool is_float = isa<FloatType>(type);
  auto float_only = [&](auto make) -> FailureOr<Value> {
    if (!is_float) return op->emitError() << "'" << op->getName() << "' of " << type << " is not lowered yet";
    return Value(make());
  };
  return TypeSwitch<Operation*, FailureOr<Value>>(op)
      .Case([&](AbsOp) -> FailureOr<Value> {
        if (is_float) return Value(math::AbsFOp::create(b, loc, x));
        return Value(math::AbsIOp::create(b, loc, x));
      })
      .Case([&](NegOp) -> FailureOr<Value> {
        if (is_float) return Value(arith::NegFOp::create(b, loc, x));
        return Value(arith::SubIOp::create(b, loc, IntConstant(b, loc, type, 0), x));
      })
      .Case([&](NotOp) { return Value(arith::XOrIOp::create(b, loc, x, IntConstant(b, loc, type, -1))); })
      .Case([&](PopcntOp) { return Value(math::CtPopOp::create(b, loc, x)); })
      .Case([&](ClzOp) { return Value(math::CountLeadingZerosOp::create(b, loc, x)); })
      .Case([&](SignOp) -> FailureOr<Value> {
        // -1, 0 or 1; a float zero keeps its sign and NaN stays NaN.
        Value zero = is_float ? FloatConstant(b, loc, type, 0) : IntConstant(b, loc, type, 0);
        Value one = is_float ? FloatConstant(b, loc, type, 1) : IntConstant(b, loc, type, 1);
        Value minus_one = is_float ? FloatConstant(b, loc, type, -1) : IntConstant(b, loc, type, -1);
        Value positive = is_float ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero))
                                  : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero));
        Value negative = is_float ? Value(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero))
                                  : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero));
        Value other = is_float ? x : zero;
        return Value(arith::SelectOp::create(b, loc, positive, one, arith::SelectOp::create(b, loc, negative, minus_one, other)));
      })
      .Case([&](ExpOp) { return float_only([&] { return math::ExpOp::create(b, loc, x); }); })
      .Case([&](Expm1Op) { return float_only([&] { return math::ExpM1Op::create(b, loc, x); }); })
      .Case([&](LogOp) { return float_only([&] { return math::LogOp::create(b, loc, x); }); })
      .Case([&](Log1pOp) { return float_only([&] { return math::Log1pOp::create(b, loc, x); }); })
      .Case([&](LogisticOp) {
        return float_only([&] {
          Value one = FloatConstant(b, loc, type, 1);
          Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
          return arith::DivFOp::create(b, loc, one, arith::AddFOp::create(b, loc, one, e));
        });
      })
      .Case([&](SineOp) { return float_only([&] { return math::SinOp::create(b, loc, x); }); })
      .Case([&](CosineOp) { return float_only([&] { return math::CosOp::create(b, loc, x); }); })
      .Case([&](TanOp) { return float_only([&] { return math::TanOp::create(b, loc, x); }); })
      .Case([&](TanhOp) { return float_only([&] { return math::TanhOp::create(b, loc, x); }); })
      .Case([&](SqrtOp) { return float_only([&] { return math::SqrtOp::create(b, loc, x); }); })
      .Case([&](RsqrtOp) { return float_only([&] { return math::RsqrtOp::create(b, loc, x); }); })
      .Case([&](CbrtOp) { return float_only([&] { return math::CbrtOp::create(b, loc, x); }); })
      .Case([&](FloorOp) { return float_only([&] { return math::FloorOp::create(b, loc, x); }); })
      .Case([&](CeilOp) { return float_only([&] { return math::CeilOp::create(b, loc, x); }); })
      .Case([&](RoundOp) { return float_only([&] { return math::RoundOp::create(b, loc, x); }); })
      .Case([&](RoundEvenOp) { return float_only([&] { return math::RoundEvenOp::create(b, loc, x); }); })
      .Case([&](IsFiniteOp) {
        // |x| < inf is false for infinities and NaN.
        return float_only([&] {
          Value inf = arith::ConstantOp::create(
              b, loc, b.getFloatAttr(type, APFloat::getInf(cast<FloatType>(type).getFloatSemantics())));
          return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, loc, x), inf);
        });
      })
      .Default([&](Operation*) -> FailureOr<Value> { return op->emitError() << "no scalar form for '" << op->getName() << "'"; });
}

FailureOr<Value> Binary(OpBuilder& b, Location loc, Operation* op, Value lhs, Value rhs) {
  Type type = lhs.getType();
  bool is_float = isa<FloatType>(type), is_bool = type.isInteger(1);
  SmallVector<Value, 2> storage = {lhs, rhs};
  ValueRange args(storage);
  auto ints_only = [&](auto make) -> FailureOr<Value> {
    if (is_float) return op->emitError() << "'" << op->getName() << "' of " << type << " is not defined";
    return Value(make());
  };
  return TypeSwitch<Operation*, FailureOr<Value>>(op)
      .Case([&](AddOp) {
        return is_bool ? Value(arith::OrIOp::create(b, loc, args)) : FloatOrInt<arith::AddFOp, arith::AddIOp>(b, loc, args);
      })
      .Case([&](SubtractOp) { return FloatOrInt<arith::SubFOp, arith::SubIOp>(b, loc, args); })
      .Case([&](MulOp) {
        return is_bool ? Value(arith::AndIOp::create(b, loc, args)) : FloatOrInt<arith::MulFOp, arith::MulIOp>(b, loc, args);
      })
      .Case([&](DivOp) { return is_float ? Value(arith::DivFOp::create(b, loc, args)) : DivRem(b, loc, lhs, rhs, false); })
      .Case([&](RemOp) { return is_float ? Value(arith::RemFOp::create(b, loc, args)) : DivRem(b, loc, lhs, rhs, true); })
      .Case([&](MaxOp) {
        if (is_bool) return Value(arith::OrIOp::create(b, loc, args));
        return FloatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, loc, args);
      })
      .Case([&](MinOp) {
        if (is_bool) return Value(arith::AndIOp::create(b, loc, args));
        return FloatOrInt<arith::MinimumFOp, arith::MinSIOp>(b, loc, args);
      })
      .Case([&](PowOp) { return FloatOrInt<math::PowFOp, math::IPowIOp>(b, loc, args); })
      .Case([&](Atan2Op) -> FailureOr<Value> {
        if (!is_float) return op->emitError() << "'" << op->getName() << "' of " << type << " is not defined";
        return Value(math::Atan2Op::create(b, loc, args));
      })
      .Case([&](AndOp) { return ints_only([&] { return arith::AndIOp::create(b, loc, args); }); })
      .Case([&](OrOp) { return ints_only([&] { return arith::OrIOp::create(b, loc, args); }); })
      .Case([&](XorOp) { return ints_only([&] { return arith::XOrIOp::create(b, loc, args); }); })
      .Case<ShiftLeftOp, ShiftRightArithmeticOp, ShiftRightLogicalOp>(
          [&](Operation*) { return ints_only([&] { return Shift(b, loc, lhs, rhs, op); }); })
      .Default([&](Operation*) -> FailureOr<Value> { return op->emitError() << "no scalar form for '" << op->getName() << "'"; });
}

}  // namespace

bool HasScalarForm(Operation* op) {
  return isa<AbsOp, NegOp, ExpOp, Expm1Op, LogOp, Log1pOp, LogisticOp, SineOp, CosineOp, TanOp, TanhOp, SqrtOp,
             RsqrtOp, CbrtOp, FloorOp, CeilOp, RoundOp, RoundEvenOp, SignOp, NotOp, PopcntOp, ClzOp, IsFiniteOp,
             AddOp, SubtractOp, MulOp, DivOp, RemOp, MaxOp, MinOp, PowOp, Atan2Op, AndOp, OrOp, XorOp, ShiftLeftOp,
             ShiftRightArithmeticOp, ShiftRightLogicalOp, ConvertOp, BitcastConvertOp, CompareOp, SelectOp,
             ClampOp>(op);
}

FailureOr<Value> EmitScalar(OpBuilder& b, Location loc, Operation* op, ValueRange args) {
  Type result = ElementType(op->getResult(0).getType());
  for (Value arg : args) {
    if (auto integer = dyn_cast<IntegerType>(arg.getType()); integer && !integer.isSignless()) {
      return op->emitError() << "unsigned element types are not lowered yet: '" << op->getName() << "' of "
                             << arg.getType();
    }
    if (!arg.getType().isIntOrFloat()) {
      return op->emitError() << "'" << op->getName() << "' of " << arg.getType() << " is not lowered yet";
    }
  }
  if (auto compare = dyn_cast<CompareOp>(op)) return Compare(b, loc, compare, args[0], args[1]);
  if (isa<SelectOp>(op)) return Value(arith::SelectOp::create(b, loc, args[0], args[1], args[2]));
  if (isa<ClampOp>(op)) {
    // min(max(operand, min), max), with maximum's and minimum's NaN propagation.
    bool is_float = isa<FloatType>(args[1].getType());
    Value low = is_float ? Value(arith::MaximumFOp::create(b, loc, args[1], args[0]))
                         : Value(arith::MaxSIOp::create(b, loc, args[1], args[0]));
    return is_float ? Value(arith::MinimumFOp::create(b, loc, low, args[2]))
                    : Value(arith::MinSIOp::create(b, loc, low, args[2]));
  }
  if (isa<ConvertOp>(op)) return Convert(b, loc, op, args[0], result);
  if (isa<BitcastConvertOp>(op)) return Value(arith::BitcastOp::create(b, loc, result, args[0]));
  if (args.size() == 1) return Unary(b, loc, op, args[0]);
  if (args.size() == 2) return Binary(b, loc, op, args[0], args[1]);
  return op->emitError() << "no scalar form for '" << op->getName() << "'";
}

FailureOr<SmallVector<Value>> InlineScalarBody(OpBuilder& b, Location loc, Block& body, ValueRange args) {
  IRMapping scalars;
  for (auto [arg, scalar] : llvm::zip(body.getArguments(), args)) scalars.map(arg, scalar);
  for (Operation& op : body) {
    if (auto ret = dyn_cast<ReturnOp>(op)) {
      return llvm::map_to_vector(ret.getOperands(), [&](Value v) { return scalars.lookup(v); });
    }
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!value || !value.isSplat()) return op.emitError() << "a constant in a stablehlo body must be 0-d";
      scalars.map(constant.getResult(), arith::ConstantOp::create(b, loc, cast<TypedAttr>(value.getSplatValue<Attribute>())));
      continue;
    }
    if (!HasScalarForm(&op)) {
      return op.emitError() << "'" << op.getName() << "' in a stablehlo body is not lowered yet";
    }
    SmallVector<Value> operands = llvm::map_to_vector(op.getOperands(), [&](Value v) { return scalars.lookup(v); });
    if (llvm::any_of(operands, [](Value v) { return !v; })) {
      return op.emitError() << "a stablehlo body may only use its own arguments and values";
    }
    FailureOr<Value> result = EmitScalar(b, loc, &op, operands);
    if (failed(result)) return failure();
    scalars.map(op.getResult(0), *result);
  }
  return body.getParentOp()->emitError() << "stablehlo body without a return";
}

}  // namespace kiln::compiler::stablehlo
