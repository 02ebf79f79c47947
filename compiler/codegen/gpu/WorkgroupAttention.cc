// The flash-attention strategy (WorkgroupAttention.h): matching, kiln-gpu-keep-flash-attention
// and kiln-gpu-tile-attention.
#include "compiler/codegen/gpu/WorkgroupAttention.h"

#include <cmath>
#include <limits>

#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/utils/AttentionLoops.h"
#include "compiler/utils/Regions.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_KEEPFLASHATTENTION
#define GEN_PASS_DEF_TILEATTENTION
#include "compiler/codegen/gpu/Passes.h.inc"

using namespace mlir;

namespace {

bool SameLoops(AffineMap map, LoopSet loops) {
  llvm::sort(loops);
  return LoopsOf(map) == loops;
}

// An attention op as the strategy computes it: the roles of its loops and its operands.
struct FlashPlan {
  Operation* root = nullptr;
  bool online = false;
  Value q, k, v, scale, mask;
  AffineMap q_map, k_map, v_map, mask_map;
  SmallVector<Value> inits;  // attention: the output; online_attention: acc, max, sum
  SmallVector<AffineMap> init_maps;
  Block* score_block = nullptr;
  bool use_exp2 = true;
  unsigned m = 0, k1 = 0, k2 = 0, n = 0;
  LoopSet batch;
  unsigned loop_count = 0;
  int64_t head_size = 0, value_size = 0;  // extents of k1 and n
  SmallVector<Value> outputs;             // per result: its output binding, or null if unused
};

int64_t Bits(Type type) { return type.getIntOrFloatBitWidth(); }

// Whether dispatch formation makes `v` a binding, or clones it as a fill or a splat that
// the kernel reads element by element (ReadElement), or a slice of such a binding (a view
// of a KV cache) that it reads through.
bool ReadableWhole(Value v, std::string& why) {
  Operation* def = v.getDefiningOp();
  if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def)) {
    Operation* source = slice.getSource().getDefiningOp();
    if (!isa_and_nonnull<tensor::ExtractSliceOp, tensor::EmptyOp, arith::ConstantOp>(source)) return true;
    why = "an operand is a slice of a '" + source->getName().getStringRef().str() + "'";
    return false;
  }
  if (isa_and_nonnull<tensor::EmptyOp>(def)) {
    why = "an operand is a '" + def->getName().getStringRef().str() + "', which its dispatch would compute";
    return false;
  }
  if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && !dense.isSplat()) {
      why = "an operand is a constant tensor";
      return false;
    }
  }
  return true;
}

