// The "params" native module: the runtime side of globals bound to parameters
// (#stream.parameter.named<"scope"::"key">). The module's initializer calls
//   params.load(r scope, r key, i element_type, [I] dims) -> r buffer_view
// once per such global, with scope and key as text (vm.buffer) and the global's element type
// (hal::ElementType) and shape; the view it returns is the global's value from then on.
//
// The entry must hold exactly the global's bytes; where its file records a type and shape
// (safetensors, GGUF) they must be the global's. In ParameterMode::kFile, the default, a
// data entry is used in place where the device can read host memory (the CPU devices: the
// mapped file itself, no copy), and copied into device memory elsewhere; kPreload always
// copies. A splat entry is filled on the device. Either way the file is never read whole.
#pragma once

#include <span>
#include <string_view>

#include "base/ref.h"
#include "hal/device.h"
#include "io/parameter_provider.h"
#include "vm/native_module.h"

namespace kiln::runtime {

// IREE's --parameter_mode: "file" (use files in place where the device allows) or
// "preload" (copy every parameter into device memory at load).
enum class ParameterMode { kFile, kPreload };
StatusOr<ParameterMode> ParseParameterMode(std::string_view text);

class ParametersModule final : public vm::NativeModule {
 public:
  // `provider` may be null (no parameters given): a load then fails naming the flag.
  ParametersModule(Ref<hal::Device> device, Ref<io::ParameterProvider> provider, ParameterMode mode);
  std::string_view name() const override { return "params"; }
  std::span<const vm::NativeFunction> functions() const override;

  hal::Device& device() { return *device_; }
  const io::ParameterProvider* provider() const { return provider_.get(); }
  ParameterMode mode() const { return mode_; }

 private:
  Ref<hal::Device> device_;
  Ref<io::ParameterProvider> provider_;
  ParameterMode mode_;
};

}  // namespace kiln::runtime
