// Marks the dispatches a workgroup-cooperative strategy computes (Passes.td,
// kiln-gpu-select-workgroup-strategies).
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupContraction.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "compiler/dialect/KilnDialect.h"

namespace kiln::compiler::gpu {

#define GEN_PASS_DEF_SELECTWORKGROUPSTRATEGIES
#include "compiler/codegen/gpu/Passes.h.inc"

namespace {

using namespace mlir;

struct SelectWorkgroupStrategiesPass : impl::SelectWorkgroupStrategiesBase<SelectWorkgroupStrategiesPass> {
  void runOnOperation() override {
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn->hasAttr(kBindingDimsAttr)) continue;
      std::string why;
      llvm::StringRef strategy = ChooseWorkgroupStrategy(fn, why);
      if (!strategy.empty()) fn->setAttr(kWorkgroupStrategyAttr, StringAttr::get(fn.getContext(), strategy));
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
