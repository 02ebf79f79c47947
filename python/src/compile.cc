#include "python/src/compile.h"

#include <optional>

#include "python/src/errors.h"
#include "tools/compiler_plugin.h"

namespace py = pybind11;

namespace kiln::python {

py::bytes CompileFile(const std::string& path, const std::string& target, bool check_indices) {
  std::optional<StatusOr<std::vector<uint8_t>>> compiled;
  {
    py::gil_scoped_release release;
    StatusOr<const tools::CompilerPlugin*> plugin = tools::LoadCompilerPlugin();
    if (!plugin.ok()) {
      compiled.emplace(std::move(plugin).status());
    } else {
      tools::PluginCompileOptions options;
      options.target = target;
      options.check_indices = check_indices;
      compiled.emplace((*plugin)->compile_file(path, options));
    }
  }
  std::vector<uint8_t> bytes = ValueOrThrow(std::move(*compiled));
  return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace kiln::python
