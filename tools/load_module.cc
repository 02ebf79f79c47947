#include "tools/load_module.h"

#if KILN_HAVE_COMPILER
#include "compiler/pipeline/CompileFile.h"
#endif

namespace kiln::tools {

std::string CompileTargetFor(const hal::DeviceInfo& device) {
  return device.architecture.empty() ? "cpu" : device.architecture;
}

StatusOr<Ref<vm::Module>> LoadModule(const std::string& path, bool check_indices, const std::string& target) {
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
