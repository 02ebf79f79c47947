// The sort strategy (WorkgroupSort.h): matching on tensors and kiln-gpu-tile-sorts.
#include "compiler/codegen/gpu/WorkgroupSort.h"

#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/utils/Regions.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_TILESORTS
#include "compiler/codegen/gpu/Passes.h.inc"

using namespace mlir;

namespace {

// What topk's comparator is known to be: the bitonic network gives the CPU loop's result
// only for a strict weak order (see TopkFastPathHolds).
enum class TopkOrder {
  kUnknown,       // any other comparator: only the sequential insertions are exact
  kStrict,        // a strict total order (integers' slt/sgt/ult/ugt)
  kStrictOrdered  // floats' olt/ogt: strict on numbers, a NaN is neither before nor after anything
};

// A comparator whose only op is one compare of its two arguments (either way round).
TopkOrder MatchTopkOrder(Block& comparator) {
  if (comparator.getNumArguments() != 2 || !llvm::hasSingleElement(comparator.without_terminator())) {
    return TopkOrder::kUnknown;
  }
  Operation& compare = comparator.front();
  if (comparator.getTerminator()->getOperand(0) != compare.getResult(0) || compare.getNumOperands() != 2) {
    return TopkOrder::kUnknown;
  }
  Value a = comparator.getArgument(0), b = comparator.getArgument(1);
  if (!(compare.getOperand(0) == a && compare.getOperand(1) == b) &&
      !(compare.getOperand(0) == b && compare.getOperand(1) == a)) {
    return TopkOrder::kUnknown;
  }
  if (auto cmpf = dyn_cast<arith::CmpFOp>(compare)) {
    auto p = cmpf.getPredicate();
    return p == arith::CmpFPredicate::OLT || p == arith::CmpFPredicate::OGT ? TopkOrder::kStrictOrdered
                                                                            : TopkOrder::kUnknown;
  }
  if (auto cmpi = dyn_cast<arith::CmpIOp>(compare)) {
    switch (cmpi.getPredicate()) {
      case arith::CmpIPredicate::slt:
      case arith::CmpIPredicate::sgt:
      case arith::CmpIPredicate::ult:
      case arith::CmpIPredicate::ugt: return TopkOrder::kStrict;
      default: return TopkOrder::kUnknown;
    }
  }
  return TopkOrder::kUnknown;
}

// A sort dispatch as the strategy computes it.
struct SortPlan {
  Operation* root = nullptr;     // an iree::SortOp or an iree::TopkOp
  Block* comparator = nullptr;
  int64_t dimension = 0;
  int64_t rank = 0;
  Value shape;                   // a binding with the operands' shape
  SmallVector<Value> outputs;    // per operand: its output binding, or null if unused
  SmallVector<bool> kept;        // per operand: written out or read by the comparator
  std::optional<int64_t> line;   // the line's length, if static
  int64_t capacity = 0;          // elements of a line the LDS holds
  // kSortRunLengthAttr: each run of this many consecutive elements of a line is sorted
  // on its own (by one workgroup, in LDS).
  std::optional<int64_t> run;
  bool in_place = false;         // every kept operand has an output (longer lines)
  // topk: candidates are the outputs' initial contents (k of them) then the inputs.
  bool topk = false;
  int64_t k = 0;
  TopkOrder order = TopkOrder::kUnknown;
  Value input_values, input_indices;  // input_indices may be null: positions are indices
  // The operands whose lines are sorted: the sort's outputs, or topk's (values, indices).
  ValueRange Operands() const { return root->getOperands().take_back(root->getNumResults()); }
};

bool IsFlatBody(Block& body) {
  return llvm::all_of(body, [](Operation& op) {
    return op.getNumRegions() == 0 && (isa<linalg::YieldOp, linalg::IndexOp>(op) ||
                                       isa<arith::ArithDialect, math::MathDialect>(op.getDialect()));
  });
}

// Whether every element of `v` can be computed on its own from bindings and its position
// (the ops that compute it go to `producers`, a binding it reads to `shape`).
bool IsElementwise(Value v, llvm::SetVector<Operation*>& producers, Value& shape) {
  while (auto cast = v.getDefiningOp<tensor::CastOp>()) v = cast.getSource();
  if (Value binding = BindingOf(v)) {
    if (!shape) shape = binding;
    return true;
  }
  if (auto fill = v.getDefiningOp<linalg::FillOp>()) {
    producers.insert(fill);
    return fill->getNumResults() == 1;
  }
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic->getNumResults() != 1 || generic.getNumReductionLoops() != 0 ||
      !llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap map) { return map.isIdentity(); }) ||
      !IsFlatBody(*generic.getBlock()) || !generic.getBlock()->getArguments().back().use_empty()) {
    return false;
  }
  producers.insert(generic);
  return llvm::all_of(generic.getDpsInputs(), [&](Value in) { return IsElementwise(in, producers, shape); });
}

