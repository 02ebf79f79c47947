#include "compiler/codegen/cpu/RadixSort.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

constexpr int kDigitBits = 8;
constexpr int kBuckets = 1 << kDigitBits;
constexpr int kPasses = 32 / kDigitBits;

Value I32(OpBuilder& b, Location loc, int64_t v) { return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v); }

// The unsigned 32-bit key of `x`, ordered as the comparator orders.
Value KeyOf(OpBuilder& b, Location loc, const RadixKey& key, Value x) {
  Value bits;
  Value sign = I32(b, loc, static_cast<int32_t>(0x80000000u));
  if (key.kind == RadixKey::Kind::kFloat) {
    if (!x.getType().isF32()) x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
    Value negative_zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits, sign);
    bits = arith::SelectOp::create(b, loc, negative_zero, I32(b, loc, 0), bits);
    // Negative floats: all bits flipped (larger magnitude sorts first); others: sign set.
    Value spread = arith::ShRSIOp::create(b, loc, bits, I32(b, loc, 31));
    bits = arith::XOrIOp::create(b, loc, bits, arith::OrIOp::create(b, loc, spread, sign));
  } else {
    if (x.getType().getIntOrFloatBitWidth() < 32) {
      x = key.kind == RadixKey::Kind::kSigned ? Value(arith::ExtSIOp::create(b, loc, b.getI32Type(), x))
                                              : Value(arith::ExtUIOp::create(b, loc, b.getI32Type(), x));
    }
    bits = key.kind == RadixKey::Kind::kSigned ? Value(arith::XOrIOp::create(b, loc, x, sign)) : x;
  }
  if (key.descending) bits = arith::XOrIOp::create(b, loc, bits, I32(b, loc, -1));
  return bits;
}

Value DigitSlot(OpBuilder& b, Location loc, Value key, int pass) {
  Value digit = arith::ShRUIOp::create(b, loc, key, I32(b, loc, pass * kDigitBits));
  digit = arith::AndIOp::create(b, loc, digit, I32(b, loc, kBuckets - 1));
  digit = arith::AddIOp::create(b, loc, digit, I32(b, loc, pass * kBuckets));
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), digit);
}

}  // namespace

std::optional<RadixKey> MatchRadixComparator(Block& comparator) {
  if (comparator.getNumArguments() < 2 || !llvm::hasSingleElement(comparator.without_terminator())) {
    return std::nullopt;
  }
  Operation& compare = comparator.front();
  Operation* yield = comparator.getTerminator();
  if (yield->getNumOperands() != 1 || yield->getOperand(0) != compare.getResult(0)) return std::nullopt;
  Value a = comparator.getArgument(0), b = comparator.getArgument(1);
  if (compare.getNumOperands() != 2) return std::nullopt;
  bool swapped = compare.getOperand(0) == b && compare.getOperand(1) == a;
  if (!swapped && !(compare.getOperand(0) == a && compare.getOperand(1) == b)) return std::nullopt;
  Type type = a.getType();
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() > 32) return std::nullopt;
  RadixKey key{RadixKey::Kind::kFloat, false};
  if (auto cmpf = dyn_cast<arith::CmpFOp>(compare)) {
    if (!isa<FloatType>(type)) return std::nullopt;
    switch (cmpf.getPredicate()) {
      case arith::CmpFPredicate::OLT:
      case arith::CmpFPredicate::ULT: key.descending = false; break;
      case arith::CmpFPredicate::OGT:
      case arith::CmpFPredicate::UGT: key.descending = true; break;
      default: return std::nullopt;
    }
  } else if (auto cmpi = dyn_cast<arith::CmpIOp>(compare)) {
    if (type.getIntOrFloatBitWidth() < 2) return std::nullopt;  // i1 keys: not worth it
    switch (cmpi.getPredicate()) {
      case arith::CmpIPredicate::slt: key = {RadixKey::Kind::kSigned, false}; break;
      case arith::CmpIPredicate::sgt: key = {RadixKey::Kind::kSigned, true}; break;
      case arith::CmpIPredicate::ult: key = {RadixKey::Kind::kUnsigned, false}; break;
      case arith::CmpIPredicate::ugt: key = {RadixKey::Kind::kUnsigned, true}; break;
      default: return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (swapped) key.descending = !key.descending;
  return key;
}

// One heap block for all five lines, carved into subviews. Four separate lines of n made
// glibc (Debian's allocator) return them to the system at every call made on the calling
// thread (cpu-sync, or an embedder's own thread): after the first call its dynamic
// thresholds serve blocks of 2 MiB from the heap and trim the heap once more than twice
// that is free at its top, which four lines of 2 MiB (n = 512K) always left, so every call
// faulted its 8 MiB in again (17% of a 1M sort's time on cpu-sync went to the kernel's
// page faults, on an Intel Xeon VM). One block of the same size stays below the trim
// threshold and is reused call after call.
RadixScratch AllocateRadixScratch(OpBuilder& b, Location loc, Value n) {
  Type i32 = b.getI32Type();
  Value histogram_size = IndexConstant(b, loc, kPasses * kBuckets);
  Value total = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, n, IndexConstant(b, loc, 4)),
                                      histogram_size);
  Value block = AllocateScratchLine(b, loc, i32, total).memref;
  auto carve = [&](int index, Value size) {
    Value offset = arith::MulIOp::create(b, loc, n, IndexConstant(b, loc, index));
    Value view = memref::SubViewOp::create(b, loc, block, OpFoldResult(offset), OpFoldResult(size),
                                           OpFoldResult(b.getIndexAttr(1)));
    return Line{view, {IndexConstant(b, loc, 0)}, 0};
  };
  return RadixScratch{carve(0, n), carve(1, n), carve(2, n), carve(3, n), carve(4, histogram_size), block};
}

