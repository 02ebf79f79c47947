// How the CPU drivers run work: on a oneTBB task arena (cpu) or inline on the calling
// thread (cpu-sync). Nothing outside the executors knows which.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace kiln::cpu {

class CpuExecutor {
 public:
  virtual ~CpuExecutor() = default;
  // Workers that may run ParallelFor bodies at once; worker ids are below this.
  virtual uint32_t worker_count() const = 0;
  // Calls body(begin, end, worker_id) over disjoint chunks covering [0, count), each at
  // least `grain` long (but the last), possibly in parallel, and returns when all are done.
  // Two bodies running at the same time never share a worker id.
  using Body = std::function<void(size_t begin, size_t end, uint32_t worker_id)>;
  virtual void ParallelFor(size_t count, size_t grain, const Body& body) = 0;
  // Runs `task` later on a worker (cpu) or now on this thread (cpu-sync).
  virtual void Submit(std::function<void()> task) = 0;
};

// Runs everything on the calling thread, in order: deterministic, for debugging.
std::unique_ptr<CpuExecutor> CreateInlineExecutor();

struct TaskArenaOptions {
  uint32_t worker_count = 0;  // 0: one per CPU in the process's affinity mask
  bool pin_workers = true;
};
// A oneTBB arena owned by one device, its workers pinned one per CPU.
std::unique_ptr<CpuExecutor> CreateTaskArenaExecutor(const TaskArenaOptions& options);

}  // namespace kiln::cpu
