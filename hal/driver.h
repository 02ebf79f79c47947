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
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  // UNAVAILABLE, with the reason, when the hardware or its runtime is absent.
  virtual StatusOr<Ref<Device>> CreateDevice(const DeviceOptions& options) = 0;
};

class DriverRegistry {
 public:
  Status Register(std::unique_ptr<Driver> driver);
  // NOT_FOUND naming the registered drivers when `name` is unknown.
  StatusOr<Driver*> Find(std::string_view name) const;
  std::vector<std::string> names() const;
  StatusOr<Ref<Device>> CreateDevice(std::string_view name, const DeviceOptions& options = {}) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Driver>> drivers_;
};

}  // namespace kiln::hal
