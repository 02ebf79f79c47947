#include "compiler/codegen/cpu/FlashAttention.h"

#include <cmath>
#include <limits>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "compiler/input/iree/IreeDialects.h"
#include "compiler/utils/AttentionLoops.h"
#include "compiler/utils/Regions.h"

namespace kiln::compiler::cpu {

using namespace mlir;

namespace {

// The loops `map` names, in result order, or nothing when a result is not a loop.
std::optional<SmallVector<unsigned>> ResultLoops(AffineMap map) {
  SmallVector<unsigned> loops;
  for (AffineExpr e : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim) return std::nullopt;
    loops.push_back(dim.getPosition());
  }
  return loops;
}

using Body = function_ref<void(OpBuilder&, Location, ValueRange)>;

// `value` as f32: extended when it is a narrower float.
Value ToF32(OpBuilder& b, Location loc, Value value) {
  if (value.getType().isF32()) return value;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), value);
}

// Whether the score region yields its argument unchanged.
bool IsIdentityRegion(Block& block) {
  return block.getNumArguments() == 1 && block.getTerminator()->getNumOperands() == 1 &&
         block.getTerminator()->getOperand(0) == block.getArgument(0);
}

// Whether the flash loops take operands of `type`: f32, or f16 and bf16, which they widen
// as they read them (and round the output into).
bool IsFlashElement(Type type) { return type.isF32() || type.isF16() || type.isBF16(); }

// A linalg.generic on buffers over `loop_count` loops (those not in `parallel` are
// reductions).
void Generic(OpBuilder& b, Location loc, ValueRange ins, ValueRange outs, ArrayRef<AffineMap> maps,
             ArrayRef<utils::IteratorType> iterators, Body body) {
  linalg::GenericOp::create(b, loc, TypeRange{}, ins, outs, maps, iterators, body);
}

// Builds the flash loops of one attention op on memrefs (FlashAttention.h).
class FlashBuilder {
 public:
  FlashBuilder(RewriterBase& b, Operation* op)
      : b_(b),
        op_(op),
        loc_(op->getLoc()),
        f32_(b.getF32Type()),
        rank_(cast<MemRefType>(op->getOperand(0).getType()).getRank()) {}

  void Build() {
    Value q = op_->getOperand(0);
    int64_t batch = rank_ - 2;
    b_.setInsertionPoint(op_);
    Value zero = arith::ConstantIndexOp::create(b_, loc_, 0), one = arith::ConstantIndexOp::create(b_, loc_, 1);
    SmallVector<Value> lbs(batch, zero), ubs, steps(batch, one);
    for (int64_t d = 0; d < batch; ++d) ubs.push_back(memref::DimOp::create(b_, loc_, q, d));
    AllocateScratch();
    scf::buildLoopNest(b_, loc_, lbs, ubs, steps, [&](OpBuilder& nested, Location, ValueRange ivs) {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
      BuildHead(ivs);
    });
    for (Value heap : heap_) memref::DeallocOp::create(b_, loc_, heap);
    b_.eraseOp(op_);
  }

 private:
  AffineMap Map(unsigned dims, ArrayRef<unsigned> results) {
    SmallVector<AffineExpr> exprs;
    for (unsigned r : results) exprs.push_back(b_.getAffineDimExpr(r));
    return AffineMap::get(dims, 0, exprs, b_.getContext());
  }

  Value Constant(double value) { return arith::ConstantOp::create(b_, loc_, b_.getFloatAttr(f32_, value)); }

  // A buffer of f32 `shape`: on the stack at the start of the function when static, else
  // on the heap around the op.
  Value Scratch(ArrayRef<OpFoldResult> shape) {
    SmallVector<int64_t> static_shape;
    SmallVector<Value> dynamic;
    for (OpFoldResult size : shape) {
      std::optional<int64_t> c = getConstantIntValue(size);
      static_shape.push_back(c ? *c : ShapedType::kDynamic);
      if (!c) dynamic.push_back(cast<Value>(size));
    }
    auto type = MemRefType::get(static_shape, f32_);
    if (dynamic.empty()) {
      OpBuilder::InsertionGuard guard(b_);
      auto fn = op_->getParentOfType<FunctionOpInterface>();
      b_.setInsertionPointToStart(&fn.getFunctionBody().front());
      return memref::AllocaOp::create(b_, loc_, type, ValueRange{}, b_.getI64IntegerAttr(64));
    }
    Value heap = memref::AllocOp::create(b_, loc_, type, dynamic, b_.getI64IntegerAttr(64));
    heap_.push_back(heap);
    return heap;
  }

