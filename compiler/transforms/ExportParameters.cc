// kiln-export-parameters: large constants move into a parameter archive and the module
// binds them by name (Passes.td has the contract).
#include <string>
#include <vector>

#include "compiler/input/iree/IreeDialects.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/ParameterArchives.h"
#include "llvm/ADT/DenseMap.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_EXPORTPARAMETERS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

struct ExportedEntry {
  std::string key;
  llvm::ArrayRef<char> bytes;  // owned by the constant's attribute, alive with the context
};

struct ExportParametersPass : impl::ExportParametersBase<ExportParametersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (archive.empty()) {
      module.emitError() << "kiln-export-parameters needs archive=FILE, the parameter archive to write";
      return signalPassFailure();
    }
    std::vector<ExportedEntry> entries;
    ExportGlobals(module, entries);
    ExportConstants(module, entries);
    std::vector<io::IrpaRecord> records;
    records.reserve(entries.size());
    for (const ExportedEntry& e : entries) {
      records.push_back({.key = e.key,
                         .data = {reinterpret_cast<const uint8_t*>(e.bytes.data()), e.bytes.size()}});
    }
    if (failed(WriteParameterArchive(module, archive, records))) signalPassFailure();
  }

  // The bytes of `value` when it is to move into the archive.
  std::optional<llvm::ArrayRef<char>> Exportable(Attribute value) const {
    std::optional<llvm::ArrayRef<char>> bytes = ConstantStorageBytes(value);
    if (!bytes || static_cast<int64_t>(bytes->size()) < minimumSize) return std::nullopt;
    return bytes;
  }

  Attribute Binding(StringRef key, Type type) {
    MLIRContext* ctx = &getContext();
    return iree::StreamNamedParameterAttr::get(ctx, StringAttr::get(ctx, scope), StringAttr::get(ctx, key),
                                               DictionaryAttr::get(ctx), type);
  }

  void ExportGlobals(ModuleOp module, std::vector<ExportedEntry>& entries) {
    for (iree::GlobalOp global : module.getOps<iree::GlobalOp>()) {
      std::optional<Attribute> initial = global.getInitialValue();
      if (global.getIsMutable() || !initial) continue;
      std::optional<llvm::ArrayRef<char>> bytes = Exportable(*initial);
      if (!bytes) continue;
      entries.push_back({global.getSymName().str(), *bytes});
      global.setInitialValueAttr(Binding(global.getSymName(), global.getType()));
    }
  }

  void ExportConstants(ModuleOp module, std::vector<ExportedEntry>& entries) {
    SmallVector<std::pair<arith::ConstantOp, llvm::ArrayRef<char>>> constants;
    module.walk([&](arith::ConstantOp c) {
      if (!isa<func::FuncOp>(c->getParentOp())) return;
      if (std::optional<llvm::ArrayRef<char>> bytes = Exportable(c.getValue())) constants.push_back({c, *bytes});
    });
    if (constants.empty()) return;
    MLIRContext* ctx = &getContext();
    SymbolTable symbols(module);
    OpBuilder globals_at = OpBuilder::atBlockBegin(module.getBody());
    llvm::DenseMap<Attribute, iree::GlobalOp> global_of;
    int next = 0;
    for (auto [c, bytes] : constants) {
      iree::GlobalOp& global = global_of[c.getValue()];
      if (!global) {
        std::string name;
        do name = "__constant_" + std::to_string(next++);
        while (symbols.lookup(name));
        global = iree::GlobalOp::create(globals_at, c.getLoc(), StringAttr::get(ctx, "private"),
                                        StringAttr::get(ctx, name), TypeAttr::get(c.getType()),
                                        /*is_mutable=*/UnitAttr(), Binding(name, c.getType()));
        symbols.insert(global, globals_at.getInsertionPoint());
        entries.push_back({name, bytes});
      }
      OpBuilder b(c);
      Value load = iree::GlobalLoadOp::create(b, c.getLoc(), c.getType(),
                                              FlatSymbolRefAttr::get(global.getSymNameAttr()), UnitAttr::get(ctx));
      c.replaceAllUsesWith(load);
      c.erase();
    }
  }
};

}  // namespace

}  // namespace kiln::compiler
