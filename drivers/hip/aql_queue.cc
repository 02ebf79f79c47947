#include "drivers/hip/aql_queue.h"

#include <atomic>
#include <cstring>
#include <thread>

namespace kiln::hip {

uint16_t PacketHeader(hsa_packet_type_t type, bool barrier, hsa_fence_scope_t acquire, hsa_fence_scope_t release) {
  return static_cast<uint16_t>((type << HSA_PACKET_HEADER_TYPE) | ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                               (acquire << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                               (release << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

StatusOr<std::unique_ptr<AqlQueue>> AqlQueue::Create(std::shared_ptr<HsaRuntime> runtime, const GpuAgent& gpu,
                                                     uint32_t packets, ErrorCallback on_error, void* data) {
  uint32_t size = 1;
  while (size * 2 <= packets && size * 2 <= gpu.queue_max_packets) size *= 2;
  hsa_queue_t* queue = nullptr;
  const HsaLibrary& hsa = runtime->hsa();
  KILN_RETURN_IF_ERROR(hsa.Check(hsa.hsa_queue_create(gpu.agent, size, HSA_QUEUE_TYPE_MULTI, on_error, data,
                                                      UINT32_MAX, UINT32_MAX, &queue),
                                 StrCat("creating an AQL queue of ", size, " packets on ", gpu.name)));
  return std::unique_ptr<AqlQueue>(new AqlQueue(std::move(runtime), queue));
}

AqlQueue::~AqlQueue() { hsa_.hsa_queue_destroy(queue_); }

AqlQueue::Batch::Batch(AqlQueue& queue, bool (*abandon)(void*), void* abandon_data)
    : queue_(queue), lock_(queue.mutex_), abandon_(abandon), abandon_data_(abandon_data) {}

void* AqlQueue::Batch::NextSlot() {
  const uint64_t size = queue_.queue_->size;
  if (reserved_ == 0) Reserve(1);
  index_ = next_++;
  --reserved_;
  // Back-pressure: the slot is free once the processor has read the packet a ring ago. The
  // read index only grows, so one seen earlier proves space without asking the runtime.
  for (uint32_t spins = 0; index_ - queue_.known_read_index_ >= size; ++spins) {
    queue_.known_read_index_ = queue_.read_index();
    if (index_ - queue_.known_read_index_ < size) break;
    if (published_ && spins == 64) {
      // Ring the doorbell for what this batch published, or the processor may sleep on it.
      queue_.hsa_.hsa_signal_store_screlease(queue_.queue_->doorbell_signal, static_cast<hsa_signal_value_t>(index_ - 1));
    }
    if (spins > 1024 && abandon_ && abandon_(abandon_data_)) break;
    if (spins > 64) std::this_thread::yield();
  }
  auto* slot = static_cast<uint8_t*>(queue_.queue_->base_address) + (index_ & (size - 1)) * 64;
  // Everything but the first 32-bit word (header+setup) may be written freely: the processor
  // does not look at a packet whose header is INVALID.
  std::memset(slot + 4, 0, 60);
  return slot;
}

void AqlQueue::Batch::Publish(uint16_t header, uint16_t setup) {
  auto* slot = static_cast<uint8_t*>(queue_.queue_->base_address) + (index_ & (queue_.queue_->size - 1)) * 64;
  uint32_t word = header | (uint32_t{setup} << 16);
  std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot)).store(word, std::memory_order_release);
  published_ = true;
}

void AqlQueue::Batch::Reserve(uint64_t count) {
  // The batch's slots may outnumber the ring: waiting for slot k needs only the batch's own
  // slots before k to be read, and those are published before slot k is asked for.
  // The batch holds the queue's lock, so a new range follows the one still unused.
  uint64_t first = queue_.hsa_.hsa_queue_add_write_index_scacq_screl(queue_.queue_, count);
  if (reserved_ == 0) next_ = first;
  reserved_ += count;
}

AqlQueue::Batch::~Batch() {
  // Slots reserved and not used must not stay INVALID (the processor would wait on them
  // forever): they become barrier-AND packets without dependencies, which complete at once.
  while (reserved_ > 0) {
    Next<hsa_barrier_and_packet_t>();
    // Fills nothing in memory, so no fence.
    Publish(PacketHeader(HSA_PACKET_TYPE_BARRIER_AND, false, HSA_FENCE_SCOPE_NONE, HSA_FENCE_SCOPE_NONE), 0);
  }
  if (published_) {
    queue_.hsa_.hsa_signal_store_screlease(queue_.queue_->doorbell_signal, static_cast<hsa_signal_value_t>(index_));
  }
}

}  // namespace kiln::hip
