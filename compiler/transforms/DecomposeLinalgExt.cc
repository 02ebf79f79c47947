#include "compiler/dialect/KilnDialect.h"
#include "compiler/transforms/LinalgExtDecompositions.h"
#include "compiler/transforms/Passes.h"
// The pass's dependent dialects (Passes.h.inc).
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_DECOMPOSELINALGEXT
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

struct DecomposeLinalgExtPass : impl::DecomposeLinalgExtBase<DecomposeLinalgExtPass> {
  using DecomposeLinalgExtBase::DecomposeLinalgExtBase;

  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation()->walk([&](Operation* op) {
      // An op a target computes whole (kiln.undecomposed) is left to dispatch formation.
      if (isa<iree::GatherOp, iree::ArgCompareOp, iree::AttentionOp, iree::OnlineAttentionOp>(op) &&
          !op->hasAttr(kUndecomposedAttr)) {
        ops.push_back(op);
      }
    });
    IRRewriter rewriter(&getContext());
    for (Operation* op : ops) {
      if (!cast<DestinationStyleOpInterface>(op).hasPureTensorSemantics()) {
        op->emitOpError() << "expects tensor operands: kiln decomposes it before bufferization";
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> replacements;
      if (auto gather = dyn_cast<iree::GatherOp>(op)) {
        replacements = DecomposeGather(rewriter, gather, checkIndices);
      } else if (auto arg_compare = dyn_cast<iree::ArgCompareOp>(op)) {
        replacements = DecomposeArgCompare(rewriter, arg_compare);
      } else {
        replacements = DecomposeAttention(rewriter, op);
      }
      if (failed(replacements)) return signalPassFailure();
      rewriter.replaceOp(op, *replacements);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