FailureOr<FlashPlan> AnalyseAttention(Operation* op, std::string& why) {
  FlashPlan plan;
  plan.root = op;
  plan.online = isa<iree::OnlineAttentionOp>(op);
  auto dps = cast<DestinationStyleOpInterface>(op);
  if (!dps.hasPureTensorSemantics()) {
    why = "it is not on tensors";
    return failure();
  }
  SmallVector<AffineMap> maps =
      llvm::to_vector(op->getAttrOfType<ArrayAttr>("indexing_maps").getAsValueRange<AffineMapAttr>());
  ValueRange inputs = dps.getDpsInputs();
  plan.q = inputs[0], plan.k = inputs[1], plan.v = inputs[2], plan.scale = inputs[3];
  plan.q_map = maps[0], plan.k_map = maps[1], plan.v_map = maps[2];
  if (inputs.size() == 5) plan.mask = inputs[4], plan.mask_map = maps[4];
  for (auto [i, init] : llvm::enumerate(dps.getDpsInits())) {
    plan.inits.push_back(init);
    plan.init_maps.push_back(maps[inputs.size() + i]);
  }
  plan.loop_count = plan.q_map.getNumDims();
  if (!op->getRegion(0).empty()) plan.score_block = &op->getRegion(0).front();
  plan.use_exp2 = AttentionUsesExp2(op);

  // The loop roles, as DecomposeAttention reads them, restricted to one of each.
  AffineMap out_map = plan.init_maps[0];
  LoopSet q_loops = LoopsOf(plan.q_map), k_loops = LoopsOf(plan.k_map), out_loops = LoopsOf(out_map);
  LoopSet k1 = Minus(q_loops, out_loops), k2 = Minus(k_loops, q_loops), n = Minus(out_loops, q_loops);
  LoopSet rows = Minus(q_loops, k1);
  LoopSet m = Minus(rows, k_loops);
  if (k1.size() != 1 || k2.size() != 1 || n.size() != 1 || m.size() != 1) {
    why = "it has other than one query row, dot product, key and value loop";
    return failure();
  }
  plan.k1 = k1[0], plan.k2 = k2[0], plan.n = n[0], plan.m = m[0];
  plan.batch = Minus(rows, m);
  LoopSet with_keys = plan.batch, with_values = plan.batch, with_rows = plan.batch;
  with_keys.append({plan.k2, plan.k1});
  with_values.append({plan.k2, plan.n});
  with_rows.append({plan.m, plan.n});
  if (!SameLoops(plan.k_map, with_keys) || !SameLoops(plan.v_map, with_values) || !SameLoops(out_map, with_rows) ||
      plan.batch.size() + 4 != plan.loop_count) {
    why = "its K, V or output is not indexed by the batch loops and its own two loops";
    return failure();
  }
  if (plan.mask) {
    LoopSet allowed = plan.batch;
    allowed.append({plan.m, plan.k2});
    if (!Minus(LoopsOf(plan.mask_map), allowed).empty()) {
      why = "its mask is indexed by a dot product or value loop";
      return failure();
    }
  }
  if (plan.online) {
    // DecomposeAttention's layout: outputs in loop order.
    auto in_order = [&](AffineMap map) {
      LoopSet loops = LoopsOf(map);
      SmallVector<AffineExpr> exprs;
      for (unsigned loop : loops) exprs.push_back(getAffineDimExpr(loop, op->getContext()));
      return map == AffineMap::get(plan.loop_count, 0, exprs, op->getContext());
    };
    LoopSet row_loops = plan.batch;
    row_loops.push_back(plan.m);
    if (!llvm::all_of(plan.init_maps, in_order) || !SameLoops(plan.init_maps[1], row_loops) ||
        !SameLoops(plan.init_maps[2], row_loops)) {
      why = "its outputs are not indexed in loop order";
      return failure();
    }
  }

  // Static head sizes, f32 arithmetic, Q wider than 8 bits.
  auto q_type = cast<RankedTensorType>(plan.q.getType());
  auto v_type = cast<RankedTensorType>(plan.v.getType());
  plan.head_size = q_type.getDimSize(*plan.q_map.getResultPosition(getAffineDimExpr(plan.k1, op->getContext())));
  plan.value_size = v_type.getDimSize(*plan.v_map.getResultPosition(getAffineDimExpr(plan.n, op->getContext())));
  if (ShapedType::isDynamic(plan.head_size) || ShapedType::isDynamic(plan.value_size) ||
      plan.head_size > kFlashAttentionMaxHeadSize || plan.value_size > kFlashAttentionMaxHeadSize) {
    why = "its head sizes are not static and at most " + std::to_string(kFlashAttentionMaxHeadSize);
    return failure();
  }
  Type out_element = getElementTypeOrSelf(plan.inits[0].getType());
  if (Bits(out_element) > 32) {
    why = "its output has more than 32 bits (the strategy computes in f32)";
    return failure();
  }
  for (Value operand : {plan.q, plan.k, plan.v}) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (Bits(element) <= 8 || Bits(element) > 32) {
      why = "its Q, K or V elements have 8 bits or fewer, or more than 32";
      return failure();
    }
  }
  if (plan.mask && Bits(getElementTypeOrSelf(plan.mask.getType())) > 32) {
    why = "its mask has more than 32 bits";
    return failure();
  }
  if (plan.online) {
    for (Value init : plan.inits) {
      if (Bits(getElementTypeOrSelf(init.getType())) > 32) {
        why = "its outputs have more than 32 bits";
        return failure();
      }
    }
  }
  SmallVector<Value> read = {plan.q, plan.k, plan.v};
  if (plan.mask) read.push_back(plan.mask);
  if (plan.online) read.append(plan.inits.begin(), plan.inits.end());
  if (!llvm::all_of(read, [&](Value v) { return ReadableWhole(v, why); })) return failure();
  return plan;
}