void DeallocateRadixScratch(OpBuilder& b, Location loc, const RadixScratch& s) {
  memref::DeallocOp::create(b, loc, s.block);
}

void EmitRadixSortLine(OpBuilder& b, Location loc, const RadixKey& key, const RadixScratch& s,
                       ArrayRef<Line> sources, ArrayRef<Line> lines, ArrayRef<Line> copies, Value n) {
  Value zero = IndexConstant(b, loc, 0), one = IndexConstant(b, loc, 1);
  Value i32_one = I32(b, loc, 1);
  const Line& h = s.histograms;
  ForRange(b, loc, zero, IndexConstant(b, loc, kPasses * kBuckets),
           [&](OpBuilder& nb, Location l, Value i) { h.Store(nb, l, I32(nb, l, 0), i); });
  // Keys, initial ranks and every pass's histogram in one read of the keys.
  ForRange(b, loc, zero, n, [&](OpBuilder& nb, Location l, Value i) {
    Value k = KeyOf(nb, l, key, sources[0].Load(nb, l, i));
    s.keys_a.Store(nb, l, k, i);
    s.ranks_a.Store(nb, l, arith::IndexCastUIOp::create(nb, l, nb.getI32Type(), i), i);
    for (int pass = 0; pass < kPasses; ++pass) {
      Value slot = DigitSlot(nb, l, k, pass);
      h.Store(nb, l, arith::AddIOp::create(nb, l, h.Load(nb, l, slot), i32_one), slot);
    }
  });

  Value in_a = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value n_i32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), n);
  for (int pass = 0; pass < kPasses; ++pass) {
    Line src_keys = PickLine(b, loc, in_a, s.keys_a, s.keys_b), dst_keys = PickLine(b, loc, in_a, s.keys_b, s.keys_a);
    Line src_ranks = PickLine(b, loc, in_a, s.ranks_a, s.ranks_b);
    Line dst_ranks = PickLine(b, loc, in_a, s.ranks_b, s.ranks_a);
    // A pass where one bucket holds every key would copy the keys unchanged.
    Value first_key = src_keys.Load(b, loc, zero);
    Value trivial = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          h.Load(b, loc, DigitSlot(b, loc, first_key, pass)), n_i32);
    auto step = scf::IfOp::create(
        b, loc, trivial,
        [&](OpBuilder& tb, Location l) { scf::YieldOp::create(tb, l, in_a); },
        [&](OpBuilder& eb, Location l) {
          // Bucket counts become bucket starts.
          Value base = IndexConstant(eb, l, pass * kBuckets);
          scf::ForOp::create(eb, l, zero, IndexConstant(eb, l, kBuckets), one, ValueRange{I32(eb, l, 0)},
                             [&](OpBuilder& fb, Location fl, Value d, ValueRange sum) {
                               Value slot = arith::AddIOp::create(fb, fl, base, d);
                               Value count = h.Load(fb, fl, slot);
                               h.Store(fb, fl, sum[0], slot);
                               scf::YieldOp::create(fb, fl, Value(arith::AddIOp::create(fb, fl, sum[0], count)));
                             });
          ForRange(eb, l, zero, n, [&](OpBuilder& fb, Location fl, Value i) {
            Value k = src_keys.Load(fb, fl, i);
            Value slot = DigitSlot(fb, fl, k, pass);
            Value at = h.Load(fb, fl, slot);
            h.Store(fb, fl, arith::AddIOp::create(fb, fl, at, i32_one), slot);
            Value target = arith::IndexCastUIOp::create(fb, fl, fb.getIndexType(), at);
            dst_keys.Store(fb, fl, k, target);
            dst_ranks.Store(fb, fl, src_ranks.Load(fb, fl, i), target);
          });
          Value flipped = arith::XOrIOp::create(eb, l, in_a, arith::ConstantIntOp::create(eb, l, 1, 1));
          scf::YieldOp::create(eb, l, flipped);
        });
    in_a = step.getResult(0);
  }

  // Every operand permuted by the final ranks (in place, through a copy of its line).
  Line ranks = PickLine(b, loc, in_a, s.ranks_a, s.ranks_b);
  ArrayRef<Line> originals = sources;
  if (!copies.empty()) {
    ForRange(b, loc, zero, n, [&](OpBuilder& nb, Location l, Value i) {
      for (auto [line, copy] : llvm::zip(lines, copies)) copy.Store(nb, l, line.Load(nb, l, i), i);
    });
    originals = copies;
  }
  ForRange(b, loc, zero, n, [&](OpBuilder& nb, Location l, Value i) {
    Value from = arith::IndexCastUIOp::create(nb, l, nb.getIndexType(), ranks.Load(nb, l, i));
    for (auto [line, original] : llvm::zip(lines, originals)) line.Store(nb, l, original.Load(nb, l, from), i);
  });
}

}  // namespace kiln::compiler::cpu
