// attention and online_attention as linalg.generic ops (LinalgExtDecompositions.h).
//
// The loops of the op are classified by the operands that index them: k1 (Q and K, not
// the output: the dot product), k2 (K, not Q: the keys), the rest of Q (batch and query
// rows) and n (the output, not Q: value columns). Each step is a generic over a subset
// of the loops, its maps the op's maps restricted to that subset.
//
// The numerics are IREE's decomposition of the ops (docs/iree-compatibility.md): a
// softmax in base 2 (exp2), so the scores are scaled by scale * log2(e); Q is scaled
// before the dot product (in Q's element type) unless Q has 8 bits or fewer, whose
// scores are scaled after the score region; the region therefore sees
// log2(e) * scale * (Q K^T) (or the unscaled Q K^T for 8-bit Q); a float mask is
// multiplied by log2(e) and added after the region, an i1 mask adds 0 or -infinity.
// online_attention's max and sum are of those base-2 scores. An online_attention whose
// `decomposition_config` has `use_exp2 = false` uses exp and the plain scale, as IREE.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "compiler/transforms/LinalgExtDecompositions.h"
#include "compiler/utils/AttentionLoops.h"
#include "compiler/utils/Regions.h"

namespace kiln::compiler {

using namespace mlir;

namespace {

// `map` (over all loops) restricted to the loops of `domain`, renumbered.
AffineMap Restrict(AffineMap map, const LoopSet& domain) {
  SmallVector<AffineExpr> exprs;
  for (AffineExpr e : map.getResults()) {
    unsigned loop = cast<AffineDimExpr>(e).getPosition();
    exprs.push_back(getAffineDimExpr(llvm::find(domain, loop) - domain.begin(), map.getContext()));
  }
  return AffineMap::get(domain.size(), 0, exprs, map.getContext());
}

// The map of a tensor indexed by `loops` (in that order) from `domain`.
AffineMap MapOf(const LoopSet& loops, const LoopSet& domain, MLIRContext* ctx) {
  SmallVector<AffineExpr> exprs;
  for (unsigned loop : loops) exprs.push_back(getAffineDimExpr(llvm::find(domain, loop) - domain.begin(), ctx));
  return AffineMap::get(domain.size(), 0, exprs, ctx);
}

// The op's operands (inputs then outputs) and maps, in map order: Q, K, V, scale,
// [mask], outputs.
struct Attention {
  Location loc;
  SmallVector<Value> operands{};
  SmallVector<AffineMap> maps{};
  size_t input_count = 0;
  Type compute{};  // f32 for narrower floats, else the output's type
  Block* score_block = nullptr;
  bool use_exp2 = true;        // scores in base 2 (see the file comment)
  bool low_precision = false;  // Q has at most 8 bits: scaled after the region

  Value Q() const { return operands[0]; }
  Value K() const { return operands[1]; }
  Value V() const { return operands[2]; }
  Value Scale() const { return operands[3]; }
  Value Mask() const { return input_count == 5 ? operands[4] : Value(); }
  AffineMap MapOf(Value operand) const { return maps[llvm::find(operands, operand) - operands.begin()]; }

  // The extent of `loop`, from the first tensor that indexes it (the verifier makes
  // every loop indexed).
  OpFoldResult Extent(OpBuilder& b, unsigned loop) const {
    for (auto [operand, map] : llvm::zip(operands, maps)) {
      if (std::optional<unsigned> r = map.getResultPosition(getAffineDimExpr(loop, map.getContext()))) {
        return tensor::getMixedSize(b, loc, operand, *r);
      }
    }
    llvm_unreachable("verified: every loop is indexed by an operand");
  }

  Value Empty(OpBuilder& b, const LoopSet& loops, Type element = {}) const {
    SmallVector<OpFoldResult> sizes;
    for (unsigned loop : loops) sizes.push_back(Extent(b, loop));
    return tensor::EmptyOp::create(b, loc, sizes, element ? element : compute);
  }

  Value Filled(OpBuilder& b, const LoopSet& loops, double value) const {
    Value c = arith::ConstantOp::create(b, loc, b.getFloatAttr(compute, value));
    return linalg::FillOp::create(b, loc, c, Empty(b, loops)).getResult(0);
  }