  void AllocateScratch() {
    OpFoldResult rows = b_.getIndexAttr(kFlashQueryRows);
    OpFoldResult depth = memref::getMixedSize(b_, loc_, op_->getOperand(0), rank_ - 1);
    OpFoldResult columns = memref::getMixedSize(b_, loc_, op_->getOperand(4), rank_ - 1);
    scaled_q_ = Scratch({rows, depth});
    scores_ = Scratch({rows, b_.getIndexAttr(kFlashKeys)});
    acc_ = Scratch({rows, columns});
    max_ = Scratch({rows});
    safe_max_ = Scratch({rows});
    sum_ = Scratch({rows});
    correction_ = Scratch({rows});
    // Narrow K and V are widened a key block at a time, so that the products stay f32
    // contractions that the matmul kernels take.
    OpFoldResult keys = b_.getIndexAttr(kFlashKeys);
    if (!ElementOf(op_->getOperand(1)).isF32()) wide_k_ = Scratch({keys, depth});
    if (!ElementOf(op_->getOperand(2)).isF32()) {
      wide_v_ = Scratch({keys, memref::getMixedSize(b_, loc_, op_->getOperand(2), rank_ - 1)});
    }
  }

  static Type ElementOf(Value value) { return getElementTypeOrSelf(value.getType()); }

  // `block` (a [count, columns] slice of K or V) itself when f32, else widened into
  // `scratch`'s first `count` rows.
  Value Widened(Value block, Value scratch, OpFoldResult count, OpFoldResult columns) {
    if (!scratch) return block;
    OpFoldResult z = b_.getIndexAttr(0);
    Value wide = Slice(scratch, {z, z}, {count, columns});
    AffineMap id2 = Map(2, {0, 1});
    auto par = utils::IteratorType::parallel;
    Generic(b_, loc_, {block}, {wide}, {id2, id2}, {par, par}, [](OpBuilder& g, Location l, ValueRange a) {
      linalg::YieldOp::create(g, l, ToF32(g, l, a[0]));
    });
    return wide;
  }

