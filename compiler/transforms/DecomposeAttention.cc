// attention and online_attention as linalg.generic ops (LinalgExtDecompositions.h).
//
// The loops of the op are classified by the operands that index them: k1 (Q and K, not
// the output: the dot product), k2 (K, not Q: the keys), the rest of Q (batch and query
// rows) and n (the output, not Q: value columns). Each step is a generic over a subset
// of the loops, its maps the op's maps restricted to that subset.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

#include "compiler/transforms/LinalgExtDecompositions.h"

namespace kiln::compiler {

using namespace mlir;

namespace {

using LoopSet = llvm::SmallVector<unsigned>;  // ascending loop numbers

LoopSet LoopsOf(AffineMap map) {
  LoopSet loops;
  for (AffineExpr e : map.getResults()) loops.push_back(cast<AffineDimExpr>(e).getPosition());
  llvm::sort(loops);
  return loops;
}

LoopSet Union(const LoopSet& a, const LoopSet& b) {
  LoopSet out = a;
  for (unsigned x : b) {
    if (!llvm::is_contained(out, x)) out.push_back(x);
  }
  llvm::sort(out);
  return out;
}

LoopSet Minus(const LoopSet& a, const LoopSet& b) {
  LoopSet out;
  for (unsigned x : a) {
    if (!llvm::is_contained(b, x)) out.push_back(x);
  }
  return out;
}

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

struct Attention {
  Location loc;
  SmallVector<Value> operands;  // tensors and the scale, in map order
  SmallVector<AffineMap> maps;
  Value q, k, v, scale, mask;
  AffineMap q_map, k_map, v_map, mask_map, out_map;
  Type compute;  // f32 for narrower floats, else the output's type
  Region* score_region;

  // The extent of `loop`, from the first tensor that indexes it.
  OpFoldResult Extent(OpBuilder& b, unsigned loop) const {
    for (auto [operand, map] : llvm::zip(operands, maps)) {
      if (!isa<RankedTensorType>(operand.getType())) continue;
      for (auto [r, e] : llvm::enumerate(map.getResults())) {
        if (cast<AffineDimExpr>(e).getPosition() == loop) return tensor::getMixedSize(b, loc, operand, r);
      }
    }
    llvm_unreachable("verified: every loop is indexed by an operand");
  }

  Value Empty(OpBuilder& b, const LoopSet& loops) const {
    SmallVector<OpFoldResult> sizes;
    for (unsigned loop : loops) sizes.push_back(Extent(b, loop));
    return tensor::EmptyOp::create(b, loc, sizes, compute);
  }

  Value Filled(OpBuilder& b, const LoopSet& loops, double value) const {
    Value c = arith::ConstantOp::create(b, loc, b.getFloatAttr(compute, value));
    return linalg::FillOp::create(b, loc, c, Empty(b, loops)).getResult(0);
  }

