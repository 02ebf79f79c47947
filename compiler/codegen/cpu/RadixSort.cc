#include "compiler/codegen/cpu/RadixSort.h"

#include <algorithm>

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// How the 32-bit keys are cut into digits: 4 of 8 bits, or, for lines of at least
// kWideDigitsFrom elements, 3 of 11 bits (one pass fewer; 2048 buckets, whose histograms
// and bucket starts cost too much for short lines). On an Intel Xeon with AVX-512 a C model
// of the passes ran 15-20% faster at 64K-1M elements; kiln's sort of two 512K runs, 5-6%.
struct Digits {
  int bits, passes;
  int buckets() const { return 1 << bits; }
  int slots() const { return passes * buckets(); }
};
constexpr Digits kNarrowDigits{8, 4};
constexpr Digits kWideDigits{11, 3};
constexpr int64_t kWideDigitsFrom = 65536;
// Lines the passes alternate between (keys and ranks, packed operands).
constexpr int64_t kPingPong = 2;
// RadixMovesOperands: the most bytes an element of all operands that the passes move.
constexpr int64_t kMaxMovedBytes = 16;

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

Value DigitSlot(OpBuilder& b, Location loc, const Digits& d, Value key, int pass) {
  Value digit = arith::ShRUIOp::create(b, loc, key, I32(b, loc, pass * d.bits));
  digit = arith::AndIOp::create(b, loc, digit, I32(b, loc, d.buckets() - 1));
  digit = arith::AddIOp::create(b, loc, digit, I32(b, loc, pass * d.buckets()));
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

bool RadixMovesOperands(TypeRange elements) {
  int64_t bytes = 0;
  for (Type element : elements) {
    if (ScratchElementBytes(element) == 0) return false;
    bytes += ScratchElementBytes(element);
  }
  return bytes <= kMaxMovedBytes;
}

Type RadixPackedType(MLIRContext* context, TypeRange elements) {
  if (elements.size() < 2 || !RadixMovesOperands(elements)) return {};
  int64_t bits = 0, bytes = 0;
  for (Type element : elements) {
    if (!(isa<IntegerType>(element) || isa<FloatType>(element)) || element.getIntOrFloatBitWidth() > 32) return {};
    bits += element.getIntOrFloatBitWidth();
    bytes += ScratchElementBytes(element);
  }
  int64_t packed_bits = bits <= 32 ? 32 : 64;
  if (bits > 64 || packed_bits / 8 > bytes) return {};
  return IntegerType::get(context, packed_bits);
}

SmallVector<std::pair<Type, Value>> RadixScratchShapes(OpBuilder& b, Location loc, Value radix_n, bool moves_operands,
                                                       Type packed) {
  Type i32 = b.getI32Type();
  int64_t slots = std::max(kNarrowDigits.slots(), kWideDigits.slots());
  SmallVector<std::pair<Type, Value>> shapes{{i32, IndexConstant(b, loc, slots)}};
  if (!moves_operands) shapes.append(kPingPong, {b.getI64Type(), radix_n});
  if (packed) shapes.append(kPingPong, {packed, radix_n});
  return shapes;
}

RadixScratch RadixScratchOf(ArrayRef<Line> radix_lines, bool moves_operands, Type packed, ArrayRef<Line> operands_a,
                            ArrayRef<Line> operands_b) {
  RadixScratch scratch{radix_lines.front(), {}, SmallVector<Line>(operands_a), SmallVector<Line>(operands_b), {}};
  ArrayRef<Line> rest = radix_lines.drop_front();
  if (!moves_operands) {
    scratch.keys_and_ranks.assign(rest.begin(), rest.begin() + kPingPong);
    rest = rest.drop_front(kPingPong);
  }
  if (packed) scratch.packed.assign(rest.begin(), rest.begin() + kPingPong);
  return scratch;
}

namespace {

// Bucket counts of `pass` become bucket starts.
void EmitBucketStarts(OpBuilder& b, Location loc, const Digits& d, const Line& h, int pass) {
  Value base = IndexConstant(b, loc, pass * d.buckets());
  scf::ForOp::create(b, loc, IndexConstant(b, loc, 0), IndexConstant(b, loc, d.buckets()), IndexConstant(b, loc, 1),
                     ValueRange{I32(b, loc, 0)}, [&](OpBuilder& fb, Location fl, Value digit, ValueRange sum) {
                       Value slot = arith::AddIOp::create(fb, fl, base, digit);
                       Value count = h.Load(fb, fl, slot);
                       h.Store(fb, fl, sum[0], slot);
                       scf::YieldOp::create(fb, fl, Value(arith::AddIOp::create(fb, fl, sum[0], count)));
                     });
}

// Whether one bucket of `pass` holds all n keys (`some_key` being one of them): the pass
// would move nothing.
Value IsTrivialPass(OpBuilder& b, Location loc, const Digits& d, const Line& h, Value some_key, int pass, Value n) {
  Value n_i32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), n);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, h.Load(b, loc, DigitSlot(b, loc, d, some_key, pass)),
                               n_i32);
}

