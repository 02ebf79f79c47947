#include "drivers/hip/hip_allocator.h"

namespace kiln::hip {

StatusOr<Ref<PoolStorage>> PoolStorage::Allocate(std::shared_ptr<HsaRuntime> runtime, hsa_amd_memory_pool_t pool,
                                                 std::string_view pool_name, size_t size, bool host_visible,
                                                 hsa_agent_t gpu, std::shared_ptr<hal::AllocationCounters> counters) {
  const HsaLibrary& hsa = runtime->hsa();
  void* address = nullptr;
  // HSA refuses empty allocations; a zero-byte buffer still needs a distinct address.
  hsa_status_t status = hsa.hsa_amd_memory_pool_allocate(pool, size == 0 ? 1 : size, 0, &address);
  if (status != HSA_STATUS_SUCCESS) {
    return hsa.Check(status, StrCat("allocating ", size, " bytes from the '", pool_name, "' pool"));
  }
  hsa_agent_t agents[2] = {gpu, runtime->cpu_agent()};
  status = hsa.hsa_amd_agents_allow_access(host_visible ? 2 : 1, agents, nullptr, address);
  if (status != HSA_STATUS_SUCCESS) {
    hsa.hsa_amd_memory_pool_free(address);
    return hsa.Check(status, StrCat("granting access to ", size, " bytes of the '", pool_name, "' pool"));
  }
  counters->Add(size);
  return Ref<PoolStorage>(
      new PoolStorage(std::move(runtime), static_cast<uint8_t*>(address), size, host_visible, std::move(counters)));
}

void PoolStorage::Free() {
  if (uint8_t* address = address_.exchange(nullptr, std::memory_order_acq_rel)) {
    runtime_->hsa().hsa_amd_memory_pool_free(address);
    counters_->Remove(size());
  }
}

StatusOr<uint8_t*> PoolStorage::host_address() {
  if (!host_visible_) return FailedPreconditionError("device-local GPU memory is not host visible");
  uint8_t* address = device_address();
  if (!address) return FailedPreconditionError("the buffer's transient storage has been deallocated");
  return address;
}

HipAllocator::HipAllocator(std::shared_ptr<HsaRuntime> runtime, const GpuAgent& gpu)
    : runtime_(std::move(runtime)), gpu_(gpu.agent) {
  using hal::BufferUsage;
  using hal::MemoryType;
  constexpr size_t kMaxAllocation = size_t{1} << 46;
  heaps_.push_back({"device", MemoryType::kDeviceLocal, BufferUsage::kDefault, kMaxAllocation, 256});
  pools_.push_back(gpu.coarse_pool);
  if (gpu.has_fine_pool) {
    heaps_.push_back({"device-host-visible",
                      MemoryType::kDeviceLocal | MemoryType::kHostVisible | MemoryType::kHostCoherent,
                      BufferUsage::kDefault | BufferUsage::kMapping, kMaxAllocation, 256});
    pools_.push_back(gpu.fine_pool);
  }
  heaps_.push_back({"host", MemoryType::kHostVisible | MemoryType::kHostCoherent | MemoryType::kHostCached,
                    BufferUsage::kDefault | BufferUsage::kMapping, kMaxAllocation, 256});
  pools_.push_back(runtime_->system_pool());
}

StatusOr<std::pair<Ref<PoolStorage>, const hal::HeapInfo*>> HipAllocator::AllocateStorage(
    const hal::BufferParams& params, size_t size) {
  KILN_ASSIGN_OR_RETURN(const hal::HeapInfo* heap, hal::SelectHeap(heaps_, params, size));
  size_t index = static_cast<size_t>(heap - heaps_.data());
  bool host_visible = hal::AllSet(heap->memory_type, hal::MemoryType::kHostVisible);
  KILN_ASSIGN_OR_RETURN(Ref<PoolStorage> storage,
                        PoolStorage::Allocate(runtime_, pools_[index], heap->name, size, host_visible, gpu_, counters_));
  return std::make_pair(std::move(storage), heap);
}

StatusOr<Ref<hal::Buffer>> HipAllocator::Allocate(const hal::BufferParams& params, size_t size) {
  KILN_ASSIGN_OR_RETURN(auto allocation, AllocateStorage(params, size));
  return hal::Buffer::Create(std::move(allocation.first), allocation.second->memory_type, params.usage, params.access);
}

}  // namespace kiln::hip
