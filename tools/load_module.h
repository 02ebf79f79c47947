// How the tools open --module: a .kiln file is mapped, a .mlir file is compiled in-process
// first (when the tools are built with the compiler).
#pragma once

#include <string>

#include "base/status.h"
#include "vm/module.h"

namespace kiln::tools {

StatusOr<Ref<vm::Module>> LoadModule(const std::string& path);

}  // namespace kiln::tools