// The elements of one set of lines at position i: one value per line. A pass reads
// elements of `from` and writes them to `to` through `convert` (packing or unpacking
// them, or leaving them as they are).
using ElementsOf = llvm::function_ref<SmallVector<Value>(OpBuilder&, Location, ValueRange)>;
// The key of an element, from its values as read.
using KeyOfElement = llvm::function_ref<Value(OpBuilder&, Location, ValueRange)>;

// One stable pass: every element of `from` to its bucket's next place in `to`.
void EmitScatter(OpBuilder& b, Location loc, const Digits& d, const Line& h, int pass, ArrayRef<Line> from,
                 ArrayRef<Line> to, Value n, KeyOfElement key_of, ElementsOf convert) {
  EmitBucketStarts(b, loc, d, h, pass);
  ForRange(b, loc, IndexConstant(b, loc, 0), n, [&](OpBuilder& fb, Location fl, Value i) {
    SmallVector<Value> values = LoadAll(fb, fl, from, i);
    Value slot = DigitSlot(fb, fl, d, key_of(fb, fl, values), pass);
    Value at = h.Load(fb, fl, slot);
    h.Store(fb, fl, arith::AddIOp::create(fb, fl, at, I32(fb, fl, 1)), slot);
    Value target = arith::IndexCastUIOp::create(fb, fl, fb.getIndexType(), at);
    StoreAll(fb, fl, to, convert(fb, fl, values), target);
  });
}

void EmitCopy(OpBuilder& b, Location loc, ArrayRef<Line> from, ArrayRef<Line> to, Value n, ElementsOf convert) {
  ForRange(b, loc, IndexConstant(b, loc, 0), n, [&](OpBuilder& fb, Location fl, Value i) {
    StoreAll(fb, fl, to, convert(fb, fl, LoadAll(fb, fl, from, i)), i);
  });
}

SmallVector<Value> AsRead(OpBuilder&, Location, ValueRange values) { return SmallVector<Value>(values); }

// Packing (RadixPackedType): operand j's bits at offset sum of the widths before it.
Value Pack(OpBuilder& b, Location loc, Type packed, ValueRange values) {
  Value result;
  int64_t offset = 0;
  for (Value v : values) {
    unsigned width = v.getType().getIntOrFloatBitWidth();
    if (isa<FloatType>(v.getType())) v = arith::BitcastOp::create(b, loc, b.getIntegerType(width), v);
    if (width < packed.getIntOrFloatBitWidth()) v = arith::ExtUIOp::create(b, loc, packed, v);
    if (offset > 0) v = arith::ShLIOp::create(b, loc, v, arith::ConstantIntOp::create(b, loc, packed, offset));
    result = result ? Value(arith::OrIOp::create(b, loc, result, v)) : v;
    offset += width;
  }
  return result;
}

// Operands [0, count) of a packed element.
SmallVector<Value> Unpack(OpBuilder& b, Location loc, Value packed, TypeRange elements, size_t count) {
  SmallVector<Value> values;
  int64_t offset = 0;
  for (Type element : elements.take_front(count)) {
    unsigned width = element.getIntOrFloatBitWidth();
    Value v = packed;
    if (offset > 0) {
      v = arith::ShRUIOp::create(b, loc, v, arith::ConstantIntOp::create(b, loc, packed.getType(), offset));
    }
    if (width < packed.getType().getIntOrFloatBitWidth()) {
      v = arith::TruncIOp::create(b, loc, b.getIntegerType(width), v);
    }
    if (isa<FloatType>(element)) v = arith::BitcastOp::create(b, loc, element, v);
    values.push_back(v);
    offset += width;
  }
  return values;
}

SmallVector<Line> PickLines(OpBuilder& b, Location loc, Value first, ArrayRef<Line> x, ArrayRef<Line> y) {
  SmallVector<Line> picked;
  for (auto [a, c] : llvm::zip(x, y)) picked.push_back(PickLine(b, loc, first, a, c));
  return picked;
}

