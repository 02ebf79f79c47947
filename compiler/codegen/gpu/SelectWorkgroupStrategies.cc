// Marks the dispatches a workgroup-cooperative strategy computes (Passes.td,
// kiln-gpu-select-workgroup-strategies).
#include "compiler/codegen/gpu/Passes.h"
#include "compiler/codegen/gpu/WorkgroupContraction.h"
#include "compiler/codegen/gpu/WorkgroupScatter.h"
#include "compiler/codegen/gpu/WorkgroupSort.h"
#include "compiler/codegen/gpu/WorkgroupStrategy.h"
#include "compiler/dialect/KilnDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

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
      if (!strategy.empty()) {
        fn->setAttr(kWorkgroupStrategyAttr, StringAttr::get(fn.getContext(), strategy));
        continue;
      }
      if (FindRoot<iree::ScatterOp>(fn)) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' runs its scatter on one work-item: " << why;
        continue;
      }
      // A sort or topk the sort strategy does not take runs each line on one work-item.
      if (Operation* lines = FindRoot<Operation*>(fn); isa_and_nonnull<iree::SortOp, iree::TopkOp, iree::TopkV2Op>(lines)) {
        std::string sort_why;
        (void)IsSortDispatch(fn, sort_why);
        fn.emitRemark() << "dispatch '" << fn.getName() << "' runs its '" << lines->getName().getStringRef()
                        << "' one line per work-item, without LDS: " << sort_why;
        continue;
      }
      // A contraction or convolution on the per-work-item path gets neither LDS tiles nor
      // MFMA/WMMA: say so.
      Operation* contraction = nullptr;
      fn.walk([&](linalg::LinalgOp op) {
        // Pooling has the convolution's shape but no products to give matrix instructions.
        bool products = llvm::any_of(op.getBlock()->getOperations(),
                                     [](Operation& inner) { return isa<arith::MulFOp, arith::MulIOp>(inner); });
        bool convolution = linalg::isaConvolutionOpInterface(op) && products;
        if (!contraction && (linalg::isaContractionOpInterface(op) || convolution)) contraction = op;
      });
      Operation* root = FindRoot<Operation*>(fn);
      if (contraction && root && root != contraction) {
        why = "the contraction is fused with its consumer '" + root->getName().getStringRef().str() +
              "', which is not an elementwise epilogue the strategy computes (one reading the product at its own "
              "position and its other inputs from bindings)";
      }
      if (contraction) {
        fn.emitRemark() << "dispatch '" << fn.getName() << "' computes its '"
                        << contraction->getName().getStringRef()
                        << "' per work-item, without LDS tiles or matrix instructions: " << why;
      }
    }
  }
};

}  // namespace
}  // namespace kiln::compiler::gpu
