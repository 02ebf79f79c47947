// The "hip" driver (AMD GPUs through the HSA runtime) and "hip-sim" (the same driver over
// kiln's HSA simulator, libkiln_hsa_sim.so, which runs each kernel's host twin).
#pragma once

#include <memory>

#include "hal/driver.h"

namespace kiln::hip {

enum class Runtime {
  kRocm,       // "hip": libhsa-runtime64.so.1, or KILN_HSA_LIBRARY, or DeviceOptions::runtime_library
  kSimulator,  // "hip-sim": libkiln_hsa_sim.so, or KILN_HSA_SIM_LIBRARY, or DeviceOptions::runtime_library
};

std::unique_ptr<hal::Driver> CreateHipDriver(Runtime runtime);

}  // namespace kiln::hip
