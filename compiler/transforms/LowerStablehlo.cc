#include "compiler/input/iree/IreeDialects.h"
#include "compiler/input/stablehlo/StablehloDialect.h"
#include "compiler/input/stablehlo/lowering/Lowering.h"
#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_LOWERSTABLEHLO
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

bool IsStablehlo(Operation* op) { return isa_and_nonnull<stablehlo::StablehloDialect>(op->getDialect()); }

struct LowerStablehloPass : impl::LowerStablehloBase<LowerStablehloPass> {
  void runOnOperation() override {
    // Top-level stablehlo ops in program order; the ops in their regions go with them.
    SmallVector<Operation*> ops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation* op) {
      if (!IsStablehlo(op)) return WalkResult::advance();
      if (!IsStablehlo(op->getParentOp())) ops.push_back(op);
      return WalkResult::skip();
    });
    const stablehlo::LoweringTable& lowerings = stablehlo::Lowerings();
    IRRewriter rewriter(&getContext());
    bool failed_any = false;
    for (Operation* op : ops) {
      auto lowering = lowerings.find(op->getName().getStringRef());
      if (lowering == lowerings.end()) {
        op->emitError() << "'" << op->getName() << "' is not lowered by kiln yet";
        failed_any = true;
        continue;
      }
      rewriter.setInsertionPoint(op);
      if (failed(lowering->second(rewriter, op))) failed_any = true;
    }
    if (failed_any) signalPassFailure();
  }
};

}  // namespace
}  // namespace kiln::compiler
