// The device of the hip driver: one GPU agent, one AQL queue (the HAL's one queue), the
// agent's memory pools as heaps, and a completion thread that retires submissions in order
// as their completion signals reach zero.
//
// Submission (packet writing: submission.h). queue_execute writes every command buffer's
// packets at once when its waits are met or pending on this runtime's GPU queues: a wait on
// exactly the timepoint another submission will signal becomes a barrier-AND packet on that
// submission's completion signal (on this queue or another device's), never a host round
// trip. Waits on semaphores signalled by the host defer the submission until they are
// reached. Execution barriers become packet barrier bits, and each command buffer starts
// after the one before; transfers run on the async copy engine, chained to the packets by
// signals. Every submission ends with a barrier packet that takes its completion signal
// to zero.
//
// Faults. A queue error or a GPU memory fault fails the device: the in-flight submissions
// fail their semaphores with a status naming the fault and the dispatch it hit (executable,
// export, source location, workgroup count); later submissions fail at once with the same
// cause. The process keeps running.
#pragma once

#include "drivers/hip/hsa_runtime.h"
#include "hal/device.h"
#include "hal/driver.h"

namespace kiln::hip {

// The device is named "<driver_name>:<options.device_index>" in errors ("hip-sim:0").
StatusOr<Ref<hal::Device>> CreateHipDevice(std::string driver_name, std::shared_ptr<HsaRuntime> runtime,
                                           const GpuAgent& gpu, const hal::DeviceOptions& options);

}  // namespace kiln::hip
