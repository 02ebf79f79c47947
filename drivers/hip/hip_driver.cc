#include "drivers/hip/hip_driver.h"

#include "drivers/hip/hip_device.h"
#include "drivers/hip/hsa_runtime.h"

namespace kiln::hip {
namespace {

class HipDriver final : public hal::Driver {
 public:
  explicit HipDriver(Runtime runtime) : runtime_(runtime) {}
  std::string_view name() const override { return runtime_ == Runtime::kRocm ? "hip" : "hip-sim"; }
  std::string_view description() const override {
    return runtime_ == Runtime::kRocm ? "AMD GPUs through the HSA runtime (ROCm)"
                                      : "simulated AMD GPUs: kiln's HSA simulator runs each kernel's host twin";
  }

  StatusOr<Ref<hal::Device>> CreateDevice(const hal::DeviceOptions& options) override {
    KILN_ASSIGN_OR_RETURN(std::shared_ptr<HsaRuntime> runtime, Acquire(options));
    if (options.device_index >= runtime->gpus().size()) {
      return NotFoundError("the '", name(), "' driver has ", runtime->gpus().size(), " device(s); there is no device ",
                           options.device_index);
    }
    return CreateHipDevice(std::string(name()), runtime, runtime->gpus()[options.device_index], options);
  }

  StatusOr<std::vector<hal::DeviceDescription>> EnumerateDevices(const hal::DeviceOptions& options) override {
    KILN_ASSIGN_OR_RETURN(std::shared_ptr<HsaRuntime> runtime, Acquire(options));
    std::vector<hal::DeviceDescription> out;
    for (size_t i = 0; i < runtime->gpus().size(); ++i) {
      out.push_back({StrCat(name(), ":", i), runtime->gpus()[i].Summary()});
    }
    return out;
  }

 private:
  StatusOr<std::shared_ptr<HsaRuntime>> Acquire(const hal::DeviceOptions& options) {
    std::string path = !options.runtime_library.empty() ? options.runtime_library
                       : runtime_ == Runtime::kRocm    ? DefaultHsaLibraryPath()
                                                       : DefaultSimulatorLibraryPath();
    KILN_ASSIGN_OR_RETURN(std::shared_ptr<HsaRuntime> runtime, HsaRuntime::Acquire(path));
    if (runtime->gpus().empty()) {
      return UnavailableError("the HSA runtime '", path, "' reports no GPU agent with allocatable memory");
    }
    return runtime;
  }

  Runtime runtime_;
};

}  // namespace

std::unique_ptr<hal::Driver> CreateHipDriver(Runtime runtime) { return std::make_unique<HipDriver>(runtime); }

}  // namespace kiln::hip
