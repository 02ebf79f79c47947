// How the tools open --module: a .kiln file is mapped, a .mlir file is compiled in-process
// first (when the tools are built with the compiler), "-" is read from stdin.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "hal/device.h"
#include "runtime/session.h"
#include "tools/flags.h"
#include "vm/module.h"
#include "vm/value.h"

namespace kiln::tools {

// The compiler target whose code runs on a device: its chip for a GPU ("gfx942"), else "cpu".
std::string CompileTargetFor(const hal::DeviceInfo& device);

// With `check_indices` the .mlir file is compiled in checked mode (CompileOptions); a
// .kiln file cannot be, and is refused. A .mlir file is compiled for `target`. "-" reads a
// compiled module from stdin (not a terminal); anything else there is a clear error.
StatusOr<Ref<vm::Module>> LoadModule(const std::string& path, bool check_indices = false,
                                     const std::string& target = "cpu");

// What kiln-run and kiln-benchmark-module take to call a function: --module, --function,
// --device and --input, in iree-run-module's spelling.
// --parameters=[SCOPE=]FILE (repeatable) and --parameter_mode, as iree-run-module spells them.
struct ParameterFlags {
  std::vector<std::string> files;
  std::string mode = "file";
};
void AddParameterFlags(FlagParser& parser, ParameterFlags& flags);
// The session options they make: every file opened (memory-mapped) into its scope.
StatusOr<runtime::SessionOptions> SessionOptionsFrom(const ParameterFlags& flags);

struct CallFlags {
  std::string module, function, device = "cpu";
  std::vector<std::string> inputs;
  ParameterFlags parameters;
};
// Declares them in `parser` (the parameter flags too); `verb` is what the tool does with the
// function ("call", "time").
void AddCallFlags(FlagParser& parser, CallFlags& flags, std::string_view verb);

// A function ready to call: a session on the device, the function's name, its arguments.
struct PreparedCall {
  std::unique_ptr<runtime::Session> session;
  std::string function;
  std::vector<vm::Value> args;
  double load_ms = 0;  // creating the device, loading (or compiling) the module, the session
};
// Creates the device (first, so that a missing one fails at once), loads the module
// (a .mlir file compiled for the device), selects the function (runtime::SelectFunction)
// and parses the inputs for its signature.
StatusOr<PreparedCall> PrepareCall(const CallFlags& flags, bool check_indices = false);

}  // namespace kiln::tools
