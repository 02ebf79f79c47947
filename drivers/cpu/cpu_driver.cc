#include "drivers/cpu/cpu_driver.h"

namespace kiln::cpu {
namespace {

class CpuDriver final : public hal::Driver {
 public:
  explicit CpuDriver(ExecutionMode mode) : mode_(mode) {}
  std::string_view name() const override { return mode_ == ExecutionMode::kTaskArena ? "cpu" : "cpu-sync"; }
  std::string_view description() const override {
    return mode_ == ExecutionMode::kTaskArena
               ? "host CPU; workgroups run in parallel on a oneTBB arena with pinned workers"
               : "host CPU; everything runs inline on the calling thread (deterministic, for debugging)";
  }
  StatusOr<Ref<hal::Device>> CreateDevice(const hal::DeviceOptions& options) override {
    if (options.device_index != 0) {
      return NotFoundError("the '", name(), "' driver has one device, '", name(), ":0'; there is no device ",
                           options.device_index);
    }
    return CreateCpuDevice(mode_, options);
  }
  StatusOr<std::vector<hal::DeviceDescription>> EnumerateDevices(const hal::DeviceOptions&) override {
    return std::vector<hal::DeviceDescription>{{StrCat(name(), ":0"), std::string(description())}};
  }

 private:
  ExecutionMode mode_;
};

}  // namespace

std::unique_ptr<hal::Driver> CreateCpuDriver(ExecutionMode mode) { return std::make_unique<CpuDriver>(mode); }

}  // namespace kiln::cpu
