// Queue creation and destruction, and the read/write index API. The packet processor itself
// is in packet_processor.cc.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "drivers/hip/sim/queue.h"
#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {
namespace {

// Global so that ids are unique over the application's lifetime, across hsa_init cycles.
std::atomic<uint64_t> g_next_queue_id{0};

}  // namespace

Queue::Queue(Session& session, Agent& agent) : session_(session), agent_(agent) {}

hsa_status_t Queue::Create(Session& session, Agent& agent, uint32_t size, hsa_queue_type32_t type,
                           QueueCallback callback, void* data, std::shared_ptr<Queue>* out) {
  std::shared_ptr<Queue> queue(new Queue(session, agent));
  queue->ring_ = std::aligned_alloc(64, static_cast<size_t>(size) * 64);
  if (!queue->ring_) return Fail(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "no memory for a ring of ", size, " packets");
  std::memset(queue->ring_, 0, static_cast<size_t>(size) * 64);
  for (uint32_t i = 0; i < size; ++i) {
    auto* header = reinterpret_cast<uint16_t*>(static_cast<char*>(queue->ring_) + 64 * static_cast<size_t>(i));
    *header = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  }
  queue->mask_ = size - 1;
  queue->callback_ = callback;
  queue->callback_data_ = data;
  queue->doorbell_ = std::make_shared<Signal>(0, /*is_doorbell=*/true);
  if (!session.signals.Add(HandleOf(queue->doorbell_.get()), queue->doorbell_)) {
    return Fail(HSA_STATUS_ERROR_NOT_INITIALIZED, "the runtime is shutting down");
  }
  hsa_queue_t& q = queue->hsa_;
  q.type = type;
  q.features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH;
  q.base_address = queue->ring_;
  q.doorbell_signal.handle = HandleOf(queue->doorbell_.get());
  q.size = size;
  q.id = g_next_queue_id.fetch_add(1, std::memory_order_relaxed);
  try {
    queue->processor_ = std::thread([raw = queue.get()] { raw->ProcessorMain(); });
    for (uint32_t i = 0; i < kDefaultComputeWorkers; ++i) {
      queue->workers_.emplace_back([raw = queue.get()] { raw->WorkerMain(); });
    }
  } catch (const std::exception& e) {
    queue->Stop();
    return Fail(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "starting the queue's threads failed: ", e.what());
  }
  *out = std::move(queue);
  return HSA_STATUS_SUCCESS;
}

Queue::~Queue() {
  Stop();
  std::free(ring_);
}

void Queue::Stop() {
  std::lock_guard stop_lock(stop_mu_);
  if (stopped_) return;
  stopped_ = true;
  stop_.store(true, std::memory_order_release);
  processor_waiter_.Wake();
  {
    std::lock_guard lock(work_mu_);
    work_cv_.notify_all();
  }
  if (processor_.joinable()) processor_.join();
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
  workers_.clear();
  {
    std::lock_guard lock(work_mu_);
    pending_.clear();
  }
  if (doorbell_) {
    session_.signals.Remove(HandleOf(doorbell_.get()));
    doorbell_->Abandon();
  }
}

namespace {

// The queue behind `queue` for the index functions, which cannot return a status.
std::shared_ptr<Queue> QueueFor(const char* function, const hsa_queue_t* queue) {
  Session* session = EnterLeafApi(function);
  if (!session) return nullptr;
  std::shared_ptr<Queue> q = queue ? session->queues.Find(HandleOf(queue)) : nullptr;
  if (!q) SetLastError(StrCat("queue ", Hex(queue), " is not a live queue of this runtime"));
  return q;
}

}  // namespace
}  // namespace kiln::hsa_sim

using namespace kiln::hsa_sim;

