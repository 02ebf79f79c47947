#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_DECOMPOSEAGGREGATES
#include "compiler/transforms/Passes.h.inc"

namespace {

struct DecomposeAggregatesPass : impl::DecomposeAggregatesBase<DecomposeAggregatesPass> {
  void runOnOperation() override {
    llvm::SmallVector<mlir::linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk([&](mlir::linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    mlir::IRRewriter rewriter(&getContext());
    for (mlir::linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      mlir::FailureOr<llvm::SmallVector<mlir::Value>> replacements = op.decomposeOperation(rewriter);
      if (mlir::failed(replacements)) {
        op->emitError() << "cannot decompose '" << op->getName() << "' into structured ops";
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *replacements);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
