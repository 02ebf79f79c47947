#include "drivers/cpu/host_memory.h"

#include <sys/mman.h>

#include <bit>
#include <cstdlib>

#include "base/trace.h"

namespace kiln::cpu {
namespace {

// Huge-page size: blocks this large start on a huge-page boundary and span whole huge
// pages, so transparent huge pages (madvise) back all of them. At 4 KiB alignment a 4 MiB
// block got one or two huge pages depending on where it fell (a 1024^3 matmul's three
// operands: 6 MiB of their 12 on huge pages; all 12 now).
constexpr size_t kLargeBlock = 2u << 20;
constexpr size_t kPageSize = 4096;

// Host memory of one buffer: a pool block (when pool_ is set) or its own block.
class HostStorage final : public hal::BufferStorage {
 public:
  HostStorage(uint8_t* block, size_t size, size_t capacity, std::shared_ptr<HostBlockPool> pool,
              std::shared_ptr<hal::AllocationCounters> stats)
      : BufferStorage(size), block_(block), capacity_(capacity), pool_(std::move(pool)), stats_(std::move(stats)) {}
  ~HostStorage() override {
    if (pool_) {
      pool_->Release(block_, capacity_);
    } else {
      FreeHostBlock(block_, size());
    }
    stats_->Remove(size());
  }
  uint8_t* device_address() override { return block_; }
  StatusOr<uint8_t*> host_address() override { return block_; }

 private:
  uint8_t* block_;
  size_t capacity_;
  std::shared_ptr<HostBlockPool> pool_;
  std::shared_ptr<hal::AllocationCounters> stats_;
};

// Host memory someone else owns (a mapped file), kept alive by `owner_`. Read-only: the
// buffer allows only reads, and the memory may be mapped without write permission.
class ImportedStorage final : public hal::BufferStorage {
 public:
  ImportedStorage(const uint8_t* memory, size_t size, Ref<RefCounted> owner)
      : BufferStorage(size), memory_(const_cast<uint8_t*>(memory)), owner_(std::move(owner)) {}
  uint8_t* device_address() override { return memory_; }
  StatusOr<uint8_t*> host_address() override { return memory_; }

