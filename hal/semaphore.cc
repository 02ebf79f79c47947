#include "hal/semaphore.h"

#include <sched.h>

#include <thread>

#include "base/trace.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace kiln::hal {
namespace {

// How long a waiter spins before it sleeps. Dispatches that finish within this window are
// seen without a futex wake-up (a few microseconds each way on this machine kind).
constexpr auto kSpinDuration = std::chrono::microseconds(30);
// After a short pure spin (enough for a hot dispatch on another CPU), the spin yields the
// CPU between bursts: with as many workers as CPUs, the waiter must not keep the worker
// pinned to its CPU from running the very work it waits for (that cost ~40 us for a
// dispatch needing every worker).
constexpr auto kPureSpinDuration = std::chrono::microseconds(4);
constexpr int kPausesPerYield = 32;

inline void CpuRelax() {
#if defined(__x86_64__)
  _mm_pause();
#endif
}

}  // namespace

Ref<Semaphore> Semaphore::Create(uint64_t initial_value) { return Ref<Semaphore>(new Semaphore(initial_value)); }

Semaphore::~Semaphore() {
  std::vector<Timepoint> pending;
  {
    std::lock_guard lock(mutex_);
    pending.swap(timepoints_);
  }
  for (Timepoint& tp : pending) {
    tp.callback(CancelledError("semaphore destroyed before reaching value ", tp.value, " (it was at ",
                               value_.load(), ")"));
  }
}

StatusOr<uint64_t> Semaphore::Query() const {
  if (failed_.load(std::memory_order_acquire)) {
    std::lock_guard lock(mutex_);
    return failure_;
  }
  return value_.load(std::memory_order_acquire);
}

Status Semaphore::Signal(uint64_t value) {
  std::vector<Timepoint> ready;
  {
    std::lock_guard lock(mutex_);
    if (failed_.load(std::memory_order_relaxed)) {
      return failure_.With("while signaling a failed semaphore to ", value);
    }
    uint64_t current = value_.load(std::memory_order_relaxed);
    if (value <= current) {
      return InvalidArgumentError("semaphore signaled to ", value, " but it is already at ", current,
                                  "; timeline values must increase");
    }
    value_.store(value, std::memory_order_release);
    for (size_t i = 0; i < timepoints_.size();) {
      if (timepoints_[i].value <= value) {
        ready.push_back(std::move(timepoints_[i]));
        timepoints_[i] = std::move(timepoints_.back());
        timepoints_.pop_back();
      } else {
        ++i;
      }
    }
    if (sleepers_ > 0) cv_.notify_all();
  }
  for (Timepoint& tp : ready) tp.callback(OkStatus());
  return OkStatus();
}

void Semaphore::Fail(Status status) {
  if (status.ok()) status = InternalError("semaphore failed with an OK status");
  std::vector<Timepoint> pending;
  {
    std::lock_guard lock(mutex_);
    if (failed_.load(std::memory_order_relaxed)) return;
    failure_ = std::move(status);
    failed_.store(true, std::memory_order_release);
    pending.swap(timepoints_);
    if (sleepers_ > 0) cv_.notify_all();
  }
  Status failure = failure_;  // immutable from here on
  for (Timepoint& tp : pending) tp.callback(failure);
}

Status Semaphore::Wait(uint64_t value, Deadline deadline) {
  auto reached = [&] {
    return value_.load(std::memory_order_acquire) >= value || failed_.load(std::memory_order_acquire);
  };
  if (!reached() && !deadline.Expired()) {
    Clock::time_point start = Clock::now();
    Clock::time_point yield_after = start + kPureSpinDuration, spin_until = start + kSpinDuration;
    for (Clock::time_point now = start; !reached() && now < spin_until; now = Clock::now()) {
      for (int i = 0; i < kPausesPerYield && !reached(); ++i) CpuRelax();
      if (now >= yield_after && !reached()) sched_yield();
    }
  }
  std::unique_lock lock(mutex_);
  if (!reached() && !deadline.Expired()) {
    ++sleepers_;
    if (deadline.is_infinite()) {
      cv_.wait(lock, reached);
    } else {
      cv_.wait_until(lock, deadline.at(), reached);
    }
    --sleepers_;
  }
  if (failed_.load(std::memory_order_relaxed)) {
    return failure_.With("while waiting for a semaphore to reach ", value);
  }
  uint64_t current = value_.load(std::memory_order_relaxed);
  if (current >= value) return OkStatus();
  return DeadlineExceededError("semaphore did not reach ", value, " before the deadline (it is at ", current, ")");
}

void Semaphore::OnReach(uint64_t value, Callback callback) {
  Status result;
  {
    std::lock_guard lock(mutex_);
    if (failed_.load(std::memory_order_relaxed)) {
      result = failure_;
    } else if (value_.load(std::memory_order_relaxed) < value) {
      timepoints_.push_back({value, std::move(callback)});
      return;
    }
  }
  callback(result);
}

Status WaitAll(SemaphoreList list, Deadline deadline) {
  trace::Scope scope("wait", "wait");
  if (scope.enabled()) scope.Arg("semaphores", StrCat(list.size()));
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].semaphore) return InvalidArgumentError("semaphore ", i, " of a wait list is null");
    KILN_RETURN_IF_ERROR(list[i].semaphore->Wait(list[i].value, deadline));
  }
  return OkStatus();
}

void FailAll(SemaphoreList list, const Status& status) {
  for (const SemaphoreValue& sv : list) {
    if (sv.semaphore) sv.semaphore->Fail(status);
  }
}

void SignalAll(SemaphoreList list) {
  for (const SemaphoreValue& sv : list) {
    Status signaled = sv.semaphore->Signal(sv.value);
    if (!signaled.ok()) sv.semaphore->Fail(signaled);
  }
}

void WhenAllReached(SemaphoreList list, std::function<void(const Status&)> then) {
  struct Join {
    std::atomic<size_t> pending;
    std::mutex mutex;
    Status failure;
    std::function<void(const Status&)> then;
    void Resolve(const Status& status) {
      if (!status.ok()) {
        std::lock_guard lock(mutex);
        if (failure.ok()) failure = status;
      }
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        Status result;
        {
          std::lock_guard lock(mutex);
          result = failure;
        }
        then(result);
      }
    }
  };
  auto join = std::make_shared<Join>();
  join->then = std::move(then);
  // One extra count keeps `then` from running before every callback is registered.
  join->pending.store(list.size() + 1, std::memory_order_relaxed);
  for (const SemaphoreValue& sv : list) {
    sv.semaphore->OnReach(sv.value, [join](const Status& status) { join->Resolve(status); });
  }
  join->Resolve(OkStatus());
}

}  // namespace kiln::hal
