// The row strategy (WorkgroupRows.h): matching on tensors and kiln-gpu-tile-rows.
#include "compiler/codegen/gpu/WorkgroupRows.h"

#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupContraction.h"
#include "compiler/codegen/gpu/WorkgroupReduction.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_TILEROWS
#include "compiler/codegen/gpu/Passes.h.inc"

using namespace mlir;

namespace {

// A dispatch's row-wise chain: its generics in order, the last the root.
struct RowChain {
  SmallVector<linalg::GenericOp> ops;
  linalg::GenericOp root;
  Value output;  // the output binding (a memref argument)
  int64_t rank = 0;
};

bool IsReduction(linalg::GenericOp op) { return op.getNumReductionLoops() == 1; }

FailureOr<RowChain> MatchRows(func::FuncOp fn, std::string& why) {
  RowChain chain;
  fn.walk([&](linalg::GenericOp op) {
    if (op->hasAttr(kRootAttr)) chain.root = op;
  });
  if (!chain.root || chain.root.getNumReductionLoops() != 0 || chain.root->getNumResults() != 1 ||
      chain.root.getNumLoops() == 0) {
    why = "its root is not an elementwise generic over rows";
    return failure();
  }
  chain.rank = chain.root.getNumLoops();
  MLIRContext* ctx = fn.getContext();
  AffineMap whole = AffineMap::getMultiDimIdentityMap(chain.rank, ctx);
  AffineMap per_row = whole.getMajorSubMap(chain.rank - 1);
  llvm::SmallPtrSet<Operation*, 8> seen;
  for (Operation& op : fn.getBody().front()) {
    if (isa<linalg::FillOp>(op) || IsDispatchPlumbing(&op)) continue;
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      why = "it computes '" + op.getName().getStringRef().str() + "'";
      return failure();
    }
    bool reduction = IsReduction(generic);
    auto iterators = generic.getIteratorTypesArray();
    bool shape = generic.getNumLoops() == static_cast<unsigned>(chain.rank) && generic.getNumDpsInits() == 1 &&
                 (reduction ? generic.getNumReductionLoops() == 1 &&
                                  iterators.back() == utils::IteratorType::reduction
                            : generic.getNumReductionLoops() == 0);
    if (!shape || generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)) != (reduction ? per_row : whole)) {
      why = "a generic is neither elementwise nor a reduction of its rows";
      return failure();
    }
    Block& body = generic->getRegion(0).front();
    // Bodies are cloned outside their generic: only ops that mean the same there.
    bool flat = llvm::all_of(body, [](Operation& inner) {
      return inner.getNumRegions() == 0 && !isa<linalg::IndexOp>(inner) &&
             (isa<linalg::YieldOp>(inner) || isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()));
    });
    if (reduction) {
      std::optional<WorkgroupReductionDims> dims = MatchWorkgroupReduction(generic);
      auto fill = generic.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
      if (!dims || !fill) {
        why = "a row reduction is not one combiner started from a fill";
        return failure();
      }
    } else if (!body.getArguments().back().use_empty()) {
      why = "an elementwise generic reads its output";
      return failure();
    }
    for (OpOperand* input : generic.getDpsInputOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(input);
      Value v = input->get();
      Operation* def = v.getDefiningOp();
      bool earlier = def && seen.contains(def);
      bool ok = map == whole ? (BindingOf(v) || (earlier && !IsReduction(cast<linalg::GenericOp>(def))))
                : map == per_row ? (BindingOf(v) || v.getDefiningOp<linalg::FillOp>() ||
                                    (earlier && IsReduction(cast<linalg::GenericOp>(def))))
                                 : false;
      if (!ok) {
        why = "an operand is read neither whole nor per row from a binding or an earlier result";
        return failure();
      }
    }
    if (!flat) {
      why = "a body holds ops other than arith and math (regions, linalg.index)";
      return failure();
    }
    seen.insert(generic);
    chain.ops.push_back(generic);
  }
  if (chain.ops.empty() || chain.ops.back() != chain.root) {
    why = "its root is not its last generic";
    return failure();
  }
  // Without a row reduction the generic distribution spreads elements over the whole grid.
  if (llvm::none_of(chain.ops, IsReduction)) {
    why = "it reduces no row";
    return failure();
  }
  // Only the root's result leaves the chain, into one output binding.
  for (linalg::GenericOp op : chain.ops) {
    for (Operation* user : op->getResult(0).getUsers()) {
      auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(user);
      if (op == chain.root && store && isa<BlockArgument>(store.getDest()) && !chain.output) {
        chain.output = store.getDest();
      } else if (!seen.contains(user)) {
        why = "an intermediate result leaves the dispatch";
        return failure();
      }
    }
  }
  if (!chain.output) {
    why = "its root's result is not written to an output binding";
    return failure();
  }
  return chain;
}

