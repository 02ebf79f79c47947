#include "hal/driver.h"

#include <charconv>

namespace kiln::hal {

Status DriverRegistry::Register(std::unique_ptr<Driver> driver) {
  std::lock_guard lock(mutex_);
  for (const auto& existing : drivers_) {
    if (existing->name() == driver->name()) {
      return AlreadyExistsError("a driver named '", driver->name(), "' is already registered");
    }
  }
  drivers_.push_back(std::move(driver));
  return OkStatus();
}

StatusOr<Driver*> DriverRegistry::Find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  std::string known;
  for (const auto& driver : drivers_) {
    if (driver->name() == name) return driver.get();
    known += StrCat(known.empty() ? "" : ", ", driver->name());
  }
  return NotFoundError("unknown device driver '", name, "'; available: ", known.empty() ? "none" : known);
}

std::vector<std::string> DriverRegistry::names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& driver : drivers_) out.emplace_back(driver->name());
  return out;
}

StatusOr<Ref<Device>> DriverRegistry::CreateDevice(std::string_view name, const DeviceOptions& options) const {
  DeviceOptions resolved = options;
  std::string_view driver_name = name;
  if (size_t colon = name.find(':'); colon != std::string_view::npos) {
    driver_name = name.substr(0, colon);
    std::string_view index = name.substr(colon + 1);
    uint32_t value = 0;
    auto [end, error] = std::from_chars(index.data(), index.data() + index.size(), value);
    if (index.empty() || error != std::errc() || end != index.data() + index.size()) {
      return InvalidArgumentError("device name '", name, "' has a bad index '", index,
                                  "'; expected DRIVER or DRIVER:N with N a device number");
    }
    resolved.device_index = value;
  }
  KILN_ASSIGN_OR_RETURN(Driver * driver, Find(driver_name));
  KILN_ASSIGN_OR_RETURN(Ref<Device> device, driver->CreateDevice(resolved), "while creating a '", name, "' device");
  return device;
}

}  // namespace kiln::hal
