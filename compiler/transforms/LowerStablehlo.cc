#include "compiler/input/chlo/ChloDialect.h"
#include "compiler/input/chlo/lowering/Lowering.h"
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

// stablehlo ops and the chlo ops beside them.
bool IsStablehlo(Operation* op) {
  return isa_and_nonnull<stablehlo::StablehloDialect, chlo::ChloDialect>(op->getDialect());
}

const stablehlo::LowerFn* FindLowering(StringRef name) {
  for (const stablehlo::LoweringTable* table : {&stablehlo::Lowerings(), &chlo::Lowerings()}) {
    auto lowering = table->find(name);
    if (lowering != table->end()) return &lowering->second;
  }
  return nullptr;
}

struct LowerStablehloPass : impl::LowerStablehloBase<LowerStablehloPass> {
  void runOnOperation() override {
    // Top-level stablehlo ops in program order; the ops in their regions go with them.
    SmallVector<Operation*> ops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation* op) {
      if (!IsStablehlo(op)) return WalkResult::advance();
      if (!IsStablehlo(op->getParentOp())) ops.push_back(op);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    bool failed_any = false;
    for (Operation* op : ops) {
      const stablehlo::LowerFn* lowering = FindLowering(op->getName().getStringRef());
      if (!lowering) {
        op->emitError() << "'" << op->getName() << "' is not lowered by kiln yet";
        failed_any = true;
        continue;
      }
      rewriter.setInsertionPoint(op);
      if (failed((*lowering)(rewriter, op))) failed_any = true;
    }
    if (failed_any) signalPassFailure();
  }
};

}  // namespace
}  // namespace kiln::compiler
