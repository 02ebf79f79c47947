// The drivers built into this runtime, registered once on first use.
#pragma once

#include "hal/driver.h"

namespace kiln {

// Registers cpu, cpu-sync, hip and hip-sim into `registry`, with IREE's names as aliases:
// local-task (cpu), local-sync (cpu-sync), amdgpu (hip). hip is both names.
Status RegisterBuiltinDrivers(hal::DriverRegistry& registry);
// A process-wide registry holding the built-in drivers.
hal::DriverRegistry& BuiltinDriverRegistry();

// Every driver of `registry` and its devices, or why it has none, one block per driver:
//   hip-sim: simulated AMD GPUs: ...
//     hip-sim:0  gfx942, 304 compute units, wave64, 64 KiB LDS
//   hip: AMD GPUs through the HSA runtime (ROCm)
//     unavailable: hsa_init of 'libhsa-runtime64.so.1' failed: ...
std::string DescribeDevices(hal::DriverRegistry& registry);

}  // namespace kiln
