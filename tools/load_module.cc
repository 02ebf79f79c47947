#include "tools/load_module.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>
#include <vector>

#if KILN_HAVE_COMPILER
#include "compiler/pipeline/CompileFile.h"
#endif

namespace kiln::tools {

std::string CompileTargetFor(const hal::DeviceInfo& device) {
  return device.architecture.empty() ? "cpu" : device.architecture;
}

namespace {

// The module piped to stdin (kiln-compile x.mlir | kiln-run --module=-).
StatusOr<Ref<vm::Module>> LoadModuleFromStdin(bool check_indices) {
  if (check_indices) {
    return InvalidArgumentError("index checks are compiled in: a module on stdin is already compiled; pass the .mlir "
                                "file, or compile it with kiln-compile --check-indices");
  }
  if (isatty(STDIN_FILENO)) {
    return InvalidArgumentError("--module=- reads a compiled module from stdin, but stdin is a terminal; pipe one in "
                                "(kiln-compile x.mlir | kiln-run --module=-) or redirect a file (< x.kiln)");
  }
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), stdin)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
  if (std::ferror(stdin)) return DataLossError("reading the module from stdin failed");
  if (bytes.empty()) {
    return InvalidArgumentError("--module=-: stdin is empty; expected a compiled module "
                                "(kiln-compile x.mlir | kiln-run --module=-)");
  }
  StatusOr<Ref<vm::Module>> module = vm::Module::LoadFromMemory(bytes, "<stdin>");
  if (module.ok()) return module;
  // MLIR text is the likeliest mistake: say so rather than only "no KILN identifier".
  std::string_view head(reinterpret_cast<const char*>(bytes.data()), std::min<size_t>(bytes.size(), 256));
  bool text = std::all_of(head.begin(), head.end(), [](char c) {
    return std::isprint(static_cast<unsigned char>(c)) || std::isspace(static_cast<unsigned char>(c));
  });
  if (text) {
    return InvalidArgumentError("--module=-: stdin holds text, not a compiled module; compile it first "
                                "(kiln-compile x.mlir | kiln-run --module=-) or pass the source as --module=x.mlir");
  }
  return module.status().With("--module=-: stdin is not a kiln module");
}

}  // namespace

StatusOr<Ref<vm::Module>> LoadModule(const std::string& path, bool check_indices, const std::string& target) {
  if (path == "-") return LoadModuleFromStdin(check_indices);
  if (!path.ends_with(".mlir")) {
    if (check_indices) {
      return InvalidArgumentError("index checks are compiled in: '", path, "' is a compiled module; pass its .mlir "
                                  "source, or compile it with kiln-compile --check-indices and run that without "
                                  "the flag");
    }
    return vm::Module::LoadFromFile(path);
  }
#if KILN_HAVE_COMPILER
  compiler::CompileOptions options;
  options.check_indices = check_indices;
  options.target = target;
  KILN_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, compiler::CompileFile(path, options));
  return vm::Module::LoadFromMemory(bytes, path);
#else
  return UnimplementedError("'", path, "' is MLIR source, but this build has no compiler (KILN_BUILD_COMPILER=OFF); "
                            "compile it with kiln-compile and pass the .kiln file");
#endif
}

}  // namespace kiln::tools
