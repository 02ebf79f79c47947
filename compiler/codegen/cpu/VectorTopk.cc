#include "compiler/codegen/cpu/VectorTopk.h"

#include "compiler/utils/Regions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::compiler::cpu {

using namespace mlir;
using compiler::InlineYieldedValue;

namespace {

constexpr int64_t kMaxLanes = 64;  // the lanes' compare results are one i64 of bits

Value I64(OpBuilder& b, Location loc, int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v); }

// Clones `comparator` at `b` on vectors of `lanes` (its arguments bound to `args`, vectors
// of that many lanes; constants become splats) and returns the yielded mask.
Value InlineOnVectors(OpBuilder& b, Block& comparator, ValueRange args, int64_t lanes) {
  IRMapping map;
  map.map(comparator.getArguments(), args);
  for (Operation& op : comparator.without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = VectorType::get({lanes}, constant.getType());
      auto splat = DenseElementsAttr::get(type, constant.getValue());
      map.map(constant.getResult(), arith::ConstantOp::create(b, op.getLoc(), type, splat).getResult());
      continue;
    }
    Operation* clone = b.clone(op, map);
    for (Value result : clone->getResults()) result.setType(VectorType::get({lanes}, result.getType()));
  }
  return map.lookup(comparator.getTerminator()->getOperand(0));
}

// Bit l of the result is lane l of `mask` (vector<lanes x i1>).
Value MaskBits(OpBuilder& b, Location loc, Value mask, int64_t lanes) {
  Type bits_type = b.getIntegerType(lanes);
  Value packed = vector::BitCastOp::create(b, loc, VectorType::get({1}, bits_type), mask);
  Value bits = vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0});
  if (lanes < kMaxLanes) bits = arith::ExtUIOp::create(b, loc, b.getI64Type(), bits);
  return bits;
}

bool IsVectorizable(Type type) { return type.isIntOrFloat() && !isa<IndexType>(type); }

}  // namespace

int64_t TopkFilterLanes(const Line& values, Block& comparator, int64_t vector_bits) {
  auto type = cast<MemRefType>(values.memref.getType());
  if (values.dimension != type.getRank() - 1 || !type.isLastDimUnitStride()) return 0;
  Type element = type.getElementType();
  if (!IsVectorizable(element)) return 0;
  unsigned width = element.getIntOrFloatBitWidth();
  if (width < 8 || width > 64) return 0;
  int64_t lanes = std::min<int64_t>(vector_bits / width, kMaxLanes);
  if (lanes < 2) return 0;
  if (comparator.getNumArguments() != 2) return 0;
  for (Operation& op : comparator.without_terminator()) {
    if (isa<arith::ConstantOp>(op)) {
      if (!IsVectorizable(op.getResult(0).getType())) return 0;
      continue;
    }
    if (!op.hasTrait<OpTrait::Elementwise>() || op.getNumRegions() != 0) return 0;
    for (Value operand : op.getOperands()) {
      if (operand.getParentBlock() != &comparator || !IsVectorizable(operand.getType())) return 0;
    }
    for (Value result : op.getResults()) {
      if (!IsVectorizable(result.getType())) return 0;
    }
  }
  Value yielded = comparator.getTerminator()->getOperand(0);
  if (yielded.getParentBlock() != &comparator || !yielded.getType().isInteger(1) || isa<BlockArgument>(yielded)) {
    return 0;
  }
  return lanes;
}

namespace {

// The k-th best of the lanes of `best` (k <= lanes): the best lane value that at least k
// lanes are not worse than.
Value KthBestLane(OpBuilder& b, Location loc, Block& comparator, Value best, int64_t lanes, int64_t k) {
  auto type = cast<VectorType>(best.getType());
  Value bound, have;
  for (int64_t i = 0; i < lanes; ++i) {
    Value lane = vector::ExtractOp::create(b, loc, best, ArrayRef<int64_t>{i});
    Value splat = vector::BroadcastOp::create(b, loc, type, lane);
    Value worse = MaskBits(b, loc, InlineOnVectors(b, comparator, {splat, best}, lanes), lanes);
    Value not_worse = arith::SubIOp::create(b, loc, I64(b, loc, lanes), math::CtPopOp::create(b, loc, worse));
    Value reached = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, not_worse, I64(b, loc, k));
    if (i == 0) {
      bound = lane;
      have = reached;
      continue;
    }
    Value better = InlineYieldedValue(b, comparator, {lane, bound});
    Value first = arith::XOrIOp::create(b, loc, have, arith::ConstantIntOp::create(b, loc, 1, 1));
    Value take = arith::AndIOp::create(b, loc, reached, arith::OrIOp::create(b, loc, first, better));
    bound = arith::SelectOp::create(b, loc, take, lane, bound);
    have = arith::OrIOp::create(b, loc, have, reached);
  }
  return bound;
}

