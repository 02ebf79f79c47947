// Timeline semaphores: a monotonically increasing 64-bit value that queue operations wait on
// and signal, with a failed state that carries the Status of what went wrong.
//
// Once failed, a semaphore stays failed: waits and queries return its failure, signals are
// refused, and pending callbacks receive the failure. A semaphore destroyed with pending
// callbacks runs them with CANCELLED so that nothing waits forever on it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "base/time.h"

namespace kiln::hal {

class Semaphore final : public RefCounted {
 public:
  static Ref<Semaphore> Create(uint64_t initial_value = 0);
  ~Semaphore() override;

  // The current value, or the failure.
  StatusOr<uint64_t> Query() const;
  // Advances the value. Fails if `value` is not greater than the current one or the
  // semaphore has failed.
  Status Signal(uint64_t value);
  // Fails the semaphore with `status` (not OK). Only the first failure is kept.
  void Fail(Status status);
  // Blocks until the value reaches `value`, the semaphore fails (returns the failure with
  // context) or the deadline passes (DEADLINE_EXCEEDED). Spins briefly before sleeping.
  Status Wait(uint64_t value, Deadline deadline);

  // Calls `callback` once with OK when the value reaches `value`, or with the failure.
  // Runs it right away on this thread if that has already happened; otherwise on the thread
  // that signals or fails the semaphore, after its lock is released.
  using Callback = std::function<void(const Status&)>;
  void OnReach(uint64_t value, Callback callback);

 private:
  explicit Semaphore(uint64_t initial_value) : value_(initial_value) {}
  struct Timepoint {
    uint64_t value;
    Callback callback;
  };

  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<uint64_t> value_;
  std::atomic<bool> failed_{false};
  Status failure_;  // guarded by mutex_; set once
  int sleepers_ = 0;
  std::vector<Timepoint> timepoints_;
};

struct SemaphoreValue {
  Ref<Semaphore> semaphore;
  uint64_t value = 0;
};
using SemaphoreList = std::span<const SemaphoreValue>;

// Waits until every semaphore in `list` reaches its value (or one fails, or the deadline).
Status WaitAll(SemaphoreList list, Deadline deadline);
// Fails every semaphore in `list` with `status`.
void FailAll(SemaphoreList list, const Status& status);
// Signals every semaphore in `list` to its value; one that refuses (failed, or already at or
// past the value) is failed with the reason, so that its waiters wake.
void SignalAll(SemaphoreList list);
// Calls `then` exactly once, when every semaphore in `list` has reached its value (OK) or
// each has either reached it or failed (the first failure seen). Runs on the thread that
// makes the last one resolve, or right here if all have.
void WhenAllReached(SemaphoreList list, std::function<void(const Status&)> then);

}  // namespace kiln::hal