// Every pass's histogram in one read of the keys; the zeroing is part of it.
void EmitHistograms(OpBuilder& b, Location loc, const Digits& d, const Line& h, Value n,
                    llvm::function_ref<Value(OpBuilder&, Location, Value)> key_at) {
  Value zero = IndexConstant(b, loc, 0);
  ForRange(b, loc, zero, IndexConstant(b, loc, d.slots()),
           [&](OpBuilder& nb, Location l, Value i) { h.Store(nb, l, I32(nb, l, 0), i); });
  ForRange(b, loc, zero, n, [&](OpBuilder& nb, Location l, Value i) {
    Value k = key_at(nb, l, i);
    for (int pass = 0; pass < d.passes; ++pass) {
      Value slot = DigitSlot(nb, l, d, k, pass);
      h.Store(nb, l, arith::AddIOp::create(nb, l, h.Load(nb, l, slot), I32(nb, l, 1)), slot);
    }
  });
}

// The operands through the passes: the first from `sources` into scratch A (a copy when
// trivial), the middle ones between A and B, the last from there into `lines` (a copy
// when trivial). Two copies at most, and none of the gather's random reads. With packed
// scratch (RadixPackedType) the first pass packs each element and the last unpacks it.
void EmitMovingOperands(OpBuilder& b, Location loc, const Digits& d, const RadixKey& key, const RadixScratch& s,
                        ArrayRef<Line> sources, ArrayRef<Line> lines, Value n) {
  const Line& h = s.histograms;
  bool packed = !s.packed.empty();
  SmallVector<Type> elements;
  for (const Line& line : lines) elements.push_back(cast<MemRefType>(line.memref.getType()).getElementType());
  auto key_of_operands = [&](OpBuilder& kb, Location l, ValueRange values) { return KeyOf(kb, l, key, values[0]); };
  auto key_of_packed = [&](OpBuilder& kb, Location l, ValueRange values) {
    return KeyOf(kb, l, key, Unpack(kb, l, values[0], elements, 1)[0]);
  };
  auto pack = [&](OpBuilder& pb, Location l, ValueRange values) {
    return SmallVector<Value>{Pack(pb, l, cast<MemRefType>(s.packed[0].memref.getType()).getElementType(), values)};
  };
  auto unpack = [&](OpBuilder& ub, Location l, ValueRange values) {
    return Unpack(ub, l, values[0], elements, elements.size());
  };
  ArrayRef<Line> scratch_a = packed ? ArrayRef<Line>(s.packed[0]) : ArrayRef<Line>(s.operands_a);
  ArrayRef<Line> scratch_b = packed ? ArrayRef<Line>(s.packed[1]) : ArrayRef<Line>(s.operands_b);
  EmitHistograms(b, loc, d, h, n,
                 [&](OpBuilder& kb, Location l, Value i) { return KeyOf(kb, l, key, sources[0].Load(kb, l, i)); });
  Value zero = IndexConstant(b, loc, 0);
  Value in_a = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (int pass = 0; pass < d.passes; ++pass) {
    bool first = pass == 0, last = pass == d.passes - 1;
    SmallVector<Line> from = first ? SmallVector<Line>(sources) : PickLines(b, loc, in_a, scratch_a, scratch_b);
    SmallVector<Line> to = first  ? SmallVector<Line>(scratch_a)
                           : last ? SmallVector<Line>(lines)
                                  : PickLines(b, loc, in_a, scratch_b, scratch_a);
    KeyOfElement key_of = first || !packed ? KeyOfElement(key_of_operands) : KeyOfElement(key_of_packed);
    ElementsOf convert = !packed ? ElementsOf(AsRead) : first ? ElementsOf(pack) : last ? ElementsOf(unpack)
                                                                                      : ElementsOf(AsRead);
    Value trivial = IsTrivialPass(b, loc, d, h, key_of(b, loc, LoadAll(b, loc, from, zero)), pass, n);
    auto step = scf::IfOp::create(
        b, loc, trivial,
        [&](OpBuilder& tb, Location l) {
          if (first || last) EmitCopy(tb, l, from, to, n, convert);
          scf::YieldOp::create(tb, l, first ? Value(arith::ConstantIntOp::create(tb, l, 1, 1)) : in_a);
        },
        [&](OpBuilder& eb, Location l) {
          EmitScatter(eb, l, d, h, pass, from, to, n, key_of, convert);
          Value now_in_a = first ? Value(arith::ConstantIntOp::create(eb, l, 1, 1))
                                 : arith::XOrIOp::create(eb, l, in_a, arith::ConstantIntOp::create(eb, l, 1, 1));
          scf::YieldOp::create(eb, l, now_in_a);
        });
    in_a = step.getResult(0);
  }
}

