// TOSA's fixed-point rounding: tosa.rescale's INEXACT_ROUND resolved to SINGLE_ROUND
// before tosa-to-linalg (kiln-resolve-tosa-inexact-rounding), and tosa.apply_scale (what
// tosa-to-linalg leaves in the bodies of tosa.rescale and of tosa.mul with a shift) into
// arith ops after it (kiln-lower-tosa-apply-scale).
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TosaApplyScale.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_LOWERTOSAAPPLYSCALE
#define GEN_PASS_DEF_RESOLVETOSAINEXACTROUNDING
#include "compiler/transforms/Passes.h.inc"

using namespace mlir;

namespace {

// `type` (a scalar or vector integer type) with `width` bits per element.
Type WithWidth(Type type, unsigned width) {
  Type element = IntegerType::get(type.getContext(), width);
  if (auto vector = dyn_cast<VectorType>(type)) return vector.clone(element);
  return element;
}

Value Constant(OpBuilder& b, Location loc, Type type, int64_t value) {
  TypedAttr element = b.getIntegerAttr(getElementTypeOrSelf(type), value);
  if (auto shaped = dyn_cast<ShapedType>(type)) return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(shaped, element));
  return arith::ConstantOp::create(b, loc, element);
}

Value SignExtendTo64(OpBuilder& b, Location loc, Value v) {
  Type wide = WithWidth(v.getType(), 64);
  if (getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth() == 64) return v;
  return arith::ExtSIOp::create(b, loc, wide, v);
}

}  // namespace

Value BuildApplyScale(OpBuilder& b, Location loc, Value value, Value multiplier, Value shift, tosa::RoundingMode rounding,
                      Type result_type) {
  Type wide = WithWidth(value.getType(), 64);
  Value value64 = SignExtendTo64(b, loc, value);
  Value multiplier64 = SignExtendTo64(b, loc, multiplier);
  // The shift is an i8 between 0 and 63: zero-extended it is the i64 shift amount.
  Value shift64 = arith::ExtUIOp::create(b, loc, wide, shift);
  Value zero = Constant(b, loc, wide, 0), one = Constant(b, loc, wide, 1);
  Value half = arith::ShLIOp::create(b, loc, one, arith::SubIOp::create(b, loc, shift64, one));
  Value shifts = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, shift64, zero);
  Value round = arith::SelectOp::create(b, loc, shifts, half, zero);
  if (rounding == tosa::RoundingMode::DOUBLE_ROUND) {
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, shift64, Constant(b, loc, wide, 31));
    Value non_negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, value64, zero);
    Value adjust = arith::SelectOp::create(b, loc, non_negative, Constant(b, loc, wide, int64_t{1} << 30),
                                           Constant(b, loc, wide, -(int64_t{1} << 30)));
    round = arith::AddIOp::create(b, loc, round, arith::SelectOp::create(b, loc, high, adjust, zero));
  }
  Value product = arith::MulIOp::create(b, loc, value64, multiplier64);
  Value result = arith::ShRSIOp::create(b, loc, arith::AddIOp::create(b, loc, product, round), shift64);
  if (getElementTypeOrSelf(result_type).getIntOrFloatBitWidth() == 64) return result;
  return arith::TruncIOp::create(b, loc, result_type, result);
}

bool ApplyScaleFitsInt64(tosa::ApplyScaleOp op) {
  unsigned value_bits = getElementTypeOrSelf(op.getValue().getType()).getIntOrFloatBitWidth();
  unsigned multiplier_bits = getElementTypeOrSelf(op.getMultiplier().getType()).getIntOrFloatBitWidth();
  return value_bits + multiplier_bits <= 64;
}

namespace {

struct LowerTosaApplyScalePass : impl::LowerTosaApplyScaleBase<LowerTosaApplyScalePass> {
  void runOnOperation() override {
    SmallVector<tosa::ApplyScaleOp> ops;
    getOperation().walk([&](tosa::ApplyScaleOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (tosa::ApplyScaleOp op : ops) {
      if (!ApplyScaleFitsInt64(op)) {
        op.emitError() << "tosa.apply_scale of a " << getElementTypeOrSelf(op.getValue().getType()) << " value by a "
                       << getElementTypeOrSelf(op.getMultiplier().getType())
                       << " multiplier can overflow the 64-bit product TOSA specifies (i32 x i32 and i48 x i16 fit)";
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      Value result = BuildApplyScale(rewriter, op.getLoc(), op.getValue(), op.getMultiplier(), op.getShift(),
                                     op.getRoundingMode(), op.getType());
      rewriter.replaceOp(op, result);
    }
  }
};

struct ResolveTosaInexactRoundingPass : impl::ResolveTosaInexactRoundingBase<ResolveTosaInexactRoundingPass> {
  void runOnOperation() override {
    // The attribute is made only when a rescale exists: the TOSA dialect is loaded then.
    getOperation().walk([&](tosa::RescaleOp op) {
      if (op.getRoundingMode() != tosa::RoundingMode::INEXACT_ROUND) return;
      op.setRoundingModeAttr(tosa::RoundingModeAttr::get(&getContext(), tosa::RoundingMode::SINGLE_ROUND));
    });
  }
};

}  // namespace
}  // namespace kiln::compiler
