// Signals, and how the simulator waits: it spins briefly (CpuRelax), then sleeps on a Waiter.
//
// A Signal is an atomic int64 plus a list of registered Waiters. Updates (store, add, ...)
// wake the registered waiters; when nobody is registered an update costs one fence and one
// load. A Waiter is a wake-up flag with a condition variable; one Waiter can be registered on
// several signals at once (hsa_amd_signal_wait_any, barrier-AND/OR packets) and can also be
// woken directly (a packet processor is woken by its doorbell, by completing dispatches and by
// hsa_queue_destroy through the same Waiter).
//
// No lost wake-ups: a waiter registers (an RMW on the signal's waiter count) and then re-reads
// the values it waits on; an updater changes the value and then reads the waiter count with an
// RMW. Either the waiter sees the new value or the updater sees the waiter and wakes it, and a
// Wake that comes before the Sleep is remembered by the flag. Abandon takes the waiters' lock,
// which every registration also takes.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim {

using Clock = std::chrono::steady_clock;

// One step of a spin-wait: a pause instruction, or a yield where there is none.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// The memory order of a failed compare-exchange whose success order is `order` (the strongest
// one allowed: a failure has no release part).
constexpr std::memory_order CasFailureOrder(std::memory_order order) {
  return order == std::memory_order_acq_rel   ? std::memory_order_acquire
         : order == std::memory_order_release ? std::memory_order_relaxed
                                              : order;
}

class Waiter {
 public:
  void Wake() {
    std::lock_guard lock(mu_);
    woken_ = true;
    cv_.notify_one();
  }
  // Returns once woken (by a Wake since the last Sleep returned) or at `deadline`
  // (Clock::time_point::max(): no deadline).
  void SleepUntil(Clock::time_point deadline) {
    std::unique_lock lock(mu_);
    if (deadline == Clock::time_point::max()) {
      cv_.wait(lock, [&] { return woken_; });
    } else {
      cv_.wait_until(lock, deadline, [&] { return woken_; });
    }
    woken_ = false;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool woken_ = false;
};

class Signal {
 public:
  explicit Signal(int64_t value, bool is_doorbell = false) : value_(value), is_doorbell_(is_doorbell) {}
  Signal(const Signal&) = delete;
  Signal& operator=(const Signal&) = delete;

  int64_t Load(std::memory_order order) const { return value_.load(order); }
  void Store(int64_t value, std::memory_order order) {
    value_.store(value, order);
    Notify();
  }
  // hsa_signal_silent_store_*: changes the value without waking anyone, except on a doorbell,
  // where a silent store still rings (the packet processor must not sleep through it).
  void SilentStore(int64_t value, std::memory_order order) {
    value_.store(value, order);
    if (is_doorbell_) Notify();
  }
  int64_t Exchange(int64_t value, std::memory_order order) {
    int64_t old = value_.exchange(value, order);
    Notify();
    return old;
  }
  // Returns the observed value; stores `value` when it equals `expected`.
  int64_t CompareExchange(int64_t expected, int64_t value, std::memory_order order);
  void Add(int64_t value, std::memory_order order) {
    value_.fetch_add(value, order);
    Notify();
  }
  void Subtract(int64_t value, std::memory_order order) {
    value_.fetch_sub(value, order);
    Notify();
  }
  void And(int64_t value, std::memory_order order) {
    value_.fetch_and(value, order);
    Notify();
  }
  void Or(int64_t value, std::memory_order order) {
    value_.fetch_or(value, order);
    Notify();
  }
  void Xor(int64_t value, std::memory_order order) {
    value_.fetch_xor(value, order);
    Notify();
  }

  void AddWaiter(Waiter* waiter);
  void RemoveWaiter(Waiter* waiter);

  // The runtime is shutting down: every wait on this signal returns now and from now on.
  void Abandon();
  bool abandoned() const { return abandoned_.load(std::memory_order_acquire); }

  // A queue's doorbell: the application must not destroy it.
  bool is_doorbell() const { return is_doorbell_; }

  // Profiling (hsa_amd_profiling_get_dispatch_time): the system-timestamp ticks of the last
  // dispatch of a profiling queue that completed this signal, recorded by the agent that ran
  // it just before it decremented the signal (so whoever saw the decrement sees them).
  struct DispatchTime {
    const void* agent = nullptr;  // the Agent that ran it; null: none recorded
    uint64_t start = 0;
    uint64_t end = 0;
  };
  void RecordDispatchTime(const DispatchTime& time) {
    std::lock_guard lock(profile_mu_);
    dispatch_time_ = time;
  }
  DispatchTime dispatch_time() const {
    std::lock_guard lock(profile_mu_);
    return dispatch_time_;
  }

 private:
  void Notify();

  std::atomic<int64_t> value_;
  const bool is_doorbell_;
  std::atomic<bool> abandoned_{false};
  std::atomic<uint32_t> waiter_count_{0};
  std::mutex waiters_mu_;
  std::vector<Waiter*> waiters_;
  mutable std::mutex profile_mu_;
  DispatchTime dispatch_time_;  // guarded by profile_mu_
};

// Registers a waiter on a set of signals for the lifetime of the object.
class WaitRegistration {
 public:
  WaitRegistration(std::span<Signal* const> signals, Waiter* waiter) : signals_(signals), waiter_(waiter) {
    for (Signal* s : signals_) s->AddWaiter(waiter_);
  }
  ~WaitRegistration() {
    for (Signal* s : signals_) s->RemoveWaiter(waiter_);
  }
  WaitRegistration(const WaitRegistration&) = delete;
  WaitRegistration& operator=(const WaitRegistration&) = delete;

 private:
  std::span<Signal* const> signals_;
  Waiter* waiter_;
};

bool ConditionHolds(hsa_signal_condition_t condition, int64_t value, int64_t compare_value);

// The deadline `timeout_ns` (HSA timestamp units, 1 ns) from now; UINT64_MAX: none.
Clock::time_point DeadlineAfter(uint64_t timeout_ns);

// Waits until signals[i] satisfies conditions[i] against compare_values[i] for some i, the
// deadline passes, or a signal is abandoned. Spins for `spin`, then sleeps. Returns that index
// (and its value in *observed), or -1 (with *observed the last value of signals[0]).
int WaitAny(std::span<Signal* const> signals, const hsa_signal_condition_t* conditions, const int64_t* compare_values,
            Clock::time_point deadline, Clock::duration spin, std::memory_order order, int64_t* observed);

}  // namespace kiln::hsa_sim