int64_t ElementBytes(Type type) {
  if (type.isIndex()) return 8;
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

// The run length of a sort that kiln-gpu-split-long-sorts made, or nothing.
std::optional<int64_t> RunLength(Operation* root) {
  if (auto run = root->getAttrOfType<IntegerAttr>(kSortRunLengthAttr)) return run.getInt();
  return std::nullopt;
}

// A topk's inputs: its values (which give the line's shape) and optional indices.
LogicalResult MatchTopkInputs(iree::TopkOp topk, SortPlan& plan, llvm::SetVector<Operation*>& producers,
                              std::string& why) {
  plan.topk = true;
  auto out_type = cast<RankedTensorType>(topk.getOutputs()[0].getType());
  auto in_type = cast<RankedTensorType>(topk.getInputs()[0].getType());
  if (topk.getOutputs().size() != 2 || out_type.isDynamicDim(plan.dimension) ||
      in_type.isDynamicDim(plan.dimension)) {
    why = "its topk has a k or a line length known only at run time";
    return failure();
  }
  plan.k = out_type.getDimSize(plan.dimension);
  plan.order = MatchTopkOrder(topk.getRegion().front());
  plan.line = plan.k + in_type.getDimSize(plan.dimension);
  plan.input_values = topk.getInputs()[0];
  if (topk.getInputs().size() > 1) plan.input_indices = topk.getInputs()[1];
  for (Value input : topk.getInputs()) {
    Value shape;
    if (!IsElementwise(input, producers, shape) || !shape) {
      why = "a topk input is not read from a binding";
      return failure();
    }
    if (!plan.shape) plan.shape = shape;
  }
  return success();
}

FailureOr<SortPlan> MatchSort(func::FuncOp fn, std::string& why) {
  SortPlan plan;
  fn.walk([&](Operation* op) {
    if (isa<iree::SortOp, iree::TopkOp>(op) && op->hasAttr(kRootAttr)) plan.root = op;
  });
  auto sort = dyn_cast_or_null<iree::SortOp>(plan.root);
  auto topk = dyn_cast_or_null<iree::TopkOp>(plan.root);
  if (!plan.root || plan.root->getBlock() != &fn.getBody().front() || (sort && !sort.getInputs().empty()) ||
      plan.root->getNumResults() == 0 || !plan.root->hasTrait<OpTrait::OneRegion>()) {
    why = "its root is not a sort or topk of tensors";
    return failure();
  }
  plan.dimension = sort ? sort.getDimension() : topk.getDimension();
  plan.comparator = &plan.root->getRegion(0).front();
  auto type = cast<RankedTensorType>(plan.Operands()[0].getType());
  plan.rank = type.getRank();
  if (!type.isDynamicDim(plan.dimension)) plan.line = type.getDimSize(plan.dimension);

  llvm::SetVector<Operation*> producers;
  if (topk && failed(MatchTopkInputs(topk, plan, producers, why))) return failure();
  Block& comparator = *plan.comparator;
  SmallVector<Type> kept_types;
  for (auto [i, operand] : llvm::enumerate(plan.Operands())) {
    if (!IsElementwise(operand, producers, plan.shape)) {
      why = "operand #" + std::to_string(i) + " is not read from a binding or computed element by element";
      return failure();
    }
    Value output;
    for (Operation* user : plan.root->getResult(i).getUsers()) {
      auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(user);
      if (!store || !isa<BlockArgument>(store.getDest()) || output) {
        why = "result #" + std::to_string(i) + " is used by other than one write to an output binding";
        return failure();
      }
      output = store.getDest();
    }
    plan.outputs.push_back(output);
    if (output && !plan.shape) plan.shape = output;
    // topk's comparator sees the values only; its values are always kept.
    bool read = topk ? i == 0
                     : !comparator.getArgument(2 * i).use_empty() || !comparator.getArgument(2 * i + 1).use_empty();
    plan.kept.push_back(output || read);
    if (plan.kept.back()) kept_types.push_back(getElementTypeOrSelf(operand.getType()));
  }
  if (!plan.shape) {
    why = "no operand or result of the sort is a binding (its shape is unknown)";
    return failure();
  }
  for (Operation& op : fn.getBody().front()) {
    if (&op == plan.root || producers.contains(&op) || IsDispatchPlumbing(&op)) continue;
    if (auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(op);
        store && store.getSource().getDefiningOp() == plan.root) {
      continue;
    }
    why = "it also computes '" + op.getName().getStringRef().str() + "'";
    return failure();
  }
  plan.capacity = SortLdsCapacity(kept_types);
  plan.in_place = llvm::all_of(llvm::zip(plan.kept, plan.outputs),
                               [](auto pair) { return !std::get<0>(pair) || std::get<1>(pair); });
  plan.run = RunLength(plan.root);
  if (plan.run && (topk || *plan.run < 1 || *plan.run > plan.capacity)) {
    why = "its runs of " + std::to_string(*plan.run) + " elements exceed the " + std::to_string(plan.capacity) +
          " an LDS line holds";
    return failure();
  }
  bool may_be_long = !plan.run && (!plan.line || *plan.line > plan.capacity);
  if (topk && may_be_long) {
    why = "its topk's candidates (k + the line) exceed the " + std::to_string(plan.capacity) + " an LDS line holds";
    return failure();
  }
  if (may_be_long && !plan.in_place) {
    why = "a line longer than " + std::to_string(plan.capacity) +
          " elements is sorted in its output bindings, and an operand the comparator reads has none";
    return failure();
  }
  return plan;
}

// Builds the workgroup-cooperative sort in place of the plan's root.
class SortKernelBuilder {
 public:
  SortKernelBuilder(func::FuncOp fn, SortPlan plan)
      : fn_(fn), plan_(plan), b_(plan.root), loc_(plan.root->getLoc()) {}

  void Build() {
    MLIRContext* ctx = fn_.getContext();
    bool lds_path = plan_.run || !plan_.line || *plan_.line <= plan_.capacity;
    bool global_path = !plan_.run && (!plan_.line || *plan_.line > plan_.capacity);
    // Workgroup memory lives for the whole kernel: allocate it first.
    b_.setInsertionPointToStart(&fn_.getBody().front());
    if (lds_path) {
      int64_t slots = plan_.run ? *plan_.run : plan_.line ? std::max<int64_t>(*plan_.line, 1) : plan_.capacity;
      auto workgroup = mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
      auto lds = [&](Type element) {
        return memref::AllocOp::create(b_, loc_, MemRefType::get({slots}, element, MemRefLayoutAttrInterface{}, workgroup))
            .getResult();
      };
      for (auto [operand, kept] : llvm::zip(plan_.Operands(), plan_.kept)) {
        lds_.push_back(kept ? lds(getElementTypeOrSelf(operand.getType())) : Value());
      }
      positions_ = lds(b_.getI32Type());
    }
    thread_ = mlir::gpu::ThreadIdOp::create(b_, loc_, mlir::gpu::Dimension::x);

    b_.setInsertionPoint(plan_.root);
    // topk sorts its k initial candidates and its input line together.
    n_ = plan_.topk ? Const(*plan_.line) : memref::DimOp::create(b_, loc_, plan_.shape, plan_.dimension).getResult();
    Value lines = Const(1);
    for (int64_t d = 0; d < plan_.rank; ++d) {
      if (d != plan_.dimension) lines = arith::MulIOp::create(b_, loc_, lines, Dim(d));
    }
    // With runs, a workgroup's unit is one run of a line: runs of a line are neighbours.
    Value runs;
    if (plan_.run) {
      Value run = Const(*plan_.run);
      runs = arith::CeilDivUIOp::create(b_, loc_, n_, run);
      lines = arith::MulIOp::create(b_, loc_, lines, runs);
    }
    scf::ForOp line_loop = BuildWorkgroupLoop(b_, loc_, fn_, lines);
    Value rest = line_loop.getInductionVar();
    if (plan_.run) {
      offset_ = arith::MulIOp::create(b_, loc_, arith::RemUIOp::create(b_, loc_, rest, runs), Const(*plan_.run));
      rest = arith::DivUIOp::create(b_, loc_, rest, runs);
      n_ = arith::MinUIOp::create(b_, loc_, Const(*plan_.run), arith::SubIOp::create(b_, loc_, n_, offset_));
    }
    position_.assign(plan_.rank, Value());
    for (int64_t d = plan_.rank - 1; d >= 0; --d) {
      if (d == plan_.dimension) continue;
      position_[d] = arith::RemUIOp::create(b_, loc_, rest, Dim(d));
      rest = arith::DivUIOp::create(b_, loc_, rest, Dim(d));
    }
    if (lds_path && global_path) {
      Value fits = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ule, n_, Const(plan_.capacity));
      auto choice = scf::IfOp::create(b_, loc_, fits, /*withElseRegion=*/true);
      b_.setInsertionPointToStart(choice.thenBlock());
      SortInLds();
      b_.setInsertionPointToStart(choice.elseBlock());
      SortInPlace();
    } else if (lds_path) {
      SortInLds();
    } else {
      SortInPlace();
    }
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }
  Value Dim(int64_t d) { return memref::DimOp::create(b_, loc_, plan_.shape, d); }
  void Barrier() { WorkgroupBarrierOp::create(b_, loc_); }

  // The position of element `j` of the current line (of the current run, with runs).
  SmallVector<Value> At(Value j) {
    SmallVector<Value> indices(position_);
    indices[plan_.dimension] = offset_ ? arith::AddIOp::create(b_, loc_, offset_, j).getResult() : j;
    return indices;
  }

  // Element `indices` of `v` (IsElementwise's values), computed at b_.
  Value Element(Value v, ArrayRef<Value> indices) {
    while (auto cast = v.getDefiningOp<tensor::CastOp>()) v = cast.getSource();
    if (Value binding = BindingOf(v)) return memref::LoadOp::create(b_, loc_, binding, indices);
    if (auto fill = v.getDefiningOp<linalg::FillOp>()) return fill.getInputs()[0];
    auto generic = v.getDefiningOp<linalg::GenericOp>();
    Block& body = *generic.getBlock();
    IRMapping mapping;
    for (OpOperand* input : generic.getDpsInputOperands()) {
      mapping.map(body.getArgument(input->getOperandNumber()), Element(input->get(), indices));
    }
    for (Operation& op : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        mapping.map(index.getResult(), indices[index.getDim()]);
        continue;
      }
      b_.clone(op, mapping);
    }
    return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
  }

  // for j = thread, thread + size, ... below n: body(j), at b_.
  template <typename Body>
  void ForEachElement(Value n, Body&& body) {
    auto loop = scf::ForOp::create(b_, loc_, thread_, n, Const(kSortWorkgroupSize));
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  }

  // topk's comparator on two values.
  Value Compare(Value left, Value right) { return InlineYieldedValue(b_, *plan_.comparator, {left, right}); }

  // Whether the network orders `left` before `right` (values per kept operand). For topk
  // with floats' olt/ogt, a NaN goes after every number (the CPU loop never inserts it).
  Value Less(ArrayRef<Value> left, ArrayRef<Value> right) {
    Block& comparator = *plan_.comparator;
    if (plan_.topk) {
      Value before = Compare(left[0], right[0]);
      if (plan_.order != TopkOrder::kStrictOrdered) return before;
      Value number_before_nan = arith::AndIOp::create(
          b_, loc_, arith::CmpFOp::create(b_, loc_, arith::CmpFPredicate::ORD, left[0], left[0]),
          arith::CmpFOp::create(b_, loc_, arith::CmpFPredicate::UNO, right[0], right[0]));
      return arith::OrIOp::create(b_, loc_, before, number_before_nan);
    }
    SmallVector<Value> args;
    for (size_t k = 0; k < left.size(); ++k) {
      // An operand that is not kept is unread: its arguments have no uses to map.
      Value l = left[k], r = right[k];
      if (!l) l = r = arith::ConstantOp::create(b_, loc_, b_.getZeroAttr(comparator.getArgument(2 * k).getType()));
      args.push_back(l);
      args.push_back(r);
    }
    return InlineYieldedValue(b_, comparator, args);
  }

  // The bitonic network over the current line's n_ elements: `exchange(i, j)` puts the
  // smaller of elements i < j at i. Positions >= n_ count as larger than every element,
  // so a pair reaching one is left as it is and no storage beyond n_ is needed.
  void Network(llvm::function_ref<void(Value i, Value j)> exchange) {
    // stages = ceil(log2(n)): 64 - ctlz(n - 1) for n >= 2, else nothing to sort.
    Type i64 = b_.getI64Type();
    Value n64 = arith::IndexCastUIOp::create(b_, loc_, i64, n_);
    Value one64 = arith::ConstantIntOp::create(b_, loc_, i64, 1);
    Value leading = math::CountLeadingZerosOp::create(b_, loc_, arith::SubIOp::create(b_, loc_, n64, one64));
    Value log = arith::SubIOp::create(b_, loc_, arith::ConstantIntOp::create(b_, loc_, i64, 64), leading);
    Value sortable = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::uge, n_, Const(2));
    Value stages = arith::SelectOp::create(b_, loc_, sortable, arith::IndexCastUIOp::create(b_, loc_, b_.getIndexType(), log),
                                           Const(0));
    Value pairs = arith::ShRUIOp::create(b_, loc_, arith::ShLIOp::create(b_, loc_, Const(1), stages), Const(1));
    Value one = Const(1);
    auto stage_loop = scf::ForOp::create(b_, loc_, one, arith::AddIOp::create(b_, loc_, stages, one), one);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(stage_loop.getBody());
    Value stage = stage_loop.getInductionVar();
    Value half = arith::ShLIOp::create(b_, loc_, one, arith::SubIOp::create(b_, loc_, stage, one));
    Value block = arith::ShLIOp::create(b_, loc_, half, one);
    auto step_loop = scf::ForOp::create(b_, loc_, Const(0), stage, one);
    b_.setInsertionPointToStart(step_loop.getBody());
    Value step = step_loop.getInductionVar();
    Value stride = arith::ShRUIOp::create(b_, loc_, half, step);
    Value flip = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, step, Const(0));
    ForEachElement(pairs, [&](Value p) {
      // The first step of a stage compares mirrored positions of each block of 2 * half
      // (which merges its two sorted halves in ascending order); the others compare
      // positions `stride` apart.
      Value base = arith::MulIOp::create(b_, loc_, arith::DivUIOp::create(b_, loc_, p, half), block);
      Value within = arith::RemUIOp::create(b_, loc_, p, half);
      Value flip_i = arith::AddIOp::create(b_, loc_, base, within);
      Value flip_j = arith::SubIOp::create(b_, loc_, arith::AddIOp::create(b_, loc_, base, block),
                                           arith::AddIOp::create(b_, loc_, within, one));
      Value pair_base = arith::MulIOp::create(
          b_, loc_, arith::DivUIOp::create(b_, loc_, p, stride), arith::ShLIOp::create(b_, loc_, stride, one));
      Value step_i = arith::AddIOp::create(b_, loc_, pair_base, arith::RemUIOp::create(b_, loc_, p, stride));
      Value step_j = arith::AddIOp::create(b_, loc_, step_i, stride);
      Value i = arith::SelectOp::create(b_, loc_, flip, flip_i, step_i);
      Value j = arith::SelectOp::create(b_, loc_, flip, flip_j, step_j);
      Value real = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, j, n_);
      auto guarded = scf::IfOp::create(b_, loc_, real, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard inner(b_);
      b_.setInsertionPointToStart(guarded.thenBlock());
      exchange(i, j);
    });
    Barrier();
  }

  // Stores `first` at i and `second` at j of each kept operand, or the other way round
  // when `swap`.
  void StorePair(ArrayRef<Value> targets, llvm::function_ref<SmallVector<Value>(Value)> index_of, Value swap,
                 ArrayRef<Value> at_i, ArrayRef<Value> at_j, Value i, Value j) {
    for (size_t k = 0; k < targets.size(); ++k) {
      if (!targets[k]) continue;
      Value low = arith::SelectOp::create(b_, loc_, swap, at_j[k], at_i[k]);
      Value high = arith::SelectOp::create(b_, loc_, swap, at_i[k], at_j[k]);
      memref::StoreOp::create(b_, loc_, low, targets[k], index_of(i));
      memref::StoreOp::create(b_, loc_, high, targets[k], index_of(j));
    }
  }

  SmallVector<Value> LoadAll(ArrayRef<Value> sources, ArrayRef<Value> indices) {
    SmallVector<Value> values;
    for (Value source : sources) values.push_back(source ? memref::LoadOp::create(b_, loc_, source, indices).getResult() : Value());
    return values;
  }

  // The line in LDS, each element with its position as the last key: the stable order.
  void SortInLds() {
    if (plan_.topk) {
      TopkInLds();
    } else {
      ForEachElement(n_, [&](Value j) {
        SmallVector<Value> indices = At(j);
        for (auto [operand, lds] : llvm::zip(plan_.Operands(), lds_)) {
          if (lds) memref::StoreOp::create(b_, loc_, Element(operand, indices), lds, ValueRange{j});
        }
        StorePosition(j);
      });
      Barrier();
      SortLdsLine();
    }
    // topk keeps the first k of its sorted candidates.
    ForEachElement(plan_.topk ? Const(plan_.k) : n_, [&](Value j) {
      for (auto [output, lds] : llvm::zip(plan_.outputs, lds_)) {
        if (output) memref::StoreOp::create(b_, loc_, memref::LoadOp::create(b_, loc_, lds, ValueRange{j}), output, At(j));
      }
    });
    // Every work-item is done with the LDS before the next line overwrites it.
    Barrier();
  }

  // topk's k results at the start of the LDS line. The CPU loop (LinalgExtToLoops.cc)
  // inserts each input element in turn into the k outputs, after its equals, when it goes
  // before the k-th. That is the first k of the stable sort of (the initial outputs, the
  // input line) when the comparator is a strict weak order on the candidates and the
  // initial outputs are in its order: then the bitonic network computes it (a NaN, which
  // the loop never inserts past a number, sorted last). Otherwise (another comparator, initial
  // outputs out of order or with a NaN) work-item 0 runs the loop itself. The barriers
  // stay outside both choices (the host twin needs them under uniform control).
  void TopkInLds() {
    Value fast = TopkFastPathHolds();
    LoadTopkCandidates();
    Barrier();
    SortLdsLine(fast);
    Value first = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, thread_, Const(0));
    Value slow = arith::XOrIOp::create(b_, loc_, fast, arith::ConstantIntOp::create(b_, loc_, /*value=*/1, /*width=*/1));
    auto sequential = scf::IfOp::create(b_, loc_, arith::AndIOp::create(b_, loc_, first, slow), /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard inner(b_);
      b_.setInsertionPointToStart(sequential.thenBlock());
      InsertSequentially();
    }
    Barrier();
  }

  // Whether the current line's initial outputs are numbers in the comparator's order (none
  // goes before its predecessor), for a comparator known to be a strict weak order on
  // numbers; every work-item computes the same answer.
  Value TopkFastPathHolds() {
    Value true_value = arith::ConstantIntOp::create(b_, loc_, 1, 1);
    if (plan_.order == TopkOrder::kUnknown) return arith::ConstantIntOp::create(b_, loc_, /*value=*/0, /*width=*/1);
    if (plan_.k == 0) return true_value;
    Value initial = plan_.Operands()[0];
    auto loop = scf::ForOp::create(b_, loc_, Const(0), Const(plan_.k), Const(1), ValueRange{true_value});
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    Value j = loop.getInductionVar(), holds = loop.getRegionIterArgs()[0];
    Value v = Element(initial, At(j));
    if (plan_.order == TopkOrder::kStrictOrdered) {
      holds = arith::AndIOp::create(b_, loc_, holds, arith::CmpFOp::create(b_, loc_, arith::CmpFPredicate::ORD, v, v));
    }
    // At j = 0 the element is compared with itself, which a strict order never puts first
    // (max(j, 1) - 1: max(j - 1, 0) would wrap to index -1).
    Value previous =
        Element(initial, At(arith::SubIOp::create(b_, loc_, arith::MaxUIOp::create(b_, loc_, j, Const(1)), Const(1))));
    Value in_order = arith::XOrIOp::create(b_, loc_, Compare(v, previous), true_value);
    scf::YieldOp::create(b_, loc_, ValueRange{arith::AndIOp::create(b_, loc_, holds, in_order).getResult()});
    return loop.getResult(0);
  }

  // The CPU loop on the LDS line as LoadTopkCandidates left it (the initial outputs in
  // slots [0, k), the input line after them), by the one work-item that calls it: the k
  // results end in slots [0, k).
  void InsertSequentially() {
    if (plan_.k == 0) return;
    auto line = scf::ForOp::create(b_, loc_, Const(plan_.k), Const(*plan_.line), Const(1));
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(line.getBody());
    SmallVector<Value> x = LoadAll(lds_, {line.getInductionVar()});
    Value last = Const(plan_.k - 1);
    Value worst = memref::LoadOp::create(b_, loc_, lds_[0], ValueRange{last});
    auto better = scf::IfOp::create(b_, loc_, Compare(x[0], worst), /*withElseRegion=*/false);
    b_.setInsertionPointToStart(better.thenBlock());
    Type index = b_.getIndexType();
    // Moves down each element x goes before, from the k-th up.
    auto shift = scf::WhileOp::create(
        b_, loc_, TypeRange{index}, ValueRange{last},
        [&](OpBuilder&, Location, ValueRange args) {
          Value j = args[0];
          Value above = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ugt, j, Const(0));
          Value previous = arith::SubIOp::create(b_, loc_, arith::MaxUIOp::create(b_, loc_, j, Const(1)), Const(1));
          Value moves = Compare(x[0], memref::LoadOp::create(b_, loc_, lds_[0], ValueRange{previous}));
          scf::ConditionOp::create(b_, loc_, arith::AndIOp::create(b_, loc_, above, moves), args);
        },
        [&](OpBuilder&, Location, ValueRange args) {
          Value previous = arith::SubIOp::create(b_, loc_, args[0], Const(1));
          for (Value lds : lds_) {
            if (lds) {
              memref::StoreOp::create(b_, loc_, memref::LoadOp::create(b_, loc_, lds, ValueRange{previous}), lds,
                                      ValueRange{args[0]});
            }
          }
          scf::YieldOp::create(b_, loc_, ValueRange{previous});
        });
    for (auto [value, lds] : llvm::zip(x, lds_)) {
      if (lds) memref::StoreOp::create(b_, loc_, value, lds, ValueRange{shift.getResult(0)});
    }
  }

  // The network over the LDS line; with `only_if`, each exchange happens only where it
  // holds (every work-item still reaches the network's barriers).
  void SortLdsLine(Value only_if = Value()) {
    auto in_lds = [](Value i) { return SmallVector<Value>{i}; };
    Network([&](Value i, Value j) {
      OpBuilder::InsertionGuard guard(b_);
      if (only_if) b_.setInsertionPointToStart(scf::IfOp::create(b_, loc_, only_if, /*withElseRegion=*/false).thenBlock());
      SmallVector<Value> at_i = LoadAll(lds_, {i}), at_j = LoadAll(lds_, {j});
      Value pi = memref::LoadOp::create(b_, loc_, positions_, ValueRange{i});
      Value pj = memref::LoadOp::create(b_, loc_, positions_, ValueRange{j});
      // j goes first if the comparator says so, or if they tie and j came first.
      Value j_first = Less(at_j, at_i);
      Value tie = arith::AndIOp::create(
          b_, loc_, arith::XOrIOp::create(b_, loc_, Less(at_i, at_j), arith::ConstantIntOp::create(b_, loc_, 1, 1)),
          arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, pj, pi));
      Value swap = arith::OrIOp::create(b_, loc_, j_first, tie);
      StorePair(lds_, in_lds, swap, at_i, at_j, i, j);
      StorePair({positions_}, in_lds, swap, {pi}, {pj}, i, j);
    });
  }

  void StorePosition(Value j) {
    Value position = arith::IndexCastUIOp::create(b_, loc_, b_.getI32Type(), j);
    memref::StoreOp::create(b_, loc_, position, positions_, ValueRange{j});
  }

  // topk's candidates in LDS: the outputs' k initial elements (which come before every
  // input), then the input line, its indices from the indices input or its positions.
  void LoadTopkCandidates() {
    ValueRange outputs = plan_.Operands();
    ForEachElement(Const(plan_.k), [&](Value j) {
      for (auto [operand, lds] : llvm::zip(outputs, lds_)) {
        if (lds) memref::StoreOp::create(b_, loc_, Element(operand, At(j)), lds, ValueRange{j});
      }
      StorePosition(j);
    });
    ForEachElement(Const(*plan_.line - plan_.k), [&](Value j) {
      Value slot = arith::AddIOp::create(b_, loc_, j, Const(plan_.k));
      for (auto [value, lds] : llvm::zip(TopkInput(j), lds_)) {
        if (lds) memref::StoreOp::create(b_, loc_, value, lds, ValueRange{slot});
      }
      StorePosition(slot);
    });
  }

  // Element j of topk's input line: its value, and its index (from the indices input or
  // its position) when the indices are kept.
  SmallVector<Value> TopkInput(Value j) {
    SmallVector<Value> candidate{Element(plan_.input_values, At(j))};
    if (lds_[1]) {
      Type index_type = getElementTypeOrSelf(plan_.Operands()[1].getType());
      candidate.push_back(plan_.input_indices ? Element(plan_.input_indices, At(j))
                                              : arith::IndexCastOp::create(b_, loc_, index_type, j).getResult());
    }
    return candidate;
  }

  // The line in its output bindings: no room for positions, so ties are unordered.
  void SortInPlace() {
    SmallVector<Value> targets;
    for (auto [output, kept] : llvm::zip(plan_.outputs, plan_.kept)) targets.push_back(kept ? output : Value());
    ForEachElement(n_, [&](Value j) {
      SmallVector<Value> indices = At(j);
      for (auto [operand, target] : llvm::zip(plan_.Operands(), targets)) {
        if (target) memref::StoreOp::create(b_, loc_, Element(operand, indices), target, indices);
      }
    });
    Barrier();
    auto in_line = [&](Value i) { return At(i); };
    Network([&](Value i, Value j) {
      SmallVector<Value> at_i = LoadAll(targets, At(i)), at_j = LoadAll(targets, At(j));
      StorePair(targets, in_line, Less(at_j, at_i), at_i, at_j, i, j);
    });
  }

  func::FuncOp fn_;
  SortPlan plan_;
  OpBuilder b_;
  Location loc_;
  Value thread_, n_, positions_;
  Value offset_;  // with runs: the current run's first position in its line
  SmallVector<Value> lds_, position_;
};

