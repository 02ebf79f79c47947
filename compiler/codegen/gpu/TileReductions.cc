// Workgroup-cooperative row reductions (Passes.td: kiln-gpu-tile-reductions; the strategy in
// WorkgroupReduction.h).
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupContraction.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "compiler/codegen/gpu/WorkgroupReduction.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_TILEREDUCTIONS
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

// Builds the workgroup-cooperative kernel body in place of a reduction root.
class ReductionKernelBuilder {
 public:
  ReductionKernelBuilder(func::FuncOp fn, linalg::LinalgOp root, const WorkgroupReductionDims& dims,
                         int64_t wave_size)
      : fn_(fn), root_(root), dims_(dims), wave_size_(wave_size), b_(root), loc_(root.getLoc()) {}

  // Replaces the root. The output's initial value is `fill`'s if not null, else
  // `init_source`'s (a buffer the output was copied from, or the output itself).
  void Build(linalg::FillOp fill, Value init_source) {
    MLIRContext* ctx = fn_.getContext();
    type_ = getElementTypeOrSelf(root_.getDpsInitOperand(0)->get().getType());
    int64_t waves = kReductionWorkgroupSize / wave_size_;
    b_.setInsertionPointToStart(&fn_.getBody().front());
    auto workgroup = mlir::gpu::AddressSpaceAttr::get(ctx, mlir::gpu::AddressSpace::Workgroup);
    Value lds = memref::AllocOp::create(b_, loc_, MemRefType::get({waves}, type_, MemRefLayoutAttrInterface{}, workgroup));
    Value thread = mlir::gpu::ThreadIdOp::create(b_, loc_, mlir::gpu::Dimension::x);

    b_.setInsertionPoint(root_);
    SmallVector<Range> ranges = root_.createLoopRanges(b_, loc_);
    SmallVector<Value> extents;
    for (Range& range : ranges) extents.push_back(getValueOrCreateConstantIndexOp(b_, loc_, range.size));
    Value rows;  // the product of the parallel extents; one row without any
    for (unsigned d = 0; d < extents.size(); ++d) {
      if (d != dims_.reduction) rows = rows ? arith::MulIOp::create(b_, loc_, rows, extents[d]).getResult() : extents[d];
    }
    if (!rows) rows = Const(1);

    auto row_loop = BuildWorkgroupLoop(b_, loc_, fn_, rows);
    indices_.assign(extents.size(), Value());
    Value rest = row_loop.getInductionVar();
    for (int d = static_cast<int>(extents.size()) - 1; d >= 0; --d) {
      if (static_cast<unsigned>(d) == dims_.reduction) continue;
      indices_[d] = arith::RemUIOp::create(b_, loc_, rest, extents[d]);
      rest = arith::DivUIOp::create(b_, loc_, rest, extents[d]);
    }

    // The work-item's partial value over elements [w t, w t + w), [w t + 256 w, ...) ... of
    // the row, w elements a 128-bit load of each input where their rows are contiguous
    // (element by element at the row's end).
    Value neutral = arith::ConstantOp::create(b_, loc_, dims_.neutral);
    Value n = extents[dims_.reduction];
    int64_t w = 128 / 8;
    for (OpOperand* input : root_.getDpsInputOperands()) w = std::min(w, LoadWidth(input));
    auto stride = scf::ForOp::create(b_, loc_, arith::MulIOp::create(b_, loc_, thread, Const(w)), n,
                                     Const(kReductionWorkgroupSize * w), ValueRange{neutral});
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(stride.getBody());
      Value j = stride.getInductionVar(), p = stride.getRegionIterArg(0);
      auto element_at = [&](Value index) {
        indices_[dims_.reduction] = index;
        SmallVector<Value> inputs;
        for (OpOperand* input : root_.getDpsInputOperands()) {
          inputs.push_back(memref::LoadOp::create(b_, loc_, input->get(), OperandIndices(input)));
        }
        return Element(inputs);
      };
      if (w == 1) {
        scf::YieldOp::create(b_, loc_, Combine(element_at(j), p));
      } else {
        Value whole = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ule,
                                            arith::AddIOp::create(b_, loc_, j, Const(w)), n);
        auto branch = scf::IfOp::create(b_, loc_, TypeRange{type_}, whole, /*withElseRegion=*/true);
        b_.setInsertionPointToStart(branch.thenBlock());
        indices_[dims_.reduction] = j;
        SmallVector<Value> vectors;
        for (OpOperand* input : root_.getDpsInputOperands()) {
          auto type = VectorType::get({w}, getElementTypeOrSelf(input->get().getType()));
          vectors.push_back(vector::LoadOp::create(b_, loc_, type, input->get(), OperandIndices(input)));
        }
        Value folded = p;
        for (int64_t r = 0; r < w; ++r) {
          SmallVector<Value> inputs;
          for (Value vector : vectors) inputs.push_back(vector::ExtractOp::create(b_, loc_, vector, ArrayRef<int64_t>{r}));
          folded = Combine(Element(inputs), folded);
        }
        scf::YieldOp::create(b_, loc_, folded);
        b_.setInsertionPointToStart(branch.elseBlock());
        folded = p;
        for (int64_t r = 0; r < w; ++r) {
          Value at = arith::AddIOp::create(b_, loc_, j, Const(r));
          auto inside = scf::IfOp::create(b_, loc_, TypeRange{type_},
                                          arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, at, n), true);
          b_.setInsertionPointToStart(inside.thenBlock());
          scf::YieldOp::create(b_, loc_, Combine(element_at(at), folded));
          b_.setInsertionPointToStart(inside.elseBlock());
          scf::YieldOp::create(b_, loc_, folded);
          b_.setInsertionPointAfter(inside);
          folded = inside.getResult(0);
        }
        scf::YieldOp::create(b_, loc_, folded);
        b_.setInsertionPointAfter(branch);
        scf::YieldOp::create(b_, loc_, branch.getResult(0));
      }
    }
    Value partial = stride.getResult(0);
    OpOperand* out = root_.getDpsInitOperand(0);
    BuildWorkgroupCombine(
        b_, loc_, partial, lds, thread, wave_size_, [&](Value in, Value acc) { return Combine(in, acc); },
        [&]() -> Value {
          if (fill) return fill.getInputs()[0];
          return memref::LoadOp::create(b_, loc_, init_source, OperandIndices(out));
        },
        [&](Value total) { memref::StoreOp::create(b_, loc_, total, out->get(), OperandIndices(out)); },
        [&]() { mlir::gpu::BarrierOp::create(b_, loc_); });
    // LDS is read before the next row writes it.
    mlir::gpu::BarrierOp::create(b_, loc_);
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }

  // Elements per 128-bit load of `input`'s rows: its innermost dimension contiguous and
  // its elements 8 to 64 bits wide (not 8-bit floats, whose vectors have no lowering yet).
  static int64_t LoadWidth(OpOperand* input) {
    auto type = cast<MemRefType>(input->get().getType());
    Type element = type.getElementType();
    unsigned bits = element.getIntOrFloatBitWidth();
    if (bits < 8 || 128 % bits != 0 || (isa<FloatType>(element) && bits == 8)) return 1;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() || strides.back() != 1) return 1;
    return 128 / bits;
  }
  Value Equal(Value x, Value y) { return arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::eq, x, y); }

  // The element the root folds in, from its inputs' values `inputs`: its body up to the
  // combiner.
  Value Element(ArrayRef<Value> inputs) {
    Block& body = root_->getRegion(0).front();
    IRMapping mapping;
    for (auto [arg, value] : llvm::zip(body.getArguments(), inputs)) mapping.map(arg, value);
    for (Operation& inner : body.without_terminator()) {
      if (&inner != dims_.combiner) b_.clone(inner, mapping);
    }
    return mapping.lookupOrDefault(dims_.element);
  }

  // The root's combiner of `element` and `acc`.
  Value Combine(Value element, Value acc) {
    IRMapping mapping;
    mapping.map(dims_.element, element);
    mapping.map(root_.getMatchingBlockArgument(root_.getDpsInitOperand(0)), acc);
    return b_.clone(*dims_.combiner, mapping)->getResult(0);
  }

  SmallVector<Value> OperandIndices(OpOperand* operand) {
    SmallVector<Value> result;
    for (AffineExpr expr : root_.getMatchingIndexingMap(operand).getResults()) {
      result.push_back(indices_[cast<AffineDimExpr>(expr).getPosition()]);
    }
    return result;
  }

  func::FuncOp fn_;
  linalg::LinalgOp root_;
  WorkgroupReductionDims dims_;
  int64_t wave_size_;
  OpBuilder b_;
  Location loc_;
  Type type_;
  SmallVector<Value> indices_;
};

struct TileReductionsPass : impl::TileReductionsBase<TileReductionsPass> {
  using TileReductionsBase::TileReductionsBase;
  void runOnOperation() override {
    LayOutMarkedDispatches(
        getOperation(), kReductionStrategy,
        [](linalg::LinalgOp root) { return MatchWorkgroupReduction(root).has_value(); },
        [&](func::FuncOp fn, linalg::LinalgOp root, const OutputInitialisation& init) {
          ReductionKernelBuilder(fn, root, *MatchWorkgroupReduction(root), waveSize).Build(init.fill, init.source);
          return kReductionWorkgroupSize;
        });
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
