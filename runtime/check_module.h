// The "check" native module: the runtime side of IREE's check ops (compiler/input/iree),
// which kiln-check uses to run test functions. A failed check does not stop the function
// (IREE's checks are non-fatal); it is recorded with its source location and the first
// differing element, and the test runner collects the failures after each call.
#pragma once

#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "vm/native_module.h"

namespace kiln::runtime {

class CheckModule final : public vm::NativeModule {
 public:
  std::string_view name() const override { return "check"; }
  std::span<const vm::NativeFunction> functions() const override;

  // Records a failure: "<location>: <check> failed: <what>".
  void Fail(std::string failure);
  // The failures recorded since the last call, oldest first.
  std::vector<std::string> TakeFailures();

 private:
  std::mutex mutex_;
  std::vector<std::string> failures_;
};

}  // namespace kiln::runtime
