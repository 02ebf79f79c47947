// A module loaded on a device, with one session (its globals) that Python calls into.
//
// Calls from several Python threads are serialized on the session (kiln's sessions take one
// call at a time; their globals are the module's state, so every caller sees the same
// state). Each call converts its arguments with the GIL held, then releases it while
// waiting for the session and while the call runs. For calls that run in parallel, load the
// module once per thread: each load has its own session and globals.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "base/ref.h"
#include "runtime/session.h"
#include "vm/module.h"

namespace kiln::python {

class LoadedModule {
 public:
  // (scope, path) pairs, as kiln-run's --parameters=SCOPE=PATH.
  using ParameterFiles = std::vector<std::pair<std::string, std::string>>;

  // The module from a .kiln file (mapped) or from module bytes (copied), on `device`. Needs
  // the GIL; releases it while the session is created (globals initialized, parameters read).
  static std::unique_ptr<LoadedModule> LoadFile(const std::string& path, const std::string& device,
                                                const ParameterFiles& parameters);
  static std::unique_ptr<LoadedModule> LoadBytes(const pybind11::bytes& bytes, const std::string& device,
                                                 const ParameterFiles& parameters);

  const std::string& name() const { return name_; }
  // The device as "DRIVER:INDEX" ("cpu:0" for "cpu" and "local-task").
  const std::string& device_name() const { return device_name_; }
  std::vector<std::string> function_names() const;
  // The function's type as compiled, "(tensor<?x4xf32>, i32) -> tensor<?x3xf32>"; for modules
  // of compilers that did not record it, the calling convention, "(tensor, i32) -> (tensor)".
  // NOT_FOUND names the exported functions.
  std::string signature(const std::string& function) const;
  // Calls `function`: NumPy arrays for tensors, int/float for scalars. Returns None, the one
  // result, or a tuple of results.
  pybind11::object Call(const std::string& function, const pybind11::args& args);

 private:
  LoadedModule() = default;
  static std::unique_ptr<LoadedModule> Create(StatusOr<Ref<vm::Module>> module, const std::string& device,
                                              const ParameterFiles& parameters);

  std::string name_;
  std::string device_name_;
  Ref<hal::Device> device_;
  std::mutex call_mutex_;  // one call at a time on session_
  std::unique_ptr<runtime::Session> session_;
};

}  // namespace kiln::python
