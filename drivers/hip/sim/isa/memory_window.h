// The executor's view of memory for one instruction: addresses are host addresses (hip-sim's
// pools hand out host memory), valid when they lie inside one pool allocation of the
// simulator's allocation table (memory.h) or, for scalar reads, inside one of the workgroup's
// extra readable ranges (the dispatch packet, the queue). Anything else is a memory fault.
//
// A window holds the table's shared lock for its lifetime, so an allocation it found cannot
// be freed while the instruction reads or writes it, and remembers the last allocation found
// so that the 64 lanes of an access usually cost one comparison each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <shared_mutex>
#include <string>

#include "drivers/hip/sim/isa/wave.h"
#include "drivers/hip/sim/memory.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {

class MemoryWindow {
 public:
  explicit MemoryWindow(const WorkgroupContext& context) : context_(context), lock_(context.memory->LockShared()) {}

  // The host bytes of [address, address + size), or null when they are not all inside one
  // allocation (or, with `extras`, one readable range).
  uint8_t* Find(uint64_t address, size_t size, bool extras = false) {
    if (address - base_ < limit_ && size <= limit_ - (address - base_)) return reinterpret_cast<uint8_t*>(address);
    const Allocation* a = context_.memory->FindLocked(address, size);
    if (a) {
      base_ = a->base;
      limit_ = a->size;
      return reinterpret_cast<uint8_t*>(address);
    }
    if (extras) {
      for (const ReadableRange& r : context_.readable) {
        if (address - r.base < r.size && size <= r.size - (address - r.base))
          return reinterpret_cast<uint8_t*>(address);
      }
    }
    return nullptr;
  }

  // Where a failed access lies, for the fault message.
  std::string Describe(uint64_t address, size_t size) const { return context_.memory->DescribeLocked(address, size); }

 private:
  const WorkgroupContext& context_;
  std::shared_lock<std::shared_mutex> lock_;
  uint64_t base_ = 0, limit_ = 0;  // the last allocation found ([base_, base_ + limit_))
};

// The 64 lane addresses of a global instruction (global_memory.cc, global_atomics.cc):
// SADDR + the 32-bit VADDR + OFFSET, or the 64-bit VADDR + OFFSET when `saddr` is null.
inline void GlobalAddresses(const Wave& w, const Instruction& i, const Operand& vaddr, const Operand* saddr,
                            uint64_t out[kLanes]) {
  int64_t offset = FlatOffset(i);
  if (saddr) {
    uint64_t base = Scalar64(w, *saddr) + static_cast<uint64_t>(offset);
    const uint32_t* v = w.v(vaddr.index);
    for (uint32_t l = 0; l < kLanes; ++l) out[l] = base + v[l];
  } else {
    Lanes64(w, vaddr, out);
    for (uint32_t l = 0; l < kLanes; ++l) out[l] += static_cast<uint64_t>(offset);
  }
}

// "load of 4 bytes by lane 3: <where the address lies>", for a memory fault.
inline std::string AccessFaultText(MemoryWindow& memory, const char* what, uint32_t lane, uint64_t address,
                                   size_t size) {
  return StrCat(what, " of ", size, " bytes by lane ", lane, ": ", memory.Describe(address, size));
}

}  // namespace kiln::hsa_sim::isa
