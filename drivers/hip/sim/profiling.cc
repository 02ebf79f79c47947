// Dispatch profiling, the hsa_amd_profiling_* functions the hip driver uses while tracing:
//
//   hsa_amd_profiling_set_profiler_enabled(queue, enable)  profiling per queue, off at creation
//   hsa_amd_profiling_get_dispatch_time(agent, signal, time)  the start (the packet processor
//       starts the dispatch, after its barrier and acquire fence) and end (just before its
//       completion signal is decremented) of the last dispatch packet of a profiling queue
//       that completed `signal`, in HSA system-timestamp ticks
//   hsa_amd_profiling_convert_tick_to_system_domain(agent, tick, system_tick)  the identity:
//       the simulated agents count in the system clock (HSA_SYSTEM_INFO_TIMESTAMP)
//
// Failures: INVALID_QUEUE (not a live queue), INVALID_AGENT, INVALID_SIGNAL (not a live
// signal, or no profiled dispatch completed it), INVALID_ARGUMENT (a null output, or the
// signal's dispatch ran on another agent than the one named).
#include "drivers/hip/sim/queue.h"
#include "drivers/hip/sim/runtime.h"

using namespace kiln::hsa_sim;

extern "C" {

hsa_status_t HSA_API hsa_amd_profiling_set_profiler_enabled(hsa_queue_t* queue, int enable) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_QUEUE, "queue is null");
  std::shared_ptr<Queue> q = session->queues.Find(HandleOf(queue));
  if (!q) return Fail(HSA_STATUS_ERROR_INVALID_QUEUE, "queue ", Hex(queue), " is not a live queue of this runtime");
  q->set_profiling(enable != 0);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                         hsa_amd_profiling_dispatch_time_t* time) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = session->FindAgent(agent);
  if (!a) return InvalidAgent(agent);
  if (time == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "time (the output) is null");
  std::shared_ptr<Signal> s = signal.handle ? session->signals.Find(signal.handle) : nullptr;
  if (!s) {
    return Fail(HSA_STATUS_ERROR_INVALID_SIGNAL, "signal ", Hex(signal.handle), " is not a live signal of this runtime");
  }
  Signal::DispatchTime recorded = s->dispatch_time();
  if (recorded.agent == nullptr) {
    return Fail(HSA_STATUS_ERROR_INVALID_SIGNAL, "signal ", Hex(signal.handle),
                " completed no dispatch packet of a queue with profiling enabled");
  }
  if (recorded.agent != a) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "the dispatch that completed signal ", Hex(signal.handle), " ran on ",
                static_cast<const Agent*>(recorded.agent)->Describe(), ", not on ", a->Describe());
  }
  time->start = recorded.start;
  time->end = recorded.end;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent, uint64_t agent_tick,
                                                                     uint64_t* system_tick) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!session->FindAgent(agent)) return InvalidAgent(agent);
  if (system_tick == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "system_tick (the output) is null");
  *system_tick = agent_tick;
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
