// kiln-gpu-split-long-sorts (SplitLongSorts.h): a long sort as a sort of runs and merge passes.
#include "compiler/codegen/gpu/SplitLongSorts.h"

#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupSort.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/utils/MergePath.h"
#include "compiler/utils/Regions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/bit.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_SPLITLONGSORTS
#include "compiler/codegen/gpu/Passes.h.inc"

using namespace mlir;

namespace {

// Builds one merge pass: from `sorted` (every operand of the sort, its lines made of
// sorted runs of `width`), the same lines made of sorted runs of 2 * width.
class MergePassBuilder {
 public:
  MergePassBuilder(OpBuilder& b, Location loc, iree::SortOp sort, Value n, Value width)
      : b_(b), loc_(loc), sort_(sort), n_(n), width_(width) {}

  SmallVector<Value> Build(ValueRange sorted) {
    sorted_.assign(sorted.begin(), sorted.end());
    auto type = cast<RankedTensorType>(sorted_[0].getType());
    int64_t rank = type.getRank();
    SmallVector<Value> inits;
    SmallVector<AffineMap> maps;
    for (Value tensor : sorted_) {
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b_, loc_, tensor);
      inits.push_back(
          tensor::EmptyOp::create(b_, loc_, sizes, getElementTypeOrSelf(tensor.getType())).getResult());
      maps.push_back(b_.getMultiDimIdentityMap(rank));
    }
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        b_, loc_, TypeRange(ValueRange(inits)), ValueRange{}, inits, maps, iterators,
        [&](OpBuilder& nested, Location, ValueRange) {
          OpBuilder::InsertionGuard guard(b_);
          b_.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
          linalg::YieldOp::create(b_, loc_, Body(rank));
        });
    return SmallVector<Value>(generic.getResults());
  }

 private:
  Value Const(int64_t v) { return arith::ConstantIndexOp::create(b_, loc_, v); }
  Value Add(Value l, Value r) { return arith::AddIOp::create(b_, loc_, l, r); }
  Value Sub(Value l, Value r) { return arith::SubIOp::create(b_, loc_, l, r); }
  Value Min(Value l, Value r) { return arith::MinUIOp::create(b_, loc_, l, r); }
  Value Select(Value c, Value t, Value f) { return arith::SelectOp::create(b_, loc_, c, t, f); }
  Value Cmp(arith::CmpIPredicate p, Value l, Value r) { return arith::CmpIOp::create(b_, loc_, p, l, r); }

  // Element `position` of the current line of operand `k`.
  Value Read(size_t k, Value position) {
    SmallVector<Value> indices(line_);
    indices[sort_.getDimension()] = position;
    return tensor::ExtractOp::create(b_, loc_, sorted_[k], indices);
  }

  // Whether the comparator puts the element at `left` before the one at `right`.
  Value Less(Value left, Value right) {
    Block& comparator = sort_.getRegion().front();
    SmallVector<Value> args;
    for (size_t k = 0; k < sorted_.size(); ++k) {
      for (auto [side, position] : llvm::enumerate(std::array<Value, 2>{left, right})) {
        BlockArgument arg = comparator.getArgument(2 * k + side);
        // An operand the comparator does not read needs no load.
        args.push_back(arg.use_empty() ? arith::ConstantOp::create(b_, loc_, b_.getZeroAttr(arg.getType())).getResult()
                                       : Read(k, position));
      }
    }
    return InlineYieldedValue(b_, comparator, args);
  }

  // Output element p of the line is the merge of runs A = [s, a_end) and B = [a_end, b_end)
  // at k = p - s: the merge path's split (i from A, j = k - i from B, MergePath.h); the
  // element is then A[i] or B[j], whichever goes first (A on ties: stable).
  SmallVector<Value> Body(int64_t rank) {
    int64_t d = sort_.getDimension();
    line_.clear();
    for (int64_t i = 0; i < rank; ++i) line_.push_back(linalg::IndexOp::create(b_, loc_, i));
    Value p = line_[d];
    Value pair = arith::ShLIOp::create(b_, loc_, width_, Const(1));
    Value s = arith::MulIOp::create(b_, loc_, arith::DivUIOp::create(b_, loc_, p, pair), pair);
    Value a_end = Min(Add(s, width_), n_);
    Value b_end = Min(Add(s, pair), n_);
    Value a_len = Sub(a_end, s), b_len = Sub(b_end, a_end), k = Sub(p, s);
    Value i = MergePathSplit(b_, loc_, s, a_len, a_end, b_len, k,
                             [&](OpBuilder&, Location, Value b_at, Value a_at) { return Less(b_at, a_at); });
    Value j = Sub(k, i);
    // Both candidates clamped into the line, for the comparison; the flags decide.
    Value a_at = Add(s, Min(i, Sub(a_len, Const(1))));
    Value b_at = Min(Add(a_end, j), Sub(n_, Const(1)));
    Value a_done = Cmp(arith::CmpIPredicate::uge, i, a_len);
    Value b_left = Cmp(arith::CmpIPredicate::ult, j, b_len);
    Value b_first = arith::AndIOp::create(b_, loc_, b_left, Less(b_at, a_at));
    Value source = Select(arith::OrIOp::create(b_, loc_, a_done, b_first), b_at, a_at);
    SmallVector<Value> results;
    for (size_t q = 0; q < sorted_.size(); ++q) results.push_back(Read(q, source));
    return results;
  }

  OpBuilder& b_;
  Location loc_;
  iree::SortOp sort_;
  Value n_, width_;
  SmallVector<Value> sorted_, line_;
};

