// The drivers built into this runtime, registered once on first use.
#pragma once

#include "hal/driver.h"

namespace kiln {

// Registers cpu and cpu-sync into `registry`.
Status RegisterBuiltinDrivers(hal::DriverRegistry& registry);
// A process-wide registry holding the built-in drivers.
hal::DriverRegistry& BuiltinDriverRegistry();

}  // namespace kiln
