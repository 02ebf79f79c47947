// The scatter strategy (WorkgroupScatter.h): matching on tensors and kiln-gpu-tile-scatters.
#include "compiler/codegen/gpu/WorkgroupScatter.h"

#include "compiler/codegen/cpu/ScatterSlices.h"
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "compiler/dialect/KilnDialect.h"
#include "compiler/utils/Regions.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_TILESCATTERS
#include "compiler/codegen/gpu/Passes.h.inc"

using namespace mlir;

namespace {

// The atomic read-modify-write that computes `op` (an arith op of the update and the old
// element), if memref.atomic_rmw has one for its element type.
std::optional<arith::AtomicRMWKind> AtomicKindOf(Operation* op) {
  Type type = op->getResult(0).getType();
  bool integer = type.isInteger(32) || type.isInteger(64);
  bool floating = type.isF32() || type.isF64();
  using Kind = arith::AtomicRMWKind;
  std::optional<Kind> kind;
  if (integer) {
    kind = llvm::TypeSwitch<Operation*, std::optional<Kind>>(op)
               .Case([](arith::AddIOp) { return Kind::addi; })
               .Case([](arith::MaxSIOp) { return Kind::maxs; })
               .Case([](arith::MinSIOp) { return Kind::mins; })
               .Case([](arith::MaxUIOp) { return Kind::maxu; })
               .Case([](arith::MinUIOp) { return Kind::minu; })
               .Case([](arith::AndIOp) { return Kind::andi; })
               .Case([](arith::OrIOp) { return Kind::ori; })
               .Case([](arith::XOrIOp) { return Kind::xori; })
               .Default([](Operation*) { return std::nullopt; });
  } else if (floating) {
    kind = llvm::TypeSwitch<Operation*, std::optional<Kind>>(op)
               .Case([](arith::AddFOp) { return Kind::addf; })
               .Case([](arith::MaximumFOp) { return Kind::maximumf; })
               .Case([](arith::MinimumFOp) { return Kind::minimumf; })
               .Case([](arith::MaxNumFOp) { return Kind::maxnumf; })
               .Case([](arith::MinNumFOp) { return Kind::minnumf; })
               .Default([](Operation*) { return std::nullopt; });
  }
  return kind;
}

// The operands of a scatter, on tensors or on buffers.
struct ScatterOperands {
  Value updates, indices, mask, original;
  explicit ScatterOperands(iree::ScatterOp op)
      : updates(op.getInputs()[0]),
        indices(op.getInputs()[1]),
        mask(op.getInputs().size() > 2 ? op.getInputs()[2] : Value()),
        original(op.getOutputs()[0]) {}
};

}  // namespace

ScatterCombine ClassifyScatterCombiner(iree::ScatterOp op) {
  ScatterCombine result;
  Block& body = op.getRegion().front();
  Value update = body.getArgument(0), old = body.getArgument(1);
  Value yielded = body.getTerminator()->getOperand(0);
  if (yielded == update) {
    // Distinct indices keep slices apart only where no indexed dimension has a window.
    int64_t first_slice_dim = cpu::ScatterShape::Of(op).first_slice_dim;
    bool windowed = llvm::any_of(op.getDimensionMap(), [&](int64_t d) { return d >= first_slice_dim; });
    if (!op.getUniqueIndices()) {
      result.why = "it overwrites without unique_indices(true), so the last of repeated indices must win";
    } else if (windowed) {
      result.why = "it overwrites slices that distinct indices along a sliced dimension may still overlap, where "
                   "the last update must win";
    } else {
      result.update = ScatterCombine::Update::kStore;
    }
    return result;
  }
  Operation* combiner = yielded.getDefiningOp();
  bool simple = body.getOperations().size() == 2 && combiner && combiner->getNumOperands() == 2 &&
                combiner->hasTrait<OpTrait::IsCommutative>() &&
                ((combiner->getOperand(0) == update && combiner->getOperand(1) == old) ||
                 (combiner->getOperand(0) == old && combiner->getOperand(1) == update));
  std::optional<arith::AtomicRMWKind> kind = simple ? AtomicKindOf(combiner) : std::nullopt;
  if (!kind) {
    result.why = "its combiner is not one commutative operation of the update and the old element that "
                 "memref.atomic_rmw performs on i32, i64, f32 or f64";
    return result;
  }
  result.update = ScatterCombine::Update::kAtomic;
  result.kind = *kind;
  return result;
}