// The element of `v` (a binding's tensor, a fill, a splat, or a slice of a binding's
// tensor) at `indices`, read at `b`.
FailureOr<Value> ReadElement(OpBuilder& b, Location loc, Value v, ValueRange indices) {
  if (Value binding = BindingOf(v)) return memref::LoadOp::create(b, loc, binding, indices).getResult();
  if (auto fill = v.getDefiningOp<linalg::FillOp>()) return fill.getInputs()[0];
  if (auto constant = v.getDefiningOp<arith::ConstantOp>()) {
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()); dense && dense.isSplat()) {
      return arith::ConstantOp::create(b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>())).getResult();
    }
  }
  if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>()) {
    Value binding = BindingOf(slice.getSource());
    if (!binding) return failure();
    // Source index = offset + index * stride; a dimension the slice drops keeps its offset.
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<Value> source_indices;
    size_t next = 0;
    for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets())) {
      Value at = getValueOrCreateConstantIndexOp(b, loc, offset);
      if (!dropped.test(d)) {
        Value stride = getValueOrCreateConstantIndexOp(b, loc, slice.getMixedStrides()[d]);
        Value step = arith::MulIOp::create(b, loc, indices[next++], stride);
        at = arith::AddIOp::create(b, loc, at, step);
      }
      source_indices.push_back(at);
    }
    return memref::LoadOp::create(b, loc, binding, source_indices).getResult();
  }
  return failure();
}

bool Readable(Value v) {
  if (BindingOf(v) || v.getDefiningOp<linalg::FillOp>()) return true;
  if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>()) return BindingOf(slice.getSource()) != nullptr;
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : DenseElementsAttr();
  return dense && dense.isSplat();
}

FailureOr<FlashPlan> MatchFlashDispatch(func::FuncOp fn, std::string& why) {
  Operation* root = nullptr;
  fn.walk([&](Operation* op) {
    if (isa<iree::AttentionOp, iree::OnlineAttentionOp>(op) && op->hasAttr(kRootAttr)) root = op;
  });
  if (!root || root->getBlock() != &fn.getBody().front()) {
    why = "its root is not an attention";
    return failure();
  }
  FailureOr<FlashPlan> plan = AnalyseAttention(root, why);
  if (failed(plan)) return failure();
  SmallVector<Value> read = {plan->q, plan->k, plan->v};
  if (plan->mask) read.push_back(plan->mask);
  if (plan->online) read.append(plan->inits.begin(), plan->inits.end());
  if (!llvm::all_of(read, Readable)) {
    why = "an operand is not read from a binding, a fill or a splat";
    return failure();
  }
  llvm::SmallPtrSet<Operation*, 4> stores;
  for (OpResult result : root->getResults()) {
    Value output;
    for (Operation* user : result.getUsers()) {
      auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(user);
      if (!store || !isa<BlockArgument>(store.getDest()) || output) {
        why = "result #" + std::to_string(result.getResultNumber()) +
              " is used by other than one write to an output binding";
        return failure();
      }
      output = store.getDest();
      stores.insert(store);
    }
    if (!output && !plan->online) {
      why = "its result is not written to an output binding";
      return failure();
    }
    plan->outputs.push_back(output);
  }
  for (Operation& op : fn.getBody().front()) {
    if (&op == root || stores.contains(&op) || IsDispatchPlumbing(&op) ||
        isa<linalg::FillOp, arith::ConstantOp, tensor::ExtractSliceOp>(op)) {
      continue;
    }
    why = "it also computes '" + op.getName().getStringRef().str() + "'";
    return failure();
  }
  return plan;
}

// Builds the flash-attention kernel in place of the plan's root (WorkgroupAttention.h).
class FlashKernelBuilder {
 public:
  FlashKernelBuilder(func::FuncOp fn, const FlashPlan& plan)
      : fn_(fn), plan_(plan), b_(plan.root), loc_(plan.root->getLoc()), f32_(b_.getF32Type()) {}

