// Drivers create devices; the registry finds drivers by name ("cpu", "cpu-sync", "hip").
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "hal/device.h"

namespace kiln::hal {

struct DeviceOptions {
  uint32_t worker_count = 0;  // 0: one per CPU the process may run on (drivers with workers)
  bool pin_workers = true;    // pin workers to CPUs (avoids ~2 ms wake-ups after idle)
  uint32_t device_index = 0;  // which of the driver's devices ("hip:1" is index 1)
  uint32_t queue_capacity = 0;  // GPU drivers: packets in the queue's ring (0: the driver's default)
  // The driver's runtime library, for drivers that load one ("hip": libhsa-runtime64.so.1).
  // Empty: the driver's default (or its environment variable, KILN_HSA_LIBRARY for hip).
  std::string runtime_library;
};

// What a driver can say about one of its devices without creating it.
struct DeviceDescription {
  std::string name;         // "hip:0": what CreateDevice takes
  std::string description;  // "gfx942, 304 compute units, wave64, 64 KiB LDS"
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  // UNAVAILABLE, with the reason, when the hardware or its runtime is absent.
  virtual StatusOr<Ref<Device>> CreateDevice(const DeviceOptions& options) = 0;
  // The devices this driver would create, or UNAVAILABLE with the reason (runtime library
  // missing, its initialisation failed, no device present). `options` names the runtime
  // library where the driver loads one.
  virtual StatusOr<std::vector<DeviceDescription>> EnumerateDevices(const DeviceOptions& options) = 0;
};

struct DriverAlias {
  std::string alias;   // "local-task": IREE's name
  std::string driver;  // "cpu": the registered driver it stands for
};

class DriverRegistry {
 public:
  Status Register(std::unique_ptr<Driver> driver);
  // Another name for a registered driver (IREE's device names: "local-task" for "cpu").
  // It may not shadow a driver or another alias.
  Status AddAlias(std::string_view alias, std::string_view driver);
  // A driver by its name or an alias; NOT_FOUND naming the drivers and aliases.
  StatusOr<Driver*> Find(std::string_view name) const;
  std::vector<std::string> names() const;
  std::vector<DriverAlias> aliases() const;
  // `name` is a driver name or alias, optionally with a device index ("hip:1", or IREE's
  // URI form "hip://1"); the index overrides options.device_index.
  StatusOr<Ref<Device>> CreateDevice(std::string_view name, const DeviceOptions& options = {}) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Driver>> drivers_;
  std::vector<DriverAlias> aliases_;
};

}  // namespace kiln::hal
