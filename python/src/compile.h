// kiln.compile: the compiler in-process, through libkiln_compile_plugin.so (MLIR and LLVM
// with it), loaded the first time something is compiled (tools/compiler_plugin.h); loading
// and running .kiln modules never loads it.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

namespace kiln::python {

// Compiles the MLIR file at `path` for `target` ("cpu", "gfx942", "cpu,gfx942") into module
// bytes. Diagnostics become the KilnError's message. Releases the GIL while compiling.
pybind11::bytes CompileFile(const std::string& path, const std::string& target, bool check_indices);

}  // namespace kiln::python