  void Build() {
    MLIRContext* ctx = fn_.getContext();
    // Workgroup and private memory live for the whole kernel: allocated first.
    b_.setInsertionPointToStart(&fn_.getBody().front());
    auto workgroup = mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
    auto lds = [&](int64_t size) {
      return memref::AllocOp::create(b_, loc_, MemRefType::get({size}, f32_, MemRefLayoutAttrInterface{}, workgroup))
          .getResult();
    };
    auto private_array = [&](int64_t size) {
      return memref::AllocaOp::create(b_, loc_, MemRefType::get({size}, f32_)).getResult();
    };
    keys_lds_ = lds(kFlashAttentionKeys * plan_.head_size);
    values_lds_ = lds(kFlashAttentionKeys * plan_.value_size);
    query_ = private_array(plan_.head_size);
    acc_ = private_array(plan_.value_size);
    block_ = private_array(kFlashAttentionKeys);
    state_ = private_array(2);
    thread_ = mlir::gpu::ThreadIdOp::create(b_, loc_, mlir::gpu::Dimension::x);

    b_.setInsertionPoint(plan_.root);
    loops_.assign(plan_.loop_count, Value());
    Value rows = Extent(plan_.m), keys = Extent(plan_.k2);
    Value row_blocks = arith::CeilDivUIOp::create(b_, loc_, rows, Const(kFlashAttentionRows));
    Value units = row_blocks;
    for (unsigned loop : plan_.batch) units = arith::MulIOp::create(b_, loc_, units, Extent(loop));
    Value scale = plan_.scale;
    if (plan_.use_exp2) {
      scale = arith::MulFOp::create(b_, loc_, scale,
                                    arith::ConstantOp::create(b_, loc_, b_.getFloatAttr(scale.getType(), M_LOG2E)));
    }
    scale_ = scale;

    scf::ForOp unit_loop = BuildWorkgroupLoop(b_, loc_, fn_, units);
    Value rest = unit_loop.getInductionVar();
    Value block = arith::RemUIOp::create(b_, loc_, rest, row_blocks);
    rest = arith::DivUIOp::create(b_, loc_, rest, row_blocks);
    for (unsigned loop : llvm::reverse(plan_.batch)) {
      Value extent = Extent(loop);
      loops_[loop] = arith::RemUIOp::create(b_, loc_, rest, extent);
      rest = arith::DivUIOp::create(b_, loc_, rest, extent);
    }
    loops_[plan_.m] = arith::AddIOp::create(
        b_, loc_, arith::MulIOp::create(b_, loc_, block, Const(kFlashAttentionRows)), thread_);
    Value valid = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, loops_[plan_.m], rows);
    IfValid(valid, [&] { StartRow(); });

