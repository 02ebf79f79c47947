// One AQL queue on a GPU agent: reserving packet slots (waiting while the ring is full, so an
// unread packet is never overwritten), writing packets and publishing them the way the
// packet processor expects: body first, then the 32-bit header+setup word with release
// order, then the doorbell.
#pragma once

#include <cstdint>
#include <mutex>

#include "drivers/hip/hsa_runtime.h"

namespace kiln::hip {

// Header bits of a packet of `type` with the barrier bit when asked and the given fence
// scopes. System scope makes memory coherent with the host and the copy engines (it
// writes back and invalidates the GPU's L2); agent scope orders kernels of one GPU, which
// share its L2, and costs no flush.
uint16_t PacketHeader(hsa_packet_type_t type, bool barrier, hsa_fence_scope_t acquire, hsa_fence_scope_t release);

class AqlQueue {
 public:
  using ErrorCallback = void (*)(hsa_status_t status, hsa_queue_t* queue, void* data);
  // A queue of `packets` slots (rounded down to the agent's limit, a power of two).
  static StatusOr<std::unique_ptr<AqlQueue>> Create(std::shared_ptr<HsaRuntime> runtime, const GpuAgent& gpu,
                                                    uint32_t packets, ErrorCallback on_error, void* data);
  ~AqlQueue();

  uint32_t size() const { return queue_->size; }
  uint64_t read_index() const { return hsa_.hsa_queue_load_read_index_scacquire(queue_); }

  // Writes packets under one lock, so a batch is contiguous in the ring. Each slot is
  // reserved when asked for and waited for while the ring is full; a wait gives up when
  // `abandon` returns true (the queue failed and will never advance).
  class Batch {
   public:
    // A slot for the next packet, zeroed except its (still INVALID) header. Nothing is
    // visible to the processor until Publish.
    template <typename Packet>
    Packet* Next() {
      return static_cast<Packet*>(NextSlot());
    }
    // Publishes the packet returned by the last Next: stores header|setup<<16 with release.
    void Publish(uint16_t header, uint16_t setup);
    // Index of the packet returned by the last Next.
    uint64_t index() const { return index_; }
    // Reserves the next `count` slots with one write-index update (Next reserves one at a
    // time otherwise). Slots left unused when the batch ends become empty barrier packets.
    void Reserve(uint64_t count);
    ~Batch();  // rings the doorbell for everything published

   private:
    friend class AqlQueue;
    Batch(AqlQueue& queue, bool (*abandon)(void*), void* abandon_data);
    void* NextSlot();
    AqlQueue& queue_;
    std::unique_lock<std::mutex> lock_;
    bool (*abandon_)(void*);
    void* abandon_data_;
    uint64_t index_ = UINT64_MAX;  // the slot Next returned last
    uint64_t next_ = 0;            // the next reserved slot
    uint64_t reserved_ = 0;        // reserved slots not yet returned by Next
    bool published_ = false;
  };
  Batch Begin(bool (*abandon)(void*), void* abandon_data) { return Batch(*this, abandon, abandon_data); }

  hsa_queue_t* handle() const { return queue_; }

 private:
  AqlQueue(std::shared_ptr<HsaRuntime> runtime, hsa_queue_t* queue)
      : runtime_(std::move(runtime)), hsa_(runtime_->hsa()), queue_(queue) {}
  std::shared_ptr<HsaRuntime> runtime_;
  const HsaLibrary& hsa_;
  hsa_queue_t* queue_;
  std::mutex mutex_;
  uint64_t known_read_index_ = 0;  // a read index seen earlier (guarded by mutex_)
};

}  // namespace kiln::hip
