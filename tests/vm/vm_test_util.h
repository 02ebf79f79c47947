// Helpers for VM tests: build a module, load it, call a function.
#pragma once

#include <gtest/gtest.h>

#include "tests/util/status_testing.h"
#include "vm/builder.h"
#include "vm/context.h"
#include "vm/module.h"

namespace kiln::vm::testing {

using ::kiln::testing::ExpectError;

inline StatusOr<Ref<Module>> BuildAndLoad(ModuleBuilder& builder) {
  KILN_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, builder.Finish());
  return Module::LoadFromMemory(bytes, "test");
}

inline StatusOr<std::vector<Value>> BuildAndCall(ModuleBuilder& builder, std::string_view function,
                                                 std::span<const Value> args,
                                                 std::span<NativeModule* const> natives = {}) {
  KILN_ASSIGN_OR_RETURN(Ref<Module> module, BuildAndLoad(builder));
  KILN_ASSIGN_OR_RETURN(Ref<Context> context, Context::Create(module, natives));
  return context->Invoke(function, args);
}

}  // namespace kiln::vm::testing