bool IsScatterDispatch(func::FuncOp fn, std::string& why) {
  iree::ScatterOp scatter = FindRoot<iree::ScatterOp>(fn);
  if (!scatter) {
    why = "its root is not a scatter";
    return false;
  }
  if (scatter->getBlock() != &fn.getBody().front() || scatter->getNumResults() != 1) {
    why = "its scatter is not on tensors at the function's top level";
    return false;
  }
  ScatterOperands operands(scatter);
  for (Value input : {operands.updates, operands.indices, operands.mask}) {
    if (input && !BindingOf(input)) {
      why = "its updates, indices and mask are not all read from bindings";
      return false;
    }
  }
  auto fill = operands.original.getDefiningOp<linalg::FillOp>();
  if (!BindingOf(operands.original) && !(fill && fill->getNumResults() == 1)) {
    why = "its original is neither read from a binding nor a fill";
    return false;
  }
  for (Operation& op : fn.getBody().front()) {
    if (&op == scatter.getOperation() || &op == fill || IsDispatchPlumbing(&op)) continue;
    if (auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(op);
        store && store.getSource() == scatter->getResult(0)) {
      continue;
    }
    why = "it also computes '" + op.getName().getStringRef().str() + "'";
    return false;
  }
  return true;
}

namespace {

// A scatter on buffers as the strategy computes it.
struct ScatterPlan {
  iree::ScatterOp op;
  ScatterCombine combine;
  OutputInitialisation init;
};

FailureOr<ScatterPlan> MatchScatterOnBuffers(func::FuncOp fn, std::string& why) {
  ScatterPlan plan;
  plan.op = FindRoot<iree::ScatterOp>(fn);
  if (!plan.op || plan.op->getNumResults() != 0 || plan.op->getBlock() != &fn.getBody().front()) {
    why = "bufferization did not leave its scatter on buffers at the function's top level";
    return failure();
  }
  ScatterOperands operands(plan.op);
  for (Value input : {operands.updates, operands.indices, operands.mask}) {
    if (input && !isa<BlockArgument>(memref::skipViewLikeOps(cast<MemrefValue>(input)))) {
      why = "an input of its scatter is a temporary buffer, not a view of a binding";
      return failure();
    }
  }
  if (cast<MemRefType>(operands.original.getType()).getRank() == 0) {
    why = "its original has no dimension to split";
    return failure();
  }
  FailureOr<OutputInitialisation> init = FindOutputInitialisation(plan.op, operands.original, why);
  if (failed(init)) return failure();
  plan.init = *init;
  plan.combine = ClassifyScatterCombiner(plan.op);
  return plan;
}

// Builds the workgroup-cooperative scatter in place of the plan's root (WorkgroupScatter.h).
class ScatterKernelBuilder {
 public:
  // With `check_indices`, an update row's out-of-range offsets are reported (checked
  // mode) by every workgroup that reads them, as they are skipped.
  ScatterKernelBuilder(func::FuncOp fn, ScatterPlan plan, bool check_indices)
      : fn_(fn),
        plan_(plan),
        operands_(plan.op),
        check_indices_(check_indices),
        b_(plan.op),
        loc_(plan.op.getLoc()) {}

