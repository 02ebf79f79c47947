// kiln-check FILE.mlir|FILE.kiln [--device=cpu] [--function=NAME] [--check_indices]
// Runs every exported function with no arguments and no results as a test, with IREE's
// check ops (runtime/check_runner.h). Prints a line per test, the failures under it, and
// "N passed, N failed"; exits 0 iff every test passed. --check_indices compiles a .mlir
// file in checked mode (kiln-run's flag): an out-of-range index fails its test.
#include <cstdio>
#include <string>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "runtime/check_runner.h"
#include "tools/flags.h"
#include "tools/load_module.h"

namespace {

struct Flags {
  std::string file, device = "cpu", function;
  bool check_indices = false;
  kiln::tools::ParameterFlags parameters;
};

kiln::tools::FlagParser MakeParser(Flags& flags) {
  kiln::tools::FlagParser p(
      "kiln-check", "kiln-check FILE.mlir|FILE.kiln [--device=cpu] [--function=NAME] [--check_indices]",
      "Runs every exported function with no arguments and no results as a test, with IREE's\n"
      "check ops (check.expect_eq, check.expect_almost_eq, check.expect_true, ...), as\n"
      "iree-check-module does. Prints a line per test, the failures under it with their source\n"
      "locations, and \"N passed, N failed\". Exit code 0 iff every test passed, 1 otherwise or\n"
      "on any error.\n",
      "  kiln-check tests.mlir\n"
      "  kiln-check tests.mlir --device=local-sync --function=test_add\n"
      "  kiln-compile tests.mlir -o tests.kiln && kiln-check tests.kiln\n");
  p.String("--device", "NAME", &flags.device, "The device (kiln-run --help lists the names).");
  p.String("--function", "NAME", &flags.function, "Run only this test function.");
  p.Bool("--check_indices", &flags.check_indices,
         "Compile a .mlir file in checked mode: an out-of-range index fails its test.");
  kiln::tools::AddParameterFlags(p, flags.parameters);
  return p;
}

kiln::Status ParseFlags(kiln::tools::FlagParser& parser, int argc, char** argv, Flags& flags) {
  std::vector<std::string> files;
  KILN_RETURN_IF_ERROR(parser.Parse(argc, argv, &files));
  if (parser.help_requested()) return kiln::OkStatus();
  if (files.size() > 1) {
    return kiln::InvalidArgumentError("more than one input file ('", files[0], "' and '", files[1], "')");
  }
  if (files.empty()) return kiln::InvalidArgumentError("no test file given; see kiln-check --help");
  flags.file = files.front();
  return kiln::OkStatus();
}

kiln::Status Run(const Flags& flags, bool& all_passed) {
  // The device first: a .mlir file is compiled for it, and a missing one fails at once.
  KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::hal::Device> device, kiln::BuiltinDriverRegistry().CreateDevice(flags.device));
  KILN_ASSIGN_OR_RETURN(kiln::runtime::SessionOptions options, kiln::tools::SessionOptionsFrom(flags.parameters));
  KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::vm::Module> module,
                        kiln::tools::LoadModule(flags.file, flags.check_indices,
                                                kiln::tools::CompileTargetFor(device->info())));
  KILN_ASSIGN_OR_RETURN(std::vector<kiln::runtime::CheckResult> results,
                        kiln::runtime::RunChecks(std::move(device), module, flags.function, options));
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
  kiln::tools::FlagParser parser = MakeParser(flags);
  kiln::Status status = ParseFlags(parser, argc, argv, flags);
  if (status.ok() && parser.help_requested()) {
    std::fputs(parser.Help().c_str(), stdout);
    return 0;
  }
  if (status.ok()) status = Run(flags, all_passed);
  if (!status.ok()) {
    std::fprintf(stderr, "kiln-check: %s\n", status.ToString().c_str());
    return 1;
  }
  return all_passed ? 0 : 1;
}
