// Runs a module's test functions the way kiln-check does: every exported function that
// takes no arguments and returns nothing is one test, called once with the check module
// linked; it passes when the call succeeds and no check failed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "hal/device.h"
#include "runtime/session.h"
#include "vm/module.h"

namespace kiln::runtime {

struct CheckResult {
  std::string function;
  bool passed = false;
  // Why it failed: each failed check ("file:line:col: check.expect_eq failed: element
  // [2] is 5, expected 4"), or the error that stopped the call.
  std::vector<std::string> failures;
};

// Runs the tests of `module` on a new device `device_name`; only `function` when it is not
// empty (NOT_FOUND if there is no such test). Errors are about the setup (device, link);
// test failures are results.
// `options` gives the session its parameter files.
StatusOr<std::vector<CheckResult>> RunChecks(std::string_view device_name, Ref<vm::Module> module,
                                             std::string_view function = {}, const SessionOptions& options = {});
StatusOr<std::vector<CheckResult>> RunChecks(Ref<hal::Device> device, Ref<vm::Module> module,
                                             std::string_view function = {}, const SessionOptions& options = {});

}  // namespace kiln::runtime