// The bits of a vector's lanes that TopkBound lets the filter skip (none when unusable).
struct Skip {
  Value bound, usable_bits;  // usable_bits: all ones when the bound may be used, else 0
  Value Bits(OpBuilder& b, Location loc, Block& comparator, Value v, int64_t lanes) const {
    Value splat = vector::BroadcastOp::create(b, loc, cast<VectorType>(v.getType()), bound);
    Value worse = MaskBits(b, loc, InlineOnVectors(b, comparator, {splat, v}, lanes), lanes);
    return arith::AndIOp::create(b, loc, worse, usable_bits);
  }
};

// A pass over the vectors of [0, end) for the bound of TopkBound: each lane's best, then
// the k-th best of those. Usable when the line has a vector, holds no NaN and
// `bound_info.kept_in_order`.
Skip EmitSkip(OpBuilder& b, Location loc, Block& comparator, const Line& values, Value end, int64_t lanes,
              const TopkBound& bound_info) {
  auto memref_type = cast<MemRefType>(values.memref.getType());
  Type element = memref_type.getElementType();
  auto vector_type = VectorType::get({lanes}, element);
  auto mask_type = VectorType::get({lanes}, b.getI1Type());
  bool floats = isa<FloatType>(element);
  Value step = IndexConstant(b, loc, lanes);
  auto load = [&](OpBuilder& nb, Location l, Value base) {
    SmallVector<Value> at = values.position;
    at[values.dimension] = base;
    return vector::LoadOp::create(nb, l, vector_type, values.memref, at).getResult();
  };
  auto nan_lanes = [&](OpBuilder& nb, Location l, Value v) {
    return arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, v, v).getResult();
  };
  Value has_vector = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, end, step);
  auto guard = scf::IfOp::create(
      b, loc, has_vector,
      [&](OpBuilder& tb, Location tl) {
        Value first = load(tb, tl, IndexConstant(tb, tl, 0));
        Value no_nan = arith::ConstantOp::create(tb, tl, DenseElementsAttr::get(mask_type, false));
        SmallVector<Value> init{first, floats ? nan_lanes(tb, tl, first) : no_nan};
        auto lanes_pass = scf::ForOp::create(
            tb, tl, step, end, step, init, [&](OpBuilder& fb, Location fl, Value base, ValueRange carried) {
              Value v = load(fb, fl, base);
              Value better = InlineOnVectors(fb, comparator, {v, carried[0]}, lanes);
              Value best = arith::SelectOp::create(fb, fl, better, v, carried[0]);
              Value nan = floats ? arith::OrIOp::create(fb, fl, carried[1], nan_lanes(fb, fl, v)).getResult() : carried[1];
              scf::YieldOp::create(fb, fl, ValueRange{best, nan});
            });
        Value bound = KthBestLane(tb, tl, comparator, lanes_pass.getResult(0), lanes, bound_info.k);
        Value any_nan = arith::CmpIOp::create(tb, tl, arith::CmpIPredicate::ne,
                                              MaskBits(tb, tl, lanes_pass.getResult(1), lanes), I64(tb, tl, 0));
        Value usable = arith::AndIOp::create(
            tb, tl, bound_info.kept_in_order,
            arith::XOrIOp::create(tb, tl, any_nan, arith::ConstantIntOp::create(tb, tl, 1, 1)));
        scf::YieldOp::create(tb, tl, ValueRange{bound, usable});
      },
      [&](OpBuilder& eb, Location el) {
        Value any = floats ? arith::ConstantFloatOp::create(eb, el, cast<FloatType>(element),
                                                            APFloat::getZero(cast<FloatType>(element).getFloatSemantics()))
                                 .getResult()
                           : arith::ConstantIntOp::create(eb, el, element, 0).getResult();
        scf::YieldOp::create(eb, el, ValueRange{any, arith::ConstantIntOp::create(eb, el, 0, 1)});
      });
  Value usable_bits = arith::SubIOp::create(
      b, loc, I64(b, loc, 0), arith::ExtUIOp::create(b, loc, b.getI64Type(), guard.getResult(1)));
  return Skip{guard.getResult(0), usable_bits};
}

