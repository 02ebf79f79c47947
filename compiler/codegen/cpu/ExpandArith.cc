#include "compiler/codegen/cpu/Passes.h"
#include "compiler/utils/SmallFloats.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::compiler::cpu {

#define GEN_PASS_DEF_EXPANDARITH
#include "compiler/codegen/cpu/Passes.h.inc"

namespace {

using namespace mlir;

// Moves of bf16 values (select, vector broadcast, extract, insert, shuffle) on their bits
// as i16: without AVX512_BF16, LLVM's x86 backend keeps such values promoted to f32 and
// rounds them back through compiler-rt's __truncsfbf2, which kernels do not link (a topk
// of bf16 rows called it 26 times on an Intel Xeon without it; Zen 4 has AVX512_BF16).
struct MoveBf16AsI16 : RewritePattern {
  explicit MoveBf16AsI16(MLIRContext* context) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation* op, PatternRewriter& rewriter) const override {
    if (!isa<arith::SelectOp, vector::BroadcastOp, vector::ExtractOp, vector::InsertOp, vector::ShuffleOp>(op) ||
        op->getNumResults() != 1 || !Bf16BitsType(op->getResult(0).getType())) {
      return failure();
    }
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      Type bits = Bf16BitsType(operand.getType());
      operands.push_back(bits ? arith::BitcastOp::create(rewriter, loc, bits, operand).getResult() : operand);
    }
    OperationState state(loc, op->getName());
    state.addOperands(operands);
    state.addTypes(Bf16BitsType(op->getResult(0).getType()));
    state.addAttributes(op->getAttrs());
    Operation* moved = rewriter.create(state);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op->getResult(0).getType(), moved->getResult(0));
    return success();
  }
};

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
    patterns.add<MoveBf16AsI16>(&getContext());
    if (mlir::failed(mlir::applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::cpu