// 32-bit keys and their ranks through the passes, each pair one i64 (the key in the low
// half: one store an element a pass, as for packed operands), then every operand gathered
// through the final ranks (in place, through a copy of its line in scratch A).
void EmitKeysAndRanks(OpBuilder& b, Location loc, const Digits& d, const RadixKey& key, const RadixScratch& s,
                      ArrayRef<Line> sources, ArrayRef<Line> lines, Value n) {
  const Line& h = s.histograms;
  const Line &pairs_a = s.keys_and_ranks[0], &pairs_b = s.keys_and_ranks[1];
  Type i64 = b.getI64Type();
  auto high_half = [&](OpBuilder& pb, Location l) { return arith::ConstantIntOp::create(pb, l, i64, 32); };
  EmitHistograms(b, loc, d, h, n, [&](OpBuilder& kb, Location l, Value i) {
    Value k = KeyOf(kb, l, key, sources[0].Load(kb, l, i));
    Value rank = arith::ShLIOp::create(kb, l, arith::IndexCastUIOp::create(kb, l, i64, i), high_half(kb, l));
    pairs_a.Store(kb, l, arith::OrIOp::create(kb, l, arith::ExtUIOp::create(kb, l, i64, k), rank), i);
    return k;
  });
  Value zero = IndexConstant(b, loc, 0);
  Value in_a = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto key_of_pair = [](OpBuilder& kb, Location l, ValueRange pair) -> Value {
    return arith::TruncIOp::create(kb, l, kb.getI32Type(), pair[0]);
  };
  for (int pass = 0; pass < d.passes; ++pass) {
    Line from = PickLine(b, loc, in_a, pairs_a, pairs_b);
    Line to = PickLine(b, loc, in_a, pairs_b, pairs_a);
    Value trivial = IsTrivialPass(b, loc, d, h, key_of_pair(b, loc, from.Load(b, loc, zero)), pass, n);
    auto step = scf::IfOp::create(
        b, loc, trivial, [&](OpBuilder& tb, Location l) { scf::YieldOp::create(tb, l, in_a); },
        [&](OpBuilder& eb, Location l) {
          EmitScatter(eb, l, d, h, pass, from, to, n, key_of_pair, AsRead);
          Value flipped = arith::XOrIOp::create(eb, l, in_a, arith::ConstantIntOp::create(eb, l, 1, 1));
          scf::YieldOp::create(eb, l, flipped);
        });
    in_a = step.getResult(0);
  }

  Line pairs = PickLine(b, loc, in_a, pairs_a, pairs_b);
  ArrayRef<Line> originals = sources;
  // Sources and lines of one sort share their positions: the same memrefs mean in place.
  if (sources.front().memref == lines.front().memref) {
    EmitCopy(b, loc, lines, s.operands_a, n, AsRead);
    originals = s.operands_a;
  }
  ForRange(b, loc, zero, n, [&](OpBuilder& nb, Location l, Value i) {
    Value rank = arith::ShRUIOp::create(nb, l, pairs.Load(nb, l, i), high_half(nb, l));
    Value from = arith::IndexCastUIOp::create(nb, l, nb.getIndexType(), rank);
    for (auto [line, original] : llvm::zip(lines, originals)) line.Store(nb, l, original.Load(nb, l, from), i);
  });
}

}  // namespace

void EmitRadixSortLine(OpBuilder& b, Location loc, const RadixKey& key, const RadixScratch& s, ArrayRef<Line> sources,
                       ArrayRef<Line> lines, Value n) {
  auto emit = [&](OpBuilder& db, Location l, const Digits& d) {
    if (s.keys_and_ranks.empty()) {
      EmitMovingOperands(db, l, d, key, s, sources, lines, n);
    } else {
      EmitKeysAndRanks(db, l, d, key, s, sources, lines, n);
    }
    scf::YieldOp::create(db, l);
  };
  Value wide = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n, IndexConstant(b, loc, kWideDigitsFrom));
  scf::IfOp::create(
      b, loc, wide, [&](OpBuilder& tb, Location l) { emit(tb, l, kWideDigits); },
      [&](OpBuilder& eb, Location l) { emit(eb, l, kNarrowDigits); });
}

}  // namespace kiln::compiler::cpu
