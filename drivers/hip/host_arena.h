// Small blocks of GPU-accessible host memory (kernel arguments, staging for fills and
// updates), carved from large pool allocations: an HSA pool allocation costs far more than
// a dispatch, and every new command buffer needs a few of these blocks.
//
// Blocks come in power-of-two sizes from 64 bytes to kMaxBlockBytes, each from a chunk of
// kChunkBytes, and go back to a free list when released; larger requests get a pool
// allocation of their own. Blocks keep the arena (and so the HSA runtime) alive. A block is
// a value (move-only), not a heap object: preparing a command buffer takes one for its
// kernel arguments, and an allocation more per preparation shows in its host cost.
#pragma once

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "drivers/hip/hip_allocator.h"

namespace kiln::hip {

class HostArena;

// A block of an arena, given back to it when destroyed; empty when default-made or moved from.
class HostBlock {
 public:
  HostBlock() = default;
  HostBlock(HostBlock&& other) noexcept
      : arena_(std::move(other.arena_)), data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)), own_(std::move(other.own_)) {}
  HostBlock& operator=(HostBlock&& other) noexcept;
  ~HostBlock();

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  friend class HostArena;
  HostBlock(std::shared_ptr<HostArena> arena, uint8_t* data, size_t size, Ref<PoolStorage> own)
      : arena_(std::move(arena)), data_(data), size_(size), own_(std::move(own)) {}
  void Reset();
  std::shared_ptr<HostArena> arena_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  Ref<PoolStorage> own_;  // set for blocks too large for the arena
};

class HostArena : public std::enable_shared_from_this<HostArena> {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 20;
  static constexpr size_t kMaxBlockBytes = size_t{64} << 10;

  // Memory of `pool`, accessible to `gpu` and the host.
  static std::shared_ptr<HostArena> Create(std::shared_ptr<HsaRuntime> runtime, hsa_amd_memory_pool_t pool,
                                           std::string pool_name, hsa_agent_t gpu);
  // A block of at least `bytes` bytes, 64-byte aligned, contents undefined.
  StatusOr<HostBlock> Allocate(size_t bytes);

 private:
  HostArena(std::shared_ptr<HsaRuntime> runtime, hsa_amd_memory_pool_t pool, std::string pool_name, hsa_agent_t gpu)
      : runtime_(std::move(runtime)), pool_(pool), pool_name_(std::move(pool_name)), gpu_(gpu) {}
  friend class HostBlock;
  void Return(uint8_t* data, size_t size);
  static size_t SizeClass(size_t bytes);  // index into free_

  std::shared_ptr<HsaRuntime> runtime_;
  hsa_amd_memory_pool_t pool_;
  std::string pool_name_;
  hsa_agent_t gpu_;
  std::shared_ptr<hal::AllocationCounters> counters_ = std::make_shared<hal::AllocationCounters>();
  std::mutex mutex_;
  std::vector<Ref<PoolStorage>> chunks_;
  size_t chunk_used_ = kChunkBytes;        // bytes of the last chunk handed out
  std::vector<std::vector<uint8_t*>> free_;  // by size class
};

}  // namespace kiln::hip
