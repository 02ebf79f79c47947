// The memory-counter model (CDNA3 ISA, "Data Dependency Resolution" and S_WAITCNT):
//
// - Every vector memory instruction (global loads and stores) increments VM_CNT; every scalar
//   memory load and every LDS operation (ds_*) increments LGKM_CNT. The executor keeps each
//   counter as a queue of the operations outstanding in issue order.
// - A load reads memory when it issues, but its destination registers hold kPoison until the
//   operation retires; then the loaded values land (only in the lanes it loaded).
// - s_waitcnt vmcnt(N) retires the oldest vector operations until at most N are outstanding
//   (vector memory returns in order). lgkmcnt(M) with M > 0 retires the newest scalar loads
//   first, then the oldest LDS operations: the ISA lets scalar loads return in any order, so
//   only lgkmcnt(0) orders them, and the model takes the order that breaks a kernel relying on
//   more; LDS operations return in order.
// - More than the counter's maximum outstanding (vmcnt 63, lgkmcnt 15) retires one, as a
//   partial wait would, since the hardware stalls the issue until one returns. s_endpgm
//   retires everything.
// - Stores write memory (LDS writes the group segment) when they issue; they count but write
//   no register.
#pragma once

#include <cstdint>
#include <vector>

#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {

inline constexpr uint32_t kMaxVmCount = 63;
inline constexpr uint32_t kMaxLgkmCount = 15;

// A data buffer for a PendingOp, recycled from the wave's earlier ones.
std::vector<uint32_t> TakeBuffer(Wave& w, size_t size);

// A vector load into VGPRs [reg, reg + dwords) of `lanes`; `data` is dwords x 64 values,
// register-major. Poisons the destination lanes until the load retires.
void IssueVectorLoad(Wave& w, uint16_t reg, uint8_t dwords, uint64_t lanes, std::vector<uint32_t> data);
// A vector store: counts in VM_CNT.
void IssueVectorStore(Wave& w);
// An LDS read into VGPRs (as IssueVectorLoad, on LGKM_CNT) and an LDS write (counts only).
void IssueLdsLoad(Wave& w, uint16_t reg, uint8_t dwords, uint64_t lanes, std::vector<uint32_t> data);
void IssueLdsStore(Wave& w);
// A scalar load into SGPR slots [slot, slot + dwords).
void IssueScalarLoad(Wave& w, uint16_t slot, uint8_t dwords, std::vector<uint32_t> data);

// Retire operations until at most `keep` are outstanding on the counter (see above for which).
void RetireVm(Wave& w, uint32_t keep);
void RetireLgkm(Wave& w, uint32_t keep);
void RetireAll(Wave& w);

}  // namespace kiln::hsa_sim::isa
