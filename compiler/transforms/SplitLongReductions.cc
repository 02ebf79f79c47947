// kiln-split-long-reductions: long reductions with few outputs become chunk partials, their
// combination, and the remainder past the last whole chunk (Passes.td has the contract).
#include "compiler/transforms/Passes.h"
#include "compiler/utils/ReductionCombiner.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_SPLITLONGREDUCTIONS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// Where the partials run, and so how many to make and how long their chunks are.
struct SplitLimits {
  // With more outputs than this, one workgroup per output already spreads the work.
  int64_t max_outputs;
  // Chunk partials wanted in all (outputs x chunks).
  int64_t wanted_partials;
  // Elements per chunk, at least, when the split loop is the innermost dimension of every
  // input read along it, and otherwise.
  int64_t innermost_chunk;
  int64_t outer_chunk;
  // Whether a dynamic extent is split (at run time: whole chunks, then the remainder).
  bool split_dynamic;
};

// GPUs: enough workgroups to fill the 304 compute units of an MI300X several times over.
// When the split loop is innermost, a workgroup of 256 reduces each chunk (64 elements per
// work-item, as 128-bit loads); otherwise one work-item does, stepping along an outer
// dimension while its neighbours read the next columns.
constexpr SplitLimits kGpuLimits{/*max_outputs=*/512, /*wanted_partials=*/2048, /*innermost_chunk=*/16384,
                                 /*outer_chunk=*/256, /*split_dynamic=*/true};
// CPUs: a few chunks per worker on machines of up to about 16 cores, each long enough
// (256 KiB of f32) that its blocked sum (kiln-cpu-block-reductions) runs at full speed
// and its workgroup's start costs nothing. Reductions with more outputs spread already.
// Dynamic extents stay whole: most are short (a KV cache's length, a sequence), and
// split they would take two more dispatches at every call and break row fusion (a
// softmax over a dynamic row would no longer be one dispatch).
constexpr SplitLimits kCpuLimits{/*max_outputs=*/32, /*wanted_partials=*/64, /*innermost_chunk=*/65536,
                                 /*outer_chunk=*/65536, /*split_dynamic=*/false};

// How a reduction loop is cut: `chunk` iterations per chunk, `chunks` whole chunks (when
// the loop's extent is static), and whether iterations may remain after them.
struct SplitPlan {
  unsigned loop = 0;
  int64_t chunk = 0;
  std::optional<int64_t> chunks;
  bool remainder = false;
};

bool ReadsAlongInnermost(linalg::LinalgOp op, unsigned loop) {
  AffineExpr dim = getAffineDimExpr(loop, op->getContext());
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand* input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return !map.isFunctionOfDim(loop) || map.getResults().back() == dim;
  });
}

// Ops this pass may rewrite: tensors, one output, projected-permutation maps, a body that
// is a combiner (ReductionCombiner.h) and does not read its loop indices.
bool IsSplittable(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() == 0 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op.hasIndexSemantics()) {
    return false;
  }
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isProjectedPermutation(); })) {
    return false;
  }
  return MatchReductionCombiner(op).has_value();
}

// Static iterations of the parallel loops, if all are static.
std::optional<int64_t> OutputCount(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t count = 1;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (!linalg::isParallelIterator(iterator)) continue;
    if (ShapedType::isDynamic(ranges[loop])) return std::nullopt;
    count *= ranges[loop];
  }
  return count;
}

// The reduction loops of `op` as one run of adjacent loops that every operand reads as
// one run of dimensions (a whole-tensor sum), if they are; MergeReductionLoops makes them
// one loop.
std::optional<ReassociationIndices> MergeableReductionLoops(linalg::LinalgOp op) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() < 2) return std::nullopt;
  for (auto [i, loop] : llvm::enumerate(reductions)) {
    if (loop != reductions.front() + i) return std::nullopt;
  }
  ReassociationIndices run(reductions.begin(), reductions.end());
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {run})) return std::nullopt;
  return run;
}

