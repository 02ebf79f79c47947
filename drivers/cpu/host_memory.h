// Host memory for the CPU drivers: the allocator's heaps and the transient pool behind
// queue_alloca. Storage frees itself, so buffers may outlive the device that made them.
#pragma once

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

#include "hal/allocator.h"
#include "hal/buffer.h"

namespace kiln::cpu {

// 64-byte aligned host memory; large blocks are page aligned and advised for huge pages.
uint8_t* AllocateHostBlock(size_t size);
void FreeHostBlock(uint8_t* block, size_t size);

class HostBlockPool;

// Buffers of kPooledAllocationBytes or more come from a HostBlockPool, so that a program
// that allocates its results on every call does not fault their pages in again each time.
class CpuAllocator final : public hal::Allocator {
 public:
  static constexpr size_t kPooledAllocationBytes = 64 << 10;
  static constexpr size_t kMaxRetainedBytes = size_t{256} << 20;
  CpuAllocator();
  std::span<const hal::HeapInfo> heaps() const override { return heaps_; }
  StatusOr<Ref<hal::Buffer>> Allocate(const hal::BufferParams& params, size_t size) override;
  // Kernels run on the host: any host memory works in place, read-only.
  StatusOr<Ref<hal::Buffer>> ImportHostMemory(const hal::BufferParams& params, std::span<const uint8_t> memory,
                                              Ref<RefCounted> owner, size_t min_alignment) override;
  hal::AllocatorStatistics statistics() const override;

 private:
  std::vector<hal::HeapInfo> heaps_;
  std::shared_ptr<hal::AllocationCounters> stats_;
  std::shared_ptr<HostBlockPool> pool_;
};

// Keeps freed blocks for reuse (up to a limit of retained bytes), so that a buffer
// allocated again with a similar size does not fault its pages in again. Capacities are
// rounded up to an eighth of their power of two (at most 12.5% more than asked, 4 KiB at
// least), which makes blocks of nearby sizes interchangeable.
class HostBlockPool {
 public:
  explicit HostBlockPool(size_t max_retained_bytes) : max_retained_bytes_(max_retained_bytes) {}
  ~HostBlockPool();
  static size_t CapacityFor(size_t size);
  // Returns a block of at least `size` bytes (its capacity in *capacity).
  uint8_t* Acquire(size_t size, size_t* capacity);
  void Release(uint8_t* block, size_t capacity);
  size_t reserved_bytes() const { return reserved_bytes_.load(std::memory_order_relaxed); }

 private:
  std::mutex mutex_;
  std::multimap<size_t, uint8_t*> free_blocks_;  // capacity -> block
  size_t retained_bytes_ = 0;
  size_t max_retained_bytes_;
  std::atomic<size_t> reserved_bytes_{0};  // handed out and not yet released
};

// Storage of a queue_alloca buffer: uncommitted until the alloca's waits are met, then
// backed by a pool block until the dealloca's waits are met.
class TransientStorage final : public hal::BufferStorage {
 public:
  TransientStorage(std::shared_ptr<HostBlockPool> pool, size_t size) : BufferStorage(size), pool_(std::move(pool)) {}
  ~TransientStorage() override { Decommit(); }
  // Fails with RESOURCE_EXHAUSTED when no memory is left.
  Status Commit();
  void Decommit();
  uint8_t* device_address() override { return block_.load(std::memory_order_acquire); }
  StatusOr<uint8_t*> host_address() override;

 private:
  std::shared_ptr<HostBlockPool> pool_;
  std::atomic<uint8_t*> block_{nullptr};
  size_t capacity_ = 0;
};

}  // namespace kiln::cpu