  void Build() {
    auto updates_type = cast<MemRefType>(operands_.updates.getType());
    rank_ = cast<MemRefType>(operands_.original.getType()).getRank();
    shape_ = cpu::ScatterShape::Of(plan_.op);
    batch_rank_ = shape_.batch_rank;
    first_slice_dim_ = shape_.first_slice_dim;

    thread_ = mlir::gpu::ThreadIdOp::create(b_, loc_, mlir::gpu::Dimension::x);
    for (int64_t d = 0; d < updates_type.getRank(); ++d) {
      (d < batch_rank_ ? batch_sizes_ : slice_sizes_).push_back(Dim(operands_.updates, d));
    }
    batch_count_ = Product(batch_sizes_);
    for (int64_t d = 0; d < rank_; ++d) original_sizes_.push_back(Dim(operands_.original, d));
    // Workgroup w owns rows [w chunk, (w + 1) chunk) of the output: at most one block per
    // workgroup, whatever the workgroup count, and blocks of at least kScatterBlockElements
    // elements (every workgroup with a block reads every update row's indices).
    Value count = fn_.getArgument(fn_.getNumArguments() - 1);
    Value rows = original_sizes_[0];
    Value row_elements = arith::MaxUIOp::create(b_, loc_, Product(ArrayRef<Value>(original_sizes_).drop_front()), Const(1));
    Value min_rows = arith::CeilDivUIOp::create(b_, loc_, Const(kScatterBlockElements), row_elements);
    Value chunk = arith::MaxUIOp::create(b_, loc_, arith::CeilDivUIOp::create(b_, loc_, rows, count), min_rows);
    Value blocks = arith::CeilDivUIOp::create(b_, loc_, rows, chunk);
    scf::ForOp block_loop = BuildWorkgroupLoop(b_, loc_, fn_, blocks);
    low_ = arith::MulIOp::create(b_, loc_, block_loop.getInductionVar(), chunk);
    high_ = arith::MinUIOp::create(b_, loc_, arith::AddIOp::create(b_, loc_, low_, chunk), rows);
    Initialise();
    mlir::gpu::BarrierOp::create(b_, loc_);
    if (plan_.combine.update == ScatterCombine::Update::kOrdered) {
      if (SliceElementsAtLeast(kScatterOrderedShareElements)) {
        RowsInTurn(/*ordered=*/true);
      } else {
        RowsInOneWorkItem();
      }
    } else if (SliceElementsAtLeast(kScatterWorkgroupSize)) {
      RowsInTurn(/*ordered=*/false);
    } else {
      RowsAcrossWorkItems();
    }
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }

  // Splits `linear` into coordinates over `sizes` (row-major), at b_.
  SmallVector<Value> Delinearize(Value linear, ArrayRef<Value> sizes) {
    SmallVector<Value> coords(sizes.size());
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      if (d == 0) {
        coords[d] = linear;
        break;
      }
      coords[d] = arith::RemUIOp::create(b_, loc_, linear, sizes[d]);
      linear = arith::DivUIOp::create(b_, loc_, linear, sizes[d]);
    }
    return coords;
  }

  Value Product(ArrayRef<Value> sizes) {
    if (sizes.empty()) return Const(1);
    Value product = sizes.front();
    for (Value size : sizes.drop_front()) product = arith::MulIOp::create(b_, loc_, product, size);
    return product;
  }

  // Dimension `d` of `memref`: a constant where it is static.
  Value Dim(Value memref, int64_t d) {
    int64_t size = cast<MemRefType>(memref.getType()).getDimSize(d);
    if (!ShapedType::isDynamic(size)) return Const(size);
    return memref::DimOp::create(b_, loc_, memref, d);
  }

