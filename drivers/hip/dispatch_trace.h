// Trace events for the dispatches of a traced submission from the GPU's own timestamps
// (HSA dispatch profiling; docs/runtime.md "GPU timestamps, only while tracing"): each
// dispatch's start and end as the runtime recorded them in its completion signal, in HSA
// system clock ticks, mapped to the trace recorder's clock.
#pragma once

#include "base/trace.h"
#include "drivers/hip/in_flight.h"

namespace kiln::hip {

class DispatchTracer {
 public:
  DispatchTracer(const HsaLibrary& hsa, hsa_agent_t gpu, uint64_t timestamp_frequency)
      : hsa_(hsa), gpu_(gpu), frequency_(timestamp_frequency) {}

  // Adds one event per dispatch of `sub` (sub.traced, retired) on thread `tid`: named after
  // its export, with the cpu driver's dispatch args (executable, export, source_location,
  // workgroup_count). A dispatch whose times cannot be read (the runtime refused to profile
  // the queue) gets none. Not thread-safe: one retirement thread calls it.
  void Emit(trace::Recorder& recorder, const InFlight& sub, uint32_t tid);

 private:
  // Reads both clocks together (the recorder's before and after, halved): the anchor that
  // ToRecorderNs counts ticks from. Taken once per Emit, so a new recorder (whose clock
  // starts at its construction) never inherits another's anchor.
  void Anchor(const trace::Recorder& recorder);
  // HSA system clock ticks as nanoseconds of the anchored recorder's clock.
  int64_t ToRecorderNs(uint64_t ticks) const;

  const HsaLibrary& hsa_;
  hsa_agent_t gpu_;
  uint64_t frequency_;  // ticks per second
  uint64_t clock_ticks_ = 0;
  int64_t clock_ns_ = 0;
};

}  // namespace kiln::hip
