// The HSA simulator's control functions (drivers/hip/sim/hsa_sim_control.h) for tests, from
// the same library instance the hip-sim driver loads.
#pragma once

#include "base/status.h"
#include "drivers/hip/sim/hsa_sim_control.h"

namespace kiln::testing {

struct SimControl {
  decltype(&kiln_hsa_sim_configure) configure = nullptr;
  decltype(&kiln_hsa_sim_inject) inject = nullptr;
  decltype(&kiln_hsa_sim_clear_faults) clear_faults = nullptr;
  decltype(&kiln_hsa_sim_dispatches_completed) dispatches_completed = nullptr;
  decltype(&kiln_hsa_sim_system_fences) system_fences = nullptr;

  static StatusOr<SimControl> Open();
};

}  // namespace kiln::testing
