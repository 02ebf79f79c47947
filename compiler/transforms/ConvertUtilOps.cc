#include "compiler/dialect/KilnDialect.h"
#include "compiler/input/iree/IreeDialects.h"
#include "compiler/transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_CONVERTUTILOPS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// Moves `from`'s region into a new func.func of `type` named `name` in its place, and
// rewrites its util.returns into func.returns.
func::FuncOp MoveIntoFunc(IRRewriter& rewriter, Operation* from, Region& body, StringRef name, FunctionType type) {
  rewriter.setInsertionPoint(from);
  auto fn = func::FuncOp::create(rewriter, from->getLoc(), name, type);
  rewriter.inlineRegionBefore(body, fn.getBody(), fn.getBody().end());
  SmallVector<iree::ReturnOp> returns;
  fn.walk([&](iree::ReturnOp ret) { returns.push_back(ret); });
  for (iree::ReturnOp ret : returns) {
    rewriter.setInsertionPoint(ret);
    rewriter.replaceOpWithNewOp<func::ReturnOp>(ret, ret.getOperands());
  }
  return fn;
}

// The global an indirect access's address names, or an error at `access`.
FailureOr<FlatSymbolRefAttr> AddressedGlobal(Operation* access, Value address) {
  if (auto op = address.getDefiningOp<iree::GlobalAddressOp>()) return op.getGlobalAttr();
  return access->emitOpError() << "accesses a global through an address that is not a util.global.address "
                                  "in the same function; kiln resolves global addresses at compile time",
         failure();
}

struct ConvertUtilOpsPass : impl::ConvertUtilOpsBase<ConvertUtilOpsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    // Functions, then initializers in module order.
    for (auto fn : llvm::make_early_inc_range(module.getOps<iree::FuncOp>())) {
      func::FuncOp converted = MoveIntoFunc(rewriter, fn, fn.getBody(), fn.getSymName(), fn.getFunctionType());
      converted.setVisibility(fn.getVisibility());
      if (ArrayAttr args = fn.getArgAttrsAttr()) converted.setArgAttrsAttr(args);
      if (ArrayAttr results = fn.getResAttrsAttr()) converted.setResAttrsAttr(results);
      for (NamedAttribute attr : fn->getDiscardableAttrs()) converted->setAttr(attr.getName(), attr.getValue());
      rewriter.eraseOp(fn);
    }
    int64_t initializers = 0;
    for (auto init : llvm::make_early_inc_range(module.getOps<iree::InitializerOp>())) {
      std::string name = "__kiln_initializer_" + std::to_string(initializers++);
      func::FuncOp fn = MoveIntoFunc(rewriter, init, init.getBody(), name, rewriter.getFunctionType({}, {}));
      fn.setPrivate();
      fn->setAttr(kInitializerAttr, rewriter.getUnitAttr());
      rewriter.eraseOp(init);
    }
    // Calls and indirect accesses.
    bool failed_access = false;
    module.walk([&](Operation* op) {
      rewriter.setInsertionPoint(op);
      if (auto call = dyn_cast<iree::CallOp>(op)) {
        rewriter.replaceOpWithNewOp<func::CallOp>(op, call.getCallee(), call.getResultTypes(), call.getOperands());
      } else if (auto load = dyn_cast<iree::GlobalLoadIndirectOp>(op)) {
        FailureOr<FlatSymbolRefAttr> global = AddressedGlobal(op, load.getGlobal());
        if (failed(global)) return (void)(failed_access = true);
        rewriter.replaceOpWithNewOp<iree::GlobalLoadOp>(op, load.getType(), *global, /*is_immutable=*/UnitAttr());
      } else if (auto store = dyn_cast<iree::GlobalStoreIndirectOp>(op)) {
        FailureOr<FlatSymbolRefAttr> global = AddressedGlobal(op, store.getGlobal());
        if (failed(global)) return (void)(failed_access = true);
        rewriter.replaceOpWithNewOp<iree::GlobalStoreOp>(op, store.getValue(), *global);
      }
    });
    if (failed_access) return signalPassFailure();
    module.walk([&](iree::GlobalAddressOp address) {
      if (address->use_empty()) rewriter.eraseOp(address);
    });
  }
};

}  // namespace
}  // namespace kiln::compiler
