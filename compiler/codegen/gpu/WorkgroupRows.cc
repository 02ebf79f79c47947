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
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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
      // The chain folds its input's elements themselves (computed by earlier generics).
      bool plain = dims && generic.getNumDpsInputs() == 1 && dims->element == body.getArgument(0) &&
                   getElementTypeOrSelf(generic.getDpsInputs()[0].getType()) ==
                       getElementTypeOrSelf(generic.getDpsInits()[0].getType());
      if (!plain || !fill) {
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

// Where along the current row an element is computed: column `first` + `lane`, where the
// bindings read whole are loaded `width` columns at a time from `first` (one 128-bit load
// per binding, memoised in `loaded`), or one column at a time when `width` is 1.
struct Column {
  mlir::Value first;
  int64_t lane = 0;
  int64_t width = 1;
  llvm::DenseMap<mlir::Value, mlir::Value>* loaded = nullptr;
};

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
    width_ = ChooseWidth();

    b_.setInsertionPoint(chain_.root);
    Value out = chain_.output;
    Value rows;
    for (int64_t d = 0; d + 1 < chain_.rank; ++d) {
      Value extent = memref::DimOp::create(b_, loc_, out, d);
      rows = rows ? arith::MulIOp::create(b_, loc_, rows, extent).getResult() : extent;
    }
    if (!rows) rows = Const(1);
    n_ = memref::DimOp::create(b_, loc_, out, chain_.rank - 1);
    // Columns below `vectors_end_` go in whole vectors of width_, the rest one at a time.
    vectors_end_ = arith::MulIOp::create(b_, loc_, arith::DivUIOp::create(b_, loc_, n_, Const(width_)), Const(width_));
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
    // The root, along the row: whole vectors, then the last columns one at a time.
    ForEachColumn(ValueRange{}, [&](Value first, int64_t width, ValueRange) -> SmallVector<Value> {
      llvm::DenseMap<Value, Value> loaded;
      SmallVector<Value> values;
      for (int64_t lane = 0; lane < width; ++lane) {
        IRMapping memo;
        values.push_back(Element(chain_.root->getResult(0), Column{first, lane, width, &loaded}, memo));
      }
      if (width == 1) {
        memref::StoreOp::create(b_, loc_, values[0], out, Indices(first));
      } else {
        auto type = VectorType::get({width}, values[0].getType());
        Value vector = vector::FromElementsOp::create(b_, loc_, type, values);
        vector::StoreOp::create(b_, loc_, vector, out, Indices(first));
      }
      return {};
    });
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }

  // Columns per vector: as many as fit in 128 bits of the widest element the row's
  // bindings (read whole, and the output) hold, when all of them are contiguous along the
  // row; 1 otherwise.
  int64_t ChooseWidth() {
    SmallVector<Value> rows = {chain_.output};
    AffineMap whole = AffineMap::getMultiDimIdentityMap(chain_.rank, fn_.getContext());
    for (linalg::GenericOp op : chain_.ops) {
      for (OpOperand* input : op.getDpsInputOperands()) {
        Value binding = BindingOf(input->get());
        if (binding && op.getMatchingIndexingMap(input) == whole) rows.push_back(binding);
      }
    }
    unsigned widest = 8;
    for (Value row : rows) {
      auto type = cast<MemRefType>(row.getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      Type element = type.getElementType();
      if (!element.isIntOrFloat() || failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1) return 1;
      unsigned bits = element.getIntOrFloatBitWidth();
      if (bits < 8 || 128 % bits != 0) return 1;
      widest = std::max(widest, bits);
    }
    return 128 / widest;
  }

  // Runs `body` on every column of the current row this work-item computes, carrying
  // `inits` through: first on whole vectors of width_ columns (work-item t takes columns
  // t * width_ + i * 256 * width_), then column by column on the rest (t + i * 256).
  // `body` returns the carried values' next values. Returns their last values.
  using ColumnBody = llvm::function_ref<SmallVector<Value>(Value first, int64_t width, ValueRange carried)>;
  SmallVector<Value> ForEachColumn(ValueRange inits, ColumnBody body) {
    SmallVector<Value> carried(inits);
    auto loop = [&](Value begin, Value end, int64_t width) {
      auto columns = scf::ForOp::create(b_, loc_, begin, end, Const(kReductionWorkgroupSize * width), carried);
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(columns.getBody());
      SmallVector<Value> next = body(columns.getInductionVar(), width, columns.getRegionIterArgs());
      // Without carried values the loop was built with its terminator.
      if (!carried.empty()) scf::YieldOp::create(b_, loc_, next);
      carried.assign(columns.getResults().begin(), columns.getResults().end());
    };
    if (width_ > 1) loop(arith::MulIOp::create(b_, loc_, thread_, Const(width_)), vectors_end_, width_);
    loop(width_ > 1 ? arith::AddIOp::create(b_, loc_, vectors_end_, thread_).getResult() : thread_, n_, 1);
    return carried;
  }

  SmallVector<Value> Indices(Value column) {
    SmallVector<Value> indices(row_);
    if (column) indices.push_back(column);
    return indices;
  }

  // The element of `v` (a whole-row tensor) at column `c` of the current row, computed
  // from the bindings (memoised in `memo` for one column).
  Value Element(Value v, const Column& c, IRMapping& memo) {
    if (Value known = memo.lookupOrNull(v)) return known;
    Value result;
    if (Value binding = BindingOf(v)) {
      if (c.width == 1) {
        result = memref::LoadOp::create(b_, loc_, binding, Indices(c.first));
      } else {
        Value& vector = (*c.loaded)[binding];
        if (!vector) {
          auto type = VectorType::get({c.width}, cast<MemRefType>(binding.getType()).getElementType());
          vector = vector::LoadOp::create(b_, loc_, type, binding, Indices(c.first));
        }
        result = vector::ExtractOp::create(b_, loc_, vector, ArrayRef<int64_t>{c.lane});
      }
    } else {
      auto op = cast<linalg::GenericOp>(v.getDefiningOp());
      result = Apply(op, c, memo);
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

  // `op`'s body on its operands at column `c`: its yielded value (for a reduction, its
  // combiner's input, with the accumulator left unmapped).
  Value Apply(linalg::GenericOp op, const Column& c, IRMapping& memo) {
    Block& body = op->getRegion(0).front();
    IRMapping mapping;
    AffineMap whole = AffineMap::getMultiDimIdentityMap(chain_.rank, op.getContext());
    for (OpOperand* input : op.getDpsInputOperands()) {
      Value arg = body.getArgument(input->getOperandNumber());
      mapping.map(arg, op.getMatchingIndexingMap(input) == whole ? Element(input->get(), c, memo)
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
    Value partial =
        ForEachColumn(ValueRange{neutral}, [&](Value first, int64_t width, ValueRange carried) -> SmallVector<Value> {
          llvm::DenseMap<Value, Value> loaded;
          Value acc = carried[0];
          for (int64_t lane = 0; lane < width; ++lane) {
            IRMapping memo;
            acc = combine(Element(op.getDpsInputOperand(0)->get(), Column{first, lane, width, &loaded}, memo), acc);
          }
          return {acc};
        })[0];
    Value lds = lds_[op];
    Value last = Const(kReductionWorkgroupSize / wave_size_);
    BuildWorkgroupCombine(
        b_, loc_, partial, lds, thread_, wave_size_, combine,
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
  Value thread_, n_, vectors_end_;
  int64_t width_ = 1;
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
