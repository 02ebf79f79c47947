// How a queue_execute becomes AQL packets and async copies (see hip_device.h for the
// protocol): the record of a submission in flight, the preparation that can fail cleanly,
// and the writing of packets, which cannot fail once started.
#pragma once

#include <mutex>

#include "drivers/hip/aql_queue.h"
#include "drivers/hip/in_flight.h"

namespace kiln::hip {

// Prepares the command buffers (once per command buffer, kept with it) and takes the
// submission's signals (sub.programs, run_signals, copy_runs, dispatch_count, completion,
// and dispatch_signals when sub.traced). Nothing is written to the queue.
Status PrepareSubmission(InFlight& sub, HsaRuntime& runtime, HostArena& arena);

// Writes the packets into `batch` and starts the copies: barrier packets for the device
// waits (sub.keep), the commands, then the fence that completes sub.completion. Each
// dispatch is recorded in sub.dispatches before its packet is visible. A copy the engine
// refuses sets sub.failure and ends the commands early (the dispatches not written are
// taken off sub.completion, so the fence still completes it); the fence is always written.
// Copies name the agent each side's memory belongs to: `gpu` for device-local buffers,
// `cpu` for host buffers and the staging arena (system memory).
// Clears sub.emitting just before the final fence is written and does not touch `sub` after:
// from then on the completion thread may retire the record (and reuse it).
void EmitSubmission(InFlight& sub, AqlQueue::Batch& batch, const HsaLibrary& hsa, hsa_agent_t gpu, hsa_agent_t cpu,
                    std::mutex& shared_mutex);

}  // namespace kiln::hip
