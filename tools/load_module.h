// How the tools open --module: a .kiln file is mapped, a .mlir file is compiled in-process
// first (when the tools are built with the compiler), "-" is read from stdin.
#pragma once

#include <string>

#include "base/status.h"
#include "hal/device.h"
#include "vm/module.h"

namespace kiln::tools {

// The compiler target whose code runs on a device: its chip for a GPU ("gfx942"), else "cpu".
std::string CompileTargetFor(const hal::DeviceInfo& device);

// With `check_indices` the .mlir file is compiled in checked mode (CompileOptions); a
// .kiln file cannot be, and is refused. A .mlir file is compiled for `target`. "-" reads a
// compiled module from stdin (not a terminal); anything else there is a clear error.
StatusOr<Ref<vm::Module>> LoadModule(const std::string& path, bool check_indices = false,
                                     const std::string& target = "cpu");

}  // namespace kiln::tools
