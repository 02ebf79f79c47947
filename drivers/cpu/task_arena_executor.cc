// The cpu driver's executor: one oneTBB task arena per device.
//
// Latency matters as much as throughput here (ANCHORS.md): an unpinned worker woken after
// ~10 ms idle can start on the submitting thread's CPU and wait ~2 ms for it. Each worker
// is pinned to one CPU of the process's affinity mask (by its arena slot), so a wake-up
// lands on that CPU.
#include <pthread.h>
#include <sched.h>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <deque>
#include <mutex>
#include <vector>

#include "drivers/cpu/executor.h"

// libtbb is not built with ThreadSanitizer, so TSan cannot see that enqueue and
// parallel_for order our writes before the worker's reads. In TSan builds each hand-off
// through oneTBB states that edge explicitly; elsewhere these compile to nothing.
#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#define KILN_HAPPENS_BEFORE(addr) __tsan_release(addr)
#define KILN_HAPPENS_AFTER(addr) __tsan_acquire(addr)
#else
#define KILN_HAPPENS_BEFORE(addr) ((void)(addr))
#define KILN_HAPPENS_AFTER(addr) ((void)(addr))
#endif

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

// Pins the calling oneTBB worker to the CPU of its arena slot, once per slot change.
// Called at the start of every task this executor runs. Only workers run those tasks:
// Submit enqueues (workers only) and ParallelFor is only called from submitted tasks, so an
// application thread is never moved. (A task_scheduler_observer would pin on arena entry,
// but oneTBB frees its observer proxies lazily and leaks them when the arena dies.)
void PinToSlotCpu(const std::vector<int>& cpus) {
  thread_local int pinned_cpu = -1;
  int slot = tbb::this_task_arena::current_thread_index();
  if (slot < 0) return;
  int cpu = cpus[static_cast<size_t>(slot) % cpus.size()];
  if (cpu == pinned_cpu) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0) pinned_cpu = cpu;
}

class TaskArenaExecutor final : public CpuExecutor {
 public:
  explicit TaskArenaExecutor(const TaskArenaOptions& options)
      : cpus_(AllowedCpus()),
        pin_(options.pin_workers),
        workers_(options.worker_count ? options.worker_count : static_cast<uint32_t>(cpus_.size())),
        // oneTBB keeps (allowed parallelism - 1) worker threads, reserving one slot for an
        // application thread. Submitted work runs on workers only while the application
        // thread waits on a semaphore, so ask for one more to get `workers_` workers.
        parallelism_(tbb::global_control::max_allowed_parallelism, workers_ + 1),
        arena_(static_cast<int>(workers_), /*reserved_for_masters=*/0) {
    arena_.initialize();
  }

  ~TaskArenaExecutor() override { arena_.terminate(); }

  uint32_t worker_count() const override { return workers_; }

  void ParallelFor(size_t count, size_t grain, const Body& body) override {
    if (count == 0) return;
    void* edge = const_cast<Body*>(&body);
    auto run = [&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(0, count, std::max<size_t>(grain, 1)),
                        [&](const tbb::blocked_range<size_t>& range) {
                          KILN_HAPPENS_AFTER(edge);
                          if (pin_) PinToSlotCpu(cpus_);
                          int slot = tbb::this_task_arena::current_thread_index();
                          body(range.begin(), range.end(), static_cast<uint32_t>(slot < 0 ? 0 : slot));
                          KILN_HAPPENS_BEFORE(edge);
                        });
    };
    KILN_HAPPENS_BEFORE(edge);
    arena_.execute(run);  // runs directly when already inside this arena
    KILN_HAPPENS_AFTER(edge);
  }

  // Tasks wait in kiln's own queue and each enqueued oneTBB task runs the oldest one, so
  // nothing but `this` passes through oneTBB's recycled task memory (which TSan cannot
  // see synchronized; tests/tsan.supp).
  void Submit(std::function<void()> task) override {
    {
      std::lock_guard lock(queue_mutex_);
      queue_.push_back(std::move(task));
    }
    KILN_HAPPENS_BEFORE(this);  // everything this thread did before, construction included
    arena_.enqueue([this] {
      KILN_HAPPENS_AFTER(this);
      RunOldest();
    });
  }

 private:
  void RunOldest() {
    if (pin_) PinToSlotCpu(cpus_);
    std::function<void()> task;
    {
      std::lock_guard lock(queue_mutex_);
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }

  std::mutex queue_mutex_;
  std::deque<std::function<void()>> queue_;
  std::vector<int> cpus_;
  bool pin_;
  uint32_t workers_;
  tbb::global_control parallelism_;
  tbb::task_arena arena_;
};

}  // namespace

std::unique_ptr<CpuExecutor> CreateTaskArenaExecutor(const TaskArenaOptions& options) {
  return std::make_unique<TaskArenaExecutor>(options);
}

}  // namespace kiln::cpu
