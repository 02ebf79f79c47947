// A loaded, verified module. Loading checks the flatbuffer, then the module's structure,
// then every function's bytecode (vm/verifier.h); after that the interpreter trusts it.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "vm/signature.h"

namespace kiln::vm {

namespace fb {
struct Module;
}

// Bumped whenever the schema (vm/module.fbs) or the bytecode changes incompatibly.
inline constexpr uint32_t kAbiVersion = 1;
inline constexpr std::string_view kProducerName = "kiln 0.1.0";

struct FunctionInfo {
  std::string_view name;
  Signature signature;
  std::span<const uint8_t> code;
  uint16_t i32_register_count = 0;
  uint16_t ref_register_count = 0;
  std::vector<uint32_t> block_offsets;
};

struct ImportInfo {
  std::string_view name;  // "hal.buffer.length"
  std::string_view signature_text;
  Signature signature;
};

// The export attribute holding the function's type as the compiler saw it, in MLIR syntax:
// "(tensor<?x4xf32>, i32) -> tensor<?x3xf32>". Absent in modules of older compilers.
inline constexpr std::string_view kFunctionTypeAttr = "kiln.function_type";

struct ExportInfo {
  std::string_view name;
  uint32_t function_ordinal;
  // Reflection metadata (key, value), views into the module.
  std::vector<std::pair<std::string_view, std::string_view>> attrs;
  // The value of attribute `key`, or "" when absent.
  std::string_view attr(std::string_view key) const {
    for (const auto& [k, v] : attrs) {
      if (k == key) return v;
    }
    return {};
  }
};

class Module final : public RefCounted {
 public:
  // Copies `bytes` into 64-byte aligned storage, then verifies.
  static StatusOr<Ref<Module>> LoadFromMemory(std::span<const uint8_t> bytes, std::string_view debug_name = "<memory>");
  // Maps the file read-only (no copy of its segments), then verifies.
  static StatusOr<Ref<Module>> LoadFromFile(const std::string& path);
  ~Module() override;

  std::string_view name() const { return name_; }
  const fb::Module& def() const { return *def_; }
  std::span<const FunctionInfo> functions() const { return functions_; }
  std::span<const ImportInfo> imports() const { return imports_; }
  std::span<const ExportInfo> exports() const { return exports_; }
  StatusOr<uint32_t> LookupExport(std::string_view name) const;

  uint32_t global_i32_slots() const { return global_i32_slots_; }
  uint32_t global_ref_count() const { return global_ref_count_; }
  // The function each context runs when it is created (vm/context.h), if any.
  std::optional<uint32_t> initializer() const { return initializer_; }
  std::string_view String(uint32_t ordinal) const;
  // The bytes of a rodata segment, decompressed on first use (thread-safe).
  StatusOr<std::span<const uint8_t>> Rodata(uint32_t ordinal) const;
  // "file.mlir:3:7" for the instruction at `offset` of a function, or empty.
  std::string_view SourceLocation(uint32_t function_ordinal, uint32_t offset) const;

 private:
  class Storage;
  Module(std::unique_ptr<Storage> storage, std::string debug_name);
  Status Initialize();

  std::unique_ptr<Storage> storage_;
  std::string debug_name_;
  const fb::Module* def_ = nullptr;
  std::string_view name_;
  std::vector<FunctionInfo> functions_;
  std::vector<ImportInfo> imports_;
  std::vector<ExportInfo> exports_;
  uint32_t global_i32_slots_ = 0;
  uint32_t global_ref_count_ = 0;
  std::optional<uint32_t> initializer_;
  struct RodataCache;
  std::unique_ptr<RodataCache> rodata_cache_;
};

}  // namespace kiln::vm
