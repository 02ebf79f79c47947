#include "python/src/compile.h"

#include "python/src/errors.h"
#include "python/src/exit_guard.h"
#include "python/src/gil.h"
#include "tools/compiler_plugin.h"

namespace py = pybind11;

namespace kiln::python {

py::bytes CompileFile(const std::string& path, const std::string& target, bool check_indices) {
  InFlight in_flight;
  StatusOr<std::vector<uint8_t>> compiled = WithoutGil([&]() -> StatusOr<std::vector<uint8_t>> {
    KILN_ASSIGN_OR_RETURN(const tools::CompilerPlugin* plugin, tools::LoadCompilerPlugin());
    tools::PluginCompileOptions options;
    options.target = target;
    options.check_indices = check_indices;
    return plugin->compile_file(path, options);
  });
  std::vector<uint8_t> bytes = ValueOrThrow(std::move(compiled));
  return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace kiln::python