  // `buffer`'s 2-D matrix at batch position `ivs` (its last two dimensions).
  Value Matrix(Value buffer, ValueRange ivs) {
    auto type = cast<MemRefType>(buffer.getType());
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end()), sizes(rank - 2, b_.getIndexAttr(1)),
        strides(rank, b_.getIndexAttr(1));
    offsets.append(2, b_.getIndexAttr(0));
    sizes.push_back(memref::getMixedSize(b_, loc_, buffer, rank - 2));
    sizes.push_back(memref::getMixedSize(b_, loc_, buffer, rank - 1));
    auto view_type = memref::SubViewOp::inferRankReducedResultType(type.getShape().take_back(2), type, offsets, sizes,
                                                                   strides);
    return memref::SubViewOp::create(b_, loc_, view_type, buffer, offsets, sizes, strides);
  }

  Value Slice(Value buffer, ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
    SmallVector<OpFoldResult> strides(offsets.size(), b_.getIndexAttr(1));
    return memref::SubViewOp::create(b_, loc_, buffer, offsets, sizes, strides);
  }

  // min(block, extent - start) as an index value.
  Value BlockSize(Value start, Value extent, int64_t block) {
    Value rest = arith::SubIOp::create(b_, loc_, extent, start);
    return arith::MinSIOp::create(b_, loc_, rest, arith::ConstantIndexOp::create(b_, loc_, block));
  }

  void BuildHead(ValueRange ivs) {
    Value q = Matrix(op_->getOperand(0), ivs), k = Matrix(op_->getOperand(1), ivs), v = Matrix(op_->getOperand(2), ivs);
    Value out = Matrix(op_->getOperand(4), ivs);
    Value queries = memref::DimOp::create(b_, loc_, q, 0), keys = memref::DimOp::create(b_, loc_, k, 0);
    Value zero = arith::ConstantIndexOp::create(b_, loc_, 0);
    Value step = arith::ConstantIndexOp::create(b_, loc_, kFlashQueryRows);
    auto block_loop = scf::ForOp::create(b_, loc_, zero, queries, step);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(block_loop.getBody());
    Value m0 = block_loop.getInductionVar();
    Value rows = BlockSize(m0, queries, kFlashQueryRows);
    BuildQueryBlock(q, k, v, out, m0, rows, keys);
  }

  // One block of `rows` query rows from `m0`: the state, the key blocks, the output rows.
  void BuildQueryBlock(Value q, Value k, Value v, Value out, Value m0, Value rows, Value keys) {
    OpFoldResult z = b_.getIndexAttr(0);
    OpFoldResult depth = memref::getMixedSize(b_, loc_, q, 1), columns = memref::getMixedSize(b_, loc_, out, 1);
    Value q_rows = Slice(q, {m0, z}, {rows, depth});
    Value scaled_q = Slice(scaled_q_, {z, z}, {rows, depth});
    Value acc = Slice(acc_, {z, z}, {rows, columns});
    Value max = Slice(max_, {z}, {rows}), safe_max = Slice(safe_max_, {z}, {rows});
    Value sum = Slice(sum_, {z}, {rows}), correction = Slice(correction_, {z}, {rows});
    State s{scaled_q, acc, max, safe_max, sum, correction, rows};

    // Q scaled in the scores' base (IREE: Q * scale * log2(e) before the dot product).
    Value scale = ToF32(b_, loc_, op_->getOperand(3));
    if (AttentionUsesExp2(op_)) scale = arith::MulFOp::create(b_, loc_, scale, Constant(M_LOG2E));
    auto par = utils::IteratorType::parallel;
    AffineMap id2 = Map(2, {0, 1}), row_of_2 = Map(2, {0});
    Generic(b_, loc_, {q_rows}, {scaled_q}, {id2, id2}, {par, par}, [&](OpBuilder& g, Location l, ValueRange a) {
      linalg::YieldOp::create(g, l, Value(arith::MulFOp::create(g, l, ToF32(g, l, a[0]), scale)));
    });
    linalg::FillOp::create(b_, loc_, Constant(0.0), acc);
    linalg::FillOp::create(b_, loc_, Constant(-std::numeric_limits<double>::infinity()), max);
    linalg::FillOp::create(b_, loc_, Constant(0.0), sum);

    // Full key blocks with static sizes, then the last partial block.
    Value zero = arith::ConstantIndexOp::create(b_, loc_, 0);
    Value block = arith::ConstantIndexOp::create(b_, loc_, kFlashKeys);
    Value full_end = arith::MulIOp::create(b_, loc_, arith::DivUIOp::create(b_, loc_, keys, block), block);
    auto key_loop = scf::ForOp::create(b_, loc_, zero, full_end, block);
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(key_loop.getBody());
      BuildKeyBlock(s, k, v, key_loop.getInductionVar(), b_.getIndexAttr(kFlashKeys));
    }
    Value partial = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, full_end, keys);
    auto last = scf::IfOp::create(b_, loc_, partial, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(&last.getThenRegion().front());
      BuildKeyBlock(s, k, v, full_end, arith::SubIOp::create(b_, loc_, keys, full_end).getResult());
    }

    // out = acc / sum.
    Value out_rows = Slice(out, {m0, z}, {rows, columns});
    Type out_element = ElementOf(out);
    Generic(b_, loc_, {acc, sum}, {out_rows}, {id2, row_of_2, id2}, {par, par},
            [&](OpBuilder& g, Location l, ValueRange a) {
              Value quotient = arith::DivFOp::create(g, l, a[0], a[1]);
              if (out_element != quotient.getType()) quotient = arith::TruncFOp::create(g, l, out_element, quotient);
              linalg::YieldOp::create(g, l, quotient);
            });
  }

  struct State {
    Value scaled_q, acc, max, safe_max, sum, correction, rows;
  };

  // The keys [k0, k0 + count): scores, online softmax update, P V.
  void BuildKeyBlock(const State& s, Value k, Value v, Value k0, OpFoldResult count) {
    OpFoldResult z = b_.getIndexAttr(0);
    OpFoldResult depth = memref::getMixedSize(b_, loc_, k, 1), columns = memref::getMixedSize(b_, loc_, v, 1);
    Value keys = Widened(Slice(k, {k0, z}, {count, depth}), wide_k_, count, depth);
    Value values = Widened(Slice(v, {k0, z}, {count, columns}), wide_v_, count, columns);
    Value scores = Slice(scores_, {z, z}, {s.rows, count});
    auto par = utils::IteratorType::parallel, red = utils::IteratorType::reduction;
    AffineMap id2 = Map(2, {0, 1}), row_of_2 = Map(2, {0}), id1 = Map(1, {0});
    auto multiply_add = [](OpBuilder& g, Location l, ValueRange a) {
      Value product = arith::MulFOp::create(g, l, a[0], a[1]);
      linalg::YieldOp::create(g, l, Value(arith::AddFOp::create(g, l, product, a[2])));
    };

    // S = Qs K^T over (row i, key j, depth d): K is [keys, depth], a linear layer's W.
    linalg::FillOp::create(b_, loc_, Constant(0.0), scores);
    Generic(b_, loc_, {s.scaled_q, keys}, {scores}, {Map(3, {0, 2}), Map(3, {1, 2}), Map(3, {0, 1})}, {par, par, red},
            multiply_add);
    Region& region = op_->getRegion(0);
    if (!region.empty() && !IsIdentityRegion(region.front())) {
      Generic(b_, loc_, {}, {scores}, {id2}, {par, par}, [&](OpBuilder& g, Location l, ValueRange a) {
        linalg::YieldOp::create(g, l, InlineYieldedValue(g, region.front(), a[0]));
      });
    }

    // New maxima; the correction exp2(old - new) of the sums and the accumulator. A row
    // whose maximum is still -infinity subtracts 0 instead (its weights are then
    // exp2(-inf) = 0, not NaN).
    linalg::CopyOp::create(b_, loc_, s.max, s.safe_max);
    Generic(b_, loc_, {scores}, {s.safe_max}, {id2, row_of_2}, {par, red}, [&](OpBuilder& g, Location l, ValueRange a) {
      linalg::YieldOp::create(g, l, Value(arith::MaximumFOp::create(g, l, a[0], a[1])));
    });
    bool exp2 = AttentionUsesExp2(op_);
    // exp2(x) as exp(x ln 2): kiln-cpu-approximate-math expands math.exp into a polynomial
    // that vectorises, while math.exp2 would stay a call to libm.
    auto exponential = [exp2](OpBuilder& g, Location l, Value x) -> Value {
      if (exp2) x = arith::MulFOp::create(g, l, x, arith::ConstantOp::create(g, l, g.getF32FloatAttr(M_LN2)));
      return math::ExpOp::create(g, l, x);
    };
    Generic(b_, loc_, {}, {s.max, s.safe_max, s.correction, s.sum}, {id1, id1, id1, id1}, {par},
            [&](OpBuilder& g, Location l, ValueRange a) {
              Value old_max = a[0], new_max = a[1], old_sum = a[3];
              Value minus_inf = arith::ConstantOp::create(
                  g, l, g.getFloatAttr(g.getF32Type(), -std::numeric_limits<double>::infinity()));
              Value zero = arith::ConstantOp::create(g, l, g.getFloatAttr(g.getF32Type(), 0.0));
              Value none = arith::CmpFOp::create(g, l, arith::CmpFPredicate::OEQ, new_max, minus_inf);
              Value safe = arith::SelectOp::create(g, l, none, zero, new_max);
              Value correction = exponential(g, l, arith::SubFOp::create(g, l, old_max, safe));
              Value sum = arith::MulFOp::create(g, l, old_sum, correction);
              linalg::YieldOp::create(g, l, ValueRange{new_max, safe, correction, sum});
            });
    // P = exp2(S - max), in place; its row sums; acc * correction + P V.
    Generic(b_, loc_, {s.safe_max}, {scores}, {row_of_2, id2}, {par, par}, [&](OpBuilder& g, Location l, ValueRange a) {
      linalg::YieldOp::create(g, l, exponential(g, l, arith::SubFOp::create(g, l, a[1], a[0])));
    });
    Generic(b_, loc_, {scores}, {s.sum}, {id2, row_of_2}, {par, red}, [&](OpBuilder& g, Location l, ValueRange a) {
      linalg::YieldOp::create(g, l, Value(arith::AddFOp::create(g, l, a[0], a[1])));
    });
    Generic(b_, loc_, {s.correction}, {s.acc}, {row_of_2, id2}, {par, par}, [&](OpBuilder& g, Location l, ValueRange a) {
      linalg::YieldOp::create(g, l, Value(arith::MulFOp::create(g, l, a[0], a[1])));
    });
    // acc += P V over (row i, column c, key j): V is [keys, columns], a matmul's B.
    Generic(b_, loc_, {scores, values}, {s.acc}, {Map(3, {0, 2}), Map(3, {2, 1}), Map(3, {0, 1})}, {par, par, red},
            multiply_add);
  }

  RewriterBase& b_;
  Operation* op_;
  Location loc_;
  Type f32_;
  int64_t rank_;  // of every shaped operand
  Value scaled_q_, scores_, acc_, max_, safe_max_, sum_, correction_;
  Value wide_k_, wide_v_;  // null when K (V) is f32
  SmallVector<Value> heap_;
};

}  // namespace