// The vector part of ForEachBetterElement, over [0, end).
TopkState FilterVectors(OpBuilder& b, Location loc, Block& comparator, const Line& values, Value end, int64_t lanes,
                        const std::optional<Skip>& skip, ValueRange state, TopkWorst worst, TopkInsert insert) {
  Value zero = IndexConstant(b, loc, 0), step = IndexConstant(b, loc, lanes);
  auto vector_type = VectorType::get({lanes}, cast<MemRefType>(values.memref.getType()).getElementType());
  // Bits of the lanes of `v` better than the current worst.
  auto better_bits = [&](OpBuilder& nb, Location l, Value v, ValueRange current) {
    Value splat = vector::BroadcastOp::create(nb, l, vector_type, worst(nb, l, current));
    return MaskBits(nb, l, InlineOnVectors(nb, comparator, {v, splat}, lanes), lanes);
  };
  auto loop = scf::ForOp::create(
      b, loc, zero, end, step, state, [&](OpBuilder& fb, Location fl, Value base, ValueRange carried) {
        SmallVector<Value> at = values.position;
        at[values.dimension] = base;
        Value v = vector::LoadOp::create(fb, fl, vector_type, values.memref, at);
        Value i64_zero = I64(fb, fl, 0);
        // Lanes left after the bound's skip (all of them without one).
        Value candidates = I64(fb, fl, -1);
        if (skip) candidates = arith::XOrIOp::create(fb, fl, skip->Bits(fb, fl, comparator, v, lanes), candidates);
        SmallVector<Value> init{arith::AndIOp::create(fb, fl, better_bits(fb, fl, v, carried), candidates)};
        init.append(carried.begin(), carried.end());
        auto lanes_loop = scf::WhileOp::create(
            fb, fl, TypeRange(ValueRange(init)), init,
            [&](OpBuilder& cb, Location cl, ValueRange args) {
              Value any = arith::CmpIOp::create(cb, cl, arith::CmpIPredicate::ne, args[0], i64_zero);
              scf::ConditionOp::create(cb, cl, any, args);
            },
            [&](OpBuilder& ib, Location il, ValueRange args) {
              Value lane = math::CountTrailingZerosOp::create(ib, il, args[0]);
              Value i = arith::AddIOp::create(ib, il, base, arith::IndexCastUIOp::create(ib, il, ib.getIndexType(), lane));
              TopkState next = insert(ib, il, args.drop_front(), i);
              // The lanes after `lane`: -(2 << lane) keeps bits lane + 1 and up (none for 63).
              Value after = arith::SubIOp::create(ib, il, i64_zero, arith::ShLIOp::create(ib, il, I64(ib, il, 2), lane));
              after = arith::AndIOp::create(ib, il, after, candidates);
              SmallVector<Value> yielded{arith::AndIOp::create(ib, il, better_bits(ib, il, v, next), after)};
              yielded.append(next.begin(), next.end());
              scf::YieldOp::create(ib, il, yielded);
            });
        scf::YieldOp::create(fb, fl, lanes_loop.getResults().drop_front());
      });
  return TopkState(loop.getResults());
}

}  // namespace

TopkState ForEachBetterElement(OpBuilder& b, Location loc, Block& comparator, const Line& values, Value n,
                               int64_t lanes, const TopkBound* bound, ValueRange state, TopkWorst worst,
                               TopkInsert insert) {
  Value start = IndexConstant(b, loc, 0);
  TopkState current(state.begin(), state.end());
  if (lanes > 0) {
    start = arith::SubIOp::create(b, loc, n, arith::RemUIOp::create(b, loc, n, IndexConstant(b, loc, lanes)));
    std::optional<Skip> skip;
    if (bound) skip = EmitSkip(b, loc, comparator, values, start, lanes, *bound);
    current = FilterVectors(b, loc, comparator, values, start, lanes, skip, current, worst, insert);
  }
  auto loop = scf::ForOp::create(
      b, loc, start, n, IndexConstant(b, loc, 1), current,
      [&](OpBuilder& fb, Location fl, Value i, ValueRange carried) {
        Value better = InlineYieldedValue(fb, comparator, {values.Load(fb, fl, i), worst(fb, fl, carried)});
        auto guard = scf::IfOp::create(
            fb, fl, better,
            [&](OpBuilder& tb, Location tl) { scf::YieldOp::create(tb, tl, insert(tb, tl, carried, i)); },
            [&](OpBuilder& eb, Location el) { scf::YieldOp::create(eb, el, carried); });
        scf::YieldOp::create(fb, fl, guard.getResults());
      });
  return TopkState(loop.getResults());
}

}  // namespace kiln::compiler::cpu
