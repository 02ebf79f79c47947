// Pool allocations: hsa_amd_memory_pool_allocate, hsa_amd_memory_pool_free,
// hsa_amd_agents_allow_access, and the allocation table.
//
// Every pool hands out host memory from aligned_alloc (so ASan sees overruns past the granule-
// rounded end and LeakSanitizer sees the simulator's own leaks). Device pools only account:
// a 16 GiB device costs nothing until its memory is touched. Contents are not cleared, as on
// a GPU.
#include <algorithm>
#include <cstdlib>

#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {

// Frees what is left without touching the pools' budgets, which may be gone already.
AllocationTable::~AllocationTable() {
  for (auto& [base, a] : allocations_) std::free(reinterpret_cast<void*>(base));
}

hsa_status_t AllocationTable::Allocate(Pool* pool, size_t size, void** ptr) {
  if (!pool->alloc_allowed) {
    return Fail(HSA_STATUS_ERROR_INVALID_ALLOCATION, "the ", pool->description,
                " does not allow runtime allocation (RUNTIME_ALLOC_ALLOWED is false)");
  }
  if (size > pool->size) {
    return Fail(HSA_STATUS_ERROR_INVALID_ALLOCATION, size, " bytes exceed ALLOC_MAX_SIZE (", pool->size, ") of the ",
                pool->description);
  }
  size_t rounded = (size + kAllocGranule - 1) / kAllocGranule * kAllocGranule;
  std::unique_lock lock(mu_);
  MemoryBudget& budget = *pool->budget;
  if (rounded > budget.capacity - budget.used) {
    return Fail(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "the ", pool->description, " cannot allocate ", size, " bytes (",
                rounded, " after rounding to the ", kAllocGranule, "-byte granule): ", budget.used, " of its ",
                budget.capacity, " bytes are in use");
  }
  void* memory = std::aligned_alloc(kAllocGranule, rounded);
  if (memory == nullptr) {
    return Fail(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "the host could not provide ", rounded, " bytes for the ",
                pool->description);
  }
  budget.used += rounded;
  Allocation& a = allocations_[reinterpret_cast<uintptr_t>(memory)];
  a.base = reinterpret_cast<uintptr_t>(memory);
  a.size = rounded;
  a.pool = pool;
  *ptr = memory;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t AllocationTable::Free(void* ptr) {
  std::unique_lock lock(mu_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations_.end()) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, Hex(ptr), " is not the base of a live pool allocation (",
                DescribeLocked(reinterpret_cast<uintptr_t>(ptr), 1), ")");
  }
  it->second.pool->budget->used -= it->second.size;
  std::free(ptr);
  allocations_.erase(it);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t AllocationTable::AllowAccess(const void* ptr, const std::vector<const Agent*>& agents) {
  std::unique_lock lock(mu_);
  auto it = allocations_.upper_bound(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations_.begin() ||
      reinterpret_cast<uintptr_t>(ptr) >= std::prev(it)->second.base + std::prev(it)->second.size) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, Hex(ptr), " is not in a live pool allocation");
  }
  Allocation& a = std::prev(it)->second;
  for (const Agent* agent : agents) {
    if (std::find(a.allowed_agents.begin(), a.allowed_agents.end(), agent) == a.allowed_agents.end()) {
      a.allowed_agents.push_back(agent);
    }
  }
  return HSA_STATUS_SUCCESS;
}

const Allocation* AllocationTable::FindLocked(uintptr_t address, size_t size) const {
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return nullptr;
  const Allocation& a = std::prev(it)->second;
  if (address - a.base >= a.size || size > a.size - (address - a.base)) return nullptr;
  return &a;
}

std::string AllocationTable::DescribeLocked(uintptr_t address, size_t size) const {
  auto it = allocations_.upper_bound(address);
  if (it != allocations_.begin()) {
    const Allocation& a = std::prev(it)->second;
    uint64_t offset = address - a.base;
    if (offset < a.size && size <= a.size - offset) {
      return StrCat(Hex(address), " is at offset ", offset, " of the ", a.size, "-byte allocation ", Hex(a.base),
                    " from the ", a.pool->description);
    }
    if (offset < a.size) {
      return StrCat("[", Hex(address), ", +", size, ") starts at offset ", offset, " of the ", a.size,
                    "-byte allocation ", Hex(a.base), " from the ", a.pool->description, " and runs ",
                    size - (a.size - offset), " bytes past its end");
    }
    if (offset - a.size < 65536) {
      return StrCat(Hex(address), " is ", offset - a.size, " bytes past the end of the ", a.size, "-byte allocation ",
                    Hex(a.base), " from the ", a.pool->description);
    }
  }
  return StrCat(Hex(address), " is not in any pool allocation");
}

void AllocationTable::FreeAll() {
  std::unique_lock lock(mu_);
  for (auto& [base, a] : allocations_) {
    a.pool->budget->used -= a.size;
    std::free(reinterpret_cast<void*>(base));
  }
  allocations_.clear();
}

}  // namespace kiln::hsa_sim

using namespace kiln::hsa_sim;

extern "C" {

hsa_status_t HSA_API hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size, uint32_t flags,
                                                  void** ptr) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Pool* pool = session->FindPool(memory_pool);
  if (!pool) return InvalidMemoryPool(memory_pool);
  if (ptr == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "ptr (the output) is null");
  if (size == 0) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "size is 0");
  if (flags != 0) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "flags is ", flags, "; it is reserved and must be 0");
  return session->memory.Allocate(pool, size, ptr);
}

hsa_status_t HSA_API hsa_amd_memory_pool_free(void* ptr) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return session->memory.Free(ptr);
}

hsa_status_t HSA_API hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t* agents, const uint32_t* flags,
                                                 const void* ptr) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (num_agents == 0 || agents == nullptr)
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "num_agents is 0 or agents is null");
  if (flags != nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "flags is reserved and must be null");
  std::vector<const Agent*> list;
  for (uint32_t i = 0; i < num_agents; ++i) {
    const Agent* agent = session->FindAgent(agents[i]);
    if (!agent) {
      return Fail(HSA_STATUS_ERROR_INVALID_AGENT, "agents[", i, "] (", Hex(agents[i].handle),
                  ") is not an agent of this runtime");
    }
    list.push_back(agent);
  }
  return session->memory.AllowAccess(ptr, list);
}

}  // extern "C"
