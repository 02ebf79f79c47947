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
#include <optional>
#include <span>
#include <string>
#include <utility>
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

// What an instrumented device counted while it ran one dispatch: today only hip-sim running a
// kernel's code object (docs/hip-sim-executor.md, "Counts"). Instructions count once per wave
// that issued them, by class (AMD GPU classes); bytes are those the active lanes moved. The
// occupancy is an estimate from the GPU's resource model, not a measurement.
struct DispatchCounters {
  std::string kernel;  // the kernel's name as the device knows it (may be truncated)
  uint64_t workgroups = 0, waves = 0;
  uint64_t salu = 0, smem = 0, valu = 0, mfma = 0, vmem = 0, lds = 0, branch = 0, wait = 0;
  // The MFMA instructions again by mnemonic ("v_mfma_f32_32x32x8_f16"), in code order.
  std::vector<std::pair<std::string, uint64_t>> mfma_by_mnemonic;
  uint64_t global_read_bytes = 0, global_written_bytes = 0;
  uint64_t lds_read_bytes = 0, lds_written_bytes = 0;
  uint32_t occupancy_waves_per_simd = 0, occupancy_workgroups_per_cu = 0, occupancy_waves_per_cu = 0;
  std::string occupancy_limit;  // what bounds the occupancy: "VGPRs", "SGPRs", "LDS", "waves", "barriers"
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

  // The counters of the dispatch this device completed last, when the device counts what
  // dispatches execute and counted that one; nullopt otherwise (every device but hip-sim in
  // KILN_HSA_SIM_MODE=code-object or both, and there a dispatch that ran its host twin). Meant
  // for a dispatch submitted alone and waited for (kiln-benchmark-module --dispatches): with
  // several in flight, "last" is whichever completed last.
  virtual std::optional<DispatchCounters> LastDispatchCounters() const { return std::nullopt; }

 protected:
  // What every driver checks before accepting a queue operation.
  Status ValidateQueueLists(SemaphoreList wait, SemaphoreList signal) const;
  Status ValidateCommandBuffers(std::span<const Ref<CommandBuffer>> command_buffers) const;
};

}  // namespace kiln::hal
