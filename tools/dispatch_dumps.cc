#include "tools/dispatch_dumps.h"

#include <algorithm>

#include "tools/compiler_plugin.h"

namespace kiln::tools {

Status CheckDispatchDumpSource(const std::string& path) {
  if (!path.ends_with(".mlir")) {
    return InvalidArgumentError("--dump_dispatch_benchmarks needs the module's MLIR source (--module=FILE.mlir): the "
                                "dispatches are compiled again with the sizes they ran with; '",
                                path, "' is a compiled module");
  }
#if !KILN_HAVE_COMPILER
  return UnimplementedError("--dump_dispatch_benchmarks needs the compiler, and this build has none "
                            "(KILN_BUILD_COMPILER=OFF)");
#endif
  return OkStatus();
}

Status DumpRecordedDispatches(const std::string& path, const std::string& target,
                              std::span<const RecordedDispatch> dispatches, const std::string& dir) {
  KILN_RETURN_IF_ERROR(CheckDispatchDumpSource(path));
#if KILN_HAVE_COMPILER
  KILN_ASSIGN_OR_RETURN(const CompilerPlugin* plugin, LoadCompilerPlugin());
  PluginDispatchRuns runs;
  for (const RecordedDispatch& dispatch : dispatches) {
    std::vector<std::vector<uint32_t>>& seen = runs[dispatch.name];
    if (std::find(seen.begin(), seen.end(), dispatch.words) == seen.end()) seen.push_back(dispatch.words);
  }
  PluginCompileOptions options;
  options.target = target;
  options.dump_dispatch_benchmarks_dir = dir;
  return plugin->dump_dispatch_benchmarks(path, options, runs);
#else
  (void)target;
  (void)dispatches;
  (void)dir;
  return OkStatus();  // not reached: CheckDispatchDumpSource fails without the compiler
#endif
}

}  // namespace kiln::tools
