// The cpu driver's executor: one oneTBB task arena per device.
//
// Latency matters as much as throughput here (ANCHORS.md): an unpinned worker woken after
// ~10 ms idle can start on the submitting thread's CPU and wait ~2 ms for it. Each worker
// is pinned to one CPU of the process's affinity mask when it joins the arena, so a
// wake-up lands on an idle CPU.
#include <pthread.h>
#include <sched.h>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_scheduler_observer.h>

#include <vector>

#include "drivers/cpu/executor.h"

namespace kiln::cpu {
namespace {

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

// Pins each thread entering the arena to the CPU of its arena slot.
class PinningObserver final : public tbb::task_scheduler_observer {
 public:
  PinningObserver(tbb::task_arena& arena, std::vector<int> cpus)
      : tbb::task_scheduler_observer(arena), cpus_(std::move(cpus)) {
    observe(true);
  }
  ~PinningObserver() override { observe(false); }

  void on_scheduler_entry(bool is_worker) override {
    if (!is_worker) return;  // never move a thread the application owns
    int slot = tbb::this_task_arena::current_thread_index();
    if (slot < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus_[static_cast<size_t>(slot) % cpus_.size()], &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  }

 private:
  std::vector<int> cpus_;
};

class TaskArenaExecutor final : public CpuExecutor {
 public:
  explicit TaskArenaExecutor(const TaskArenaOptions& options)
      : cpus_(AllowedCpus()),
        workers_(options.worker_count ? options.worker_count : static_cast<uint32_t>(cpus_.size())),
        // oneTBB keeps (allowed parallelism - 1) worker threads, reserving one slot for an
        // application thread. Submitted work runs on workers only while the application
        // thread waits on a semaphore, so ask for one more to get `workers_` workers.
        parallelism_(tbb::global_control::max_allowed_parallelism, workers_ + 1),
        arena_(static_cast<int>(workers_), /*reserved_for_masters=*/0) {
    arena_.initialize();
    if (options.pin_workers) observer_ = std::make_unique<PinningObserver>(arena_, cpus_);
  }

  ~TaskArenaExecutor() override {
    observer_.reset();
    arena_.terminate();
  }

  uint32_t worker_count() const override { return workers_; }

  void ParallelFor(size_t count, size_t grain, const Body& body) override {
    if (count == 0) return;
    auto run = [&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(0, count, std::max<size_t>(grain, 1)),
                        [&](const tbb::blocked_range<size_t>& range) {
                          int slot = tbb::this_task_arena::current_thread_index();
                          body(range.begin(), range.end(), static_cast<uint32_t>(slot < 0 ? 0 : slot));
                        });
    };
    arena_.execute(run);  // runs directly when already inside this arena
  }

  void Submit(std::function<void()> task) override { arena_.enqueue(std::move(task)); }

 private:
  std::vector<int> cpus_;
  uint32_t workers_;
  tbb::global_control parallelism_;
  tbb::task_arena arena_;
  std::unique_ptr<PinningObserver> observer_;
};

}  // namespace

std::unique_ptr<CpuExecutor> CreateTaskArenaExecutor(const TaskArenaOptions& options) {
  return std::make_unique<TaskArenaExecutor>(options);
}

}  // namespace kiln::cpu