  Value Cast(OpBuilder& b, Location l, Value x, Type to = {}) const {
    return convertScalarToDtype(b, l, x, to ? to : compute, /*isUnsignedCast=*/false);
  }
};

using Body = function_ref<void(OpBuilder&, Location, ValueRange)>;
using Binary = function_ref<Value(OpBuilder&, Location, Value, Value)>;

// A generic over `domain` reading `inputs` (with their loop maps) into `init`, which is
// indexed by `out_loops`; loops of `domain` outside `out_loops` are reductions.
Value Generic(OpBuilder& b, Location loc, const LoopSet& domain, ArrayRef<std::pair<Value, AffineMap>> inputs,
              Value init, const LoopSet& out_loops, Body body) {
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  for (auto [value, map] : inputs) {
    ins.push_back(value);
    maps.push_back(map);
  }
  maps.push_back(MapOf(out_loops, domain, b.getContext()));
  SmallVector<utils::IteratorType> iterators;
  for (unsigned loop : domain) {
    iterators.push_back(llvm::is_contained(out_loops, loop) ? utils::IteratorType::parallel
                                                            : utils::IteratorType::reduction);
  }
  return linalg::GenericOp::create(b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps, iterators, body)
      .getResult(0);
}

// init + x y, summed over the loops of `domain` that `out_loops` lacks; `x` and `y` are
// tensors indexed by `x_loops` / `y_map`.
Value Contract(OpBuilder& b, const Attention& a, const LoopSet& domain, Value x, AffineMap x_map, Value y,
               AffineMap y_map, Value init, const LoopSet& out_loops) {
  return Generic(b, a.loc, domain, {{x, x_map}, {y, y_map}}, init, out_loops,
                 [&](OpBuilder& g, Location l, ValueRange args) {
                   Value product = arith::MulFOp::create(g, l, a.Cast(g, l, args[0]), a.Cast(g, l, args[1]));
                   linalg::YieldOp::create(g, l, Value(arith::AddFOp::create(g, l, product, args[2])));
                 });
}

// The scores over (rows, keys) = `s_loops` in IREE's order: Q K^T of Q scaled by
// scale * log2(e) (or by scale with use_exp2 off), the score region, for 8-bit Q the
// scale then, and the mask.
Value Scores(OpBuilder& b, const Attention& a, const LoopSet& s_loops, const LoopSet& qk_loops) {
  Value scale = a.Scale();
  if (a.use_exp2) {
    Value log2e = arith::ConstantOp::create(b, a.loc, b.getFloatAttr(scale.getType(), M_LOG2E));
    scale = arith::MulFOp::create(b, a.loc, scale, log2e);
  }
  Value q = a.Q();
  AffineMap q_map = Restrict(a.MapOf(q), qk_loops);
  if (!a.low_precision) {
    // Q * scale in Q's element type, before the dot product; the scaled Q is indexed by
    // Q's loops in ascending order.
    LoopSet q_loops = LoopsOf(a.MapOf(q));
    Type q_element = cast<RankedTensorType>(q.getType()).getElementType();
    q = Generic(b, a.loc, q_loops, {{q, Restrict(a.MapOf(q), q_loops)}}, a.Empty(b, q_loops, q_element), q_loops,
                [&](OpBuilder& g, Location l, ValueRange args) {
                  Value scaled = arith::MulFOp::create(g, l, a.Cast(g, l, scale, q_element), args[0]);
                  linalg::YieldOp::create(g, l, scaled);
                });
    q_map = MapOf(q_loops, qk_loops, b.getContext());
  }
  Value dot = Contract(b, a, qk_loops, q, q_map, a.K(), Restrict(a.MapOf(a.K()), qk_loops), a.Filled(b, s_loops, 0.0),
                       s_loops);
  Value mask = a.Mask();
  SmallVector<std::pair<Value, AffineMap>> inputs = {{dot, MapOf(s_loops, s_loops, b.getContext())}};
  if (mask) inputs.push_back({mask, Restrict(a.MapOf(mask), s_loops)});
  return Generic(b, a.loc, s_loops, inputs, a.Empty(b, s_loops), s_loops, [&](OpBuilder& g, Location l, ValueRange args) {
    Value score = args[0];
    if (a.score_block) {
      Value arg = a.Cast(g, l, score, a.score_block->getArgument(0).getType());
      score = a.Cast(g, l, InlineYieldedValue(g, *a.score_block, arg));
    }
    if (a.low_precision) score = arith::MulFOp::create(g, l, score, a.Cast(g, l, scale));
    if (mask) {
      Value m = args[1];
      if (m.getType().isInteger(1)) {
        // 0 or -infinity added (IREE's additive mask), so a key that is masked out has
        // weight exp2(-infinity) = 0.
        Value zero = arith::ConstantOp::create(g, l, g.getFloatAttr(a.compute, 0.0));
        Value minus_inf = arith::ConstantOp::create(
            g, l, g.getFloatAttr(a.compute, -std::numeric_limits<double>::infinity()));
        score = arith::AddFOp::create(g, l, score, arith::SelectOp::create(g, l, m, zero, minus_inf));
      } else {
        Value m_scores = a.Cast(g, l, m);
        if (a.use_exp2) {
          m_scores = arith::MulFOp::create(g, l, m_scores,
                                           arith::ConstantOp::create(g, l, g.getFloatAttr(a.compute, M_LOG2E)));
        }
        score = arith::AddFOp::create(g, l, score, m_scores);
      }
    }
    linalg::YieldOp::create(g, l, score);
  });
}

// `f` of the scores along the keys, starting from `init` (over `row_loops`).
Value RowReduce(OpBuilder& b, const Attention& a, Value scores, const LoopSet& s_loops, const LoopSet& row_loops,
                Value init, Binary f) {
  return Generic(b, a.loc, s_loops, {{scores, MapOf(s_loops, s_loops, b.getContext())}}, init, row_loops,
                 [&](OpBuilder& g, Location l, ValueRange args) { linalg::YieldOp::create(g, l, f(g, l, args[0], args[1])); });
}

// init + P V, accumulated over the keys.
Value Values(OpBuilder& b, const Attention& a, Value p, const LoopSet& s_loops, const LoopSet& out_loops,
             Value init) {
  LoopSet domain = Union(out_loops, s_loops);
  return Contract(b, a, domain, p, MapOf(s_loops, domain, b.getContext()), a.V(), Restrict(a.MapOf(a.V()), domain),
                  init, out_loops);
}

// Elementwise `f(x, y)` of `x` over `loops` and `y` over `y_loops` ⊆ `loops`, computed
// in the compute type and converted to `init`'s element type.
Value Combine(OpBuilder& b, const Attention& a, Value x, const LoopSet& loops, Value y, const LoopSet& y_loops,
              Value init, Binary f) {
  MLIRContext* ctx = b.getContext();
  return Generic(b, a.loc, loops, {{x, MapOf(loops, loops, ctx)}, {y, MapOf(y_loops, loops, ctx)}}, init, loops,
                 [&](OpBuilder& g, Location l, ValueRange args) {
                   Value r = f(g, l, a.Cast(g, l, args[0]), a.Cast(g, l, args[1]));
                   linalg::YieldOp::create(g, l, a.Cast(g, l, r, args[2].getType()));
                 });
}

// `x` (over `loops`) with elements of type `element`; `x` itself when it has them.
Value Convert(OpBuilder& b, const Attention& a, Value x, const LoopSet& loops, Type element) {
  if (cast<RankedTensorType>(x.getType()).getElementType() == element) return x;
  MLIRContext* ctx = b.getContext();
  return Generic(b, a.loc, loops, {{x, MapOf(loops, loops, ctx)}}, a.Empty(b, loops, element), loops,
                 [&](OpBuilder& g, Location l, ValueRange args) {
                   linalg::YieldOp::create(g, l, a.Cast(g, l, args[0], element));
                 });
}

Value Maximum(OpBuilder& g, Location l, Value x, Value y) { return arith::MaximumFOp::create(g, l, x, y); }
Value Add(OpBuilder& g, Location l, Value x, Value y) { return arith::AddFOp::create(g, l, x, y); }
Value Multiply(OpBuilder& g, Location l, Value x, Value y) { return arith::MulFOp::create(g, l, x, y); }
Value Divide(OpBuilder& g, Location l, Value x, Value y) { return arith::DivFOp::create(g, l, x, y); }
Value ExpOfDifference(OpBuilder& g, Location l, Value x, Value y) {
  return math::ExpOp::create(g, l, arith::SubFOp::create(g, l, x, y));
}
Value Exp2OfDifference(OpBuilder& g, Location l, Value x, Value y) {
  return math::Exp2Op::create(g, l, arith::SubFOp::create(g, l, x, y));
}

}  // namespace

FailureOr<SmallVector<Value>> DecomposeAttention(RewriterBase& rewriter, Operation* op) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  Attention a{op->getLoc()};
  a.operands = llvm::to_vector(op->getOperands());
  a.maps = llvm::to_vector(op->getAttrOfType<ArrayAttr>("indexing_maps").getAsValueRange<AffineMapAttr>());
  a.input_count = dps.getNumDpsInputs();
  Value out = dps.getDpsInits()[0];
  Type out_element = cast<RankedTensorType>(out.getType()).getElementType();
  a.compute = cast<FloatType>(out_element).getWidth() < 32 ? Type(rewriter.getF32Type()) : out_element;
  if (!op->getRegion(0).empty()) a.score_block = &op->getRegion(0).front();
  a.low_precision = getElementTypeOrSelf(a.Q().getType()).getIntOrFloatBitWidth() <= 8;
  a.use_exp2 = AttentionUsesExp2(op);
  Binary exp_of_difference = a.use_exp2 ? Binary(Exp2OfDifference) : Binary(ExpOfDifference);

