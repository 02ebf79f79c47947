// Native modules: C++ functions that bytecode calls as imports ("hal.buffer.length").
// Each function declares a signature string (vm/signature.h); the same string verifies
// that a module's import matches, and says how arguments and results are laid out.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "vm/value.h"

namespace kiln::vm {

class Context;

// Arguments arrive as Values of the kinds the signature names (variadic groups expanded);
// `results` has one Value per signature result, each already of the right kind, to fill in.
struct NativeCall {
  Context& context;
  std::span<const Value> args;
  std::span<Value> results;
};
using NativeFunctionPtr = Status (*)(void* state, NativeCall& call);

struct NativeFunction {
  std::string name;       // without the module prefix: "buffer.length"
  std::string signature;  // "r:I"
  NativeFunctionPtr fn;
};

class NativeModule {
 public:
  virtual ~NativeModule() = default;
  virtual std::string_view name() const = 0;  // "hal"
  virtual std::span<const NativeFunction> functions() const = 0;
  // Passed as `state` to every function of this module.
  virtual void* state() { return this; }
};

// Helpers for native functions: typed access to an argument ref with a clear error.
template <typename T>
StatusOr<T*> RefArg(const NativeCall& call, size_t index, bool allow_null = false) {
  const VmRef& ref = call.args[index].ref;
  if (!ref) {
    if (allow_null) return static_cast<T*>(nullptr);
    return InvalidArgumentError("argument ", index, " must be a ", VmTypeOf<T>()->name, ", got null");
  }
  T* object = ref.As<T>();
  if (!object) {
    return InvalidArgumentError("argument ", index, " must be a ", VmTypeOf<T>()->name, ", got a ", ref.type()->name);
  }
  return object;
}

}  // namespace kiln::vm
