#include "drivers/builtin_drivers.h"

#include "drivers/cpu/cpu_driver.h"
#include "drivers/hip/hip_driver.h"

namespace kiln {

Status RegisterBuiltinDrivers(hal::DriverRegistry& registry) {
  KILN_RETURN_IF_ERROR(registry.Register(cpu::CreateCpuDriver(cpu::ExecutionMode::kTaskArena)));
  KILN_RETURN_IF_ERROR(registry.Register(cpu::CreateCpuDriver(cpu::ExecutionMode::kInline)));
  KILN_RETURN_IF_ERROR(registry.Register(hip::CreateHipDriver(hip::Runtime::kRocm)));
  KILN_RETURN_IF_ERROR(registry.Register(hip::CreateHipDriver(hip::Runtime::kSimulator)));
  // IREE's device names, so that iree-run-module command lines work unchanged.
  KILN_RETURN_IF_ERROR(registry.AddAlias("local-task", "cpu"));
  KILN_RETURN_IF_ERROR(registry.AddAlias("local-sync", "cpu-sync"));
  KILN_RETURN_IF_ERROR(registry.AddAlias("amdgpu", "hip"));
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

std::string DescribeDevices(hal::DriverRegistry& registry) {
  std::string out;
  for (const std::string& name : registry.names()) {
    StatusOr<hal::Driver*> driver = registry.Find(name);
    if (!driver.ok()) continue;
    out += StrCat(name, ": ", (*driver)->description(), "\n");
    StatusOr<std::vector<hal::DeviceDescription>> devices = (*driver)->EnumerateDevices({});
    if (!devices.ok()) {
      out += StrCat("  unavailable: ", devices.status().ToString(), "\n");
      continue;
    }
    for (const hal::DeviceDescription& device : *devices) out += StrCat("  ", device.name, "  ", device.description, "\n");
  }
  std::vector<hal::DriverAlias> aliases = registry.aliases();
  if (!aliases.empty()) {
    out += "aliases (IREE's device names):";
    for (const hal::DriverAlias& alias : aliases) out += StrCat(" ", alias.alias, " = ", alias.driver);
    out += "\n";
  }
  return out;
}

}  // namespace kiln