    // The key blocks: staged by the whole workgroup, then used by each row's work-item.
    auto key_loop = scf::ForOp::create(b_, loc_, Const(0), keys, Const(kFlashAttentionKeys));
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(key_loop.getBody());
      Value first = key_loop.getInductionVar();
      Value count = arith::MinUIOp::create(b_, loc_, Const(kFlashAttentionKeys),
                                           arith::SubIOp::create(b_, loc_, keys, first));
      Stage(keys_lds_, plan_.k, plan_.k_map, plan_.k1, plan_.head_size, first, count);
      Stage(values_lds_, plan_.v, plan_.v_map, plan_.n, plan_.value_size, first, count);
      Barrier();
      IfValid(valid, [&] { UpdateRow(first, count); });
      // Every work-item is done with the block before the next one overwrites it.
      Barrier();
    }
    IfValid(valid, [&] { FinishRow(); });
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }
  Value F32(double v) { return arith::ConstantOp::create(b_, loc_, b_.getFloatAttr(f32_, v)); }
  Value Cast(Value x, Type to) { return convertScalarToDtype(b_, loc_, x, to, /*isUnsignedCast=*/false); }
  Value Exp(Value x) {
    return plan_.use_exp2 ? math::Exp2Op::create(b_, loc_, x).getResult() : math::ExpOp::create(b_, loc_, x).getResult();
  }
  void Barrier() { WorkgroupBarrierOp::create(b_, loc_); }
  Value Load(Value memref, Value index) { return memref::LoadOp::create(b_, loc_, memref, ValueRange{index}); }
  void Store(Value value, Value memref, Value index) {
    memref::StoreOp::create(b_, loc_, value, memref, ValueRange{index});
  }

  // The extent of `loop`, from the first operand that indexes it.
  Value Extent(unsigned loop) {
    SmallVector<std::pair<Value, AffineMap>> operands = {{plan_.q, plan_.q_map}, {plan_.k, plan_.k_map},
                                                         {plan_.v, plan_.v_map}};
    for (auto [operand, map] : operands) {
      if (std::optional<unsigned> r = map.getResultPosition(getAffineDimExpr(loop, map.getContext()))) {
        return getValueOrCreateConstantIndexOp(b_, loc_, tensor::getMixedSize(b_, loc_, operand, *r));
      }
    }
    llvm_unreachable("Q, K and V index every loop");
  }

  // The element of `v` at the current loops_ through `map`.
  Value Read(Value v, AffineMap map) {
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults()) indices.push_back(loops_[cast<AffineDimExpr>(e).getPosition()]);
    return *ReadElement(b_, loc_, v, indices);
  }
  void Write(Value value, Value binding, AffineMap map) {
    SmallVector<Value> indices;
    for (AffineExpr e : map.getResults()) indices.push_back(loops_[cast<AffineDimExpr>(e).getPosition()]);
    memref::StoreOp::create(b_, loc_, Cast(value, getElementTypeOrSelf(binding.getType())), binding, indices);
  }

  void IfValid(Value valid, llvm::function_ref<void()> body) {
    auto guarded = scf::IfOp::create(b_, loc_, valid, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(guarded.thenBlock());
    body();
  }

  // for i = lower to upper: body(i), at b_.
  void For(Value lower, Value upper, Value step, llvm::function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b_, loc_, lower, upper, step);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  }
  // init combined with f(i) for i = 0 .. upper - 1, in order.
  Value Fold(Value upper, Value init, llvm::function_ref<Value(Value, Value)> f) {
    auto loop = scf::ForOp::create(b_, loc_, Const(0), upper, Const(1), ValueRange{init});
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(b_, loc_, f(loop.getInductionVar(), loop.getRegionIterArgs()[0]));
    return loop.getResult(0);
  }

  // The row's scaled query (Q * scale in Q's element type, as DecomposeAttention) and its
  // running state: max, sum and output row (zero, or online_attention's outputs).
  void StartRow() {
    Type q_element = getElementTypeOrSelf(plan_.q.getType());
    Value scale = Cast(scale_, q_element);
    For(Const(0), Const(plan_.head_size), Const(1), [&](Value c) {
      loops_[plan_.k1] = c;
      Store(Cast(arith::MulFOp::create(b_, loc_, scale, Read(plan_.q, plan_.q_map)), f32_), query_, c);
    });
    if (!plan_.online) {
      Store(F32(-std::numeric_limits<double>::infinity()), state_, Const(0));
      Store(F32(0.0), state_, Const(1));
      For(Const(0), Const(plan_.value_size), Const(1), [&](Value c) { Store(F32(0.0), acc_, c); });
      return;
    }
    Store(Cast(Read(plan_.inits[1], plan_.init_maps[1]), f32_), state_, Const(0));
    Store(Cast(Read(plan_.inits[2], plan_.init_maps[2]), f32_), state_, Const(1));
    For(Const(0), Const(plan_.value_size), Const(1), [&](Value c) {
      loops_[plan_.n] = c;
      Store(Cast(Read(plan_.inits[0], plan_.init_maps[0]), f32_), acc_, c);
    });
  }

  // K or V rows first .. first + count - 1 (`size` elements along `inner` each) into
  // `lds`, in f32, shared among the work-items.
  void Stage(Value lds, Value operand, AffineMap map, unsigned inner, int64_t size, Value first, Value count) {
    For(thread_, Const(kFlashAttentionKeys * size), Const(kFlashAttentionRows), [&](Value e) {
      Value j = arith::DivUIOp::create(b_, loc_, e, Const(size));
      Value in_block = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, j, count);
      IfValid(in_block, [&] {
        loops_[plan_.k2] = arith::AddIOp::create(b_, loc_, first, j);
        loops_[inner] = arith::RemUIOp::create(b_, loc_, e, Const(size));
        Store(Cast(Read(operand, map), f32_), lds, e);
      });
    });
  }

  // The score of key first + j for the row: the dot product of the scaled query with the
  // key, the score region, and the mask (DecomposeAttention's Scores).
  Value Score(Value first, Value j) {
    Value base = arith::MulIOp::create(b_, loc_, j, Const(plan_.head_size));
    Value score = Fold(Const(plan_.head_size), F32(0.0), [&](Value c, Value sum) {
      Value key = Load(keys_lds_, arith::AddIOp::create(b_, loc_, base, c));
      return arith::AddFOp::create(b_, loc_, arith::MulFOp::create(b_, loc_, Load(query_, c), key), sum);
    });
    if (Block* region = plan_.score_block) {
      Value arg = Cast(score, region->getArgument(0).getType());
      score = Cast(InlineYieldedValue(b_, *region, arg), f32_);
    }
    if (!plan_.mask) return score;
    loops_[plan_.k2] = arith::AddIOp::create(b_, loc_, first, j);
    Value m = Read(plan_.mask, plan_.mask_map);
    if (m.getType().isInteger(1)) {
      Value keep = arith::SelectOp::create(b_, loc_, m, F32(0.0), F32(-std::numeric_limits<double>::infinity()));
      return arith::AddFOp::create(b_, loc_, score, keep);
    }
    Value added = Cast(m, f32_);
    if (plan_.use_exp2) added = arith::MulFOp::create(b_, loc_, added, F32(M_LOG2E));
    return arith::AddFOp::create(b_, loc_, score, added);
  }

  // One block of `count` keys from `first`: the online softmax update of the row.
  void UpdateRow(Value first, Value count) {
    Value old_max = Load(state_, Const(0)), old_sum = Load(state_, Const(1));
    Value new_max = Fold(count, old_max, [&](Value j, Value max) {
      Value score = Score(first, j);
      Store(score, block_, j);
      return arith::MaximumFOp::create(b_, loc_, max, score);
    });
    // While every score so far is -infinity, exponents are taken from 0 (every weight
    // 0) rather than from -infinity (NaN); FinishRow gives such a row the decomposition's
    // NaN.
    Value no_max = arith::CmpFOp::create(b_, loc_, arith::CmpFPredicate::OEQ, new_max,
                                         F32(-std::numeric_limits<double>::infinity()));
    Value shift = arith::SelectOp::create(b_, loc_, no_max, F32(0.0), new_max);
    Value correction = Exp(arith::SubFOp::create(b_, loc_, old_max, shift));
    Value new_sum = Fold(count, arith::MulFOp::create(b_, loc_, old_sum, correction), [&](Value j, Value sum) {
      Value p = Exp(arith::SubFOp::create(b_, loc_, Load(block_, j), shift));
      Store(p, block_, j);
      return arith::AddFOp::create(b_, loc_, p, sum);
    });
    Store(new_max, state_, Const(0));
    Store(new_sum, state_, Const(1));
    For(Const(0), Const(plan_.value_size), Const(1), [&](Value c) {
      Value scaled = arith::MulFOp::create(b_, loc_, Load(acc_, c), correction);
      Value acc = Fold(count, scaled, [&](Value j, Value acc) {
        Value at = arith::AddIOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, j, Const(plan_.value_size)), c);
        return arith::AddFOp::create(b_, loc_, arith::MulFOp::create(b_, loc_, Load(block_, j), Load(values_lds_, at)),
                                     acc);
      });
      Store(acc, acc_, c);
    });
  }

  // attention: the output row divided by the sum; online_attention: the row's acc, max
  // and sum, NaN where the decomposition's exponent of -infinity - -infinity is.
  void FinishRow() {
    Value max = Load(state_, Const(0)), sum = Load(state_, Const(1));
    Value no_max = arith::CmpFOp::create(b_, loc_, arith::CmpFPredicate::OEQ, max,
                                         F32(-std::numeric_limits<double>::infinity()));
    Value nan = F32(std::numeric_limits<double>::quiet_NaN());
    if (plan_.online) {
      sum = arith::SelectOp::create(b_, loc_, no_max, nan, sum);
      if (Value out = plan_.outputs[1]) Write(max, out, plan_.init_maps[1]);
      if (Value out = plan_.outputs[2]) Write(sum, out, plan_.init_maps[2]);
      if (!plan_.outputs[0]) return;
    }
    For(Const(0), Const(plan_.value_size), Const(1), [&](Value c) {
      loops_[plan_.n] = c;
      Value acc = Load(acc_, c);
      Value value = plan_.online ? arith::SelectOp::create(b_, loc_, no_max, nan, acc).getResult()
                                 : arith::DivFOp::create(b_, loc_, acc, sum).getResult();
      Write(value, plan_.outputs[0], plan_.init_maps[0]);
    });
  }

  func::FuncOp fn_;
  const FlashPlan& plan_;
  OpBuilder b_;
  Location loc_;
  Type f32_;
  Value keys_lds_, values_lds_, query_, acc_, block_, state_, thread_, scale_;
  SmallVector<Value> loops_;  // per loop of the op: its value where the kernel is
};

