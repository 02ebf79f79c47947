#include "drivers/cpu/cpu_device.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "base/trace.h"
#include "drivers/cpu/command_executor.h"
#include "drivers/cpu/cpu_executable.h"
#include "drivers/cpu/host_memory.h"

namespace kiln::cpu {
namespace {

constexpr uint32_t kMaxLocalMemoryBytes = 1u << 20;
constexpr size_t kMaxRetainedTransientBytes = size_t{512} << 20;

// The part of a device that queue operations still reach after the device is gone: pending
// operations hold it through their semaphore callbacks. Once `accepting` is false they fail
// their signals instead of running.
struct QueueLink {
  std::mutex mutex;
  std::condition_variable idle_cv;
  bool accepting = true;
  uint64_t in_flight = 0;  // accepted and not finished, including those waiting on semaphores
  uint64_t executing = 0;  // handed to the executor and not finished; these use the device
  CpuExecutor* executor = nullptr;

  void Finish() {
    std::lock_guard lock(mutex);
    if (--in_flight == 0) idle_cv.notify_all();
  }
};

// One queue operation: runs `action` once every wait is reached, then signals (or fails)
// the signal list with its result.
struct Submission {
  std::vector<hal::SemaphoreValue> signal;
  std::function<Status()> action;
  bool run_on_executor = false;  // false: cheap bookkeeping run on the resolving thread
  std::shared_ptr<QueueLink> link;

  void Complete(const Status& status) {
    if (status.ok()) {
      hal::SignalAll(signal);
    } else {
      hal::FailAll(signal, status);
    }
    link->Finish();
  }
};

// Runs once every wait has resolved; `waited` is the first failure among them, if any.
void RunWhenReady(const std::shared_ptr<Submission>& sub, const Status& waited) {
  if (!waited.ok()) return sub->Complete(waited.With("while waiting on a wait semaphore of a queue operation"));
  if (!sub->run_on_executor) return sub->Complete(sub->action());
  QueueLink& link = *sub->link;
  CpuExecutor* executor;
  {
    std::lock_guard lock(link.mutex);
    if (!link.accepting) {
      executor = nullptr;
    } else {
      executor = link.executor;
      ++link.executing;  // the device's destructor now waits for this operation
    }
  }
  if (!executor) return sub->Complete(CancelledError("device was destroyed before the queue operation's waits were met"));
  // Not under the lock: an inline executor runs the task here, and its completion may make
  // further operations ready on this thread.
  executor->Submit([sub] {
    Status status = sub->action();
    {
      std::lock_guard lock(sub->link->mutex);
      if (--sub->link->executing == 0) sub->link->idle_cv.notify_all();
    }
    sub->Complete(status);
  });
}

class CpuDevice final : public hal::Device {
 public:
  CpuDevice(ExecutionMode mode, std::unique_ptr<CpuExecutor> executor)
      : mode_(mode), executor_(std::move(executor)), local_memory_(executor_->worker_count()),
        transient_pool_(std::make_shared<HostBlockPool>(kMaxRetainedTransientBytes)),
        link_(std::make_shared<QueueLink>()) {
    info_.driver = mode == ExecutionMode::kTaskArena ? "cpu" : "cpu-sync";
    info_.name = mode == ExecutionMode::kTaskArena ? StrCat("CPU (oneTBB, ", executor_->worker_count(), " workers)")
                                                   : "CPU (inline, synchronous)";
    info_.worker_count = executor_->worker_count();
    info_.max_local_memory_bytes = kMaxLocalMemoryBytes;
    info_.executable_formats = {std::string(hal::kExecutableFormatElfX86_64)};
    link_->executor = executor_.get();
  }

  ~CpuDevice() override {
    std::unique_lock lock(link_->mutex);
    link_->accepting = false;
    link_->executor = nullptr;
    // Operations still waiting on semaphores will fail their signals when they resolve;
    // those already handed to the executor must finish before it is destroyed.
    link_->idle_cv.wait(lock, [&] { return link_->executing == 0; });
  }

  const hal::DeviceInfo& info() const override { return info_; }
  hal::Allocator& allocator() override { return allocator_; }

  StatusOr<Ref<hal::Executable>> CreateExecutable(const hal::ExecutableParams& params) override {
    return CpuExecutable::Load(this, params, {kMaxLocalMemoryBytes});
  }

  hal::QueueStatistics queue_statistics() const override {
    return {submissions_.load(), dispatches_.load(), transient_pool_->reserved_bytes(), 0};
  }

  StatusOr<Ref<hal::Buffer>> QueueAlloca(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                         const hal::BufferParams& params, size_t size) override {
    KILN_RETURN_IF_ERROR(ValidateQueueLists(wait, signal), "in queue_alloca");
    KILN_ASSIGN_OR_RETURN(const hal::HeapInfo* heap, hal::SelectHeap(allocator_.heaps(), params, size),
                          "in queue_alloca of ", size, " bytes");
    auto storage = MakeRef<TransientStorage>(transient_pool_, size);
    Ref<hal::Buffer> buffer =
        hal::Buffer::Create(storage, heap->memory_type | hal::MemoryType::kTransient, params.usage, params.access);
    Submit(wait, signal, [storage, size] {
      trace::Scope scope("allocation", "queue_alloca");
      if (scope.enabled()) scope.Arg("bytes", StrCat(size));
      return storage->Commit();
    }, /*run_on_executor=*/false);
    return buffer;
  }

