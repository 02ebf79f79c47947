#include "compiler/dispatch/DispatchFormation.h"
#include "compiler/dispatch/InPlaceUpdates.h"
#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/RegionUtils.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_FORMDISPATCHES
#include "compiler/transforms/Passes.h.inc"

namespace {

// Erases `op` if nothing reads it but clonable producers that nothing reads either (their
// users were outlined with copies of them, e.g. the reshape of a slice); returns whether
// it did.
bool EraseIfUnused(mlir::Operation* op) {
  llvm::SetVector<mlir::Operation*> users(op->user_begin(), op->user_end());
  for (mlir::Operation* user : users) {
    if (!IsClonableProducer(user) || !EraseIfUnused(user)) return false;
  }
  if (!mlir::isOpTriviallyDead(op)) return false;
  op->erase();
  return true;
}

struct FormDispatchesPass : impl::FormDispatchesBase<FormDispatchesPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    llvm::SmallVector<mlir::func::FuncOp> functions(module.getOps<mlir::func::FuncOp>());
    mlir::ModuleOp executables;
    llvm::DenseSet<mlir::Operation*> in_place = FindInPlaceUpdates(module);
    for (mlir::func::FuncOp fn : functions) {
      if (fn.isDeclaration()) continue;
      llvm::SmallVector<mlir::Operation*> roots;
      fn.walk([&](mlir::Operation* op) {
        if (IsDispatchRoot(op) && !HasRootAncestor(op)) roots.push_back(op);
      });
      // Consumers first: a producer cloned into every consumer is dead by its own turn.
      for (size_t i = roots.size(); i-- > 0;) {
        mlir::Operation* root = roots[i];
        if (EraseIfUnused(root)) continue;
        if (!executables) executables = GetOrCreateExecutableModule(module);
        std::string name = (fn.getName() + "_dispatch_" + llvm::Twine(i) + "_" +
                            root->getName().stripDialect().str())
                               .str();
        std::replace(name.begin(), name.end(), '.', '_');
        if (mlir::failed(FormDispatch(root, executables, name, in_place.contains(root)))) return signalPassFailure();
      }
      // Producers that were cloned into every user are dead now.
      mlir::IRRewriter rewriter(fn.getContext());
      (void)mlir::runRegionDCE(rewriter, fn->getRegions());
    }
  }
};

}  // namespace
}  // namespace kiln::compiler