struct KeepFlashAttentionPass : impl::KeepFlashAttentionBase<KeepFlashAttentionPass> {
  using KeepFlashAttentionBase::KeepFlashAttentionBase;

  void runOnOperation() override {
    getOperation()->walk([&](Operation* op) {
      if (!isa<iree::AttentionOp, iree::OnlineAttentionOp>(op)) return;
      std::string why = "the CPU is a target too, and the CPU decomposes it";
      if (!cpuToo && CanFlashAttention(op, why)) {
        op->setAttr(kUndecomposedAttr, UnitAttr::get(op->getContext()));
        return;
      }
      op->emitRemark() << "'" << op->getName() << "' is decomposed and runs per work-item on the GPU, without "
                          "flash tiles through LDS: " << why;
    });
  }
};

struct TileAttentionPass : impl::TileAttentionBase<TileAttentionPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : TakeMarkedDispatches(getOperation(), kFlashAttentionStrategy)) {
      std::string why;
      FailureOr<FlashPlan> plan = MatchFlashDispatch(fn, why);
      if (failed(plan)) continue;  // reported below
      FlashKernelBuilder(fn, *plan).Build();
      // The op's tensors are dead now: the kernel reads and writes the bindings.
      SmallVector<Operation*> users(plan->root->getUsers().begin(), plan->root->getUsers().end());
      for (Operation* user : users) user->erase();
      plan->root->erase();
      IRRewriter rewriter(fn.getContext());
      (void)runRegionDCE(rewriter, fn.getBody());
      MarkWorkgroupCooperative(fn, kFlashAttentionRows);
    }
    // An attention kept whole has no other lowering on the GPU.
    WalkResult result = getOperation()->walk([&](Operation* op) {
      if (!isa<iree::AttentionOp, iree::OnlineAttentionOp>(op)) return WalkResult::advance();
      std::string why = "it is not the root of its dispatch";
      if (auto fn = op->getParentOfType<func::FuncOp>()) (void)MatchFlashDispatch(fn, why);
      op->emitError() << "'" << op->getName() << "' was kept whole for the GPU's flash-attention strategy, "
                      << "which cannot compute its dispatch: " << why;
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted()) signalPassFailure();
  }
};

}  // namespace

bool CanFlashAttention(Operation* op, std::string& why) { return succeeded(AnalyseAttention(op, why)); }

bool IsFlashAttentionDispatch(func::FuncOp fn, std::string& why) { return succeeded(MatchFlashDispatch(fn, why)); }

}  // namespace kiln::compiler::gpu
