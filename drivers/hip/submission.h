// How a queue_execute becomes AQL packets and async copies (see hip_device.h for the
// protocol): the record of a submission in flight, the preparation that can fail cleanly,
// and the writing of packets, which cannot fail once started.
#pragma once

#include <mutex>
#include <vector>

#include "drivers/hip/aql_queue.h"
#include "drivers/hip/command_program.h"

namespace kiln::hip {

// A submission between its registration and its retirement.
struct InFlight {
  Ref<PooledSignal> completion;                   // each dispatch and the final fence decrement it
  std::vector<Ref<PooledSignal>> keep;            // other signals its packets and copies use
  std::vector<hal::SemaphoreValue> signal;
  std::vector<hal::SemaphoreValue> device_waits;  // waits its barrier packets stand for
  std::vector<Ref<hal::CommandBuffer>> command_buffers;
  std::vector<hsa_signal_t> copy_runs;            // each run's done signal; negative when a copy failed
  // Written while packets are written, under the mutex EmitSubmission is given, because the
  // device's fault handlers and completion thread read them then.
  std::vector<std::pair<uint64_t, const hal::DispatchCommand*>> dispatches;  // packet index, command
  Status failure;        // a copy the engine refused after packets were written
  bool emitting = true;  // packets are still being written: it must not be retired yet
};

// What a submission needs before its packets are written: the prepared command buffers
// and every signal. Copy runs get two signals each: started (their fence) and done.
struct SubmissionPlan {
  std::vector<Program*> programs;  // owned by the command buffers
  std::vector<Ref<PooledSignal>> run_signals;
  size_t dispatch_count = 0;
};

// Prepares the command buffers (once per command buffer, kept with it) and takes the
// submission's signals. Nothing is written to the queue.
Status PrepareSubmission(InFlight& sub, HsaRuntime& runtime, HostArena& arena, SubmissionPlan& plan);

// Writes the packets into `batch` and starts the copies: barrier packets for the device
// waits (sub.keep), the commands, then the fence that completes sub.completion. Each
// dispatch is recorded in sub.dispatches before its packet is visible. A copy the engine
// refuses sets sub.failure and ends the commands early; the fence is always written.
// Clears sub.emitting last.
void EmitSubmission(InFlight& sub, SubmissionPlan& plan, AqlQueue::Batch& batch, const HsaLibrary& hsa,
                    hsa_agent_t gpu, std::mutex& shared_mutex);

}  // namespace kiln::hip
