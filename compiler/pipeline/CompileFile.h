// Compiling a source file in-process for tools that accept .mlir where a .kiln module is
// expected (kiln-run --module=x.mlir, kiln-check x.mlir).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/pipeline/Compile.h"

namespace kiln::compiler {

// Compiles the MLIR file at `path` into .kiln module bytes. The error carries every
// diagnostic the compiler emitted, with source locations.
StatusOr<std::vector<uint8_t>> CompileFile(const std::string& path, const CompileOptions& options = {});

// Writes the dispatches of one call of the module compiled from the MLIR file at `path`,
// with the push constants they ran with, to options.dump_dispatch_benchmarks_dir
// (DumpDispatchBenchmarksOfRun in Compile.h); errors as CompileFile's.
Status DumpDispatchBenchmarksOfRunFile(const std::string& path, const CompileOptions& options,
                                       const DispatchRuns& runs);

}  // namespace kiln::compiler
