// The decoder of a simulator built without LLVM's AMDGPU target (drivers/hip/sim/CMakeLists.txt):
// code objects cannot be decoded, and KILN_HSA_SIM_MODE=code-object is refused at hsa_init.
#include "drivers/hip/sim/isa/program.h"

namespace kiln::hsa_sim::isa {

bool DecoderAvailable(std::string* why) {
  *why = "this build of hip-sim has no code-object executor (" KILN_HSA_SIM_EXECUTOR_REASON " when it was configured)";
  return false;
}

StatusOr<std::unique_ptr<Program>> DecodeProgram(KernelCode kernel, const std::string& processor) {
  std::string why;
  DecoderAvailable(&why);
  return UnimplementedError(why);
}

}  // namespace kiln::hsa_sim::isa
