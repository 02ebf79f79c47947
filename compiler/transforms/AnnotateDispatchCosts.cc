// kiln-annotate-dispatch-costs (Passes.td): FLOPs and bytes of every executable function as
// formulas over its push-constant words, for kiln-benchmark-module --dispatches.
#include <optional>
#include <variant>

#include "compiler/dialect/KilnDialect.h"
#include "compiler/dispatch/InPlaceUpdates.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/AttentionLoops.h"
#include "compiler/utils/EntryArguments.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_ANNOTATEDISPATCHCOSTS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// A size: known now, or push-constant word `word` at run time.
struct Word {
  int64_t word;
};
using Size = std::variant<int64_t, Word>;

// coefficient * product of words: one term of a cost formula.
struct Term {
  int64_t coefficient = 1;
  SmallVector<int64_t> words;
  void Multiply(const Size& size) {
    if (const int64_t* known = std::get_if<int64_t>(&size)) {
      coefficient *= *known;
    } else {
      words.push_back(std::get<Word>(size).word);
    }
  }
};

class CostBuilder {
 public:
  CostBuilder(func::FuncOp fn, const DispatchArguments& args) : fn_(fn), args_(args) {}

  // The bytes of bindings [first, last): each its element size times its dimensions.
  std::optional<SmallVector<Term>> BindingBytes(size_t first, size_t last) const {
    SmallVector<Term> terms;
    for (size_t b = first; b < last; ++b) {
      auto type = dyn_cast<MemRefType>(fn_.getArgument(b).getType());
      if (!type || !type.getElementType().isIntOrFloat()) return std::nullopt;
      Term term;
      term.coefficient = (type.getElementType().getIntOrFloatBitWidth() + 7) / 8;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        std::optional<Size> size = BindingDim(b, d);
        if (!size) return std::nullopt;
        term.Multiply(*size);
      }
      terms.push_back(std::move(term));
    }
    return terms;
  }

  // Every linalg op's iteration space times the arithmetic of its body; unknown when a
  // dynamic loop has no push-constant size or arithmetic runs in other loops.
  std::optional<SmallVector<Term>> Flops() const {
    SmallVector<Term> terms;
    bool known = true;
    fn_.walk([&](Operation* op) {
      if (!known) return WalkResult::interrupt();
      if (auto linalg_op = dyn_cast<linalg::LinalgOp>(op)) {
        if (op->getParentOfType<linalg::LinalgOp>()) return WalkResult::skip();
        int64_t per_point = 0;
        op->getRegion(0).walk([&](Operation* inner) { per_point += ArithmeticOps(inner); });
        if (per_point == 0) return WalkResult::skip();
        Term term;
        term.coefficient = per_point;
        SmallVector<int64_t> ranges = linalg_op.getStaticLoopRanges();
        for (auto [dim, range] : llvm::enumerate(ranges)) {
          std::optional<Size> size =
              ShapedType::isDynamic(range) ? LoopDim(linalg_op, dim) : std::optional<Size>(range);
          if (!size) {
            known = false;
            return WalkResult::interrupt();
          }
          term.Multiply(*size);
        }
        terms.push_back(std::move(term));
        return WalkResult::skip();
      }
      if (isa<iree::AttentionOp, iree::OnlineAttentionOp>(op)) {
        std::optional<SmallVector<Term>> attention = AttentionFlops(op);
        if (!attention) {
          known = false;
          return WalkResult::interrupt();
        }
        terms.append(attention->begin(), attention->end());
        return WalkResult::skip();
      }
      if (ArithmeticOps(op) > 0 && op->getParentOfType<LoopLikeOpInterface>()) known = false;
      return WalkResult::advance();
    });
    if (!known) return std::nullopt;
    return terms;
  }

 private:
  // An attention op kept whole (the GPU's flash strategy) counted as its decomposition
  // (DecomposeAttention.cc) computes it: per point of Q K^T and of P V a multiply and an
  // add; per score its scaling, the score region's arithmetic, the row max, the
  // exponential of the difference and the row sum; per output element its division (an
  // online step instead rescales the output, and each row's max and sum).
  std::optional<SmallVector<Term>> AttentionFlops(Operation* op) const {
    auto maps_attr = op->getAttrOfType<ArrayAttr>("indexing_maps");
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!maps_attr || !dps || maps_attr.size() != op->getNumOperands() || dps.getNumDpsInputs() < 3) {
      return std::nullopt;
    }
    SmallVector<AffineMap> maps = llvm::to_vector(maps_attr.getAsValueRange<AffineMapAttr>());
    if (!llvm::all_of(maps, [](AffineMap map) { return map.isProjectedPermutation(); })) return std::nullopt;
    LoopSet q = LoopsOf(maps[0]), k = LoopsOf(maps[1]), v = LoopsOf(maps[2]);
    LoopSet out = LoopsOf(maps[dps.getNumDpsInputs()]);
    LoopSet dot = Minus(q, out), qk = Union(q, k);
    LoopSet scores = Minus(qk, dot), rows = Minus(q, dot);
    int64_t region_ops = 0;
    op->getRegion(0).walk([&](Operation* inner) { region_ops += ArithmeticOps(inner); });
    bool online = isa<iree::OnlineAttentionOp>(op);
    SmallVector<Term> terms;
    auto add = [&](const LoopSet& loops, int64_t per_point) {
      Term term;
      term.coefficient = per_point;
      for (unsigned loop : loops) {
        std::optional<Size> size = LoopSize(op, maps, loop);
        if (!size) return false;
        term.Multiply(*size);
      }
      terms.push_back(std::move(term));
      return true;
    };
    bool known = add(qk, 2) && add(Union(scores, v), 2) && add(scores, 5 + region_ops) && add(out, 1) &&
                 (!online || add(rows, 3));
    if (!known) return std::nullopt;
    return terms;
  }

  // Floating-point (and integer) arithmetic: 2 for an fma, 1 for other arith and math ops;
  // 0 for constants, comparisons, selects, casts and index arithmetic.
  static int64_t ArithmeticOps(Operation* op) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) || op->getNumResults() != 1) return 0;
    if (isa<arith::ConstantOp, arith::CmpFOp, arith::CmpIOp, arith::SelectOp, CastOpInterface>(op)) return 0;
    if (op->getResult(0).getType().isIndex()) return 0;
    return isa<math::FmaOp>(op) ? 2 : 1;
  }

  // Dimension `dim` of binding `binding`: static, or the word kiln.binding_dims names.
  std::optional<Size> BindingDim(size_t binding, int64_t dim) const {
    auto type = cast<MemRefType>(fn_.getArgument(binding).getType());
    if (!type.isDynamicDim(dim)) return Size(type.getDimSize(dim));
    auto dims = dyn_cast<DenseI64ArrayAttr>(args_.binding_dims[binding]);
    if (!dims || dim >= dims.size()) return std::nullopt;
    return ConstantWord(dims[dim]);
  }

  std::optional<Size> ConstantWord(int64_t constant) const {
    if (constant < 0 || constant >= static_cast<int64_t>(args_.constant_types.size())) return std::nullopt;
    if (PushConstantWordCount(args_.constant_types[constant]) != 1) return std::nullopt;
    return Size(Word{args_.word_of_constant[constant]});
  }

  // An index scalar: a constant, or a push-constant argument.
  std::optional<Size> Scalar(Value value) const {
    for (int depth = 0; depth < 8; ++depth) {
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (arg.getOwner()->getParentOp() != fn_) return std::nullopt;
        return ConstantWord(static_cast<int64_t>(arg.getArgNumber()) - static_cast<int64_t>(args_.binding_count));
      }
      if (std::optional<int64_t> constant = getConstantIntValue(value)) return Size(*constant);
      auto cast_op = value.getDefiningOp<arith::IndexCastOp>();
      if (!cast_op) return std::nullopt;
      value = cast_op.getIn();
    }
    return std::nullopt;
  }

  // Dimension `dim` of a tensor or memref inside the dispatch, followed back to a binding,
  // a tensor.empty size or a slice size.
  std::optional<Size> ValueDim(Value value, int64_t dim) const {
    for (int depth = 0; depth < 16; ++depth) {
      auto shaped = dyn_cast<ShapedType>(value.getType());
      if (!shaped || dim >= shaped.getRank()) return std::nullopt;
      if (!shaped.isDynamicDim(dim)) return Size(shaped.getDimSize(dim));
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (arg.getOwner()->getParentOp() != fn_ || arg.getArgNumber() >= args_.binding_count) return std::nullopt;
        return BindingDim(arg.getArgNumber(), dim);
      }
      Operation* def = value.getDefiningOp();
      if (auto to_tensor = dyn_cast<bufferization::ToTensorOp>(def)) {
        value = to_tensor.getBuffer();
      } else if (auto empty = dyn_cast<tensor::EmptyOp>(def)) {
        return Scalar(empty.getDynamicSize(dim));
      } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
        if (slice.getType().getRank() != slice.getSourceType().getRank()) return std::nullopt;
        OpFoldResult size = slice.getMixedSizes()[dim];
        if (auto v = dyn_cast<Value>(size)) return Scalar(v);
        return Size(cast<IntegerAttr>(cast<Attribute>(size)).getInt());
      } else if (auto cast_op = dyn_cast<tensor::CastOp>(def)) {
        value = cast_op.getSource();
      } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
        value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
      } else {
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

  // A dynamic loop of `op`: the size of an operand dimension it indexes directly.
  std::optional<Size> LoopDim(linalg::LinalgOp op, unsigned loop) const {
    return LoopSize(op, op.getIndexingMapsArray(), loop);
  }

  // Loop `loop` of `op`, whose operands are indexed by `maps` (one per operand, in order):
  // the size of an operand dimension it indexes directly.
  std::optional<Size> LoopSize(Operation* op, ArrayRef<AffineMap> maps, unsigned loop) const {
    for (OpOperand& operand : op->getOpOperands()) {
      if (!isa<ShapedType>(operand.get().getType())) continue;
      AffineMap map = maps[operand.getOperandNumber()];
      for (unsigned r = 0; r < map.getNumResults(); ++r) {
        auto d = dyn_cast<AffineDimExpr>(map.getResult(r));
        if (!d || d.getPosition() != loop) continue;
        if (std::optional<Size> size = ValueDim(operand.get(), r)) return size;
      }
    }
    return std::nullopt;
  }

  mutable func::FuncOp fn_;
  const DispatchArguments& args_;
};

