// Executes a recorded command buffer on host memory with a CpuExecutor.
#pragma once

#include <memory>
#include <vector>

#include "base/status.h"
#include "drivers/cpu/executor.h"
#include "hal/command_buffer.h"

namespace kiln::cpu {

// Workgroup-local memory: one block per worker id, grown on demand and only ever touched
// by the worker that owns it.
class WorkerLocalMemory {
 public:
  explicit WorkerLocalMemory(uint32_t worker_count) : blocks_(worker_count) {}
  ~WorkerLocalMemory();
  // A 64-byte aligned block of at least `bytes` for `worker_id`; null if out of memory.
  void* Get(uint32_t worker_id, size_t bytes);

 private:
  struct Block {
    uint8_t* data = nullptr;
    size_t size = 0;
  };
  std::vector<Block> blocks_;
};

struct ExecutionCounters {
  uint64_t dispatches = 0;
};

// Runs the commands in order. A failure names the command ("in dispatch 'add' of ...").
Status ExecuteCommandBuffer(const hal::CommandBuffer& command_buffer, CpuExecutor& executor,
                            WorkerLocalMemory& local_memory, ExecutionCounters& counters);

}  // namespace kiln::cpu
