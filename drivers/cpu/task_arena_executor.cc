// The cpu driver's executor: one oneTBB task arena per device.
//
// Latency matters as much as throughput here (ANCHORS.md): an unpinned worker woken after
// ~10 ms idle can start on the submitting thread's CPU and wait ~2 ms for it. Each worker
// is pinned to one of the process's CPUs by its arena slot (cpu_affinity.h), so a wake-up
// lands on that CPU.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "drivers/cpu/cpu_affinity.h"
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

// oneTBB applies the smallest max_allowed_parallelism of all live global_control objects,
// so per-device controls would let a small device shrink a large one. One process-wide
// control is sized for the largest live device instead.
class ParallelismLimit {
 public:
  static void Acquire(size_t parallelism) { Get().Change(parallelism, +1); }
  static void Release(size_t parallelism) { Get().Change(parallelism, -1); }

 private:
  static ParallelismLimit& Get() {
    static ParallelismLimit* limit = new ParallelismLimit();
    return *limit;
  }
  void Change(size_t parallelism, int delta) {
    std::lock_guard lock(mutex_);
    if (delta > 0) {
      requested_.insert(parallelism);
    } else {
      requested_.erase(requested_.find(parallelism));
    }
    size_t wanted = requested_.empty() ? 0 : *requested_.rbegin();
    if (wanted == current_) return;
    control_.reset();  // only one of ours may be live: the minimum would win
    if (wanted) control_ = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, wanted);
    current_ = wanted;
  }
  std::mutex mutex_;
  std::multiset<size_t> requested_;
  size_t current_ = 0;
  std::unique_ptr<tbb::global_control> control_;
};

class TaskArenaExecutor final : public CpuExecutor {
 public:
  explicit TaskArenaExecutor(const TaskArenaOptions& options)
      : cpus_(ProcessCpus()),
        workers_(options.worker_count ? options.worker_count : static_cast<uint32_t>(cpus_.size())),
        arena_(static_cast<int>(workers_), /*reserved_for_masters=*/0) {
    // oneTBB keeps (allowed parallelism - 1) worker threads, reserving one slot for an
    // application thread. Submitted work runs on workers only while the application
    // thread waits on a semaphore, so ask for one more to get `workers_` workers.
    ParallelismLimit::Acquire(workers_ + 1);
    if (options.pin_workers) pinning_ = std::make_unique<WorkerPinning>();
    arena_.initialize();
  }

  ~TaskArenaExecutor() override {
    arena_.terminate();
    pinning_.reset();
    ParallelismLimit::Release(workers_ + 1);
  }

  uint32_t worker_count() const override { return workers_; }

  void ParallelFor(size_t count, size_t grain, const Body& body) override {
    if (count == 0) return;
    void* edge = const_cast<Body*>(&body);
    auto run = [&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(0, count, std::max<size_t>(grain, 1)),
                        [&](const tbb::blocked_range<size_t>& range) {
                          KILN_HAPPENS_AFTER(edge);
                          if (pinning_) PinToSlotCpu();
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
    if (pinning_) PinToSlotCpu();
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
  // Called at the start of every task this executor runs. Only workers run those tasks:
  // Submit enqueues (workers only) and ParallelFor is only called from submitted tasks, so
  // an application thread is never moved. (A task_scheduler_observer would pin on arena
  // entry, but oneTBB frees observer proxies lazily and leaks them when the arena dies.)
  void PinToSlotCpu() {
    int slot = tbb::this_task_arena::current_thread_index();
    if (slot >= 0) WorkerPinning::PinCurrentThread(cpus_[static_cast<size_t>(slot) % cpus_.size()]);
  }

  std::vector<int> cpus_;
  uint32_t workers_;
  tbb::task_arena arena_;
  std::unique_ptr<WorkerPinning> pinning_;
};

}  // namespace

std::unique_ptr<CpuExecutor> CreateTaskArenaExecutor(const TaskArenaOptions& options) {
  return std::make_unique<TaskArenaExecutor>(options);
}

}  // namespace kiln::cpu