std::optional<FlashAttentionLoops> MatchCpuFlashAttention(Operation* op, std::string& why) {
  if (!isa<iree::AttentionOp>(op)) {
    why = "only iree_linalg_ext.attention (not online_attention) runs as flash tiles";
    return std::nullopt;
  }
  if (op->getNumOperands() != 5 || op->getNumResults() > 1) {
    why = "it has a mask";
    return std::nullopt;
  }
  for (Value operand : op->getOperands()) {
    if (!IsFlashElement(getElementTypeOrSelf(operand.getType()))) {
      why = "its operands are not all f32, f16 or bf16";
      return std::nullopt;
    }
  }
  auto maps_attr = op->getAttrOfType<ArrayAttr>("indexing_maps");
  if (!maps_attr || maps_attr.size() != 5) {
    why = "it has no indexing map per operand";
    return std::nullopt;
  }
  SmallVector<AffineMap> maps = llvm::to_vector(maps_attr.getAsValueRange<AffineMapAttr>());
  std::optional<SmallVector<unsigned>> q = ResultLoops(maps[0]), k = ResultLoops(maps[1]), v = ResultLoops(maps[2]),
                                       o = ResultLoops(maps[4]);
  why = "its operands are not Q (batch..., m, k1), K (batch..., k2, k1), V (batch..., k2, n) and output "
        "(batch..., m, n)";
  if (!q || !k || !v || !o || maps[3].getNumResults() != 0 || q->size() < 2) return std::nullopt;
  size_t rank = q->size();
  if (k->size() != rank || v->size() != rank || o->size() != rank || maps[0].getNumDims() != rank + 2) {
    return std::nullopt;
  }
  FlashAttentionLoops loops;
  loops.batch.assign(q->begin(), q->end() - 2);
  loops.m = (*q)[rank - 2];
  loops.k1 = (*q)[rank - 1];
  loops.k2 = (*k)[rank - 2];
  loops.n = (*v)[rank - 1];
  auto batch_of = [&](const SmallVector<unsigned>& x) { return ArrayRef<unsigned>(x).drop_back(2); };
  if (batch_of(*k) != ArrayRef<unsigned>(loops.batch) || batch_of(*v) != ArrayRef<unsigned>(loops.batch) ||
      batch_of(*o) != ArrayRef<unsigned>(loops.batch) || (*k)[rank - 1] != loops.k1 || (*v)[rank - 2] != loops.k2 ||
      (*o)[rank - 2] != loops.m || (*o)[rank - 1] != loops.n) {
    return std::nullopt;
  }
  SmallVector<unsigned> all = loops.batch;
  all.append({loops.m, loops.k1, loops.k2, loops.n});
  llvm::sort(all);
  if (std::adjacent_find(all.begin(), all.end()) != all.end()) return std::nullopt;
  // The scores are f32 whatever the operands' type: a region that changes them must take
  // and yield f32 (one that yields its argument is skipped, of any type).
  Region& region = op->getRegion(0);
  if (!region.empty() && !IsIdentityRegion(region.front())) {
    Block& block = region.front();
    if (block.getNumArguments() != 1 || !block.getArgument(0).getType().isF32() ||
        block.getTerminator()->getNumOperands() != 1 || !block.getTerminator()->getOperand(0).getType().isF32()) {
      why = "its score region does not map one f32 to one f32";
      return std::nullopt;
    }
  }
  why.clear();
  return loops;
}

LogicalResult LowerToFlashAttention(RewriterBase& rewriter, Operation* op) {
  std::string why;
  std::optional<FlashAttentionLoops> loops = MatchCpuFlashAttention(op, why);
  if (!loops) return op->emitOpError() << "cannot be computed as flash attention on the CPU: " << why;
  for (Value operand : op->getOperands()) {
    if (isa<TensorType>(operand.getType())) return op->emitOpError() << "expects buffers: lowered after bufferization";
  }
  FlashBuilder(rewriter, op).Build();
  return success();
}

}  // namespace kiln::compiler::cpu
