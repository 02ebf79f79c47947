// AQL queues and their packet processors.
//
// A Queue owns a ring of 64-byte AQL packets, its read and write indices, a doorbell signal,
// one packet-processor thread and a small pool of "compute unit" worker threads.
//
// The packet processor (packet_processor.cc) consumes the packet at the read index once its
// header type is no longer INVALID: it loads the 16-bit header with acquire, copies the rest
// of the packet, sets the slot's header back to INVALID and then advances the read index with
// release, so a producer that has seen the read index pass a slot may reuse it. While no
// packet is ready it polls for ~50 us (yielding the CPU after the first 2), then sleeps until
// the doorbell signal changes.
//
// Kernel dispatch packets go to the workers, which run their workgroups (the twin's entry,
// one call per workgroup) while the processor moves on to the next packet: packets without
// the barrier bit really overlap. A packet with the barrier bit starts only once every earlier
// packet of the queue has completed. Barrier-AND/OR packets are handled by the processor
// itself and hold up the packets behind them until they complete.
//
// The processor also runs workgroups itself, where that changes nothing an application can
// observe: while a packet with the barrier bit waits for the packets before it, no later
// packet may start anyway, so the processor runs the workgroups still unclaimed instead of
// sleeping. A one-workgroup dispatch is therefore not announced to the workers at once: if
// the next packet turns out to have the barrier bit, the processor runs it, and the two
// thread hand-offs (to a worker and back) that cost more than the workgroup itself on a small
// machine do not happen. Anything else announces it (at the latest when the processor starts
// to wait for the next packet, after its short pause spin). Workers awake anyway take
// unannounced work too.
//
// Errors (malformed packets, traps, injected faults) put the queue in the error state: the
// processor calls the application's callback once, from its own thread, with
// kiln_hsa_sim_last_error() returning the detail during the call; the queue then processes
// nothing more: the failed packet's completion signal is never touched, and dispatches still
// running drop their remaining workgroups and never complete either.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "drivers/hip/sim/isa/counts.h"
#include "drivers/hip/sim/signal.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim {

class Session;
struct Agent;
struct KernelSymbol;
class PairedDispatch;
namespace isa {
class GlobalWriteMap;
struct Program;
}

// "Compute units" per queue: threads that run workgroups.
inline constexpr uint32_t kDefaultComputeWorkers = 2;

using QueueCallback = void (*)(hsa_status_t status, hsa_queue_t* source, void* data);

// Applies a packet's acquire or release fence of `scope` (an hsa_fence_scope_t).
void ApplyFence(uint32_t scope, std::memory_order order);

// One kernel dispatch on its way through the workers.
struct Dispatch {
  uint64_t packet_id = 0;
  hsa_kernel_dispatch_packet_t packet{};
  std::shared_ptr<KernelSymbol> kernel;
  // Code-object kernels with the race detector on: the bytes its workgroups wrote (the
  // executor checks and records each store; isa/global_races.h). Null otherwise.
  std::shared_ptr<isa::GlobalWriteMap> global_writes;
  // KILN_HSA_SIM_MODE=both, a twin with a paired code object (paired_dispatch.h): workgroups
  // [0, twin_workgroups) run the twin, [twin_workgroups, total_workgroups) the code object on
  // the copies; the last one to finish compares them.
  std::shared_ptr<PairedDispatch> paired;
  uint64_t twin_workgroups = 0;
  // Code-object kernels: what their workgroups executed so far (guarded by counts_mu).
  std::mutex counts_mu;
  isa::ExecutionCounts counts;
  std::shared_ptr<Signal> completion;  // null for the 0 handle
  bool profiled = false;               // its queue profiled it: record its times on completion
  uint64_t start_ticks = 0;            // when it started (system-timestamp ticks), if profiled
  uint32_t workgroup_count[3] = {1, 1, 1};
  uint64_t total_workgroups = 1;
  Clock::time_point not_before;                   // SLOW faults: no workgroup starts earlier
  uint32_t release_scope = HSA_FENCE_SCOPE_NONE;  // applied before the completion signal
  uint64_t next_workgroup = 0;                    // guarded by Queue::work_mu_
  std::atomic<uint64_t> finished{0};
  std::atomic<bool> failed{false};
};

