#include "compiler/codegen/cpu/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_EXPANDARITH
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

struct ExpandArithPass : impl::ExpandArithBase<ExpandArithPass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    mlir::arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    mlir::arith::populateExpandScalingExtTruncPatterns(patterns);
    mlir::arith::populateExpandF8E8M0Patterns(patterns);
    mlir::arith::populateExpandF4E2M1Patterns(patterns);
    // bf16 <-> f32 as integer arithmetic (round to nearest even, NaN kept quiet): without
    // AVX512_BF16 LLVM would call compiler-rt's __truncsfbf2, which kernels do not link.
    mlir::arith::populateExpandBFloat16Patterns(patterns);
    if (mlir::failed(mlir::applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
