// How the tools open --module: a .kiln file is mapped, a .mlir file is compiled in-process
// first (when the tools are built with the compiler).
#pragma once

#include <string>

#include "base/status.h"
#include "vm/module.h"

namespace kiln::tools {

// With `check_indices` the .mlir file is compiled in checked mode (CompileOptions); a
// .kiln file cannot be, and is refused.
StatusOr<Ref<vm::Module>> LoadModule(const std::string& path, bool check_indices = false);

}  // namespace kiln::tools
