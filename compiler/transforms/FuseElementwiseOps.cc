// kiln-fuse-elementwise-ops: MLIR's elementwise fusion and reshape propagation, except that
// a contraction's loops are never expanded or collapsed through a reshape.
#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_FUSEELEMENTWISEOPS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// MLIR's default: fuse a producer into its only use.
bool ProducerHasOneUse(OpOperand* fused) {
  Operation* producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

bool IsContraction(Operation* op) {
  auto linalg_op = dyn_cast<linalg::LinalgOp>(op);
  return linalg_op && linalg::isaContractionOpInterface(linalg_op);
}

// A reshape moves through a linalg op by giving it the reshaped loops; for a contraction
// (a matmul whose result is split into heads, or whose input is a collapse of them) that
// turns it into a generic with several M or N loops, which the contraction codegen does not
// take. The reshape stays where it is instead (a view of the buffer, no copy).
bool FoldsReshapeOutsideContractions(OpOperand* fused) {
  if (!ProducerHasOneUse(fused)) return false;
  return !IsContraction(fused->get().getDefiningOp()) && !IsContraction(fused->getOwner());
}

struct FuseElementwiseOpsPass : impl::FuseElementwiseOpsBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, ProducerHasOneUse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, FoldsReshapeOutsideContractions);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, ProducerHasOneUse);
    // As MLIR's pass: a rewrite that has not converged is still correct IR.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

}  // namespace

}  // namespace kiln::compiler