// How to cut `op`, planned before any rewriting: a mergeable run of reduction loops counts
// as the one loop it becomes (at the position of its first loop). Otherwise the outermost
// reduction loop is cut and the others (static) stay whole in each chunk.
std::optional<SplitPlan> PlanSplit(linalg::LinalgOp op, const SplitLimits& limits) {
  std::optional<int64_t> outputs = OutputCount(op);
  if (!outputs || *outputs > limits.max_outputs) return std::nullopt;
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SplitPlan plan;
  plan.loop = reductions.front();
  int64_t extent = ranges[plan.loop];
  int64_t inner = 1;
  bool by_workgroup = false;
  if (MergeableReductionLoops(op)) {
    for (unsigned loop : llvm::drop_begin(reductions)) {
      extent = ShapedType::isDynamic(extent) || ShapedType::isDynamic(ranges[loop]) ? ShapedType::kDynamic
                                                                                    : extent * ranges[loop];
    }
    by_workgroup = ReadsAlongInnermost(op, reductions.back());
  } else {
    for (unsigned loop : llvm::drop_begin(reductions)) {
      if (ShapedType::isDynamic(ranges[loop])) return std::nullopt;
      inner *= ranges[loop];
    }
    by_workgroup = reductions.size() == 1 && ReadsAlongInnermost(op, plan.loop);
  }
  plan.chunk = llvm::divideCeilSigned(by_workgroup ? limits.innermost_chunk : limits.outer_chunk,
                                      std::max<int64_t>(inner, 1));
  if (ShapedType::isDynamic(extent)) {
    if (!limits.split_dynamic) return std::nullopt;
    plan.remainder = true;
    return plan;
  }
  if (extent < 2 * plan.chunk) return std::nullopt;
  int64_t wanted_chunks = std::max<int64_t>(2, llvm::divideCeilSigned(limits.wanted_partials, std::max<int64_t>(*outputs, 1)));
  plan.chunk = std::max(plan.chunk, llvm::divideCeilSigned(extent, wanted_chunks));
  plan.chunks = extent / plan.chunk;
  plan.remainder = extent % plan.chunk != 0;
  return plan;
}

// Merges the reduction loops of `op` into one when they are mergeable (see above).
// Returns `op` itself when there is nothing to merge.
linalg::LinalgOp MergeReductionLoops(RewriterBase& rewriter, linalg::GenericOp op) {
  std::optional<ReassociationIndices> run = MergeableReductionLoops(op);
  if (!run) return op;
  FailureOr<linalg::CollapseResult> merged = linalg::collapseOpIterationDims(op, {*run}, rewriter);
  if (failed(merged)) return op;
  rewriter.replaceOp(op, merged->results);
  return merged->collapsedOp;
}

// Index arithmetic that folds when its operands are constants.
class IndexMath {
 public:
  IndexMath(OpBuilder& b, Location loc) : b_(b), loc_(loc) {}
  OpFoldResult Mul(OpFoldResult x, int64_t y) { return Apply(x, y, /*divide=*/false); }
  OpFoldResult Div(OpFoldResult x, int64_t y) { return Apply(x, y, /*divide=*/true); }
  OpFoldResult Sub(OpFoldResult x, OpFoldResult y) {
    std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
    if (cx && cy) return b_.getIndexAttr(*cx - *cy);
    return arith::SubIOp::create(b_, loc_, Materialize(x), Materialize(y)).getResult();
  }
  Value Materialize(OpFoldResult x) { return getValueOrCreateConstantIndexOp(b_, loc_, x); }

 private:
  OpFoldResult Apply(OpFoldResult x, int64_t y, bool divide) {
    if (std::optional<int64_t> cx = getConstantIntValue(x)) return b_.getIndexAttr(divide ? *cx / y : *cx * y);
    Value cy = arith::ConstantIndexOp::create(b_, loc_, y);
    if (divide) return arith::DivUIOp::create(b_, loc_, Materialize(x), cy).getResult();
    return arith::MulIOp::create(b_, loc_, Materialize(x), cy).getResult();
  }
  OpBuilder& b_;
  Location loc_;
};