 private:
  uint8_t* memory_;
  Ref<RefCounted> owner_;
};

}  // namespace

StatusOr<Ref<hal::Buffer>> CpuAllocator::ImportHostMemory(const hal::BufferParams& params,
                                                          std::span<const uint8_t> memory, Ref<RefCounted> owner,
                                                          size_t min_alignment) {
  if (min_alignment > 1 && reinterpret_cast<uintptr_t>(memory.data()) % min_alignment != 0) {
    return InvalidArgumentError("host memory at ", static_cast<const void*>(memory.data()), " is not aligned to ",
                                min_alignment, " bytes");
  }
  KILN_ASSIGN_OR_RETURN(const hal::HeapInfo* heap, hal::SelectHeap(heaps_, params, memory.size()),
                        "while importing ", memory.size(), " bytes of host memory");
  auto storage = MakeRef<ImportedStorage>(memory.data(), memory.size(), std::move(owner));
  return hal::Buffer::Create(std::move(storage), heap->memory_type, params.usage,
                             params.access & hal::MemoryAccess::kRead);
}

uint8_t* AllocateHostBlock(size_t size) {
  size_t alignment = size >= kLargeBlock ? kLargeBlock : 64;
  size_t rounded = (std::max<size_t>(size, 1) + alignment - 1) / alignment * alignment;
  void* block = std::aligned_alloc(alignment, rounded);
  if (block && size >= kLargeBlock) madvise(block, rounded, MADV_HUGEPAGE);
  return static_cast<uint8_t*>(block);
}

void FreeHostBlock(uint8_t* block, size_t size) { std::free(block); }

CpuAllocator::CpuAllocator()
    : stats_(std::make_shared<hal::AllocationCounters>()), pool_(std::make_shared<HostBlockPool>(kMaxRetainedBytes)) {
  using hal::BufferUsage;
  using hal::MemoryType;
  constexpr size_t kMaxAllocation = size_t{1} << 40;
  // On the CPU both heaps are the same host memory; the distinction keeps programs honest
  // about which buffers they map, so they run unchanged on devices with separate memory.
  heaps_.push_back({"device-local", MemoryType::kDeviceLocal, BufferUsage::kDefault, kMaxAllocation, 64});
  heaps_.push_back({"host-visible",
                    MemoryType::kDeviceLocal | MemoryType::kHostVisible | MemoryType::kHostCoherent |
                        MemoryType::kHostCached,
                    BufferUsage::kDefault | BufferUsage::kMapping, kMaxAllocation, 64});
}

StatusOr<Ref<hal::Buffer>> CpuAllocator::Allocate(const hal::BufferParams& params, size_t size) {
  trace::Scope scope("allocation", "allocate");
  if (scope.enabled()) scope.Arg("bytes", StrCat(size));
  KILN_ASSIGN_OR_RETURN(const hal::HeapInfo* heap, hal::SelectHeap(heaps_, params, size),
                        "while allocating ", size, " bytes");
  std::shared_ptr<HostBlockPool> pool = size >= kPooledAllocationBytes ? pool_ : nullptr;
  size_t capacity = size;
  uint8_t* block = pool ? pool->Acquire(size, &capacity) : AllocateHostBlock(size);
  if (!block) return ResourceExhaustedError("out of host memory allocating ", size, " bytes");
  stats_->Add(size);
  auto storage = MakeRef<HostStorage>(block, size, capacity, std::move(pool), stats_);
  return hal::Buffer::Create(std::move(storage), heap->memory_type, params.usage, params.access);
}

hal::AllocatorStatistics CpuAllocator::statistics() const {
  return stats_->Snapshot();
}

HostBlockPool::~HostBlockPool() {
  for (auto& [capacity, block] : free_blocks_) FreeHostBlock(block, capacity);
}

size_t HostBlockPool::CapacityFor(size_t size) {
  if (size <= kPageSize) return kPageSize;
  size_t step = std::max(kPageSize, std::bit_floor(size) / 8);
  return (size + step - 1) / step * step;
}

uint8_t* HostBlockPool::Acquire(size_t size, size_t* capacity) {
  size_t wanted = CapacityFor(size);
  reserved_bytes_.fetch_add(wanted, std::memory_order_relaxed);
  *capacity = wanted;
  {
    std::lock_guard lock(mutex_);
    auto it = free_blocks_.find(wanted);
    if (it != free_blocks_.end()) {
      uint8_t* block = it->second;
      free_blocks_.erase(it);
      retained_bytes_ -= wanted;
      return block;
    }
  }
  uint8_t* block = AllocateHostBlock(wanted);
  if (!block) reserved_bytes_.fetch_sub(wanted, std::memory_order_relaxed);
  return block;
}

void HostBlockPool::Release(uint8_t* block, size_t capacity) {
  reserved_bytes_.fetch_sub(capacity, std::memory_order_relaxed);
  {
    std::lock_guard lock(mutex_);
    if (retained_bytes_ + capacity <= max_retained_bytes_) {
      free_blocks_.emplace(capacity, block);
      retained_bytes_ += capacity;
      return;
    }
  }
  FreeHostBlock(block, capacity);
}

Status TransientStorage::Commit() {
  size_t capacity = 0;
  uint8_t* block = pool_->Acquire(size(), &capacity);
  if (!block) return ResourceExhaustedError("out of host memory for a transient buffer of ", size(), " bytes");
  capacity_ = capacity;
  block_.store(block, std::memory_order_release);
  return OkStatus();
}

void TransientStorage::Decommit() {
  uint8_t* block = block_.exchange(nullptr, std::memory_order_acq_rel);
  if (block) pool_->Release(block, capacity_);
}

StatusOr<uint8_t*> TransientStorage::host_address() {
  uint8_t* block = device_address();
  if (!block) {
    return FailedPreconditionError("transient buffer is not allocated: its queue_alloca has not completed or its "
                                   "queue_dealloca has");
  }
  return block;
}

}  // namespace kiln::cpu
