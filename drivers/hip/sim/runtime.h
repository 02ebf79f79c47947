// The runtime between hsa_init and the matching last hsa_shut_down: a Session owns the agents,
// every registry of handles, the allocations and the simulator's threads. hsa_init with a
// reference count of 0 builds one from the configuration; the last hsa_shut_down stops its
// threads and frees everything, and the next hsa_init reads the configuration again.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "drivers/hip/sim/agents.h"
#include "drivers/hip/sim/config.h"
#include "drivers/hip/sim/memory.h"
#include "drivers/hip/sim/registry.h"
#include "drivers/hip/sim/signal.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim {

class Queue;
namespace isa {
struct Program;
}
struct CodeObjectReader;
class Executable;
struct KernelSymbol;

// Application handlers of hsa_amd_register_system_event_handler.
class SystemEvents {
 public:
  void Add(hsa_amd_system_event_callback_t callback, void* data);
  // Calls every handler, in registration order, on the calling thread.
  void Deliver(const hsa_amd_event_t& event);

 private:
  std::mutex mu_;
  std::vector<std::pair<hsa_amd_system_event_callback_t, void*>> handlers_;
};

class Session {
 public:
  static StatusOr<std::shared_ptr<Session>> Create(const std::vector<AgentConfig>& gpus,
                                                   const std::vector<FaultSpec>& faults);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Stops every simulator thread (queues, copy engines), wakes every waiter, unloads the
  // executables and frees the allocations. Called once, by the last hsa_shut_down, without
  // the global lock: queue callbacks may still be calling into the API meanwhile.
  void Shutdown();

  const std::vector<std::unique_ptr<Agent>>& agents() const { return agents_; }
  uint32_t gpu_count() const { return gpu_count_; }
  Agent* gpu(uint32_t gpu_index) const { return gpu_index < gpu_count_ ? agents_[gpu_index].get() : nullptr; }
  Agent* FindAgent(hsa_agent_t agent) const;
  const Isa* FindIsa(hsa_isa_t isa) const;
  Pool* FindPool(hsa_amd_memory_pool_t pool) const;

  Registry<Signal> signals;
  Registry<Queue> queues;  // keyed by the address of the queue's hsa_queue_t
  Registry<CodeObjectReader> readers;
  Registry<Executable> executables;
  Registry<KernelSymbol> kernels;  // keyed by the symbol handle, which is also the kernel object
  AllocationTable memory;
  SystemEvents events;
  ExecutionMode mode = ExecutionMode::kTwin;  // KILN_HSA_SIM_MODE at hsa_init
  // KILN_HSA_SIM_MODE=both: the kernels of HSACOs refused so that the driver loads their twins,
  // by agent and symbol name, until a twin's kernel of that name takes its program
  // (code_objects.cc, paired_dispatch.h).
  std::mutex paired_mu;
  std::map<std::pair<const Agent*, std::string>, std::shared_ptr<const isa::Program>> paired_programs;
  ExecutorOptions executor;                   // KILN_HSA_SIM_INTERLEAVE_SEED, _RACE_CHECK at hsa_init

 private:
  Session() = default;
  std::vector<std::unique_ptr<Isa>> isas_;
  std::vector<std::unique_ptr<Agent>> agents_;  // GPUs, then the CPU agent
  uint32_t gpu_count_ = 0;
  MemoryBudget system_memory_;
  bool shut_down_ = false;
};

// The failures for a handle that names nothing of this runtime: INVALID_AGENT and
// INVALID_MEMORY_POOL, with the handle in the last error.
hsa_status_t InvalidAgent(hsa_agent_t agent);
hsa_status_t InvalidMemoryPool(hsa_amd_memory_pool_t pool);

// Registers a new object under its address and returns that handle in out->handle, or fails
// with NOT_INITIALIZED when the runtime is shutting down (the registry is closed).
template <typename T, typename Handle>
hsa_status_t RegisterHandle(Registry<T>& registry, std::shared_ptr<T> object, Handle* out) {
  uint64_t handle = HandleOf(object.get());
  if (!registry.Add(handle, std::move(object))) {
    return Fail(HSA_STATUS_ERROR_NOT_INITIALIZED, "the runtime is shutting down");
  }
  out->handle = handle;
  return HSA_STATUS_SUCCESS;
}

// Starts an API entry point (HSA or kiln_hsa_sim_*): clears this thread's last error, names
// the function for error messages, and returns the session, or null when the runtime is not
// initialized (with the last error saying so; an HSA function then returns
// HSA_STATUS_ERROR_NOT_INITIALIZED).
std::shared_ptr<Session> EnterApi(const char* function);

// EnterApi for entry points that call neither application code nor another entry point (the
// signal and queue-index functions, called per packet): no reference count is taken. The
// session stays valid until this thread's next entry point (the thread holds a reference).
Session* EnterLeafApi(const char* function);

// The session if initialized, without touching the last error (control functions).
std::shared_ptr<Session> CurrentSession();

// kiln_hsa_sim_configure: the agents of the next hsa_init (nullopt: the environment or the
// default). False, changing nothing, while the runtime is initialized.
bool SetConfiguredAgents(std::optional<std::vector<AgentConfig>> agents);

// Called first on each simulator thread (packet processors, compute-unit workers, copy
// engines), which stand in for the GPU's own hardware:
// - names it `name` (at most 15 characters) for profilers and debuggers;
// - marks the thread as working for `owner` (a queue, a copy engine): hsa_shut_down refuses
//   to run on such a thread (it would have to join itself), and hsa_queue_destroy refuses to
//   destroy the queue that owns the calling thread;
// - gives it the SCHED_BATCH policy (best effort): waking it (a doorbell, a completion) then
//   never preempts the application's thread that woke it. On a GPU the packet processor and
//   the compute units take no host CPU; here they share it, and on a small machine a woken
//   processor would otherwise take the core of the thread that is submitting to it. The
//   scheduler still gives them their fair share of CPU time.
void StartSimThread(const void* owner, const char* name);
const void* SimThreadOwner();

// Nanoseconds of the HSA system timestamp (steady clock).
uint64_t TimestampNs();

}  // namespace kiln::hsa_sim
