#include "compiler/transforms/Passes.h"
#include "compiler/transforms/WidenedAccumulators.h"
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

// The same named op over the same inputs and indexing maps into `wide_init`: linalg
// matmuls extend each input to the output's type before multiplying, so its products and
// sums are f32.
template <typename NamedOp>
Value WideProduct(RewriterBase& rewriter, NamedOp op, Value wide_init) {
  auto product = NamedOp::create(rewriter, op.getLoc(), op.getDpsInputs(), ValueRange{wide_init});
  product.setIndexingMapsAttr(op.getIndexingMaps());
  if (linalg::TypeFnAttr cast_attr = op.getCastAttr()) product.setCastAttr(cast_attr);
  for (NamedAttribute attr : op->getDiscardableAttrs()) product->setAttr(attr.getName(), attr.getValue());
  return product->getResult(0);
}

template <typename NamedOp>
void Widen(RewriterBase& rewriter, NamedOp op) {
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value init = op.getDpsInits()[0];
  Value wide = WideProduct(rewriter, op, WidenInit(rewriter, loc, init));
  rewriter.replaceOp(op, NarrowResult(rewriter, loc, wide, init));
}

struct WidenMatmulAccumulatorsPass : impl::WidenMatmulAccumulatorsBase<WidenMatmulAccumulatorsPass> {
  using WidenMatmulAccumulatorsBase::WidenMatmulAccumulatorsBase;

  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> matmuls;
    SmallVector<linalg::BatchMatmulOp> batch_matmuls;
    getOperation()->walk([&](Operation* op) {
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op); matmul && IsWidenable(matmul, f16, bf16)) {
        matmuls.push_back(matmul);
      } else if (auto batch = dyn_cast<linalg::BatchMatmulOp>(op); batch && IsWidenable(batch, f16, bf16)) {
        batch_matmuls.push_back(batch);
      }
    });
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp op : matmuls) Widen(rewriter, op);
    for (linalg::BatchMatmulOp op : batch_matmuls) Widen(rewriter, op);
  }
};

}  // namespace
}  // namespace kiln::compiler
