#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
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
    // linalg.pack and linalg.unpack have no bufferization: they become pad, reshape and
    // transpose (unpack: transpose, reshape and extract_slice).
    llvm::SmallVector<mlir::Operation*> packs;
    getOperation()->walk([&](mlir::Operation* op) {
      if (mlir::isa<mlir::linalg::PackOp, mlir::linalg::UnPackOp>(op)) packs.push_back(op);
    });
    for (mlir::Operation* op : packs) {
      rewriter.setInsertionPoint(op);
      bool lowered = false;
      if (auto pack = mlir::dyn_cast<mlir::linalg::PackOp>(op)) {
        lowered = mlir::succeeded(mlir::linalg::lowerPack(rewriter, pack));
      } else {
        lowered = mlir::succeeded(mlir::linalg::lowerUnPack(rewriter, mlir::cast<mlir::linalg::UnPackOp>(op)));
      }
      if (!lowered) {
        op->emitError() << "cannot lower '" << op->getName()
                        << "' to pad, reshape and transpose (kiln supports static inner tiles)";
        return signalPassFailure();
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