// `value`'s slice [offset, offset + size) along `dim`, whole along the others.
Value SliceAlong(OpBuilder& b, Location loc, Value value, unsigned dim, OpFoldResult offset, OpFoldResult size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  offsets[dim] = offset;
  sizes[dim] = size;
  return tensor::ExtractSliceOp::create(b, loc, value, offsets, sizes, strides);
}

// `value` with dimension `dim` cut into [chunks, chunk].
Value CutIntoChunks(OpBuilder& b, Location loc, Value value, unsigned dim, OpFoldResult chunks, int64_t chunk) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> shape = tensor::getMixedSizes(b, loc, value);
  shape[dim] = chunks;
  shape.insert(shape.begin() + dim + 1, b.getIndexAttr(chunk));
  SmallVector<int64_t> static_shape;
  for (OpFoldResult size : shape) static_shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t first = d <= static_cast<int64_t>(dim) ? d : d + 1;
    groups.push_back(d == static_cast<int64_t>(dim) ? ReassociationIndices{first, first + 1}
                                                      : ReassociationIndices{first});
  }
  // An expansion of an expansion is one expansion of its source: dispatch formation then
  // sees the same chain as without the cut (a packed tensor's slice stays fused into its
  // reader, not a dispatch of its own that copies sub-byte elements).
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
    std::optional<SmallVector<ReassociationIndices>> composed =
        composeReassociationIndices(groups, expand.getReassociationIndices(), b.getContext());
    if (composed) {
      return tensor::ExpandShapeOp::create(b, loc, type.clone(static_shape), expand.getSrc(), *composed, shape);
    }
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(static_shape), value, groups, shape);
}

// `map` over the partial op's loops: the chunk loop first, then the original loops in
// order, the cut one now running within a chunk. Each read of the cut loop reads both.
// (The chunk loop comes first so that the partials never join their combination's
// dispatch as rows of it: each partial is a dispatch of its own, across the whole GPU.)
AffineMap MapAfterCut(AffineMap map, unsigned cut) {
  MLIRContext* context = map.getContext();
  SmallVector<AffineExpr> results;
  for (AffineExpr result : map.getResults()) {
    unsigned loop = cast<AffineDimExpr>(result).getPosition();
    if (loop == cut) results.push_back(getAffineDimExpr(0, context));
    results.push_back(getAffineDimExpr(loop + 1, context));
  }
  return AffineMap::get(map.getNumDims() + 1, 0, results, context);
}

