// Helpers for VM tests: build a module, load it, call a function.
#pragma once

#include <gtest/gtest.h>

#include "vm/builder.h"
#include "vm/context.h"
#include "vm/module.h"

namespace kiln::vm::testing {

#define KILN_ASSERT_OK_AND_ASSIGN(lhs, expr)                                  \
  auto KILN_CONCAT(tmp_, __LINE__) = (expr);                                  \
  ASSERT_TRUE(KILN_CONCAT(tmp_, __LINE__).ok()) << KILN_CONCAT(tmp_, __LINE__).status().ToString(); \
  lhs = std::move(KILN_CONCAT(tmp_, __LINE__)).value()

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

inline void ExpectErrorContains(const Status& status, StatusCode code, std::string_view fragment) {
  EXPECT_EQ(status.code(), code) << status.ToString();
  EXPECT_NE(status.ToString().find(fragment), std::string::npos)
      << "'" << status.ToString() << "' does not mention '" << fragment << "'";
}

}  // namespace kiln::vm::testing
