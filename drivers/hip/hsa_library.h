// The HSA runtime as the hip driver sees it: one table of function pointers filled by dlopen,
// so kiln starts on machines without ROCm, and so hip-sim can put kiln's simulator
// (libkiln_hsa_sim.so) in the runtime's place.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <memory>
#include <string>

#include "base/status.h"
#include "drivers/hip/sim/hsa_sim_control.h"  // the simulator's plain C control API: types only

namespace kiln::hip {

struct HsaLibrary {
#define KILN_HSA_FN(name) decltype(&::name) name = nullptr;
#include "drivers/hip/hsa_symbols.def"
#undef KILN_HSA_FN
  // The simulator's kiln_hsa_sim_last_error, when the library is the simulator; null for ROCm.
  const char* (*sim_last_error)() = nullptr;
  // The simulator's per-dispatch counts (hsa_sim_control.h), looked up in the same library
  // when it has them; null for ROCm and for a simulator without them. The driver does not
  // link the simulator: these are the only entry points it takes from it, and both optional.
  decltype(&::kiln_hsa_sim_last_dispatch_counts) sim_last_dispatch_counts = nullptr;
  decltype(&::kiln_hsa_sim_dispatches_completed) sim_dispatches_completed = nullptr;

  std::string path;  // as opened
  bool is_simulator() const { return sim_last_error != nullptr; }

  // UNAVAILABLE naming the path and dlerror when it cannot be opened or lacks a function.
  // Libraries stay loaded for the life of the process (the HSA runtime does not support
  // being unloaded), so the same path gives the same table.
  static StatusOr<const HsaLibrary*> Open(const std::string& path);

  // "HSA_STATUS_ERROR_OUT_OF_RESOURCES (the runtime's text)[: the simulator's detail]".
  std::string Describe(hsa_status_t status) const;
  // OK for HSA_STATUS_SUCCESS; otherwise a Status naming `what` and the HSA status.
  Status Check(hsa_status_t status, std::string_view what) const;
};

// The library the "hip" driver opens: KILN_HSA_LIBRARY, else libhsa-runtime64.so.1.
std::string DefaultHsaLibraryPath();
// The library the "hip-sim" driver opens: KILN_HSA_SIM_LIBRARY, else libkiln_hsa_sim.so
// beside the binary that holds this driver (its lib/ or ../lib/), else by name.
std::string DefaultSimulatorLibraryPath();

}  // namespace kiln::hip
