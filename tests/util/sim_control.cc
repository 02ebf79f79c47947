#include "tests/util/sim_control.h"

#include <dlfcn.h>

#include "drivers/hip/hsa_library.h"

namespace kiln::testing {

StatusOr<SimControl> SimControl::Open() {
  std::string path = hip::DefaultSimulatorLibraryPath();
  // Never closed: the driver keeps the same instance loaded for the life of the process.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return UnavailableError("cannot load the HSA simulator '", path, "': ", dlerror());
  SimControl control;
  control.configure = reinterpret_cast<decltype(control.configure)>(dlsym(handle, "kiln_hsa_sim_configure"));
  control.inject = reinterpret_cast<decltype(control.inject)>(dlsym(handle, "kiln_hsa_sim_inject"));
  control.clear_faults = reinterpret_cast<decltype(control.clear_faults)>(dlsym(handle, "kiln_hsa_sim_clear_faults"));
  control.dispatches_completed =
      reinterpret_cast<decltype(control.dispatches_completed)>(dlsym(handle, "kiln_hsa_sim_dispatches_completed"));
  control.system_fences =
      reinterpret_cast<decltype(control.system_fences)>(dlsym(handle, "kiln_hsa_sim_system_fences"));
  if (!control.configure || !control.inject || !control.clear_faults || !control.dispatches_completed ||
      !control.system_fences) {
    return UnavailableError("the HSA simulator '", path, "' lacks its control functions");
  }
  return control;
}

}  // namespace kiln::testing