Attribute FormulaAttr(Builder& b, ArrayRef<Term> terms) {
  SmallVector<Attribute> out;
  for (const Term& term : terms) {
    SmallVector<int64_t> values = {term.coefficient};
    values.append(term.words.begin(), term.words.end());
    out.push_back(b.getDenseI64ArrayAttr(values));
  }
  return b.getArrayAttr(out);
}

// The bytes an in-place slice write moves (an insert's source, a scatter's updates: not
// the destination binding), when its shape is static; nullopt for other dispatches (their
// outputs are written whole).
std::optional<int64_t> InPlaceSliceBytes(func::FuncOp fn) {
  if (!fn->hasAttr(kInPlaceResultsAttr)) return std::nullopt;
  std::optional<int64_t> bytes;
  fn.walk([&](Operation* op) {
    if (!op->hasAttr(kRootAttr)) return;
    Value written = InPlaceSource(op);
    auto type = written ? dyn_cast<RankedTensorType>(written.getType()) : RankedTensorType();
    if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat()) return;
    bytes = (type.getNumElements() * type.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  });
  return bytes;
}

struct AnnotateDispatchCostsPass : impl::AnnotateDispatchCostsBase<AnnotateDispatchCostsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    WalkResult result = getOperation().walk([&](func::FuncOp fn) {
      auto binding_dims = fn->getAttrOfType<ArrayAttr>(kBindingDimsAttr);
      auto input_count = fn->getAttrOfType<IntegerAttr>(kInputCountAttr);
      if (!binding_dims || !input_count) return WalkResult::advance();
      FailureOr<DispatchArguments> args = ReadDispatchArguments(fn, binding_dims);
      if (failed(args)) return WalkResult::interrupt();
      CostBuilder costs(fn, *args);
      size_t inputs = std::min<size_t>(input_count.getInt(), args->binding_count);
      SmallVector<NamedAttribute> entries;
      if (auto read = costs.BindingBytes(0, inputs)) {
        entries.push_back(b.getNamedAttr("bytes_read", FormulaAttr(b, *read)));
      }
      if (std::optional<int64_t> slice = InPlaceSliceBytes(fn)) {
        entries.push_back(b.getNamedAttr("bytes_written", FormulaAttr(b, {Term{*slice, {}}})));
      } else if (auto written = costs.BindingBytes(inputs, args->binding_count)) {
        entries.push_back(b.getNamedAttr("bytes_written", FormulaAttr(b, *written)));
      }
      if (auto flops = costs.Flops()) entries.push_back(b.getNamedAttr("flops", FormulaAttr(b, *flops)));
      fn->setAttr(kCostAttr, b.getDictionaryAttr(entries));
      return WalkResult::advance();
    });
    if (result.wasInterrupted()) signalPassFailure();
  }
};

}  // namespace
}  // namespace kiln::compiler
