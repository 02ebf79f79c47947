// A context is one instance of a module: its globals, its resolved imports, and the entry
// point for calls. Calls on one context must not run concurrently (globals are shared);
// use one context per thread.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "vm/list.h"
#include "vm/module.h"
#include "vm/native_module.h"
#include "vm/value.h"

namespace kiln::vm {

class Context final : public RefCounted {
 public:
  // Resolves every import by its qualified name among `natives` ("hal" + "." + function);
  // a missing function or a different signature is an error naming both sides. The native
  // modules must outlive the context. Then runs the module's initializer, if it has one
  // (globals' initial values, util.initializer bodies): its failure fails the creation.
  static StatusOr<Ref<Context>> Create(Ref<Module> module, std::span<NativeModule* const> natives);
  ~Context() override;

  const Module& module() const { return *module_; }

  // Calls an exported function; `args` must match its signature.
  StatusOr<std::vector<Value>> Invoke(std::string_view export_name, std::span<const Value> args);
  StatusOr<std::vector<Value>> Call(uint32_t function_ordinal, std::span<const Value> args);

  // Maximum call depth before a call fails (rather than exhausting the host stack).
  static constexpr uint32_t kMaxCallDepth = 1024;

 private:
  friend class Interpreter;
  struct ResolvedImport {
    NativeFunctionPtr fn;
    void* state;
  };
  explicit Context(Ref<Module> module);

  Ref<Module> module_;
  std::vector<ResolvedImport> imports_;
  std::vector<uint64_t> global_storage_;  // 32-bit global slots, 8-byte aligned for pairs
  std::vector<VmRef> global_refs_;
  std::vector<Ref<ByteBuffer>> rodata_refs_;  // created on first use
};

}  // namespace kiln::vm