struct TileSortsPass : impl::TileSortsBase<TileSortsPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : TakeMarkedDispatches(getOperation(), kSortStrategy)) {
      std::string why;
      FailureOr<SortPlan> plan = MatchSort(fn, why);
      if (failed(plan)) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' keeps the per-work-item path: " << why;
        continue;
      }
      if (!plan->run && (!plan->line || *plan->line > plan->capacity)) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' sorts lines longer than " << plan->capacity
                        << " elements in its output bindings: elements the comparator ties may come in another "
                           "order than on the CPU";
      }
      if (plan->topk && plan->order == TopkOrder::kUnknown) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' inserts topk's elements one by one on one work-item "
                           "per line (the CPU loop): its comparator is not one compare known to be a strict order, "
                           "for which the bitonic network would give the same result";
      }
      SortKernelBuilder(fn, *plan).Build();
      // The sort's tensors are dead now: the kernel reads and writes the bindings.
      SmallVector<Operation*> users(plan->root->getUsers().begin(), plan->root->getUsers().end());
      for (Operation* user : users) user->erase();
      plan->root->erase();
      IRRewriter rewriter(fn.getContext());
      (void)runRegionDCE(rewriter, fn.getBody());
      MarkWorkgroupCooperative(fn, kSortWorkgroupSize);
    }
    // A sort of runs (kiln-gpu-split-long-sorts) means something only to this kernel.
    WalkResult result = getOperation()->walk([&](iree::SortOp sort) {
      if (!RunLength(sort)) return WalkResult::advance();
      auto fn = sort->getParentOfType<func::FuncOp>();
      std::string why = "it is not the root of its dispatch";
      if (fn) (void)MatchSort(fn, why);
      sort.emitError() << "dispatch '" << (fn ? fn.getName() : StringRef()) << "' sorts runs of its lines ('"
                       << kSortRunLengthAttr << "'), which only the GPU's sort strategy computes, and it cannot: "
                       << why;
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted()) signalPassFailure();
  }
};

}  // namespace

bool IsSortDispatch(func::FuncOp fn, std::string& why) { return succeeded(MatchSort(fn, why)); }

int64_t SortLdsCapacity(ArrayRef<Type> kept_types) {
  int64_t line_bytes = 4;  // the element's position
  for (Type type : kept_types) line_bytes += ElementBytes(type);
  // Each LDS array (the positions and one per kept operand) may start 16-byte aligned.
  int64_t arrays = 1 + static_cast<int64_t>(kept_types.size());
  return (kSortLdsBytes - 16 * arrays) / line_bytes;
}

}  // namespace kiln::compiler::gpu
