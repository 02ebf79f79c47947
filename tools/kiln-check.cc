// kiln-check FILE.mlir|FILE.kiln [--device=cpu] [--function=NAME] [--check_indices]
// Runs every exported function with no arguments and no results as a test, with IREE's
// check ops (runtime/check_runner.h). Prints a line per test, the failures under it, and
// "N passed, N failed"; exits 0 iff every test passed. --check_indices compiles a .mlir
// file in checked mode (kiln-run's flag): an out-of-range index fails its test.
#include <cstdio>
#include <string>

#include "drivers/builtin_drivers.h"
#include "runtime/check_runner.h"
#include "tools/flags.h"
#include "tools/load_module.h"

namespace {

struct Flags {
  std::string file, device = "cpu", function;
  bool check_indices = false;
};

kiln::Status ParseFlags(int argc, char** argv, Flags& flags) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (kiln::tools::FlagValue(arg, "--device=", flags.device) ||
        kiln::tools::FlagValue(arg, "--function=", flags.function)) {
      continue;
    }
    if (arg == "--check_indices") {
      flags.check_indices = true;
    } else if (arg.starts_with("--")) {
      return kiln::InvalidArgumentError("unknown flag '", arg,
                                        "'; expected --device=NAME, --function=NAME or --check_indices");
    } else if (flags.file.empty()) {
      flags.file = arg;
    } else {
      return kiln::InvalidArgumentError("more than one input file ('", flags.file, "' and '", arg, "')");
    }
  }
  if (flags.file.empty()) return kiln::InvalidArgumentError("usage: kiln-check FILE.mlir|FILE.kiln [--device=cpu] [--function=NAME] "
                                                           "[--check_indices]");
  return kiln::OkStatus();
}

kiln::Status Run(const Flags& flags, bool& all_passed) {
  // The device first: a .mlir file is compiled for it, and a missing one fails at once.
  KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::hal::Device> device, kiln::BuiltinDriverRegistry().CreateDevice(flags.device));
  KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::vm::Module> module,
                        kiln::tools::LoadModule(flags.file, flags.check_indices,
                                                kiln::tools::CompileTargetFor(device->info())));
  KILN_ASSIGN_OR_RETURN(std::vector<kiln::runtime::CheckResult> results,
                        kiln::runtime::RunChecks(std::move(device), module, flags.function));
  size_t passed = 0;
  for (const kiln::runtime::CheckResult& result : results) {
    std::printf("[%s] %s\n", result.passed ? "  PASSED  " : "  FAILED  ", result.function.c_str());
    for (const std::string& failure : result.failures) std::printf("    %s\n", failure.c_str());
    passed += result.passed;
  }
  std::printf("%zu passed, %zu failed\n", passed, results.size() - passed);
  all_passed = passed == results.size();
  return kiln::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  bool all_passed = false;
  kiln::Status status = ParseFlags(argc, argv, flags);
  if (status.ok()) status = Run(flags, all_passed);
  if (!status.ok()) {
    std::fprintf(stderr, "kiln-check: %s\n", status.ToString().c_str());
    return 1;
  }
  return all_passed ? 0 : 1;
}
