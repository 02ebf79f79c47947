// stablehlo.rng_bit_generator: Threefry-2x32 (20 rounds) and Philox-4x32 (10 rounds), the
// counter-based generators of Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"
// (SC 2011), with the state laid out as XLA lays it (StablehloRngOps.td). Each output
// element computes its block and keeps its word: one generic over the output, the state's
// words read at fixed positions; one more over the state gives the advanced counter.
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/input/stablehlo/lowering/LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

// i32 scalar arithmetic for the generators' bodies.
struct Words {
  OpBuilder& b;
  Location loc;

  Value c(uint32_t value) { return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(static_cast<int32_t>(value))); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value xor_(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value rotl(Value x, unsigned r) {
    return arith::OrIOp::create(b, loc, arith::ShLIOp::create(b, loc, x, c(r)), arith::ShRUIOp::create(b, loc, x, c(32 - r)));
  }
  // The high and low words of the 64-bit product of two words.
  std::pair<Value, Value> mulhilo(uint32_t m, Value x) {
    Type i64 = b.getI64Type();
    Value wide = arith::MulIOp::create(b, loc, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(m)),
                                       arith::ExtUIOp::create(b, loc, i64, x));
    Value hi = arith::TruncIOp::create(b, loc, b.getI32Type(),
                                       arith::ShRUIOp::create(b, loc, wide, arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32))));
    return {hi, arith::TruncIOp::create(b, loc, b.getI32Type(), wide)};
  }
  // The 64-bit counter (hi, lo) plus `n` (an i32, non-negative).
  std::pair<Value, Value> advance(Value hi, Value lo, Value n) {
    Value sum = add(lo, n);
    Value carry = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, sum, lo);
    return {add(hi, arith::ExtUIOp::create(b, loc, b.getI32Type(), carry)), sum};
  }
  // values[index] for a small dynamic index.
  Value pick(ArrayRef<Value> values, Value index) {
    Value picked = values[0];
    for (size_t i = 1; i < values.size(); ++i) {
      Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index, c(i));
      picked = arith::SelectOp::create(b, loc, is, values[i], picked);
    }
    return picked;
  }
};

SmallVector<Value> Threefry(Words& w, Value k0, Value k1, Value c0, Value c1) {
  static const unsigned kRotations[] = {13, 15, 26, 6, 17, 29, 16, 24};
  Value keys[] = {k0, k1, w.xor_(w.xor_(k0, k1), w.c(0x1BD11BDA))};
  Value x0 = w.add(c0, k0), x1 = w.add(c1, k1);
  for (int round = 0; round < 20; ++round) {
    x0 = w.add(x0, x1);
    x1 = w.xor_(w.rotl(x1, kRotations[round % 8]), x0);
    if (round % 4 == 3) {
      int s = round / 4 + 1;
      x0 = w.add(x0, keys[s % 3]);
      x1 = w.add(w.add(x1, keys[(s + 1) % 3]), w.c(s));
    }
  }
  return {x0, x1};
}

SmallVector<Value> Philox(Words& w, Value k0, Value k1, SmallVector<Value> c) {
  for (int round = 0; round < 10; ++round) {
    auto [hi0, lo0] = w.mulhilo(0xD2511F53, c[0]);
    auto [hi1, lo1] = w.mulhilo(0xCD9E8D57, c[2]);
    c = {w.xor_(w.xor_(hi1, c[1]), k0), lo1, w.xor_(w.xor_(hi0, c[3]), k1), lo0};
    k0 = w.add(k0, w.c(0x9E3779B9));
    k1 = w.add(k1, w.c(0xBB67AE85));
  }
  return c;
}

// A generic over `type` (1-d, i32) whose body gets the element's index and the state's
// four words.
Value OverState(OpBuilder& b, Location loc, RankedTensorType type, Value state,
                function_ref<Value(Words&, Value, ArrayRef<Value>)> body) {
  MLIRContext* context = b.getContext();
  SmallVector<AffineMap> maps;
  for (int i = 0; i < 4; ++i) maps.push_back(AffineMap::get(1, 0, {getAffineConstantExpr(i, context)}, context));
  maps.push_back(b.getMultiDimIdentityMap(1));
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{state, state, state, state}, ValueRange{init}, maps,
      {utils::IteratorType::parallel}, [&](OpBuilder& nested, Location l, ValueRange args) {
        Words w{nested, l};
        Value index = arith::IndexCastOp::create(nested, l, nested.getI32Type(), linalg::IndexOp::create(nested, l, 0));
        SmallVector<Value> words(args.take_front(4));
        linalg::YieldOp::create(nested, l, body(w, index, words));
      });
  return generic.getResult(0);
}

LogicalResult LowerRngBitGenerator(RewriterBase& rewriter, Operation* op) {
  if (failed(RequireStatic(op))) return failure();
  auto rng = cast<RngBitGeneratorOp>(op);
  Location loc = op->getLoc();
  auto state_type = cast<RankedTensorType>(rng.getInitialState().getType());
  auto output_type = cast<RankedTensorType>(rng.getOutput().getType());
  Type i32 = rewriter.getI32Type();
  if (state_type != RankedTensorType::get({4}, i32) || output_type.getElementType() != i32) {
    return op->emitError() << "'stablehlo.rng_bit_generator' from a " << state_type << " state into " << output_type
                           << " is not lowered yet (only a tensor<4xi32> state and i32 bits)";
  }
  bool philox = rng.getRngAlgorithm() == RngAlgorithm::PHILOX;
  int64_t words = philox ? 4 : 2;
  int64_t count = output_type.getNumElements();
  if (count >= (int64_t{1} << 31)) return op->emitError() << "'stablehlo.rng_bit_generator' output is too large";
  int64_t blocks = (count + words - 1) / words;
  Value state = rng.getInitialState();
  auto flat_type = RankedTensorType::get({count}, i32);
  Value bits = OverState(rewriter, loc, flat_type, state, [&](Words& w, Value index, ArrayRef<Value> s) {
    Value block = arith::DivUIOp::create(w.b, w.loc, index, w.c(words));
    Value word = arith::RemUIOp::create(w.b, w.loc, index, w.c(words));
    auto [hi, lo] = w.advance(s[2], s[3], block);
    SmallVector<Value> out = philox ? Philox(w, s[0], s[1], {lo, hi, s[0], s[1]}) : Threefry(w, s[0], s[1], lo, hi);
    return w.pick(out, word);
  });
  Value next = OverState(rewriter, loc, state_type, state, [&](Words& w, Value index, ArrayRef<Value> s) {
    auto [hi, lo] = w.advance(s[2], s[3], w.c(static_cast<uint32_t>(blocks)));
    return w.pick({s[0], s[1], hi, lo}, index);
  });
  rewriter.replaceOp(op, {next, Reshape(rewriter, loc, bits, output_type)});
  return success();
}

}  // namespace

void AddRngLowerings(LoweringTable& table) { table["stablehlo.rng_bit_generator"] = LowerRngBitGenerator; }

}  // namespace kiln::compiler::stablehlo
