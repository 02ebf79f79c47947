// The record of one queue_execute on a hip device, from QueueExecute to its retirement, and
// the pool that reuses records: a retired record keeps the capacity of its lists, so a device
// submitting at a steady rate allocates nothing for them (submission is on the caller's
// thread and counted in its host cost).
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "drivers/hip/command_program.h"
#include "drivers/hip/hsa_runtime.h"

namespace kiln::hip {

struct InFlight {
  // From queue_execute.
  std::vector<hal::SemaphoreValue> signal;
  std::vector<Ref<hal::CommandBuffer>> command_buffers;
  std::vector<hal::SemaphoreValue> device_waits;  // waits its barrier packets stand for
  std::vector<Ref<PooledSignal>> keep;            // the pending signals of those waits

  // From PrepareSubmission (submission.h): the prepared command buffers and every signal.
  // Copy runs get two signals each: started (their fence) and done.
  std::vector<Program*> programs;  // owned by command_buffers, or by checked_programs
  // Programs with index check records (Program::has_index_checks), built for this submission.
  std::vector<Ref<Program>> checked_programs;
  std::vector<Ref<PooledSignal>> run_signals;
  std::vector<hsa_signal_t> copy_runs;  // each run's done signal; negative when a copy failed
  size_t dispatch_count = 0;
  // Traced (trace::Active() at submission): each dispatch completes a signal of its own
  // (dispatch_signals, in packet order), which its GPU timestamps are read from at retirement.
  // Untraced, dispatch_signals stays empty and the dispatches share `completion`.
  bool traced = false;
  std::vector<Ref<PooledSignal>> dispatch_signals;
  // Each dispatch of an untraced submission and the final fence decrement it. A cleared record keeps it, and the
  // record's next submission reuses it if no one else holds it (HsaRuntime::ReuseSignal).
  Ref<PooledSignal> completion;

  // Written while packets are written, under the mutex EmitSubmission is given, because the
  // device's fault handlers and completion thread read them then.
  std::vector<std::pair<uint64_t, const hal::DispatchCommand*>> dispatches;  // packet index, command
  Status failure;        // a copy the engine refused after packets were written
  bool emitting = true;  // packets are still being written: it must not be retired yet

  // While tracing: when the submission was handed to the queue (the recorder's clock), and
  // its event's args; its trace event spans from there to its retirement.
  int64_t trace_start_ns = -1;
  std::string trace_args;

  // Back to the state of a new record, releasing everything it holds but its completion
  // signal; lists keep their capacity.
  void Clear();
};

// Records for reuse. Thread-safe. Keeps at most kMaxSpare records, so a burst of
// submissions does not pin its peak memory for good.
class InFlightPool {
 public:
  static constexpr size_t kMaxSpare = 256;

  // A cleared record, reused when one is spare.
  std::unique_ptr<InFlight> Take();
  // Clears `record` (on the calling thread: releasing command buffers and semaphores may run
  // their destructors) and keeps it for a later Take.
  void Give(std::unique_ptr<InFlight> record);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<InFlight>> spare_;
};

}  // namespace kiln::hip