  AffineMap out_map = a.MapOf(out);
  LoopSet q_loops = LoopsOf(a.MapOf(a.Q())), k_loops = LoopsOf(a.MapOf(a.K())), out_loops = LoopsOf(out_map);
  LoopSet k1 = Minus(q_loops, out_loops);  // the dot product
  LoopSet qk_loops = Union(q_loops, k_loops);
  LoopSet s_loops = Minus(qk_loops, k1);   // rows and keys
  LoopSet row_loops = Minus(q_loops, k1);  // batch and query rows
  if (!Minus(row_loops, out_loops).empty()) {
    return op->emitOpError() << "expects every query loop other than the dot product's to index the output";
  }
  Value scores = Scores(rewriter, a, s_loops, qk_loops);
  Location loc = a.loc;
  constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

  if (isa<iree::AttentionOp>(op)) {
    Value max = RowReduce(rewriter, a, scores, s_loops, row_loops, a.Filled(rewriter, row_loops, kMinusInfinity),
                          Maximum);
    Value p = Combine(rewriter, a, scores, s_loops, max, row_loops, a.Empty(rewriter, s_loops), exp_of_difference);
    Value sum = RowReduce(rewriter, a, p, s_loops, row_loops, a.Filled(rewriter, row_loops, 0.0), Add);
    Value unnormalised = Values(rewriter, a, p, s_loops, out_loops, a.Filled(rewriter, out_loops, 0.0));
    // Divided by the row sums into the output's element type, in ascending loop order,
    // then transposed when the output map permutes the loops.
    Value normalised = Combine(rewriter, a, unnormalised, out_loops, sum, row_loops,
                               a.Empty(rewriter, out_loops, out_element), Divide);
    AffineMap order = Restrict(out_map, out_loops);
    if (!order.isIdentity()) {
      SmallVector<int64_t> permutation;
      for (AffineExpr e : order.getResults()) permutation.push_back(cast<AffineDimExpr>(e).getPosition());
      normalised = linalg::TransposeOp::create(rewriter, loc, normalised, out, permutation).getResult()[0];
    }
    return SmallVector<Value>{normalised};
  }

