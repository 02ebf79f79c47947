#include "hal/allocator.h"

namespace kiln::hal {

void AllocationCounters::Add(size_t bytes) {
  size_t now = bytes_allocated.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  size_t peak = peak_bytes_allocated.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes_allocated.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  allocation_count.fetch_add(1, std::memory_order_relaxed);
}

AllocatorStatistics AllocationCounters::Snapshot() const {
  return {bytes_allocated.load(), peak_bytes_allocated.load(), allocation_count.load()};
}

StatusOr<const HeapInfo*> SelectHeap(std::span<const HeapInfo> heaps, const BufferParams& params, size_t size) {
  if (AllSet(params.usage, BufferUsage::kMapping) && !AllSet(params.memory_type, MemoryType::kHostVisible)) {
    return InvalidArgumentError("usage MAPPING needs a HOST_VISIBLE memory type, got ",
                                MemoryTypeString(params.memory_type));
  }
  if (params.access == MemoryAccess::kNone) return InvalidArgumentError("a buffer must allow some access");
  std::string tried;
  for (const HeapInfo& heap : heaps) {
    if (!AllSet(heap.memory_type, params.memory_type) || !AllSet(heap.allowed_usage, params.usage)) {
      tried += StrCat(tried.empty() ? "" : ", ", heap.name, " (", MemoryTypeString(heap.memory_type), "; ",
                      BufferUsageString(heap.allowed_usage), ")");
      continue;
    }
    if (size > heap.max_allocation_size) {
      return ResourceExhaustedError("allocation of ", size, " bytes exceeds the ", heap.name, " heap's limit of ",
                                    heap.max_allocation_size, " bytes");
    }
    return &heap;
  }
  return InvalidArgumentError("no heap offers memory type ", MemoryTypeString(params.memory_type), " with usage ",
                              BufferUsageString(params.usage), "; heaps: ", tried);
}

}  // namespace kiln::hal
