// Runs one workgroup of a kernel dispatch on the decoded machine code (program.h).
//
// The initial wave state is what LLVM's AMDGPUUsage documents for code object v5 on gfx942
// ("Initial Kernel Execution State"): the user SGPRs the descriptor enables, in the
// document's order (private segment buffer, dispatch ptr, queue ptr, kernarg segment ptr,
// dispatch id, flat scratch init, private segment size, preloaded kernargs), then from
// USER_SGPR_COUNT on the system SGPRs (workgroup id x, y, z, workgroup info, private segment
// wave offset) as compute_pgm_rsrc2 enables them; the work-item ids packed in v0 (x in bits
// 9:0, y in 19:10, z in 29:20); EXEC holding the wave's work-items. Every other register is
// kPoison (wave.h).
//
// The waves of a workgroup run on the calling thread, interleaved: each runs until it waits
// (s_waitcnt, s_sleep), reaches s_barrier or ends, then the next one runs (round robin). With
// `interleave` (KILN_HSA_SIM_INTERLEAVE_SEED) a wave is also switched out after a random number
// of instructions and the next wave is picked at random (interleave.h), deterministically for a
// given seed, dispatch and workgroup. A wave in s_barrier runs again once every wave of the
// workgroup that has not ended is in it (CDNA3 ISA, S_BARRIER: waves that ended do not count).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "drivers/hip/sim/isa/global_races.h"
#include "drivers/hip/sim/isa/program.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {

struct WorkgroupLaunch {
  const Program* program = nullptr;
  const AllocationTable* memory = nullptr;
  const void* dispatch_packet = nullptr;  // the hsa_kernel_dispatch_packet_t (dispatch ptr)
  const void* queue = nullptr;            // the hsa_queue_t (queue ptr)
  size_t queue_size = 0;                  // bytes of *queue
  uint64_t dispatch_id = 0;
  const void* kernarg = nullptr;
  void* group_segment = nullptr;  // LDS, group_segment_size bytes
  uint32_t group_segment_size = 0;
  uint32_t workgroup_id[3] = {};
  uint32_t workgroup_size[3] = {1, 1, 1};
  uint32_t grid_size[3] = {1, 1, 1};
  bool interleave = false;  // seeded random switch points (see above)
  uint64_t interleave_seed = 0;
  // The race detector (lds_races.h, global_races.h): on when `global_writes` is set, the
  // dispatch's map shared by all its workgroups.
  GlobalWriteMap* global_writes = nullptr;
  // KILN_HSA_SIM_MODE=both: where float atomics note their adds (float_atomics.h); may be null.
  FloatAtomicLog* float_atomics = nullptr;
  // Where the workgroup adds what it executed (counts.h); may be null.
  ExecutionCounts* counts = nullptr;
};

// Runs the workgroup to its end; on failure returns the first failure (kind kError or
// kMemoryFault, with a message naming the kernel, the mnemonic and the offset).
Failure RunWorkgroup(const WorkgroupLaunch& launch);

// Checks the kernarg segment the driver wrote against the kernel's argument metadata: every
// argument must lie in an allocation, every global_buffer argument must be null or point into
// an allocation, and hidden arguments (which a language runtime fills, not kiln's driver) are
// refused. The error names the argument.
Status CheckKernargs(const Program& program, const AllocationTable& memory, const void* kernarg);

}  // namespace kiln::hsa_sim::isa
