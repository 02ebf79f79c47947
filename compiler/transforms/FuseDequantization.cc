// kiln-fuse-dequantization: an elementwise dequantization of narrow integer weights that
// feeds only decode-shaped contractions (at most 8 rows) is fused into each of them, so
// that no dequantized copy of the weights is stored: the contraction reads the quantized
// elements (packed i4, i8, ...) and the scales, and dequantizes in its inner loop.
// A dequantization of blocks (GGUF's Q4_0 / Q8_0: [N, blocks, 32] collapsed to [N, K]
// before the product) is fused too: the product's loops are first expanded through the
// collapse (its k loop becomes the blocks' loops, x is reshaped to match), so that it reads
// the dequantization's result directly.
#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_FUSEDEQUANTIZATION
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

bool IsContraction(Operation* op) {
  auto linalg_op = dyn_cast<linalg::LinalgOp>(op);
  return linalg_op && linalg_op.hasPureTensorSemantics() && linalg::isaContractionOpInterface(linalg_op);
}

// Rows (the product of the m dimensions, static) up to which a fused product is worth it:
// the CPU's dequantizing tiles take at most 8 (kiln-cpu-vectorize-dequantizing-products).
// A product of more rows (a prefill) reads each weight many times; fused, it would
// dequantize it as often in loops, where the matmul kernels run on the dequantized copy
// at their full rate.
constexpr int64_t kMaxFusedRows = 8;

bool IsDecodeShaped(Operation* op) {
  auto linalg_op = cast<linalg::LinalgOp>(op);
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(linalg_op);
  if (failed(dims)) return false;
  SmallVector<int64_t> ranges = linalg_op.getStaticLoopRanges();
  int64_t rows = 1;
  for (unsigned m : dims->m) {
    if (ShapedType::isDynamic(ranges[m])) return false;
    rows *= ranges[m];
  }
  return rows <= kMaxFusedRows;
}

// Whether `op` computes a dequantization: an all-parallel generic with one float result,
// reading at least one tensor of integers of at most 8 bits through a permutation (the
// quantized weights, element for element; the other inputs are scales and zero points,
// read at coarser indices).
bool ComputesDequantization(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0) return false;
  if (!isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType()))) return false;
  bool quantized = false;
  for (OpOperand* input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type) continue;
    auto integer = dyn_cast<IntegerType>(type.getElementType());
    if (integer && integer.getWidth() <= 8 && integer.getWidth() > 1 && op.getMatchingIndexingMap(input).isPermutation()) {
      quantized = true;
    }
  }
  return quantized && !op->getResult(0).use_empty();
}

// Whether `op` dequantizes and every user of its result is a decode-shaped contraction
// that reads it as an input.
bool IsDequantization(linalg::GenericOp op) {
  if (!ComputesDequantization(op)) return false;
  for (OpOperand& use : op->getResult(0).getUses()) {
    auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!consumer || !IsContraction(consumer) || !consumer.isDpsInput(&use) || !IsDecodeShaped(consumer)) return false;
  }
  return true;
}

// `op` as a generic (a named contraction generalized in place).
FailureOr<linalg::GenericOp> AsGeneric(RewriterBase& rewriter, Operation* op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) return generic;
  rewriter.setInsertionPoint(op);
  return linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(op));
}

// Whether `operand` of a decode-shaped contraction is a collapse of dequantized blocks,
// every user of the dequantization being such a collapse.
bool IsCollapsedDequantization(OpOperand& operand) {
  auto collapse = operand.get().getDefiningOp<tensor::CollapseShapeOp>();
  auto consumer = dyn_cast<linalg::LinalgOp>(operand.getOwner());
  if (!collapse || !consumer || !IsContraction(consumer) || !consumer.isDpsInput(&operand) ||
      !IsDecodeShaped(consumer)) {
    return false;
  }
  auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
  if (!producer || !ComputesDequantization(producer)) return false;
  return llvm::all_of(producer->getUsers(), [](Operation* user) { return isa<tensor::CollapseShapeOp>(user); });
}

// Expands each decode-shaped contraction that reads collapsed dequantized blocks through
// the collapse (upstream's reshape-by-expansion fusion, limited to these operands), so
// that the dequantization feeds it directly.
void ExpandProductsThroughCollapses(Operation* root, IRRewriter& rewriter) {
  SmallVector<Operation*> products;
  root->walk([&](linalg::LinalgOp op) {
    for (OpOperand& operand : op->getOpOperands()) {
      if (IsCollapsedDequantization(operand)) {
        products.push_back(op);
        return;
      }
    }
  });
  if (products.empty()) return;
  for (Operation* product : products) (void)AsGeneric(rewriter, product);  // replaces a named op
  RewritePatternSet patterns(root->getContext());
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, [](OpOperand* operand) {
    return isa<linalg::GenericOp>(operand->getOwner()) && IsCollapsedDequantization(*operand);
  });
  // Only these reshapes move: no folding of the rest of the function here.
  (void)applyPatternsGreedily(root, std::move(patterns), GreedyRewriteConfig().enableFolding(false));
}

struct FuseDequantizationPass : impl::FuseDequantizationBase<FuseDequantizationPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    ExpandProductsThroughCollapses(getOperation(), rewriter);
    SmallVector<linalg::GenericOp> dequantizations;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (IsDequantization(op)) dequantizations.push_back(op);
    });
    for (linalg::GenericOp producer : dequantizations) {
      SmallVector<Operation*> consumers;
      for (Operation* user : producer->getResult(0).getUsers()) {
        if (!llvm::is_contained(consumers, user)) consumers.push_back(user);
      }
      for (Operation* user : consumers) {
        FailureOr<linalg::GenericOp> consumer = AsGeneric(rewriter, user);
        if (failed(consumer)) continue;
        for (OpOperand& operand : consumer->getOperation()->getOpOperands()) {
          if (operand.get() != producer->getResult(0) || !linalg::areElementwiseOpsFusable(&operand)) continue;
          rewriter.setInsertionPoint(*consumer);  // the fused op's place: the rewriter's, not the consumer's
          FailureOr<linalg::ElementwiseOpFusionResult> fused = linalg::fuseElementwiseOps(rewriter, &operand);
          if (failed(fused)) continue;
          for (Value result : consumer->getOperation()->getResults()) {
            rewriter.replaceAllUsesWith(result, fused->replacements.lookup(result));
          }
          rewriter.eraseOp(*consumer);
          break;
        }
      }
      if (producer->use_empty()) rewriter.eraseOp(producer);
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
