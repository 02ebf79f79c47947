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

struct HostMemoryStatistics {
  std::atomic<size_t> bytes_allocated{0};
  std::atomic<size_t> peak_bytes_allocated{0};
  std::atomic<size_t> allocation_count{0};
  void Add(size_t bytes);
  void Remove(size_t bytes) { bytes_allocated.fetch_sub(bytes, std::memory_order_relaxed); }
};

class CpuAllocator final : public hal::Allocator {
 public:
  CpuAllocator();
  std::span<const hal::HeapInfo> heaps() const override { return heaps_; }
  StatusOr<Ref<hal::Buffer>> Allocate(const hal::BufferParams& params, size_t size) override;
  hal::AllocatorStatistics statistics() const override;

 private:
  std::vector<hal::HeapInfo> heaps_;
  std::shared_ptr<HostMemoryStatistics> stats_;
};

// Keeps freed transient blocks for reuse so a per-invocation slab does not fault its pages
// in again on every call. Blocks are bucketed by size rounded up to a power of two.
class TransientPool : public std::enable_shared_from_this<TransientPool> {
 public:
  explicit TransientPool(size_t max_retained_bytes) : max_retained_bytes_(max_retained_bytes) {}
  ~TransientPool();
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
  TransientStorage(std::shared_ptr<TransientPool> pool, size_t size) : BufferStorage(size), pool_(std::move(pool)) {}
  ~TransientStorage() override { Decommit(); }
  // Fails with RESOURCE_EXHAUSTED when no memory is left.
  Status Commit();
  void Decommit();
  uint8_t* device_address() override { return block_.load(std::memory_order_acquire); }
  StatusOr<uint8_t*> host_address() override;

 private:
  std::shared_ptr<TransientPool> pool_;
  std::atomic<uint8_t*> block_{nullptr};
  size_t capacity_ = 0;
};

}  // namespace kiln::cpu