  // online_attention: acc, max and sum are updated from their initial values.
  Value acc = dps.getDpsInits()[0], old_max = dps.getDpsInits()[1], old_sum = dps.getDpsInits()[2];
  MLIRContext* ctx = rewriter.getContext();
  LoopSet all_loops = llvm::to_vector(llvm::seq<unsigned>(0, out_map.getNumDims()));
  AffineMap rows_in_order = MapOf(row_loops, all_loops, ctx);
  if (out_map != MapOf(out_loops, all_loops, ctx) || a.MapOf(old_max) != rows_in_order ||
      a.MapOf(old_sum) != rows_in_order) {
    return op->emitOpError() << "expects online_attention outputs indexed in loop order";
  }
  Value max_init = Convert(rewriter, a, old_max, row_loops, a.compute);
  Value new_max = RowReduce(rewriter, a, scores, s_loops, row_loops, max_init, Maximum);
  Value p = Combine(rewriter, a, scores, s_loops, new_max, row_loops, a.Empty(rewriter, s_loops), exp_of_difference);
  Value correction = Combine(rewriter, a, old_max, row_loops, new_max, row_loops, a.Empty(rewriter, row_loops),
                             exp_of_difference);
  Value scaled_sum = Combine(rewriter, a, old_sum, row_loops, correction, row_loops, a.Empty(rewriter, row_loops),
                             Multiply);
  Value new_sum = RowReduce(rewriter, a, p, s_loops, row_loops, scaled_sum, Add);
  Value scaled_acc = Combine(rewriter, a, acc, out_loops, correction, row_loops, a.Empty(rewriter, out_loops),
                             Multiply);
  Value new_acc = Values(rewriter, a, p, s_loops, out_loops, scaled_acc);
  auto element_of = [](Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); };
  return SmallVector<Value>{Convert(rewriter, a, new_acc, out_loops, element_of(acc)),
                            Convert(rewriter, a, new_max, row_loops, element_of(old_max)),
                            Convert(rewriter, a, new_sum, row_loops, element_of(old_sum))};
}

}  // namespace kiln::compiler