// Why `sort` is not split: nothing if it is (its runs' length in `run`), an empty string
// if it has no long lines to split.
std::optional<std::string> WhyNotSplit(iree::SortOp sort, int64_t& run) {
  if (sort.getNumResults() == 0 || sort->hasAttr(kSortRunLengthAttr)) return std::string();
  if (!sort.getInputs().empty()) return "it has `ins`";
  Block& comparator = sort.getRegion().front();
  for (Operation& op : comparator.without_terminator()) {
    if (op.getNumRegions() != 0 || !isa<arith::ArithDialect, math::MathDialect>(op.getDialect())) {
      return "its comparator computes '" + op.getName().getStringRef().str() + "'";
    }
  }
  SmallVector<Type> types;
  for (Value out : sort.getOutputs()) {
    Type element = getElementTypeOrSelf(out.getType());
    if (!element.isIntOrIndexOrFloat()) return "an operand's elements are not numbers";
    types.push_back(element);
  }
  // Runs of a power of two, every operand kept: the block sort's network has no idle stage.
  run = static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(SortLdsCapacity(types))));
  auto type = cast<RankedTensorType>(sort.getOutputs()[0].getType());
  int64_t dimension = sort.getDimension();
  if (!type.isDynamicDim(dimension) && type.getDimSize(dimension) <= SortLdsCapacity(types)) return std::string();
  return std::nullopt;
}

void Split(iree::SortOp sort, int64_t run) {
  OpBuilder b(sort);
  Location loc = sort.getLoc();
  auto runs = cast<iree::SortOp>(b.clone(*sort));
  runs->setAttr(kSortRunLengthAttr, b.getI64IntegerAttr(run));
  Value n = tensor::DimOp::create(b, loc, sort.getOutputs()[0], sort.getDimension());
  // A static line: the passes one after another in the host program, so they share one
  // command buffer and their intermediates the transient slab (placed by liveness: two
  // buffers ping-pong).
  int64_t length = cast<RankedTensorType>(sort.getOutputs()[0].getType()).getDimSize(sort.getDimension());
  if (!ShapedType::isDynamic(length)) {
    SmallVector<Value> merged(runs.getResults());
    for (int64_t width = run; width < length; width *= 2) {
      Value w = arith::ConstantIndexOp::create(b, loc, width);
      merged = MergePassBuilder(b, loc, sort, n, w).Build(merged);
    }
    sort.replaceAllUsesWith(merged);
    sort.erase();
    return;
  }
  // A dynamic one: while width < n, merge runs of width into runs of 2 * width (zero
  // passes when the line is one run), each pass its own dispatch.
  SmallVector<Type> types{b.getIndexType()};
  SmallVector<Value> inits{arith::ConstantIndexOp::create(b, loc, run)};
  llvm::append_range(types, runs.getResultTypes());
  llvm::append_range(inits, runs.getResults());
  SmallVector<Location> locs(types.size(), loc);
  auto passes = scf::WhileOp::create(b, loc, types, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    Block* before = b.createBlock(&passes.getBefore(), {}, types, locs);
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, before->getArgument(0), n);
    scf::ConditionOp::create(b, loc, more, before->getArguments());
    Block* after = b.createBlock(&passes.getAfter(), {}, types, locs);
    Value width = after->getArgument(0);
    SmallVector<Value> yielded{arith::ShLIOp::create(b, loc, width, arith::ConstantIndexOp::create(b, loc, 1))};
    llvm::append_range(yielded, MergePassBuilder(b, loc, sort, n, width).Build(after->getArguments().drop_front()));
    scf::YieldOp::create(b, loc, yielded);
  }
  sort.replaceAllUsesWith(passes.getResults().drop_front());
  sort.erase();
}

struct SplitLongSortsPass : impl::SplitLongSortsBase<SplitLongSortsPass> {
  void runOnOperation() override {
    SmallVector<iree::SortOp> sorts;
    getOperation()->walk([&](iree::SortOp sort) { sorts.push_back(sort); });
    for (iree::SortOp sort : sorts) {
      int64_t run = 0;
      std::optional<std::string> why = WhyNotSplit(sort, run);
      if (!why) {
        Split(sort, run);
      } else if (!why->empty()) {
        sort.emitRemark() << "'" << sort->getName() << "' is not split into sorted runs and merge passes: " << *why;
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