// Rewrites `op` by `plan`: partials[outputs..., c] = reduction of chunk c from the
// combiner's neutral element; the output = the original initial value combined with the
// partials, then with the remaining iterations (the original body over the slice past the
// last whole chunk).
void Split(RewriterBase& rewriter, linalg::GenericOp op, const SplitPlan& plan, const ReductionCombiner& combiner) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  IndexMath math(rewriter, loc);
  AffineExpr cut_dim = rewriter.getAffineDimExpr(plan.loop);
  OpFoldResult extent;
  for (OpOperand* input : op.getDpsInputOperands()) {
    if (std::optional<unsigned> dim = op.getMatchingIndexingMap(input).getResultPosition(cut_dim)) {
      extent = tensor::getMixedSize(rewriter, loc, input->get(), *dim);
      break;
    }
  }
  if (!extent) return;  // no input reads the loop (linalg's verifier rules this out)
  OpFoldResult chunks = plan.chunks ? rewriter.getIndexAttr(*plan.chunks) : math.Div(extent, plan.chunk);
  OpFoldResult whole = math.Mul(chunks, plan.chunk);

  // The partials: each input read along the cut loop is viewed as [chunks, chunk] there.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand* input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    Value value = input->get();
    if (std::optional<unsigned> dim = map.getResultPosition(cut_dim)) {
      if (plan.remainder) value = SliceAlong(rewriter, loc, value, *dim, rewriter.getIndexAttr(0), whole);
      value = CutIntoChunks(rewriter, loc, value, *dim, chunks, plan.chunk);
    }
    inputs.push_back(value);
    maps.push_back(MapAfterCut(map, plan.loop));
  }
  Value init = op.getDpsInits()[0];
  auto init_type = cast<RankedTensorType>(init.getType());
  SmallVector<OpFoldResult> partial_shape = tensor::getMixedSizes(rewriter, loc, init);
  partial_shape.push_back(chunks);
  Value empty = tensor::EmptyOp::create(rewriter, loc, partial_shape, init_type.getElementType());
  Value neutral = arith::ConstantOp::create(rewriter, loc, combiner.neutral);
  Value partial_init = linalg::FillOp::create(rewriter, loc, neutral, empty).getResult(0);
  AffineMap output_map = MapAfterCut(op.getMatchingIndexingMap(op.getDpsInitOperand(0)), plan.loop);
  maps.push_back(output_map.insertResult(rewriter.getAffineDimExpr(0), output_map.getNumResults()));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.insert(iterators.begin(), utils::IteratorType::parallel);
  auto partials = linalg::GenericOp::create(rewriter, loc, TypeRange{partial_init.getType()}, inputs,
                                            ValueRange{partial_init}, maps, iterators);
  rewriter.cloneRegionBefore(op.getRegion(), partials.getRegion(), partials.getRegion().begin());

  // The output's initial value combined with every partial.
  unsigned rank = init_type.getRank();
  AffineMap partials_map = rewriter.getMultiDimIdentityMap(rank + 1);
  SmallVector<AffineMap> combine_maps{partials_map, partials_map.dropResult(rank)};
  SmallVector<utils::IteratorType> combine_iterators(rank, utils::IteratorType::parallel);
  combine_iterators.push_back(utils::IteratorType::reduction);
  Value accumulator = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  auto combined = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init_type}, partials.getResult(0), init, combine_maps, combine_iterators,
      [&](OpBuilder& b, Location body_loc, ValueRange args) {
        IRMapping bound;
        bound.map(combiner.element, args[0]);
        bound.map(accumulator, args[1]);
        linalg::YieldOp::create(b, body_loc, b.clone(*combiner.combiner, bound)->getResult(0));
      });
  if (!plan.remainder) {
    rewriter.replaceOp(op, combined.getResult(0));
    return;
  }

  // The iterations past the last whole chunk, folded in by the original body.
  OpFoldResult left = math.Sub(extent, whole);
  SmallVector<Value> tail_inputs;
  for (OpOperand* input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (std::optional<unsigned> dim = op.getMatchingIndexingMap(input).getResultPosition(cut_dim)) {
      value = SliceAlong(rewriter, loc, value, *dim, whole, left);
    }
    tail_inputs.push_back(value);
  }
  auto tail = linalg::GenericOp::create(rewriter, loc, TypeRange{init_type}, tail_inputs,
                                        ValueRange{combined.getResult(0)}, op.getIndexingMapsArray(),
                                        op.getIteratorTypesArray());
  rewriter.cloneRegionBefore(op.getRegion(), tail.getRegion(), tail.getRegion().begin());
  rewriter.replaceOp(op, tail.getResult(0));
}

struct SplitLongReductionsPass : impl::SplitLongReductionsBase<SplitLongReductionsPass> {
  using SplitLongReductionsBase::SplitLongReductionsBase;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (IsSplittable(op)) candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    const SplitLimits& limits = cpu ? kCpuLimits : kGpuLimits;
    for (linalg::LinalgOp candidate : candidates) {
      std::optional<SplitPlan> plan = PlanSplit(candidate, limits);
      if (!plan) continue;
      bool merges = MergeableReductionLoops(candidate).has_value();
      rewriter.setInsertionPoint(candidate);
      auto generic = dyn_cast<linalg::GenericOp>(candidate.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rewriter, candidate);
        if (failed(generalized)) continue;
        generic = *generalized;
      }
      auto merged = dyn_cast<linalg::GenericOp>(MergeReductionLoops(rewriter, generic).getOperation());
      std::optional<ReductionCombiner> combiner = MatchReductionCombiner(merged);
      // The plan counted a mergeable run as one loop: cut nothing if it stayed several.
      if (!merged || !combiner || (merges && merged.getNumReductionLoops() != 1)) continue;
      Split(rewriter, merged, *plan, *combiner);
    }
  }
};

}  // namespace

}  // namespace kiln::compiler
