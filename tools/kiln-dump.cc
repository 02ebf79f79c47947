// kiln-dump: prints a module's contents (header, imports and exports with signatures,
// rodata, executables, functions with their bytecode disassembly).
//
//   kiln-dump FILE.kiln                  the whole module
//   kiln-dump FILE.kiln --function=NAME  one function
//   kiln-dump FILE.kiln --extract-executables=DIR
//                                        writes every executable's binaries to DIR (.so for
//                                        the CPU; .hsaco and .twin.so for an AMD GPU)
//
// Errors print one line, "kiln-dump: <status>", to stderr and exit 1.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "tools/executable_files.h"
#include "tools/flags.h"
#include "vm/disassembler.h"
#include "vm/module.h"

namespace {

kiln::Status ExtractExecutables(const kiln::vm::Module& module, const std::string& dir) {
  KILN_ASSIGN_OR_RETURN(std::vector<kiln::tools::ExecutableFile> files, kiln::tools::ExecutableFiles(module));
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return kiln::UnavailableError("cannot create '", dir, "': ", ec.message());
  for (const kiln::tools::ExecutableFile& file : files) {
    std::string path = (std::filesystem::path(dir) / file.name).string();
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(file.bytes.data()), static_cast<std::streamsize>(file.bytes.size()));
    if (!out.flush()) return kiln::UnavailableError("cannot write '", path, "'");
    std::printf("%s\n", path.c_str());
  }
  return kiln::OkStatus();
}

int Fail(const kiln::Status& status) {
  std::fprintf(stderr, "kiln-dump: %s\n", status.ToString().c_str());
  return 1;
}

int Run(int argc, char** argv) {
  std::string function, extract_dir;
  kiln::tools::FlagParser parser(
      "kiln-dump", "kiln-dump FILE.kiln [--function=NAME] [--extract-executables=DIR]",
      "Prints a kiln module: header, imports and exports with signatures, rodata, executables\n"
      "(with each GPU kernel's registers, LDS, scratch and occupancy) and the bytecode of every\n"
      "function. Errors print one line, \"kiln-dump: <status>\", to stderr and exit 1.\n",
      "  kiln-dump model.kiln\n"
      "  kiln-dump model.kiln --function=main\n"
      "  kiln-dump model.kiln --extract-executables=out && llvm-objdump -d out/*.so\n");
  parser.String("--function", "NAME", &function, "Print only this function's bytecode.");
  parser.String("--extract-executables", "DIR", &extract_dir,
                "Write each executable's binaries to DIR instead (.so for the CPU; .hsaco and\n"
                ".twin.so for an AMD GPU), for llvm-readelf and llvm-objdump.");
  std::vector<std::string> paths;
  kiln::Status parsed = parser.Parse(argc, argv, &paths);
  if (!parsed.ok()) return Fail(parsed);
  if (parser.help_requested()) {
    std::fputs(parser.Help().c_str(), stdout);
    return 0;
  }
  constexpr std::string_view kUsage = "usage: kiln-dump FILE.kiln [--function=NAME] [--extract-executables=DIR]";
  if (paths.size() > 1) {
    return Fail(kiln::InvalidArgumentError("more than one module given ('", paths[0], "' and '", paths[1], "'); ",
                                           kUsage));
  }
  if (paths.empty()) return Fail(kiln::InvalidArgumentError("no module given; ", kUsage));
  kiln::StatusOr<kiln::Ref<kiln::vm::Module>> module = kiln::vm::Module::LoadFromFile(paths.front());
  if (!module.ok()) return Fail(module.status());
  if (!extract_dir.empty()) {
    kiln::Status extracted = ExtractExecutables(**module, extract_dir);
    return extracted.ok() ? 0 : Fail(extracted);
  }
  std::string text;
  if (!function.empty()) {
    kiln::StatusOr<uint32_t> ordinal = kiln::vm::FindFunction(**module, function);
    if (!ordinal.ok()) return Fail(ordinal.status());
    text = kiln::vm::DisassembleFunction(**module, *ordinal);
  } else {
    text = kiln::vm::DumpModule(**module);
    kiln::StatusOr<std::string> kernels = kiln::tools::DescribeGpuKernels(**module);
    if (!kernels.ok()) return Fail(kernels.status());
    if (!kernels->empty()) text += "\nGPU kernels:\n" + *kernels;
  }
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    return Fail(kiln::UnavailableError("cannot write the listing to stdout"));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
