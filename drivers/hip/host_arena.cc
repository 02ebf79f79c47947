#include "drivers/hip/host_arena.h"

#include <bit>

namespace kiln::hip {

namespace {
constexpr size_t kMinBlockBytes = 64;
}  // namespace

HostBlock& HostBlock::operator=(HostBlock&& other) noexcept {
  if (this != &other) {
    Reset();
    arena_ = std::move(other.arena_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    own_ = std::move(other.own_);
  }
  return *this;
}

HostBlock::~HostBlock() { Reset(); }

void HostBlock::Reset() {
  if (data_ && !own_) arena_->Return(data_, size_);
  own_.reset();
  arena_.reset();
  data_ = nullptr;
  size_ = 0;
}

std::shared_ptr<HostArena> HostArena::Create(std::shared_ptr<HsaRuntime> runtime, hsa_amd_memory_pool_t pool,
                                             std::string pool_name, hsa_agent_t gpu) {
  return std::shared_ptr<HostArena>(new HostArena(std::move(runtime), pool, std::move(pool_name), gpu));
}

size_t HostArena::SizeClass(size_t bytes) {
  return static_cast<size_t>(std::countr_zero(std::bit_ceil(std::max(bytes, kMinBlockBytes)) / kMinBlockBytes));
}

StatusOr<HostBlock> HostArena::Allocate(size_t bytes) {
  if (bytes > kMaxBlockBytes) {
    KILN_ASSIGN_OR_RETURN(Ref<PoolStorage> own, PoolStorage::Allocate(runtime_, pool_, pool_name_, bytes,
                                                                      /*host_visible=*/true, gpu_, counters_));
    uint8_t* data = own->device_address();
    return HostBlock(shared_from_this(), data, bytes, std::move(own));
  }
  size_t size_class = SizeClass(bytes);
  size_t size = kMinBlockBytes << size_class;
  std::lock_guard lock(mutex_);
  if (free_.size() <= size_class) free_.resize(size_class + 1);
  uint8_t* data;
  if (!free_[size_class].empty()) {
    data = free_[size_class].back();
    free_[size_class].pop_back();
  } else {
    if (chunk_used_ + size > kChunkBytes) {
      KILN_ASSIGN_OR_RETURN(Ref<PoolStorage> chunk, PoolStorage::Allocate(runtime_, pool_, pool_name_, kChunkBytes,
                                                                          /*host_visible=*/true, gpu_, counters_));
      chunks_.push_back(std::move(chunk));
      chunk_used_ = 0;
    }
    // Every size is a multiple of 64 bytes and chunks are page aligned: blocks are 64-byte aligned.
    data = chunks_.back()->device_address() + chunk_used_;
    chunk_used_ += size;
  }
  return HostBlock(shared_from_this(), data, size, nullptr);
}

void HostArena::Return(uint8_t* data, size_t size) {
  std::lock_guard lock(mutex_);
  free_[SizeClass(size)].push_back(data);
}

}  // namespace kiln::hip
