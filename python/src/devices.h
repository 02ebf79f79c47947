// Devices for the Python package: one per name for the process (a `cpu` device owns a pool
// of pinned worker threads; every module loaded on "cpu" shares it), and the list of what
// the built-in drivers offer.
#pragma once

#include <string>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "hal/device.h"

namespace kiln::python {

// The device `name` names ("cpu", "cpu-sync", "local-task", "hip-sim:0", "hip://1"),
// created on first use and kept for the process's life; names of one device (an alias, an
// index or none) share it. Thread-safe.
StatusOr<Ref<hal::Device>> GetDevice(const std::string& name);

// "DRIVER:INDEX" for a device name ("local-task" -> "cpu:0", "hip://1" -> "hip:1"); `name`
// itself when it names no registered driver (creating it then fails saying why).
std::string CanonicalDeviceName(const std::string& name);

// What kiln.compile's `target` is for code that runs on device `name` ("cpu", "gfx942"), as
// kiln-run compiles a .mlir module for its --device.
StatusOr<std::string> CompileTargetOf(const std::string& name);

struct DeviceInfo {
  std::string name;         // what kiln.load(device=...) takes
  std::string driver;       // the driver's name
  std::string description;  // the device's, or the driver's with why it has no devices
  bool available = false;
};

// One entry per device of every built-in driver; a driver without devices gives one
// unavailable entry saying why.
std::vector<DeviceInfo> ListDevices();

}  // namespace kiln::python
