#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_APPROXIMATEMATH
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

struct ApproximateMathPass : impl::ApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    mlir::populateMathF32ExpansionPatterns(patterns, [](llvm::StringRef) { return true; });
    mlir::populateMathPolynomialApproximationPatterns(patterns, [](llvm::StringRef) { return true; });
    if (mlir::failed(mlir::applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