extern "C" {

hsa_status_t HSA_API hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                      void (*callback)(hsa_status_t status, hsa_queue_t* source, void* data),
                                      void* data, uint32_t private_segment_size, uint32_t group_segment_size,
                                      hsa_queue_t** queue) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = session->FindAgent(agent);
  if (!a) return InvalidAgent(agent);
  if (!a->gpu) {
    return Fail(HSA_STATUS_ERROR_INVALID_AGENT, a->Describe(),
                " does not support kernel dispatch; create queues on a GPU agent");
  }
  if (queue == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "queue (the output) is null");
  if (size == 0 || (size & (size - 1)) != 0 || size > kQueueMaxSize) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "size ", size, " is not a power of two between 1 and ",
                kQueueMaxSize, " (QUEUE_MAX_SIZE)");
  }
  if (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE) {
    if (type == HSA_QUEUE_TYPE_COOPERATIVE) {
      return Fail(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, "cooperative queues are not supported");
    }
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "type ", type, " is not an hsa_queue_type_t");
  }
  size = std::max(size, kQueueMinSize);  // HSA: the queue holds at least QUEUE_MIN_SIZE packets
  if (a->queues.fetch_add(1) >= kQueuesMax) {
    a->queues.fetch_sub(1);
    return Fail(HSA_STATUS_ERROR_OUT_OF_RESOURCES, a->Describe(), " already has ", kQueuesMax, " queues (QUEUES_MAX)");
  }
  std::shared_ptr<Queue> q;
  hsa_status_t status = Queue::Create(*session, *a, size, type, callback, data, &q);
  if (status != HSA_STATUS_SUCCESS) {
    a->queues.fetch_sub(1);
    return status;
  }
  if (!session->queues.Add(HandleOf(q->hsa()), q)) {
    q->Stop();
    a->queues.fetch_sub(1);
    return Fail(HSA_STATUS_ERROR_NOT_INITIALIZED, "the runtime is shutting down");
  }
  *queue = q->hsa();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_queue_destroy(hsa_queue_t* queue) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "queue is null");
  std::shared_ptr<Queue> q = session->queues.Find(HandleOf(queue));
  if (!q) return Fail(HSA_STATUS_ERROR_INVALID_QUEUE, "queue ", Hex(queue), " is not a live queue of this runtime");
  if (SimThreadOwner() == q.get()) {
    return Fail(HSA_STATUS_ERROR_INVALID_QUEUE, "queue ", Hex(queue),
                " cannot be destroyed from its own error callback: that would join the calling thread");
  }
  if (!session->queues.Remove(HandleOf(queue))) {
    return Fail(HSA_STATUS_ERROR_INVALID_QUEUE, "queue ", Hex(queue), " was destroyed concurrently");
  }
  q->Stop();
  q->agent().queues.fetch_sub(1);
  return HSA_STATUS_SUCCESS;
}

uint64_t HSA_API hsa_queue_load_read_index_scacquire(const hsa_queue_t* queue) {
  auto q = QueueFor(__func__, queue);
  return q ? q->read_index().load(std::memory_order_acquire) : 0;
}

uint64_t HSA_API hsa_queue_load_read_index_relaxed(const hsa_queue_t* queue) {
  auto q = QueueFor(__func__, queue);
  return q ? q->read_index().load(std::memory_order_relaxed) : 0;
}

uint64_t HSA_API hsa_queue_load_write_index_scacquire(const hsa_queue_t* queue) {
  auto q = QueueFor(__func__, queue);
  return q ? q->write_index().load(std::memory_order_acquire) : 0;
}

uint64_t HSA_API hsa_queue_load_write_index_relaxed(const hsa_queue_t* queue) {
  auto q = QueueFor(__func__, queue);
  return q ? q->write_index().load(std::memory_order_relaxed) : 0;
}

void HSA_API hsa_queue_store_write_index_relaxed(const hsa_queue_t* queue, uint64_t value) {
  if (auto q = QueueFor(__func__, queue)) q->write_index().store(value, std::memory_order_relaxed);
}

void HSA_API hsa_queue_store_write_index_screlease(const hsa_queue_t* queue, uint64_t value) {
  if (auto q = QueueFor(__func__, queue)) q->write_index().store(value, std::memory_order_release);
}

#define KILN_QUEUE_INDEX_RMW(suffix, order)                                                                          \
  uint64_t HSA_API hsa_queue_cas_write_index_##suffix(const hsa_queue_t* queue, uint64_t expected, uint64_t value) { \
    auto q = QueueFor(__func__, queue);                                                                              \
    if (!q) return 0;                                                                                                \
    q->write_index().compare_exchange_strong(expected, value, order, CasFailureOrder(order));                        \
    return expected;                                                                                                 \
  }                                                                                                                  \
  uint64_t HSA_API hsa_queue_add_write_index_##suffix(const hsa_queue_t* queue, uint64_t value) {                    \
    auto q = QueueFor(__func__, queue);                                                                              \
    return q ? q->write_index().fetch_add(value, order) : 0;                                                         \
  }
KILN_QUEUE_INDEX_RMW(scacq_screl, std::memory_order_acq_rel)
KILN_QUEUE_INDEX_RMW(scacquire, std::memory_order_acquire)
KILN_QUEUE_INDEX_RMW(relaxed, std::memory_order_relaxed)
KILN_QUEUE_INDEX_RMW(screlease, std::memory_order_release)
#undef KILN_QUEUE_INDEX_RMW

}  // extern "C"
