#include "compiler/transforms/Passes.h"
#include "compiler/transforms/WidenedAccumulators.h"
#include "compiler/utils/NamedMatmuls.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_WIDENMATMULACCUMULATORS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// Whether `op` sums into f16 or bf16 that this pass's options widen, from inputs that
// the op's cast to the output type leaves exact (the output's type itself, or an 8-bit
// float, which f16 and bf16 both hold): f32 then multiplies the same values exactly.
// Others (f32 into f16) the cast rounds first; those ops are left as they are.
bool IsWidenable(linalg::LinalgOp op, bool f16, bool bf16) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 || op->getNumResults() != 1) return false;
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!(f16 && element.isF16()) && !(bf16 && element.isBF16())) return false;
  return llvm::all_of(op.getDpsInputs(), [element](Value input) {
    auto type = dyn_cast<FloatType>(getElementTypeOrSelf(input.getType()));
    return type && (type == element || type.getWidth() <= 8);
  });
}

// `op` into f32 from the widened initial value, then rounded back: the same named op
// (RebuildNamedMatmul: inputs, indexing maps) into the wider output, whose cast extends
// each input before multiplying, so its products and sums are f32.
void Widen(RewriterBase& rewriter, linalg::LinalgOp op) {
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value init = op.getDpsInits()[0];
  Value wide_init = WidenInit(rewriter, loc, init);
  linalg::LinalgOp wide = RebuildNamedMatmul(rewriter, op, op.getDpsInputs(), wide_init);
  rewriter.replaceOp(op, NarrowResult(rewriter, loc, wide->getResult(0), init));
}

struct WidenMatmulAccumulatorsPass : impl::WidenMatmulAccumulatorsBase<WidenMatmulAccumulatorsPass> {
  using WidenMatmulAccumulatorsBase::WidenMatmulAccumulatorsBase;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> products;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) && IsWidenable(op, f16, bf16)) products.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : products) Widen(rewriter, op);
  }
};

}  // namespace
}  // namespace kiln::compiler
