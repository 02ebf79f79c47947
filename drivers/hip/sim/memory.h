// Memory pools' allocations: host memory handed out by hsa_amd_memory_pool_allocate, the
// budget each pool draws from, and the table of live allocations (address ranges) that
// async copies and kernel dispatch packets validate their pointers against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>
#include <string>
#include <vector>

#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim {

struct Agent;
struct Pool;

// Bytes a set of pools may hand out together: a GPU's device memory (shared by its coarse-
// and fine-grained pools), or the host's physical memory (shared by the system pools).
// Guarded by the AllocationTable's mutex.
struct MemoryBudget {
  uint64_t capacity = 0;
  uint64_t used = 0;
};

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;  // rounded up to the pool's granule
  Pool* pool = nullptr;
  std::vector<const Agent*> allowed_agents;  // from hsa_amd_agents_allow_access
};

class AllocationTable {
 public:
  AllocationTable() = default;
  AllocationTable(const AllocationTable&) = delete;
  AllocationTable& operator=(const AllocationTable&) = delete;
  ~AllocationTable();

  // hsa_amd_memory_pool_allocate: granule-rounded, aligned to the pool's alignment, counted
  // against the pool's budget. Sets the last error on failure.
  hsa_status_t Allocate(Pool* pool, size_t size, void** ptr);
  // hsa_amd_memory_pool_free: `ptr` must be an allocation's base.
  hsa_status_t Free(void* ptr);
  // hsa_amd_agents_allow_access: `ptr` must lie in an allocation.
  hsa_status_t AllowAccess(const void* ptr, const std::vector<const Agent*>& agents);

  // A shared lock on the table: while held, no allocation is freed, so a range found with
  // FindLocked may be read and written.
  std::shared_lock<std::shared_mutex> LockShared() const { return std::shared_lock(mu_); }
  // The allocation holding all of [address, address + size), or null. Needs LockShared().
  const Allocation* FindLocked(uintptr_t address, size_t size) const;
  // Describes where `address` is relative to the allocations, for error messages ("not in any
  // allocation", "12 bytes past the end of a 4096-byte allocation of pool X"). Needs LockShared().
  std::string DescribeLocked(uintptr_t address, size_t size) const;

  // Frees every allocation (hsa_shut_down).
  void FreeAll();

 private:
  mutable std::shared_mutex mu_;
  std::map<uintptr_t, Allocation> allocations_;  // by base
};

}  // namespace kiln::hsa_sim
