// kiln-dedupe-dispatches: identical dispatch functions become one (Passes.td has the
// contract).
#include <string>

#include "compiler/dialect/KilnDialect.h"
#include "compiler/transforms/Passes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_DEDUPEDISPATCHES
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// The text of `fn` with its name and source location left out: equal for functions that
// differ only in those.
std::string Fingerprint(func::FuncOp fn) {
  StringAttr name = fn.getSymNameAttr();
  Attribute location = fn->removeAttr(kSourceLocationAttr);
  fn.setSymNameAttr(StringAttr::get(fn.getContext(), "__kiln_fingerprint"));
  std::string text;
  llvm::raw_string_ostream os(text);
  fn->print(os, OpPrintingFlags().useLocalScope());
  fn.setSymNameAttr(name);
  if (location) fn->setAttr(kSourceLocationAttr, location);
  return text;
}

struct DedupeDispatchesPass : impl::DedupeDispatchesBase<DedupeDispatchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (ModuleOp executables : module.getOps<ModuleOp>()) {
      if (!executables->hasAttr(kExecutableAttr)) continue;
      Dedupe(module, executables);
    }
  }

  void Dedupe(ModuleOp module, ModuleOp executables) {
    llvm::StringMap<func::FuncOp> first_of;
    llvm::DenseMap<StringAttr, StringAttr> replacement;  // erased name -> kept name
    llvm::DenseMap<Operation*, int> copies;               // kept function -> erased copies
    SmallVector<func::FuncOp> duplicates;
    for (func::FuncOp fn : executables.getOps<func::FuncOp>()) {
      auto [it, inserted] = first_of.try_emplace(Fingerprint(fn), fn);
      if (inserted) continue;
      replacement[fn.getSymNameAttr()] = it->second.getSymNameAttr();
      ++copies[it->second];
      duplicates.push_back(fn);
    }
    if (duplicates.empty()) return;
    // The kept function's source location (profiles, messages) says it stands for others.
    for (auto [kept, n] : copies) {
      if (auto location = kept->getAttrOfType<StringAttr>(kSourceLocationAttr)) {
        kept->setAttr(kSourceLocationAttr, StringAttr::get(kept->getContext(), location.getValue() + " (and " +
                                                                                   std::to_string(n) + " identical)"));
      }
    }
    StringAttr executable_name = executables.getSymNameAttr();
    module.walk([&](DispatchOp dispatch) {
      SymbolRefAttr entry = dispatch.getEntry();
      if (entry.getRootReference() != executable_name || entry.getNestedReferences().size() != 1) return;
      auto it = replacement.find(entry.getLeafReference());
      if (it == replacement.end()) return;
      dispatch.setEntryAttr(SymbolRefAttr::get(executable_name, {FlatSymbolRefAttr::get(it->second)}));
    });
    for (func::FuncOp fn : duplicates) fn.erase();
  }
};

}  // namespace

}  // namespace kiln::compiler
