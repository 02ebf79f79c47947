// Memory of a hip device: HAL heaps mapped onto HSA memory pools.
//
//   heap "device"              DEVICE_LOCAL                          GPU coarse-grained pool
//   heap "device-host-visible" DEVICE_LOCAL|HOST_VISIBLE|COHERENT    GPU fine-grained pool (if any)
//   heap "host"                HOST_VISIBLE|HOST_COHERENT|CACHED     system fine-grained pool
//
// A request goes to the first heap whose memory type and usages include it (hal::SelectHeap),
// never to a heap without them. Host-visible allocations are made accessible to the GPU and the
// CPU agents; device-only ones to the GPU. Storage frees itself, so buffers may outlive the device.
#pragma once

#include <memory>
#include <vector>

#include "drivers/hip/hsa_runtime.h"
#include "hal/allocator.h"

namespace kiln::hip {

// Storage of one pool allocation. `Free` frees it early (queue_dealloca); afterwards the
// storage reads as uncommitted.
class PoolStorage final : public hal::BufferStorage {
 public:
  // RESOURCE_EXHAUSTED naming `pool_name` and the size when the pool is out of memory.
  static StatusOr<Ref<PoolStorage>> Allocate(std::shared_ptr<HsaRuntime> runtime, hsa_amd_memory_pool_t pool,
                                             std::string_view pool_name, size_t size, bool host_visible,
                                             hsa_agent_t gpu, std::shared_ptr<hal::AllocationCounters> counters);
  ~PoolStorage() override { Free(); }
  void Free();
  uint8_t* device_address() override { return address_.load(std::memory_order_acquire); }
  StatusOr<uint8_t*> host_address() override;

 private:
  PoolStorage(std::shared_ptr<HsaRuntime> runtime, uint8_t* address, size_t size, bool host_visible,
              std::shared_ptr<hal::AllocationCounters> counters)
      : BufferStorage(size), runtime_(std::move(runtime)), address_(address), host_visible_(host_visible),
        counters_(std::move(counters)) {}
  std::shared_ptr<HsaRuntime> runtime_;
  std::atomic<uint8_t*> address_;
  bool host_visible_;
  std::shared_ptr<hal::AllocationCounters> counters_;
};

class HipAllocator final : public hal::Allocator {
 public:
  HipAllocator(std::shared_ptr<HsaRuntime> runtime, const GpuAgent& gpu);
  std::span<const hal::HeapInfo> heaps() const override { return heaps_; }
  StatusOr<Ref<hal::Buffer>> Allocate(const hal::BufferParams& params, size_t size) override;
  hal::AllocatorStatistics statistics() const override { return counters_->Snapshot(); }
  // Storage for `size` bytes of the heap `params` selects (queue_alloca uses it too).
  StatusOr<std::pair<Ref<PoolStorage>, const hal::HeapInfo*>> AllocateStorage(const hal::BufferParams& params,
                                                                              size_t size);

 private:
  std::shared_ptr<HsaRuntime> runtime_;
  hsa_agent_t gpu_;
  std::vector<hal::HeapInfo> heaps_;
  std::vector<hsa_amd_memory_pool_t> pools_;  // parallel to heaps_
  std::shared_ptr<hal::AllocationCounters> counters_ = std::make_shared<hal::AllocationCounters>();
};

}  // namespace kiln::hip