  // for i = first, first + step, ... below end: body(i), at b_.
  void For(Value first, Value end, Value step, llvm::function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b_, loc_, first, end, step);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  }

  // The block's rows of the output get the original (the fill's value or the copy's
  // source), element t, t + 256, ... by work-item t.
  void Initialise() {
    OutputInitialisation& init = plan_.init;
    if (!init.fill && init.source == operands_.original) return;  // already in place
    SmallVector<Value> sizes(original_sizes_);
    sizes[0] = arith::SubIOp::create(b_, loc_, high_, low_);
    For(thread_, Product(sizes), Const(kScatterWorkgroupSize), [&](Value e) {
      SmallVector<Value> coords = Delinearize(e, sizes);
      coords[0] = arith::AddIOp::create(b_, loc_, coords[0], low_);
      Value value = init.fill ? init.fill.getInputs()[0]
                              : memref::LoadOp::create(b_, loc_, init.source, coords).getResult();
      memref::StoreOp::create(b_, loc_, value, operands_.original, coords);
    });
  }

  // Update row `linear` (over the batch dimensions): where its slice lands and which part
  // of it is in the block. `applies` is false when the mask skips it, its slice does not
  // fit inside the original (as on the CPU) or misses the block.
  struct UpdateRow {
    SmallVector<Value> batch, offsets;
    Value applies;
    Value first_row;           // the slice's first row in the block, in slice coordinates
    SmallVector<Value> sizes;  // the slice's extent in the block, per slice dimension
  };

  UpdateRow ReadUpdateRow(Value linear) {
    UpdateRow row;
    row.batch = Delinearize(linear, batch_sizes_);
    cpu::ScatterSliceOrigin origin =
        cpu::BuildScatterSliceOrigin(b_, loc_, plan_.op, shape_, row.batch, slice_sizes_, original_sizes_);
    row.offsets = origin.offsets;
    if (check_indices_) cpu::BuildScatterIndexChecks(b_, loc_, plan_.op, origin);
    Value fits = origin.fits;
    // The slice covers rows [offset, offset + window) of dimension 0; the block takes
    // [max(offset, low), min(offset + window, high)). A slice that fits has
    // offset + window <= rows, so the sum cannot overflow where it is used.
    Value window = first_slice_dim_ == 0 ? slice_sizes_[0] : Const(1);
    Value zero = Const(0);
    Value start = arith::MaxUIOp::create(b_, loc_, row.offsets[0], low_);
    Value end = arith::MinUIOp::create(b_, loc_, arith::AddIOp::create(b_, loc_, row.offsets[0], window), high_);
    Value meets = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, start, end);
    row.applies = arith::AndIOp::create(b_, loc_, fits, meets);
    row.sizes = slice_sizes_;
    row.first_row = zero;
    if (first_slice_dim_ == 0) {
      // Only meaningful where `applies`: then start < end.
      row.first_row = arith::SubIOp::create(b_, loc_, start, row.offsets[0]);
      row.sizes[0] = arith::SubIOp::create(b_, loc_, end, start);
    }
    return row;
  }

  // Combines element `e` (linear over row.sizes) of the row's slice into the output.
  void Apply(const UpdateRow& row, Value e) {
    SmallVector<Value> slice = Delinearize(e, row.sizes);
    if (first_slice_dim_ == 0) slice[0] = arith::AddIOp::create(b_, loc_, slice[0], row.first_row);
    SmallVector<Value> coords(row.offsets);
    SmallVector<Value> at(row.batch);
    for (auto [k, index] : llvm::enumerate(slice)) {
      coords[first_slice_dim_ + k] = arith::AddIOp::create(b_, loc_, coords[first_slice_dim_ + k], index);
      at.push_back(index);
    }
    Value update = memref::LoadOp::create(b_, loc_, operands_.updates, at);
    Value out = operands_.original;
    switch (plan_.combine.update) {
      case ScatterCombine::Update::kStore:
        memref::StoreOp::create(b_, loc_, update, out, coords);
        break;
      case ScatterCombine::Update::kAtomic:
        memref::AtomicRMWOp::create(b_, loc_, plan_.combine.kind, update, out, coords);
        break;
      case ScatterCombine::Update::kOrdered: {
        Value old = memref::LoadOp::create(b_, loc_, out, coords);
        Value combined = InlineYieldedValue(b_, plan_.op.getRegion().front(), {update, old});
        memref::StoreOp::create(b_, loc_, combined, out, coords);
        break;
      }
    }
  }

  // Whether an update slice has a static size of at least `elements`: slices that large
  // are shared by the work-items (consecutive elements, coalesced).
  bool SliceElementsAtLeast(int64_t elements) {
    auto updates = cast<MemRefType>(operands_.updates.getType());
    ArrayRef<int64_t> slice = updates.getShape().drop_front(batch_rank_);
    if (llvm::any_of(slice, ShapedType::isDynamic)) return false;
    int64_t product = 1;
    for (int64_t size : slice) product *= size;
    return product >= elements;
  }

  // Work-item t takes update rows t, t + 256, ... and applies each row's part of the
  // block; rows meeting the same element combine atomically (or never meet: unique).
  void RowsAcrossWorkItems() {
    For(thread_, batch_count_, Const(kScatterWorkgroupSize), [&](Value linear) {
      UpdateRow row = ReadUpdateRow(linear);
      auto applies = scf::IfOp::create(b_, loc_, row.applies, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(applies.thenBlock());
      For(Const(0), Product(row.sizes), Const(1), [&](Value e) { Apply(row, e); });
    });
  }

  // Update rows one after another in batch order, each row's part of the block shared by
  // the work-items (element t, t + 256, ...). `ordered`: a barrier before the next row, so
  // that an element sees its updates in the CPU's order; otherwise rows meeting the same
  // element combine atomically.
  void RowsInTurn(bool ordered) {
    For(Const(0), batch_count_, Const(1), [&](Value linear) {
      UpdateRow row = ReadUpdateRow(linear);
      auto applies = scf::IfOp::create(b_, loc_, row.applies, /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard guard(b_);
        b_.setInsertionPointToStart(applies.thenBlock());
        For(thread_, Product(row.sizes), Const(kScatterWorkgroupSize), [&](Value e) { Apply(row, e); });
      }
      if (ordered) mlir::gpu::BarrierOp::create(b_, loc_);
    });
  }

  // Work-item 0 applies the update rows' parts of the block in batch order, on its own:
  // small slices would not repay a barrier per row.
  void RowsInOneWorkItem() {
    Value first = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, thread_, Const(0));
    auto only_first = scf::IfOp::create(b_, loc_, first, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(only_first.thenBlock());
    For(Const(0), batch_count_, Const(1), [&](Value linear) {
      UpdateRow row = ReadUpdateRow(linear);
      auto applies = scf::IfOp::create(b_, loc_, row.applies, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard inner(b_);
      b_.setInsertionPointToStart(applies.thenBlock());
      For(Const(0), Product(row.sizes), Const(1), [&](Value e) { Apply(row, e); });
    });
  }

  func::FuncOp fn_;
  ScatterPlan plan_;
  ScatterOperands operands_;
  bool check_indices_;
  OpBuilder b_;
  Location loc_;
  cpu::ScatterShape shape_;
  int64_t rank_ = 0, batch_rank_ = 0, first_slice_dim_ = 0;
  Value thread_, batch_count_, low_, high_;
  SmallVector<Value> batch_sizes_, slice_sizes_, original_sizes_;
};

struct TileScattersPass : impl::TileScattersBase<TileScattersPass> {
  using TileScattersBase::TileScattersBase;
  void runOnOperation() override {
    for (func::FuncOp fn : TakeMarkedDispatches(getOperation(), kScatterStrategy)) {
      std::string why;
      FailureOr<ScatterPlan> plan = MatchScatterOnBuffers(fn, why);
      if (failed(plan)) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' runs its scatter on one work-item: " << why;
        continue;
      }
      if (plan->combine.update == ScatterCombine::Update::kOrdered) {
        fn.emitRemark() << "dispatch '" << fn.getName()
                        << "' applies its scatter's updates in order, one update row at a time per block of "
                           "output rows: "
                        << plan->combine.why;
      }
      ScatterKernelBuilder(fn, *plan, checkIndices).Build();
      plan->op->erase();
      plan->init.Erase();
      MarkWorkgroupCooperative(fn, kScatterWorkgroupSize);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