class Queue {
 public:
  // hsa_queue_create after argument checks: `size` is a power of two in range. Starts the
  // threads. Sets the last error on failure.
  static hsa_status_t Create(Session& session, Agent& agent, uint32_t size, hsa_queue_type32_t type,
                             QueueCallback callback, void* data, std::shared_ptr<Queue>* out);
  ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  hsa_queue_t* hsa() { return &hsa_; }
  Agent& agent() const { return agent_; }
  std::atomic<uint64_t>& write_index() { return write_index_; }
  std::atomic<uint64_t>& read_index() { return read_index_; }

  // hsa_amd_profiling_set_profiler_enabled: dispatch packets with a completion signal that
  // the processor starts from now on record their start and end times in that signal.
  void set_profiling(bool enabled) { profiling_.store(enabled, std::memory_order_relaxed); }

  // Stops and joins every thread of the queue, whatever state it is in. Packets not yet
  // completed never complete. Idempotent.
  void Stop();

 private:
  Queue(Session& session, Agent& agent);

  // Packet processor (packet_processor.cc).
  void ProcessorMain();
  bool WaitForPacket(uint64_t index);
  bool WaitAllComplete();
  void HandleKernelDispatch(uint64_t packet_id, const hsa_kernel_dispatch_packet_t& packet);
  void HandleBarrier(uint64_t packet_id, const hsa_barrier_and_packet_t& packet, bool is_and);
  bool running() const;  // neither stopping nor failed
  void RaiseError(hsa_status_t status, std::string detail);
  // A GPU memory fault at `address`: HSA_AMD_GPU_MEMORY_FAULT_EVENT to every system event
  // handler (with `detail` as the last error), then the queue error
  // MEMORY_APERTURE_VIOLATION. Any thread of the queue.
  void RaiseMemoryFault(std::string detail, uint64_t address);
  void DeliverErrorAndIdle();

  // Workers (workers.cc).
  void WorkerMain();
  // Claims the next workgroup of the first pending dispatch that may start now (work_mu_
  // held); false when none may, with *earliest the first time a SLOW one may.
  bool ClaimWorkgroup(std::shared_ptr<Dispatch>* dispatch, uint64_t* workgroup, Clock::time_point* earliest);
  // Processor: wakes the workers for pending work they were not told about.
  void AnnouncePendingWork();
  // Processor, waiting for every earlier packet: runs unclaimed workgroups on its own thread
  // until none is left that may start now, then announces what is left (SLOW dispatches).
  void RunPendingWork();
  void RunWorkgroup(Dispatch& dispatch, uint64_t workgroup, void* group_segment);
  // A workgroup of a code-object kernel, on the instruction-level executor; false when it failed
  // (the queue error is raised).
  // `program` and `kernarg` are the kernel's, or in both mode the paired ones.
  bool RunCodeObjectWorkgroup(Dispatch& dispatch, const isa::Program& program, const void* kernarg,
                              const uint32_t workgroup_id[3], void* group_segment);
  void FinishWorkgroup(Dispatch& dispatch, bool ok);

  Session& session_;
  Agent& agent_;
  hsa_queue_t hsa_{};
  void* ring_ = nullptr;
  uint32_t mask_ = 0;
  QueueCallback callback_ = nullptr;
  void* callback_data_ = nullptr;
  std::shared_ptr<Signal> doorbell_;
  // Each index on a cache line of its own: the producer's write-index updates and the
  // processor's read-index stores (one per packet) would otherwise move one line back and
  // forth between their threads on every packet.
  alignas(64) std::atomic<uint64_t> write_index_{0};
  alignas(64) std::atomic<uint64_t> read_index_{0};

  std::atomic<bool> stop_{false};
  std::atomic<bool> profiling_{false};
  Waiter processor_waiter_;             // doorbell, completions, errors, Stop()
  std::atomic<uint32_t> in_flight_{0};  // dispatches launched and not finished

  std::mutex error_mu_;
  hsa_status_t error_status_ = HSA_STATUS_SUCCESS;  // first error wins
  std::string error_detail_;
  std::atomic<bool> failed_{false};

  std::mutex work_mu_;
  std::condition_variable work_cv_;
  std::deque<std::shared_ptr<Dispatch>> pending_;  // dispatches with unclaimed workgroups
  bool unannounced_ = false;  // guarded by work_mu_: pending_ holds work no worker was woken for
  // The processor's group segment, for the workgroups it runs itself (RunPendingWork).
  std::unique_ptr<void, void (*)(void*)> processor_group_{nullptr, &std::free};

  std::mutex stop_mu_;    // serializes Stop()
  bool stopped_ = false;  // guarded by stop_mu_
  std::thread processor_;
  std::vector<std::thread> workers_;
};

}  // namespace kiln::hsa_sim
