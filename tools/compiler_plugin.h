// The compiler as a plugin of the runtime tools. kiln-run, kiln-check and
// kiln-benchmark-module compile a .mlir --module in-process, but link none of the compiler:
// it lives in libkiln_compile_plugin.so (MLIR and LLVM with it), loaded with dlopen the
// first time a .mlir file needs it. Running a compiled .kiln module so never loads
// libMLIR/libLLVM (about 40 ms of a process's start on the machines here).
//
// Both sides are built from the same tree, so the table passes C++ types; the version
// refuses a plugin from another build.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace kiln::tools {

inline constexpr uint32_t kCompilerPluginVersion = 1;

// What the tools ask of a compilation (a subset of compiler::CompileOptions).
struct PluginCompileOptions {
  std::string target = "cpu";
  bool check_indices = false;
  std::string dump_dispatch_benchmarks_dir;  // for dump_dispatch_benchmarks
};

// Export name -> the push-constant words of each distinct run (compiler::DispatchRuns).
using PluginDispatchRuns = std::map<std::string, std::vector<std::vector<uint32_t>>, std::less<>>;

struct CompilerPlugin {
  uint32_t version;  // kCompilerPluginVersion
  // compiler::CompileFile.
  StatusOr<std::vector<uint8_t>> (*compile_file)(const std::string& path, const PluginCompileOptions& options);
  // compiler::DumpDispatchBenchmarksOfRunFile.
  Status (*dump_dispatch_benchmarks)(const std::string& path, const PluginCompileOptions& options,
                                     const PluginDispatchRuns& runs);
};

// The symbol the plugin exports: a pointer to its table, valid for the process's life.
inline constexpr const char* kCompilerPluginSymbol = "kiln_compiler_plugin";
inline constexpr const char* kCompilerPluginLibrary = "libkiln_compile_plugin.so";

// Loads the plugin once: $KILN_COMPILER_PLUGIN if set, else libkiln_compile_plugin.so
// beside the running executable or in its ../lib (the build tree's and an install's
// layout), or beside the shared object this loader is linked into (the Python extension). The error names where it looked and what to do instead.
StatusOr<const CompilerPlugin*> LoadCompilerPlugin();

}  // namespace kiln::tools
