// kiln-dump: prints a module's contents (header, imports and exports with signatures,
// rodata, executables, functions with their bytecode disassembly).
//
//   kiln-dump FILE.kiln                  the whole module
//   kiln-dump FILE.kiln --function=NAME  one function
//
// Errors print one line, "kiln-dump: <status>", to stderr and exit 1.
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "tools/flags.h"
#include "vm/disassembler.h"
#include "vm/module.h"

namespace {

constexpr std::string_view kUsage =
    "usage: kiln-dump FILE.kiln [--function=NAME]\n"
    "Prints a kiln module: header, imports and exports with signatures, rodata, executables\n"
    "and the bytecode of every function (or only of --function=NAME).\n";

int Fail(const kiln::Status& status) {
  std::fprintf(stderr, "kiln-dump: %s\n", status.ToString().c_str());
  return 1;
}

int Run(int argc, char** argv) {
  std::optional<std::string> path, function;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage.data(), stdout);
      return 0;
    }
    std::string value;
    if (kiln::tools::FlagValue(arg, "--function=", value)) {
      function = value;
    } else if (arg.starts_with("-") && arg != "-") {
      return Fail(kiln::InvalidArgumentError("unknown flag '", arg, "'; usage: kiln-dump FILE.kiln [--function=NAME]"));
    } else if (path) {
      return Fail(kiln::InvalidArgumentError("more than one module given ('", *path, "' and '", arg,
                                             "'); usage: kiln-dump FILE.kiln [--function=NAME]"));
    } else {
      path = std::string(arg);
    }
  }
  if (!path) return Fail(kiln::InvalidArgumentError("no module given; usage: kiln-dump FILE.kiln [--function=NAME]"));

  kiln::StatusOr<kiln::Ref<kiln::vm::Module>> module = kiln::vm::Module::LoadFromFile(*path);
  if (!module.ok()) return Fail(module.status());
  std::string text;
  if (function) {
    kiln::StatusOr<uint32_t> ordinal = kiln::vm::FindFunction(**module, *function);
    if (!ordinal.ok()) return Fail(ordinal.status());
    text = kiln::vm::DisassembleFunction(**module, *ordinal);
  } else {
    text = kiln::vm::DumpModule(**module);
  }
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return Fail(kiln::UnavailableError("cannot write the listing to stdout"));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
