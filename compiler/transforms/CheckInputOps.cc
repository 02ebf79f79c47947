#include "compiler/input/InputDialects.h"
#include "compiler/transforms/Passes.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_CHECKINPUTOPS
#include "compiler/transforms/Passes.h.inc"

namespace {

struct CheckInputOpsPass : impl::CheckInputOpsBase<CheckInputOpsPass> {
  void runOnOperation() override {
    bool unsupported = false;
    getOperation()->walk([&](mlir::Operation* op) {
      if (IsSupportedInputOp(op)) return;
      op->emitError() << "'" << op->getName() << "' is not supported by kiln; supported input: "
                      << SupportedInputSummary();
      unsupported = true;
    });
    if (unsupported) signalPassFailure();
  }
};

}  // namespace
}  // namespace kiln::compiler
