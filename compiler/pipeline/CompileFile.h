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

}  // namespace kiln::compiler