  Value Cast(OpBuilder& b, Location l, Value x) const {
    if (x.getType() == compute) return x;
    if (cast<FloatType>(x.getType()).getWidth() < cast<FloatType>(compute).getWidth()) {
      return arith::ExtFOp::create(b, l, compute, x);
    }
    return arith::TruncFOp::create(b, l, compute, x);
  }
};

using Body = function_ref<void(OpBuilder&, Location, ValueRange)>;

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

// scale * Q K^T through the score region and the mask, over (rows, keys) = `s_loops`.
Value Scores(OpBuilder& b, const Attention& a, const LoopSet& s_loops, const LoopSet& qk_loops) {
  Value dot = Generic(b, a.loc, qk_loops, {{a.q, Restrict(a.q_map, qk_loops)}, {a.k, Restrict(a.k_map, qk_loops)}},
                      a.Filled(b, s_loops, 0.0), s_loops, [&](OpBuilder& g, Location l, ValueRange args) {
                        Value product = arith::MulFOp::create(g, l, a.Cast(g, l, args[0]), a.Cast(g, l, args[1]));
                        linalg::YieldOp::create(g, l, Value(arith::AddFOp::create(g, l, product, args[2])));
                      });
  SmallVector<std::pair<Value, AffineMap>> inputs = {{dot, MapOf(s_loops, s_loops, b.getContext())}};
  if (a.mask) inputs.push_back({a.mask, Restrict(a.mask_map, s_loops)});
  return Generic(b, a.loc, s_loops, inputs, a.Empty(b, s_loops), s_loops, [&](OpBuilder& g, Location l, ValueRange args) {
    Value score = arith::MulFOp::create(g, l, args[0], a.Cast(g, l, a.scale));
    if (a.score_region && !a.score_region->empty()) {
      Block& block = a.score_region->front();
      IRMapping map;
      map.map(block.getArgument(0), score);
      for (Operation& inner : block.without_terminator()) g.clone(inner, map);
      score = a.Cast(g, l, map.lookup(block.getTerminator()->getOperand(0)));
    }
    if (a.mask) {
      Value m = args[1];
      if (m.getType().isInteger(1)) {
        Value minus_inf = arith::ConstantOp::create(
            g, l, g.getFloatAttr(a.compute, -std::numeric_limits<double>::infinity()));
        score = arith::SelectOp::create(g, l, m, score, minus_inf);
      } else {
        score = arith::AddFOp::create(g, l, score, a.Cast(g, l, m));
      }
    }
    linalg::YieldOp::create(g, l, score);
  });
}

Value RowMax(OpBuilder& b, const Attention& a, Value scores, const LoopSet& s_loops, const LoopSet& row_loops,
             Value init) {
  return Generic(b, a.loc, s_loops, {{scores, MapOf(s_loops, s_loops, b.getContext())}}, init, row_loops,
                 [&](OpBuilder& g, Location l, ValueRange args) {
                   linalg::YieldOp::create(g, l, Value(arith::MaximumFOp::create(g, l, args[0], args[1])));
                 });
}

// exp(S - M) over the scores' loops.
Value Exponentials(OpBuilder& b, const Attention& a, Value scores, Value max, const LoopSet& s_loops,
                   const LoopSet& row_loops) {
  MLIRContext* ctx = b.getContext();
  return Generic(b, a.loc, s_loops, {{scores, MapOf(s_loops, s_loops, ctx)}, {max, MapOf(row_loops, s_loops, ctx)}},
                 a.Empty(b, s_loops), s_loops, [&](OpBuilder& g, Location l, ValueRange args) {
                   Value shifted = arith::SubFOp::create(g, l, args[0], args[1]);
                   linalg::YieldOp::create(g, l, Value(math::ExpOp::create(g, l, shifted)));
                 });
}

Value RowSum(OpBuilder& b, const Attention& a, Value p, const LoopSet& s_loops, const LoopSet& row_loops,
             Value init) {
  return Generic(b, a.loc, s_loops, {{p, MapOf(s_loops, s_loops, b.getContext())}}, init, row_loops,
                 [&](OpBuilder& g, Location l, ValueRange args) {
                   linalg::YieldOp::create(g, l, Value(arith::AddFOp::create(g, l, args[0], args[1])));
                 });
}

// init + P V, accumulated over the keys.
Value Values(OpBuilder& b, const Attention& a, Value p, const LoopSet& s_loops, const LoopSet& out_loops,
             Value init) {
  LoopSet domain = Union(out_loops, s_loops);
  return Generic(b, a.loc, domain, {{p, MapOf(s_loops, domain, b.getContext())}, {a.v, Restrict(a.v_map, domain)}},
                 init, out_loops, [&](OpBuilder& g, Location l, ValueRange args) {
                   Value product = arith::MulFOp::create(g, l, args[0], a.Cast(g, l, args[1]));
                   linalg::YieldOp::create(g, l, Value(arith::AddFOp::create(g, l, product, args[2])));
                 });
}

// Elementwise `f(x, y)` of `x` over `loops` and `y` over `y_loops` ⊆ `loops`, into
// `init` (any element type: the result is converted to it).
Value Combine(OpBuilder& b, const Attention& a, Value x, const LoopSet& loops, Value y, const LoopSet& y_loops,
              Value init, function_ref<Value(OpBuilder&, Location, Value, Value)> f) {
  MLIRContext* ctx = b.getContext();
  return Generic(b, a.loc, loops, {{x, MapOf(loops, loops, ctx)}, {y, MapOf(y_loops, loops, ctx)}}, init, loops,
                 [&](OpBuilder& g, Location l, ValueRange args) {
                   Value r = f(g, l, a.Cast(g, l, args[0]), a.Cast(g, l, args[1]));
                   Type out = args[2].getType();
                   if (r.getType() != out) {
                     r = cast<FloatType>(out).getWidth() < cast<FloatType>(r.getType()).getWidth()
                             ? Value(arith::TruncFOp::create(g, l, out, r))
                             : Value(arith::ExtFOp::create(g, l, out, r));
                   }
                   linalg::YieldOp::create(g, l, r);
                 });
}

Value Multiply(OpBuilder& g, Location l, Value x, Value y) { return arith::MulFOp::create(g, l, x, y); }
Value Divide(OpBuilder& g, Location l, Value x, Value y) { return arith::DivFOp::create(g, l, x, y); }
Value ExpOfDifference(OpBuilder& g, Location l, Value x, Value y) {
  return math::ExpOp::create(g, l, arith::SubFOp::create(g, l, x, y));
}

}  // namespace

FailureOr<SmallVector<Value>> DecomposeAttention(RewriterBase& rewriter, Operation* op) {
  auto inputs = op->getOperands();
  auto dps = cast<DestinationStyleOpInterface>(op);
  ArrayAttr map_attrs = op->getAttrOfType<ArrayAttr>("indexing_maps");
  if (!map_attrs) return op->emitOpError() << "expects indexing_maps";
  Attention a{op->getLoc(), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, nullptr};
  for (auto [operand, attr] : llvm::zip(inputs, map_attrs)) {
    a.operands.push_back(operand);
    a.maps.push_back(cast<AffineMapAttr>(attr).getValue());
  }
  for (Value v : a.operands) {
    if (isa<ShapedType>(v.getType()) && !isa<RankedTensorType>(v.getType())) {
      return op->emitOpError() << "expects tensor operands";
    }
  }
  size_t input_count = dps.getNumDpsInputs();
  a.q = a.operands[0], a.k = a.operands[1], a.v = a.operands[2], a.scale = a.operands[3];
  a.q_map = a.maps[0], a.k_map = a.maps[1], a.v_map = a.maps[2];
  if (input_count == 5) a.mask = a.operands[4], a.mask_map = a.maps[4];
  a.out_map = a.maps[input_count];
  Value out = dps.getDpsInits()[0];
  Type out_element = cast<RankedTensorType>(out.getType()).getElementType();
  for (Value v : {a.q, a.k, a.v, out}) {
    if (!isa<FloatType>(cast<RankedTensorType>(v.getType()).getElementType())) {
      return op->emitOpError() << "expects float Q, K, V and output, got " << v.getType();
    }
  }
  a.compute = cast<FloatType>(out_element).getWidth() < 32 ? Type(rewriter.getF32Type()) : out_element;
  Region& region = op->getRegion(0);
  if (!region.empty() && (region.front().getNumArguments() != 1 ||
                          !isa<iree::YieldOp>(region.front().getTerminator()) ||
                          region.front().getTerminator()->getNumOperands() != 1)) {
    return op->emitOpError() << "expects a score region taking and yielding one value";
  }
  a.score_region = &region;

  LoopSet q_loops = LoopsOf(a.q_map), k_loops = LoopsOf(a.k_map), out_loops = LoopsOf(a.out_map);
  LoopSet k1 = Minus(q_loops, out_loops);  // the dot product
  LoopSet qk_loops = Union(q_loops, k_loops);
  LoopSet s_loops = Minus(qk_loops, k1);          // rows and keys
  LoopSet row_loops = Minus(q_loops, k1);          // batch and query rows
  if (Minus(row_loops, out_loops).size() != 0) {
    return op->emitOpError() << "expects every query loop other than the dot product's to index the output";
  }
  rewriter.setInsertionPoint(op);
  Value scores = Scores(rewriter, a, s_loops, qk_loops);
  Location loc = a.loc;

  if (isa<iree::AttentionOp>(op)) {
    Value max = RowMax(rewriter, a, scores, s_loops, row_loops,
                       a.Filled(rewriter, row_loops, -std::numeric_limits<double>::infinity()));
    Value p = Exponentials(rewriter, a, scores, max, s_loops, row_loops);
    Value sum = RowSum(rewriter, a, p, s_loops, row_loops, a.Filled(rewriter, row_loops, 0.0));
    Value unnormalised = Values(rewriter, a, p, s_loops, out_loops, a.Filled(rewriter, out_loops, 0.0));
    // Divided by the row sums into the output's element type, in ascending loop order,
    // then transposed when the output map permutes the loops.
    SmallVector<OpFoldResult> sizes;
    for (unsigned loop : out_loops) sizes.push_back(a.Extent(rewriter, loop));
    Value normalised = Combine(rewriter, a, unnormalised, out_loops, sum, row_loops,
                               tensor::EmptyOp::create(rewriter, loc, sizes, out_element), Divide);
    AffineMap order = Restrict(a.out_map, out_loops);
    if (!order.isIdentity()) {
      SmallVector<int64_t> permutation;
      for (AffineExpr e : order.getResults()) permutation.push_back(cast<AffineDimExpr>(e).getPosition());
      normalised = linalg::TransposeOp::create(rewriter, loc, normalised, out, permutation).getResult()[0];
    }
    return SmallVector<Value>{normalised};
  }

  // online_attention: acc, max and sum are updated from their initial values.
  Value acc = dps.getDpsInits()[0], old_max = dps.getDpsInits()[1], old_sum = dps.getDpsInits()[2];
  AffineMap max_map = a.maps[input_count + 1], sum_map = a.maps[input_count + 2];
  if (!Restrict(a.out_map, out_loops).isIdentity() || !Restrict(max_map, row_loops).isIdentity() ||
      !Restrict(sum_map, row_loops).isIdentity() || LoopsOf(max_map) != row_loops || LoopsOf(sum_map) != row_loops) {
    return op->emitOpError() << "expects online_attention outputs indexed in loop order";
  }
  Value max_init = Combine(rewriter, a, old_max, row_loops, old_max, row_loops, a.Empty(rewriter, row_loops),
                           [](OpBuilder&, Location, Value x, Value) { return x; });
  Value new_max = RowMax(rewriter, a, scores, s_loops, row_loops, max_init);
  Value p = Exponentials(rewriter, a, scores, new_max, s_loops, row_loops);
  Value correction = Combine(rewriter, a, old_max, row_loops, new_max, row_loops, a.Empty(rewriter, row_loops),
                             ExpOfDifference);
  Value scaled_sum = Combine(rewriter, a, old_sum, row_loops, correction, row_loops, a.Empty(rewriter, row_loops),
                             Multiply);
  Value new_sum = RowSum(rewriter, a, p, s_loops, row_loops, scaled_sum);
  Value scaled_acc = Combine(rewriter, a, acc, out_loops, correction, row_loops, a.Empty(rewriter, out_loops),
                             Multiply);
  Value new_acc = Values(rewriter, a, p, s_loops, out_loops, scaled_acc);
  auto to_output = [&](Value x, Value like, const LoopSet& loops) {
    Type element = cast<RankedTensorType>(like.getType()).getElementType();
    if (element == a.compute) return x;
    return Combine(rewriter, a, x, loops, x, loops,
                   tensor::EmptyOp::create(rewriter, loc, tensor::getMixedSizes(rewriter, loc, like), element),
                   [](OpBuilder&, Location, Value x, Value) { return x; });
  };
  return SmallVector<Value>{to_output(new_acc, acc, out_loops), to_output(new_max, old_max, row_loops),
                            to_output(new_sum, old_sum, row_loops)};
}

}  // namespace kiln::compiler
