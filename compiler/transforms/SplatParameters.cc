// kiln-splat-parameters: a weightless archive for the parameters a module binds (Passes.td
// has the contract).
#include <string>
#include <vector>

#include "compiler/input/iree/IreeDialects.h"
#include "compiler/transforms/Passes.h"
#include "compiler/utils/ParameterArchives.h"
#include "compiler/utils/SubByteStorage.h"
#include "llvm/ADT/MapVector.h"
#include "mlir/IR/BuiltinOps.h"

namespace kiln::compiler {

#define GEN_PASS_DEF_SPLATPARAMETERS
#include "compiler/transforms/Passes.h.inc"

namespace {

using namespace mlir;

// The bytes a parameter global of `type` holds in kiln's buffers (the verifier has made it
// a statically shaped tensor).
std::optional<int64_t> StorageBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) return std::nullopt;
  return StoredTensorBytes(tensor);
}

struct SplatParametersPass : impl::SplatParametersBase<SplatParametersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (archive.empty()) {
      module.emitError() << "kiln-splat-parameters needs archive=FILE, the parameter archive to write";
      return signalPassFailure();
    }
    struct Splat {
      uint64_t length;
      iree::GlobalOp first;
    };
    llvm::MapVector<StringRef, Splat> splats;  // by key, in module order
    for (iree::GlobalOp global : module.getOps<iree::GlobalOp>()) {
      std::optional<Attribute> initial = global.getInitialValue();
      std::optional<iree::NamedParameter> parameter = initial ? iree::AsNamedParameter(*initial) : std::nullopt;
      if (!parameter) continue;
      std::optional<int64_t> bytes = StorageBytes(global.getType());
      if (!bytes) {
        global.emitError() << "binds parameter '" << parameter->key << "' to " << global.getType()
                           << ": a splat archive needs integers or floats";
        return signalPassFailure();
      }
      auto [it, inserted] = splats.try_emplace(parameter->key, Splat{static_cast<uint64_t>(*bytes), global});
      if (!inserted && it->second.length != static_cast<uint64_t>(*bytes)) {
        global.emitError() << "binds parameter '" << parameter->key << "' to " << *bytes << " bytes, but @"
                           << it->second.first.getSymName() << " binds it to " << it->second.length
                           << "; one splat archive cannot serve both";
        return signalPassFailure();
      }
    }
    static constexpr uint8_t kZero[1] = {0};
    std::vector<io::IrpaRecord> records;
    for (const auto& [key, splat] : splats) {
      records.push_back({.key = key, .splat = true, .splat_length = splat.length, .pattern = kZero});
    }
    if (failed(WriteParameterArchive(module, archive, records))) signalPassFailure();
  }
};

}  // namespace

}  // namespace kiln::compiler
