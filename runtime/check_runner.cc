#include "runtime/check_runner.h"

#include "runtime/check_module.h"
#include "runtime/session.h"

namespace kiln::runtime {

namespace {

StatusOr<std::vector<CheckResult>> RunChecksIn(Session& session, CheckModule& checks, const vm::Module& module,
                                               std::string_view function);

}  // namespace

StatusOr<std::vector<CheckResult>> RunChecks(std::string_view device_name, Ref<vm::Module> module,
                                             std::string_view function, const SessionOptions& options) {
  CheckModule checks;
  vm::NativeModule* natives[] = {&checks};
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<Session> session, Session::Create(device_name, module, natives, options));
  return RunChecksIn(*session, checks, *module, function);
}

StatusOr<std::vector<CheckResult>> RunChecks(Ref<hal::Device> device, Ref<vm::Module> module,
                                             std::string_view function, const SessionOptions& options) {
  CheckModule checks;
  vm::NativeModule* natives[] = {&checks};
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<Session> session,
                        Session::Create(std::move(device), module, natives, options));
  return RunChecksIn(*session, checks, *module, function);
}

namespace {

StatusOr<std::vector<CheckResult>> RunChecksIn(Session& session, CheckModule& checks, const vm::Module& module,
                                               std::string_view function) {
  std::vector<std::string> tests;
  for (const vm::ExportInfo& e : module.exports()) {
    const vm::Signature& signature = module.functions()[e.function_ordinal].signature;
    if (!signature.args.empty() || !signature.results.empty() || !signature.variadic.empty()) continue;
    if (function.empty() || e.name == function) tests.emplace_back(e.name);
  }
  if (!function.empty() && tests.empty()) {
    return NotFoundError("module '", module.name(), "' has no test function '", function,
                         "' (an exported function with no arguments and no results)");
  }
  std::vector<CheckResult> results;
  for (const std::string& test : tests) {
    CheckResult result;
    result.function = test;
    StatusOr<std::vector<vm::Value>> called = session.Call(test, {});
    result.failures = checks.TakeFailures();
    if (!called.ok()) result.failures.push_back(called.status().ToString());
    result.passed = result.failures.empty();
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace
}  // namespace kiln::runtime
