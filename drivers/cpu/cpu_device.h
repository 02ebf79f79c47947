// The device of the cpu and cpu-sync drivers.
#pragma once

#include <memory>

#include "drivers/cpu/executor.h"
#include "hal/device.h"
#include "hal/driver.h"

namespace kiln::cpu {

enum class ExecutionMode {
  kTaskArena,  // "cpu": queue operations run asynchronously on a oneTBB arena
  kInline,     // "cpu-sync": they run on the thread that makes them ready
};

StatusOr<Ref<hal::Device>> CreateCpuDevice(ExecutionMode mode, const hal::DeviceOptions& options);

}  // namespace kiln::cpu