// Builds the workgroup-cooperative code of a row chain.
class RowKernelBuilder {
 public:
  RowKernelBuilder(func::FuncOp fn, RowChain chain, int64_t wave_size)
      : fn_(fn), chain_(chain), wave_size_(wave_size), b_(chain.root), loc_(chain.root->getLoc()) {}

  void Build() {
    MLIRContext* ctx = fn_.getContext();
    b_.setInsertionPointToStart(&fn_.getBody().front());
    auto workgroup = mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
    int64_t waves = kReductionWorkgroupSize / wave_size_;
    for (linalg::GenericOp op : chain_.ops) {
      if (!IsReduction(op)) continue;
      Type type = op->getResult(0).getType();
      type = cast<ShapedType>(type).getElementType();
      // The waves' totals, then the row's total for every work-item.
      lds_[op] = memref::AllocOp::create(
          b_, loc_, MemRefType::get({waves + 1}, type, MemRefLayoutAttrInterface{}, workgroup));
    }
    thread_ = mlir::gpu::ThreadIdOp::create(b_, loc_, mlir::gpu::Dimension::x);

    b_.setInsertionPoint(chain_.root);
    Value out = chain_.output;
    Value rows;
    for (int64_t d = 0; d + 1 < chain_.rank; ++d) {
      Value extent = memref::DimOp::create(b_, loc_, out, d);
      rows = rows ? arith::MulIOp::create(b_, loc_, rows, extent).getResult() : extent;
    }
    if (!rows) rows = Const(1);
    n_ = memref::DimOp::create(b_, loc_, out, chain_.rank - 1);
    auto row_loop = BuildWorkgroupLoop(b_, loc_, fn_, rows);
    Value rest = row_loop.getInductionVar();
    row_.assign(chain_.rank - 1, Value());
    for (int64_t d = chain_.rank - 2; d >= 0; --d) {
      Value extent = memref::DimOp::create(b_, loc_, out, d);
      row_[d] = arith::RemUIOp::create(b_, loc_, rest, extent);
      rest = arith::DivUIOp::create(b_, loc_, rest, extent);
    }
    for (linalg::GenericOp op : chain_.ops) {
      if (IsReduction(op)) ReduceRow(op);
    }
    // The root, element by element along the row.
    auto columns = scf::ForOp::create(b_, loc_, thread_, n_, Const(kReductionWorkgroupSize));
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(columns.getBody());
      IRMapping memo;
      Value value = Element(chain_.root->getResult(0), columns.getInductionVar(), memo);
      memref::StoreOp::create(b_, loc_, value, out, Indices(columns.getInductionVar()));
    }
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }

  SmallVector<Value> Indices(Value column) {
    SmallVector<Value> indices(row_);
    if (column) indices.push_back(column);
    return indices;
  }

  // The element of `v` (a whole-row tensor) at column `j` of the current row, computed
  // from the bindings (memoised in `memo` within one loop body).
  Value Element(Value v, Value j, IRMapping& memo) {
    if (Value known = memo.lookupOrNull(v)) return known;
    Value result;
    if (Value binding = BindingOf(v)) {
      result = memref::LoadOp::create(b_, loc_, binding, Indices(j));
    } else {
      auto op = cast<linalg::GenericOp>(v.getDefiningOp());
      result = Apply(op, j, memo);
    }
    memo.map(v, result);
    return result;
  }

  // The per-row value `v` of the current row.
  Value RowValue(Value v) {
    if (auto it = totals_.find(v); it != totals_.end()) return it->second;
    if (auto fill = v.getDefiningOp<linalg::FillOp>()) return fill.getInputs()[0];
    return memref::LoadOp::create(b_, loc_, BindingOf(v), Indices(Value()));
  }

  // `op`'s body on its operands at column `j`: its yielded value (for a reduction, its
  // combiner's input, with the accumulator left unmapped).
  Value Apply(linalg::GenericOp op, Value j, IRMapping& memo) {
    Block& body = op->getRegion(0).front();
    IRMapping mapping;
    AffineMap whole = AffineMap::getMultiDimIdentityMap(chain_.rank, op.getContext());
    for (OpOperand* input : op.getDpsInputOperands()) {
      Value arg = body.getArgument(input->getOperandNumber());
      mapping.map(arg, op.getMatchingIndexingMap(input) == whole ? Element(input->get(), j, memo)
                                                                  : RowValue(input->get()));
    }
    for (Operation& inner : body.without_terminator()) b_.clone(inner, mapping);
    return mapping.lookup(body.getTerminator()->getOperand(0));
  }

  // The row's total of reduction `op`, for every work-item (totals_).
  void ReduceRow(linalg::GenericOp op) {
    std::optional<WorkgroupReductionDims> dims = MatchWorkgroupReduction(op);
    Block& body = op->getRegion(0).front();
    auto combine = [&](Value in, Value acc) {
      IRMapping mapping;
      mapping.map(body.getArgument(0), in);
      mapping.map(body.getArgument(1), acc);
      return b_.clone(*dims->combiner, mapping)->getResult(0);
    };
    Value neutral = arith::ConstantOp::create(b_, loc_, dims->neutral);
    auto columns = scf::ForOp::create(b_, loc_, thread_, n_, Const(kReductionWorkgroupSize), ValueRange{neutral});
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(columns.getBody());
      IRMapping memo;
      Value element = Element(op.getDpsInputOperand(0)->get(), columns.getInductionVar(), memo);
      scf::YieldOp::create(b_, loc_, combine(element, columns.getRegionIterArg(0)));
    }
    Value lds = lds_[op];
    Value last = Const(kReductionWorkgroupSize / wave_size_);
    BuildWorkgroupCombine(
        b_, loc_, columns.getResult(0), lds, thread_, wave_size_, combine,
        [&]() { return op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>().getInputs()[0]; },
        [&](Value total) { memref::StoreOp::create(b_, loc_, total, lds, ValueRange{last}); },
        [&]() { WorkgroupBarrierOp::create(b_, loc_); });
    WorkgroupBarrierOp::create(b_, loc_);
    totals_[op->getResult(0)] = memref::LoadOp::create(b_, loc_, lds, ValueRange{last});
    // Every work-item has read the total before work-item 0 overwrites it (next row).
    WorkgroupBarrierOp::create(b_, loc_);
  }

  func::FuncOp fn_;
  RowChain chain_;
  int64_t wave_size_;
  OpBuilder b_;
  Location loc_;
  Value thread_, n_;
  SmallVector<Value> row_;
  llvm::DenseMap<Operation*, Value> lds_;
  llvm::DenseMap<Value, Value> totals_;
};

struct TileRowsPass : impl::TileRowsBase<TileRowsPass> {
  using TileRowsBase::TileRowsBase;
  void runOnOperation() override {
    for (func::FuncOp fn : TakeMarkedDispatches(getOperation(), kRowStrategy)) {
      std::string why;
      FailureOr<RowChain> chain = MatchRows(fn, why);
      if (failed(chain)) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' keeps the per-work-item path: " << why;
        continue;
      }
      RowKernelBuilder(fn, *chain, waveSize).Build();
      // The chain's tensors are dead now: the kernel reads and writes the bindings.
      SmallVector<Operation*> dead;
      for (Operation* user : chain->root->getResult(0).getUsers()) dead.push_back(user);
      for (Operation* op : dead) op->erase();
      for (linalg::GenericOp op : llvm::reverse(chain->ops)) op->erase();
      MarkWorkgroupCooperative(fn, kReductionWorkgroupSize);
    }
  }
};

}  // namespace

bool IsRowDispatch(func::FuncOp fn, std::string& why) { return succeeded(MatchRows(fn, why)); }

}  // namespace kiln::compiler::gpu
