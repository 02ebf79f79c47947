// libkiln_compile_plugin.so: the compiler behind tools/compiler_plugin.h.
#include "compiler/pipeline/CompileFile.h"
#include "tools/compiler_plugin.h"

namespace kiln::tools {
namespace {

compiler::CompileOptions ToCompileOptions(const PluginCompileOptions& options) {
  compiler::CompileOptions out;
  out.target = options.target;
  out.check_indices = options.check_indices;
  out.dump_dispatch_benchmarks_dir = options.dump_dispatch_benchmarks_dir;
  return out;
}

StatusOr<std::vector<uint8_t>> CompileFile(const std::string& path, const PluginCompileOptions& options) {
  return compiler::CompileFile(path, ToCompileOptions(options));
}

Status DumpDispatchBenchmarks(const std::string& path, const PluginCompileOptions& options,
                              const PluginDispatchRuns& runs) {
  return compiler::DumpDispatchBenchmarksOfRunFile(path, ToCompileOptions(options), runs);
}

constexpr CompilerPlugin kPlugin = {kCompilerPluginVersion, CompileFile, DumpDispatchBenchmarks};

}  // namespace
}  // namespace kiln::tools

extern "C" __attribute__((visibility("default"))) const kiln::tools::CompilerPlugin* kiln_compiler_plugin() {
  return &kiln::tools::kPlugin;
}
