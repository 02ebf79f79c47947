#include "python/src/devices.h"

#include <map>
#include <mutex>
#include <string_view>

#include "drivers/builtin_drivers.h"
#include "tools/load_module.h"

namespace kiln::python {

std::string CanonicalDeviceName(const std::string& name) {
  std::string_view driver_name = name, index = "0";
  if (size_t colon = name.find(':'); colon != std::string::npos) {
    driver_name = std::string_view(name).substr(0, colon);
    index = std::string_view(name).substr(colon + 1);
    if (index.starts_with("//")) index.remove_prefix(2);  // IREE's URI form
    if (index.empty()) index = "0";
  }
  StatusOr<hal::Driver*> driver = BuiltinDriverRegistry().Find(driver_name);
  if (!driver.ok()) return name;
  return StrCat((*driver)->name(), ":", index);
}

StatusOr<Ref<hal::Device>> GetDevice(const std::string& name) {
  static std::mutex mutex;
  // Never destroyed: devices outlive every module, whatever order the interpreter frees them in.
  static auto* devices = new std::map<std::string, Ref<hal::Device>>();
  std::string key = CanonicalDeviceName(name);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = devices->find(key); it != devices->end()) return it->second;
  KILN_ASSIGN_OR_RETURN(Ref<hal::Device> device, BuiltinDriverRegistry().CreateDevice(name),
                        "while creating device '", name, "'");
  (*devices)[key] = device;
  return device;
}

StatusOr<std::string> CompileTargetOf(const std::string& name) {
  KILN_ASSIGN_OR_RETURN(Ref<hal::Device> device, GetDevice(name));
  return tools::CompileTargetFor(device->info());
}

std::vector<DeviceInfo> ListDevices() {
  hal::DriverRegistry& registry = BuiltinDriverRegistry();
  std::vector<DeviceInfo> out;
  for (const std::string& driver_name : registry.names()) {
    StatusOr<hal::Driver*> driver = registry.Find(driver_name);
    if (!driver.ok()) continue;
    StatusOr<std::vector<hal::DeviceDescription>> devices = (*driver)->EnumerateDevices({});
    if (!devices.ok()) {
      out.push_back({driver_name, driver_name, devices.status().ToString(), false});
      continue;
    }
    for (const hal::DeviceDescription& d : *devices) out.push_back({d.name, driver_name, d.description, true});
  }
  return out;
}

}  // namespace kiln::python
