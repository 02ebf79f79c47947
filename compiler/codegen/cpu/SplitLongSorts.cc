// kiln-cpu-split-long-sorts (Passes.td): a long sort line as sorted runs and merge passes,
// in the marked forms SortRunsAndMerges.h defines.
#include "compiler/codegen/cpu/Passes.h"
#include "compiler/codegen/cpu/SortRunsAndMerges.h"
#include "compiler/input/iree/IreeDialects.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_SPLITLONGSORTS
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// Whether `sort` is one line that may be long: its sorted dimension dynamic or at least
// `min_length`, every other dimension 1 (several lines are already split among the
// workgroups by line).
bool IsLongLine(iree::SortOp sort, int64_t min_length) {
  if (sort.getNumResults() == 0 || !sort.getInputs().empty() || IsSplitSortStep(sort)) return false;
  auto type = cast<RankedTensorType>(sort.getOutputs()[0].getType());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t size = type.getDimSize(d);
    if (d == static_cast<int64_t>(sort.getDimension())) {
      if (!ShapedType::isDynamic(size) && size < min_length) return false;
    } else if (size != 1) {
      return false;
    }
  }
  return true;
}

// A marked copy of `sort` computing fresh outputs from `inputs`.
iree::SortOp MarkedStep(OpBuilder& b, iree::SortOp sort, ValueRange inputs, StringRef name, Attribute mark) {
  Location loc = sort.getLoc();
  SmallVector<Value> outputs;
  for (Value input : inputs) {
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, input);
    outputs.push_back(tensor::EmptyOp::create(b, loc, sizes, getElementTypeOrSelf(input.getType())));
  }
  auto step = iree::SortOp::create(b, loc, TypeRange(ValueRange(outputs)), sort.getDimension(), inputs, outputs);
  IRMapping map;
  sort.getRegion().cloneInto(&step.getRegion(), map);
  step->setAttr(name, mark);
  return step;
}

void Split(iree::SortOp sort, int64_t runs) {
  OpBuilder b(sort);
  iree::SortOp step = MarkedStep(b, sort, sort.getOutputs(), kSortRunCountAttr, b.getI64IntegerAttr(runs));
  for (int64_t multiple = 1; multiple < runs; multiple *= 2) {
    step = MarkedStep(b, sort, step.getResults(), kSortMergeAttr, b.getDenseI64ArrayAttr({runs, multiple}));
  }
  sort.replaceAllUsesWith(step.getResults());
  sort.erase();
}

struct SplitLongSortsPass : impl::SplitLongSortsBase<SplitLongSortsPass> {
  using SplitLongSortsBase::SplitLongSortsBase;

  void runOnOperation() override {
    if (runs < 2 || !llvm::isPowerOf2_64(static_cast<uint64_t>(runs))) {
      emitError(getOperation().getLoc()) << "kiln-cpu-split-long-sorts: runs must be a power of two of at least 2, got "
                                         << static_cast<int64_t>(runs);
      return signalPassFailure();
    }
    SmallVector<iree::SortOp> sorts;
    getOperation()->walk([&](iree::SortOp sort) {
      if (IsLongLine(sort, minLength)) sorts.push_back(sort);
    });
    for (iree::SortOp sort : sorts) Split(sort, runs);
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
