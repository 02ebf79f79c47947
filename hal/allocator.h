// Allocators hand out buffers from a device's heaps.
#pragma once

#include <atomic>
#include <cstddef>
#include <span>
#include <string>

#include "base/ref.h"
#include "base/status.h"
#include "hal/buffer.h"

namespace kiln::hal {

struct HeapInfo {
  std::string name;
  MemoryType memory_type;
  BufferUsage allowed_usage;
  size_t max_allocation_size;
  size_t min_alignment;
};

struct BufferParams {
  MemoryType memory_type = MemoryType::kDeviceLocal;
  BufferUsage usage = BufferUsage::kDefault;
  MemoryAccess access = MemoryAccess::kAll;
};

struct AllocatorStatistics {
  size_t bytes_allocated = 0;  // currently live
  size_t peak_bytes_allocated = 0;
  size_t allocation_count = 0; // total made
};

// Thread-safe counters behind AllocatorStatistics, for drivers. Shared with storage that
// outlives the allocator, which removes its bytes when freed.
struct AllocationCounters {
  std::atomic<size_t> bytes_allocated{0};
  std::atomic<size_t> peak_bytes_allocated{0};
  std::atomic<size_t> allocation_count{0};
  void Add(size_t bytes);
  void Remove(size_t bytes) { bytes_allocated.fetch_sub(bytes, std::memory_order_relaxed); }
  AllocatorStatistics Snapshot() const;
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual std::span<const HeapInfo> heaps() const = 0;
  // Allocates `size` bytes (0 is allowed) from the first heap whose memory type includes
  // params.memory_type and whose usages include params.usage. Contents are unspecified.
  virtual StatusOr<Ref<Buffer>> Allocate(const BufferParams& params, size_t size) = 0;
  // A buffer over host memory the caller owns (a memory-mapped parameter file), without a
  // copy, where the device's kernels can read host memory at that address: read-only
  // (params.access is narrowed to kRead), alive while `owner` is, which the buffer keeps.
  // UNIMPLEMENTED where the device cannot (its memory is not the host's), or
  // INVALID_ARGUMENT when `memory` is not aligned to `min_alignment` bytes: callers then copy.
  virtual StatusOr<Ref<Buffer>> ImportHostMemory(const BufferParams& params, std::span<const uint8_t> memory,
                                                 Ref<RefCounted> owner, size_t min_alignment) {
    return UnimplementedError("this device cannot use host memory in place; copy it into a buffer");
  }
  virtual AllocatorStatistics statistics() const = 0;
};

// Picks the heap for `params` or explains why none fits (shared by drivers).
StatusOr<const HeapInfo*> SelectHeap(std::span<const HeapInfo> heaps, const BufferParams& params, size_t size);

}  // namespace kiln::hal
