// A loaded module ready to call on one device: the device, its "hal" native module and a
// VM context. What kiln-run and the embedding API build on.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "hal/device.h"
#include "hal/module/hal_module.h"
#include "io/parameter_provider.h"
#include "runtime/parameters_module.h"
#include "vm/context.h"
#include "vm/module.h"

namespace kiln::runtime {

struct SessionOptions {
  // The parameter files globals bound to parameters are filled from (kept alive by the
  // session); null when none were given.
  Ref<io::ParameterProvider> parameters;
  ParameterMode parameter_mode = ParameterMode::kFile;
};

// A session is the module's state: its own globals, given their initial values (constants,
// parameters, util.initializer bodies) when it is created. Two sessions of one module share
// no mutable state; calls on one session must not run concurrently.
class Session {
 public:
  // `device_name` is a registered driver ("cpu", "cpu-sync"). The module is loaded and
  // verified, and its imports resolved against the device's HAL module, the "params" module
  // over `options.parameters`, and `extra_natives` (e.g. a CheckModule), which must outlive
  // the session. Then the module's globals are initialized.
  static StatusOr<std::unique_ptr<Session>> Create(std::string_view device_name, Ref<vm::Module> module,
                                                   std::span<vm::NativeModule* const> extra_natives = {},
                                                   const SessionOptions& options = {});
  // The same on an existing device (which the session keeps alive).
  static StatusOr<std::unique_ptr<Session>> Create(Ref<hal::Device> device, Ref<vm::Module> module,
                                                   std::span<vm::NativeModule* const> extra_natives = {},
                                                   const SessionOptions& options = {});
  ~Session();

  hal::Device& device() { return *device_; }
  // The device's "hal" module as this session's context uses it (recording, export metadata).
  hal::HalModule& hal_module() { return *hal_module_; }
  const vm::Module& module() const { return *module_; }
  // The signature of an exported function (owned by the module); NOT_FOUND lists the
  // exported names.
  StatusOr<const vm::Signature*> FunctionSignature(std::string_view name) const;
  StatusOr<std::vector<vm::Value>> Call(std::string_view name, std::span<const vm::Value> args);

 private:
  Session() = default;
  Ref<hal::Device> device_;
  std::unique_ptr<hal::HalModule> hal_module_;
  std::unique_ptr<ParametersModule> parameters_module_;
  Ref<vm::Module> module_;
  Ref<vm::Context> context_;
};

}  // namespace kiln::runtime
