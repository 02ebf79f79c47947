// Devices: one per driver instance; they own an allocator, create executables and command
// buffers, and run queue operations ordered by timeline semaphores.
//
// Queue operations return as soon as the operation is accepted: errors found then (bad
// arguments) are returned; errors found while the operation runs fail its signal semaphores
// with the cause. An operation whose wait semaphore fails does not run and fails its signal
// semaphores with that failure. Queue operations are ordered only by their semaphores.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "base/time.h"
#include "hal/allocator.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"
#include "hal/semaphore.h"

namespace kiln::hal {

struct DeviceInfo {
  std::string driver;  // "cpu"
  std::string name;    // human-readable
  std::string architecture;  // GPUs: the chip ("gfx942"); empty for CPUs
  uint32_t compute_units = 0;   // GPUs
  uint32_t subgroup_size = 0;   // GPUs: the wavefront size (64 or 32)
  // How many workgroups a distributed dispatch is split into: the CPU's worker threads, or a
  // few per compute unit of a GPU.
  uint32_t worker_count = 1;
  std::array<uint32_t, 3> max_workgroup_count = {65535, 65535, 65535};
  uint32_t max_local_memory_bytes = 0;
  std::vector<std::string> executable_formats;
};

struct QueueStatistics {
  uint64_t submissions = 0;
  uint64_t dispatches = 0;
  uint64_t transient_bytes_reserved = 0;  // live queue_alloca storage
  uint64_t device_waits = 0;  // semaphore waits the device itself kept (GPU barrier packets), not the host
};

class Device : public RefCounted {
 public:
  virtual const DeviceInfo& info() const = 0;
  virtual Allocator& allocator() = 0;
  virtual StatusOr<Ref<Executable>> CreateExecutable(const ExecutableParams& params) = 0;
  Ref<CommandBuffer> CreateCommandBuffer();
  virtual QueueStatistics queue_statistics() const = 0;

  // Returns a transient buffer at once; its storage becomes usable when the signal
  // semaphores are signaled and stays so until a queue_dealloca of it completes.
  virtual StatusOr<Ref<Buffer>> QueueAlloca(SemaphoreList wait, SemaphoreList signal, const BufferParams& params,
                                            size_t size) = 0;
  // Releases a buffer from QueueAlloca after the waits; later use of it is an error.
  virtual Status QueueDealloca(SemaphoreList wait, SemaphoreList signal, const Ref<Buffer>& buffer) = 0;
  // Runs finalized command buffers of this device, in order, after the waits.
  virtual Status QueueExecute(SemaphoreList wait, SemaphoreList signal,
                              std::span<const Ref<CommandBuffer>> command_buffers) = 0;
  // Blocks until every accepted queue operation has finished or the deadline passes.
  virtual Status WaitIdle(Deadline deadline) = 0;

 protected:
  // What every driver checks before accepting a queue operation.
  Status ValidateQueueLists(SemaphoreList wait, SemaphoreList signal) const;
  Status ValidateCommandBuffers(std::span<const Ref<CommandBuffer>> command_buffers) const;
};

}  // namespace kiln::hal