  Status QueueDealloca(hal::SemaphoreList wait, hal::SemaphoreList signal, const Ref<hal::Buffer>& buffer) override {
    KILN_RETURN_IF_ERROR(ValidateQueueLists(wait, signal), "in queue_dealloca");
    if (!buffer) return InvalidArgumentError("queue_dealloca of a null buffer");
    auto* storage = dynamic_cast<TransientStorage*>(buffer->storage());
    if (!storage || buffer->byte_offset() != 0 || buffer->byte_length() != storage->size()) {
      return InvalidArgumentError("queue_dealloca needs a whole buffer made by queue_alloca of this device type");
    }
    Ref<TransientStorage> keep(storage);
    Submit(wait, signal, [keep] {
      trace::Scope scope("allocation", "queue_dealloca");
      if (scope.enabled()) scope.Arg("bytes", StrCat(keep->size()));
      keep->Decommit();
      return OkStatus();
    }, /*run_on_executor=*/false);
    return OkStatus();
  }

  Status QueueExecute(hal::SemaphoreList wait, hal::SemaphoreList signal,
                      std::span<const Ref<hal::CommandBuffer>> command_buffers) override {
    trace::Scope scope("queue", "queue_execute");
    if (scope.enabled()) scope.Arg("command_buffers", StrCat(command_buffers.size()));
    KILN_RETURN_IF_ERROR(ValidateQueueLists(wait, signal), "in queue_execute");
    KILN_RETURN_IF_ERROR(ValidateCommandBuffers(command_buffers), "in queue_execute");
    std::vector<Ref<hal::CommandBuffer>> cbs(command_buffers.begin(), command_buffers.end());
    submissions_.fetch_add(1, std::memory_order_relaxed);
    Submit(wait, signal, [this, cbs = std::move(cbs)] { return Execute(cbs); }, /*run_on_executor=*/true);
    return OkStatus();
  }

  Status WaitIdle(Deadline deadline) override {
    std::unique_lock lock(link_->mutex);
    auto idle = [&] { return link_->in_flight == 0; };
    if (deadline.is_infinite()) {
      link_->idle_cv.wait(lock, idle);
    } else if (!link_->idle_cv.wait_until(lock, deadline.at(), idle)) {
      return DeadlineExceededError(link_->in_flight, " queue operations were still pending at the deadline");
    }
    return OkStatus();
  }

 private:
  // Runs `action` once every wait is reached. Executor actions may use the device: they run
  // only while it accepts work, and its destructor waits for them.
  void Submit(hal::SemaphoreList wait, hal::SemaphoreList signal, std::function<Status()> action,
              bool run_on_executor) {
    auto sub = std::make_shared<Submission>();
    sub->signal.assign(signal.begin(), signal.end());
    sub->action = std::move(action);
    sub->run_on_executor = run_on_executor;
    sub->link = link_;
    {
      std::lock_guard lock(link_->mutex);
      ++link_->in_flight;
    }
    hal::WhenAllReached(wait, [sub](const Status& waited) { RunWhenReady(sub, waited); });
  }

  Status Execute(std::span<const Ref<hal::CommandBuffer>> cbs) {
    // cpu-sync may be entered from several application threads; its single worker slot of
    // local memory must not be shared.
    std::unique_lock<std::mutex> serial;
    if (mode_ == ExecutionMode::kInline) serial = std::unique_lock(inline_mutex_);
    trace::Scope scope("queue", "execute");
    if (scope.enabled()) scope.Arg("command_buffers", StrCat(cbs.size()));
    for (size_t i = 0; i < cbs.size(); ++i) {
      ExecutionCounters counters;
      Status status = ExecuteCommandBuffer(*cbs[i], *executor_, local_memory_, counters);
      dispatches_.fetch_add(counters.dispatches, std::memory_order_relaxed);
      KILN_RETURN_IF_ERROR(status, "while executing command buffer ", i, " of a queue_execute on '", info_.driver, "'");
    }
    return OkStatus();
  }

  ExecutionMode mode_;
  hal::DeviceInfo info_;
  CpuAllocator allocator_;
  std::unique_ptr<CpuExecutor> executor_;
  WorkerLocalMemory local_memory_;
  std::shared_ptr<HostBlockPool> transient_pool_;
  std::shared_ptr<QueueLink> link_;
  std::mutex inline_mutex_;
  std::atomic<uint64_t> submissions_{0};
  std::atomic<uint64_t> dispatches_{0};
};

}  // namespace

StatusOr<Ref<hal::Device>> CreateCpuDevice(ExecutionMode mode, const hal::DeviceOptions& options) {
  std::unique_ptr<CpuExecutor> executor;
  if (mode == ExecutionMode::kTaskArena) {
    executor = CreateTaskArenaExecutor({options.worker_count, options.pin_workers});
  } else {
    executor = CreateInlineExecutor();
  }
  return Ref<hal::Device>(new CpuDevice(mode, std::move(executor)));
}

}  // namespace kiln::cpu
