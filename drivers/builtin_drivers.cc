#include "drivers/builtin_drivers.h"

#include "drivers/cpu/cpu_driver.h"

namespace kiln {

Status RegisterBuiltinDrivers(hal::DriverRegistry& registry) {
  KILN_RETURN_IF_ERROR(registry.Register(cpu::CreateCpuDriver(cpu::ExecutionMode::kTaskArena)));
  KILN_RETURN_IF_ERROR(registry.Register(cpu::CreateCpuDriver(cpu::ExecutionMode::kInline)));
  return OkStatus();
}

hal::DriverRegistry& BuiltinDriverRegistry() {
  static hal::DriverRegistry* registry = [] {
    auto* r = new hal::DriverRegistry();
    RegisterBuiltinDrivers(*r).IgnoreError();  // names are distinct; cannot fail
    return r;
  }();
  return *registry;
}

}  // namespace kiln
