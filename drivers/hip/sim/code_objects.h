// Code object readers, executables and kernel symbols.
//
// Two kinds of code object load:
// - a host twin (an x86-64 ELF shared object, hal/abi/gpu_kernel_abi.h) that kiln's compiler
//   emits beside each HSACO, lowered from the same IR; the hip driver hands hip-sim the twin.
//   Twins load in every execution mode.
// - an AMDGPU code object (HSACO), only in the code-object execution mode
//   (KILN_HSA_SIM_MODE=code-object, config.h): it is read as the HSA loader reads it
//   (isa/code_object.h), its kernels' machine code is decoded once (isa/program.h), and their
//   dispatches run on the instruction-level executor (isa/executor.h). In the default twin
//   mode an HSACO is refused with a message that says so. In `both` mode it is read and
//   decoded the same way, then refused so that the driver loads the twin, whose kernels take
//   the decoded programs of the same names (KernelSymbol::paired_program).
//
// One record, KernelSymbol, is both the executable symbol (its handle) and the kernel object
// of dispatch packets (the same number, reported once the executable is frozen). It keeps the
// twin's shared object loaded (or the decoded program alive), so a dispatch in flight
// survives hsa_executable_destroy.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "base/shared_object.h"
#include "drivers/hip/sim/sim_api.h"
#include "hal/abi/gpu_kernel_abi.h"

namespace kiln::hsa_sim {
namespace isa {
struct Program;
}

struct Agent;
class Session;

struct CodeObjectReader {
  const void* bytes;  // owned by the application until the reader is destroyed
  size_t size;
};

// A loaded code object; its address is the hsa_loaded_code_object_t.
struct LoadedCodeObject {
  std::unique_ptr<SharedObject> library;  // twins; null for an HSACO
};

struct KernelSymbol {
  std::shared_ptr<LoadedCodeObject> code_object;  // keeps `entry` mapped
  const Agent* agent = nullptr;
  std::string name;                             // "name.kd"
  kiln_gpu_twin_entry_v1_t entry = nullptr;     // twins
  std::shared_ptr<const isa::Program> program;  // HSACO kernels (code-object mode)
  // Twins in KILN_HSA_SIM_MODE=both: the HSACO's kernel of the same name, run beside the twin on
  // copies of its buffers (paired_dispatch.h); null when the HSACO had none.
  std::shared_ptr<const isa::Program> paired_program;
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_alignment = 0;
  uint32_t group_segment_size = 0;
  uint32_t private_segment_size = 0;
  std::atomic<bool> frozen{false};  // set when its executable is frozen

  uint64_t handle() const { return reinterpret_cast<uint64_t>(this); }
};

// Any profile and default rounding mode take twins (ROCm's HIP runtime asks for a FULL-profile
// executable on BASE-profile GPUs), so an executable keeps neither.
class Executable {
 public:
  // hsa_executable_load_agent_code_object. Sets the last error on failure.
  hsa_status_t Load(Session& session, const Agent& agent, const CodeObjectReader& reader,
                    hsa_loaded_code_object_t* loaded);
  hsa_status_t Freeze();
  // The kernel `name` loaded for `agent`, or null.
  std::shared_ptr<KernelSymbol> FindSymbol(const std::string& name, const Agent* agent) const;
  // Unregisters the executable's kernels (hsa_executable_destroy). Twins stay loaded while a
  // dispatch still holds one of their kernels.
  void Unregister(Session& session);

 private:
  mutable std::mutex mu_;
  bool frozen_ = false;
  hsa_status_t LoadTwin(Session& session, const Agent& agent, std::span<const uint8_t> image,
                        hsa_loaded_code_object_t* loaded);
  // `for_twins` (both mode): keep the decoded kernels for the twins and refuse the HSACO.
  hsa_status_t LoadHsaco(Session& session, const Agent& agent, std::span<const uint8_t> image,
                         hsa_loaded_code_object_t* loaded, bool for_twins);
  // Registers `symbols` (checked against this executable's) and keeps `code_object`.
  hsa_status_t AddSymbols(Session& session, const Agent& agent, std::shared_ptr<LoadedCodeObject> code_object,
                          std::vector<std::shared_ptr<KernelSymbol>> symbols, hsa_loaded_code_object_t* loaded);

  std::vector<std::shared_ptr<LoadedCodeObject>> code_objects_;
  std::vector<std::shared_ptr<KernelSymbol>> symbols_;
};

}  // namespace kiln::hsa_sim
