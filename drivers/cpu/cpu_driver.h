// The cpu (oneTBB) and cpu-sync (inline) drivers.
#pragma once

#include <memory>

#include "drivers/cpu/cpu_device.h"
#include "hal/driver.h"

namespace kiln::cpu {

std::unique_ptr<hal::Driver> CreateCpuDriver(ExecutionMode mode);

}  // namespace kiln::cpu
