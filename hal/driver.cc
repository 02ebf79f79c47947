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

Status DriverRegistry::AddAlias(std::string_view alias, std::string_view driver) {
  std::lock_guard lock(mutex_);
  bool found = false;
  for (const auto& existing : drivers_) {
    if (existing->name() == alias) return AlreadyExistsError("'", alias, "' is a driver's name, not a free alias");
    found = found || existing->name() == driver;
  }
  for (const DriverAlias& existing : aliases_) {
    if (existing.alias == alias) return AlreadyExistsError("the alias '", alias, "' is already registered");
  }
  if (!found) return NotFoundError("cannot alias '", alias, "' to '", driver, "': no such driver");
  aliases_.push_back({std::string(alias), std::string(driver)});
  return OkStatus();
}

StatusOr<Driver*> DriverRegistry::Find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  for (const DriverAlias& alias : aliases_) {
    if (alias.alias == name) name = alias.driver;
  }
  std::string known;
  for (const auto& driver : drivers_) {
    if (driver->name() == name) return driver.get();
    known += StrCat(known.empty() ? "" : ", ", driver->name());
  }
  for (const DriverAlias& alias : aliases_) known += StrCat(", ", alias.alias, " (", alias.driver, ")");
  return NotFoundError("unknown device driver '", name, "'; available: ", known.empty() ? "none" : known);
}

std::vector<DriverAlias> DriverRegistry::aliases() const {
  std::lock_guard lock(mutex_);
  return aliases_;
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
    // IREE's URI form: "hip://1", and "local-task://" for the default device.
    bool uri = index.starts_with("//");
    if (uri) index.remove_prefix(2);
    if (uri && index.empty()) index = "0";
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
