// Signals: the Signal object, waiting, and the hsa_signal_* / hsa_amd_signal_wait_any API.
//
// Memory orders follow the function names (scacquire: acquire, screlease: release,
// scacq_screl: acq_rel). The functions that cannot return a status (loads, stores, waits) do
// nothing and return 0 for an invalid handle, with kiln_hsa_sim_last_error() saying why.
#include <algorithm>

#include "drivers/hip/sim/runtime.h"
#include "drivers/hip/sim/signal.h"

namespace kiln::hsa_sim {
namespace {

// How long a waiter polls before it sleeps, by its wait-state hint. ACTIVE: long enough to
// catch a completion that is about to happen without a context switch, short enough not to
// starve the simulator's threads on a small machine. BLOCKED: the caller prefers sleeping
// (a driver's completion thread, say); it polls only briefly, so a thread that waits all the
// time does not hold a core the simulated GPU needs.
constexpr auto kActiveSpin = std::chrono::microseconds(20);
constexpr auto kBlockedSpin = std::chrono::microseconds(2);

Clock::duration SpinFor(hsa_wait_state_t hint) {
  return hint == HSA_WAIT_STATE_ACTIVE ? Clock::duration(kActiveSpin) : Clock::duration(kBlockedSpin);
}

}  // namespace

int64_t Signal::CompareExchange(int64_t expected, int64_t value, std::memory_order order) {
  if (value_.compare_exchange_strong(expected, value, order, CasFailureOrder(order))) Notify();
  return expected;  // the observed value either way
}

void Signal::AddWaiter(Waiter* waiter) {
  std::lock_guard lock(waiters_mu_);
  waiters_.push_back(waiter);
  // An RMW, like Notify's: see there.
  waiter_count_.fetch_add(1, std::memory_order_seq_cst);
}

void Signal::RemoveWaiter(Waiter* waiter) {
  std::lock_guard lock(waiters_mu_);
  auto it = std::find(waiters_.begin(), waiters_.end(), waiter);
  if (it != waiters_.end()) {
    waiters_.erase(it);
    waiter_count_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void Signal::Notify() {
  // Reads the waiter count with an RMW (adding 0) rather than a load after a fence: all RMWs
  // on the count are totally ordered, so either this one comes after a waiter's registration
  // (and sees it), or the registration comes after this one and synchronizes with it, and the
  // waiter's next read of the value sees the update. ThreadSanitizer understands this;
  // it does not understand fences.
  if (waiter_count_.fetch_add(0, std::memory_order_seq_cst) == 0) return;
  std::lock_guard lock(waiters_mu_);
  for (Waiter* waiter : waiters_) waiter->Wake();
}

void Signal::Abandon() {
  abandoned_.store(true, std::memory_order_release);
  std::lock_guard lock(waiters_mu_);
  for (Waiter* waiter : waiters_) waiter->Wake();
}

bool ConditionHolds(hsa_signal_condition_t condition, int64_t value, int64_t compare_value) {
  switch (condition) {
    case HSA_SIGNAL_CONDITION_EQ:
      return value == compare_value;
    case HSA_SIGNAL_CONDITION_NE:
      return value != compare_value;
    case HSA_SIGNAL_CONDITION_LT:
      return value < compare_value;
    case HSA_SIGNAL_CONDITION_GTE:
      return value >= compare_value;
  }
  return false;
}

Clock::time_point DeadlineAfter(uint64_t timeout_ns) {
  if (timeout_ns == UINT64_MAX) return Clock::time_point::max();
  Clock::time_point now = Clock::now();
  auto room = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::time_point::max() - now);
  if (timeout_ns >= static_cast<uint64_t>(room.count())) return Clock::time_point::max();
  return now + std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(timeout_ns));
}

int WaitAny(std::span<Signal* const> signals, const hsa_signal_condition_t* conditions, const int64_t* compare_values,
            Clock::time_point deadline, Clock::duration spin, std::memory_order order, int64_t* observed) {
  auto satisfied = [&]() -> int {
    for (size_t i = 0; i < signals.size(); ++i) {
      int64_t value = signals[i]->Load(order);
      if (ConditionHolds(conditions[i], value, compare_values[i])) {
        *observed = value;
        return static_cast<int>(i);
      }
    }
    return -1;
  };
  auto abandoned = [&] {
    return std::any_of(signals.begin(), signals.end(), [](Signal* s) { return s->abandoned(); });
  };
  auto give_up = [&] {
    *observed = signals[0]->Load(order);
    return -1;
  };

  Clock::time_point spin_end = std::min(deadline, Clock::now() + spin);
  while (true) {
    if (int i = satisfied(); i >= 0) return i;
    if (abandoned()) return give_up();
    if (Clock::now() >= spin_end) break;
    for (int k = 0; k < 16; ++k) CpuRelax();
  }
  Waiter waiter;
  WaitRegistration registration(signals, &waiter);
  while (true) {
    if (int i = satisfied(); i >= 0) return i;
    if (abandoned() || Clock::now() >= deadline) return give_up();
    waiter.SleepUntil(deadline);
  }
}

namespace {

// The signal behind `handle` for an entry point that cannot return a status.
std::shared_ptr<Signal> SignalFor(const char* function, hsa_signal_t signal) {
  Session* session = EnterLeafApi(function);
  if (!session) return nullptr;
  if (signal.handle == 0) {
    SetLastError("the signal handle is 0");
    return nullptr;
  }
  std::shared_ptr<Signal> s = session->signals.Find(signal.handle);
  if (!s) SetLastError(StrCat("signal ", Hex(signal.handle), " is not a live signal of this runtime"));
  return s;
}

bool ValidCondition(const hsa_signal_condition_t& condition) {
  int64_t raw = RawEnum(condition);
  return raw >= HSA_SIGNAL_CONDITION_EQ && raw <= HSA_SIGNAL_CONDITION_GTE;
}

hsa_signal_value_t WaitOne(const char* function, hsa_signal_t signal, hsa_signal_condition_t condition,
                           hsa_signal_value_t compare_value, uint64_t timeout_hint, hsa_wait_state_t hint,
                           std::memory_order order) {
  std::shared_ptr<Signal> s = SignalFor(function, signal);
  if (!s) return 0;
  if (!ValidCondition(condition)) {
    SetLastError(StrCat("condition ", RawEnum(condition), " is not an hsa_signal_condition_t"));
    return s->Load(order);
  }
  Signal* signals[1] = {s.get()};
  int64_t observed = 0;
  WaitAny(signals, &condition, &compare_value, DeadlineAfter(timeout_hint), SpinFor(hint), order, &observed);
  return observed;
}

}  // namespace
}  // namespace kiln::hsa_sim

using namespace kiln::hsa_sim;
using kiln::StrCat;

extern "C" {

hsa_status_t HSA_API hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                       const hsa_agent_t* consumers, hsa_signal_t* signal) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (signal == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "signal (the output) is null");
  if (num_consumers > 0 && consumers == nullptr) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "num_consumers is ", num_consumers, " but consumers is null");
  }
  for (uint32_t i = 0; i < num_consumers; ++i) {
    if (!session->FindAgent(consumers[i])) {
      return Fail(HSA_STATUS_ERROR_INVALID_AGENT, "consumers[", i, "] (", Hex(consumers[i].handle),
                  ") is not an agent of this runtime");
    }
    for (uint32_t j = 0; j < i; ++j) {
      if (consumers[j].handle == consumers[i].handle) {
        return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "consumers[", j, "] and consumers[", i, "] are the same agent");
      }
    }
  }
  return RegisterHandle(session->signals, std::make_shared<Signal>(initial_value), signal);
}

hsa_status_t HSA_API hsa_signal_destroy(hsa_signal_t signal) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (signal.handle == 0) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "the signal handle is 0");
  std::shared_ptr<Signal> s = session->signals.Find(signal.handle);
  if (!s)
    return Fail(HSA_STATUS_ERROR_INVALID_SIGNAL, "signal ", Hex(signal.handle),
                " is not a live signal of this runtime");
  if (s->is_doorbell()) {
    return Fail(HSA_STATUS_ERROR_INVALID_SIGNAL, "signal ", Hex(signal.handle),
                " is a queue's doorbell; hsa_queue_destroy releases it");
  }
  session->signals.Remove(signal.handle);
  // Whoever still waits on it (undefined in HSA) returns instead of waiting forever.
  s->Abandon();
  return HSA_STATUS_SUCCESS;
}

hsa_signal_value_t HSA_API hsa_signal_load_scacquire(hsa_signal_t signal) {
  auto s = SignalFor(__func__, signal);
  return s ? s->Load(std::memory_order_acquire) : 0;
}

hsa_signal_value_t HSA_API hsa_signal_load_relaxed(hsa_signal_t signal) {
  auto s = SignalFor(__func__, signal);
  return s ? s->Load(std::memory_order_relaxed) : 0;
}

void HSA_API hsa_signal_store_relaxed(hsa_signal_t signal, hsa_signal_value_t value) {
  if (auto s = SignalFor(__func__, signal)) s->Store(value, std::memory_order_relaxed);
}

void HSA_API hsa_signal_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  if (auto s = SignalFor(__func__, signal)) s->Store(value, std::memory_order_release);
}

void HSA_API hsa_signal_silent_store_relaxed(hsa_signal_t signal, hsa_signal_value_t value) {
  if (auto s = SignalFor(__func__, signal)) s->SilentStore(value, std::memory_order_relaxed);
}

void HSA_API hsa_signal_silent_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  if (auto s = SignalFor(__func__, signal)) s->SilentStore(value, std::memory_order_release);
}

#define KILN_SIGNAL_EXCHANGE(suffix, order)                                                                \
  hsa_signal_value_t HSA_API hsa_signal_exchange_##suffix(hsa_signal_t signal, hsa_signal_value_t value) { \
    auto s = SignalFor(__func__, signal);                                                                  \
    return s ? s->Exchange(value, order) : 0;                                                              \
  }                                                                                                        \
  hsa_signal_value_t HSA_API hsa_signal_cas_##suffix(hsa_signal_t signal, hsa_signal_value_t expected,     \
                                                     hsa_signal_value_t value) {                           \
    auto s = SignalFor(__func__, signal);                                                                  \
    return s ? s->CompareExchange(expected, value, order) : 0;                                             \
  }
KILN_SIGNAL_EXCHANGE(scacq_screl, std::memory_order_acq_rel)
KILN_SIGNAL_EXCHANGE(scacquire, std::memory_order_acquire)
KILN_SIGNAL_EXCHANGE(relaxed, std::memory_order_relaxed)
KILN_SIGNAL_EXCHANGE(screlease, std::memory_order_release)
#undef KILN_SIGNAL_EXCHANGE

#define KILN_SIGNAL_RMW(op, method, suffix, order)                                         \
  void HSA_API hsa_signal_##op##_##suffix(hsa_signal_t signal, hsa_signal_value_t value) { \
    if (auto s = SignalFor(__func__, signal)) s->method(value, order);                     \
  }
#define KILN_SIGNAL_RMW_ALL(op, method)                               \
  KILN_SIGNAL_RMW(op, method, scacq_screl, std::memory_order_acq_rel) \
  KILN_SIGNAL_RMW(op, method, scacquire, std::memory_order_acquire)   \
  KILN_SIGNAL_RMW(op, method, relaxed, std::memory_order_relaxed)     \
  KILN_SIGNAL_RMW(op, method, screlease, std::memory_order_release)
KILN_SIGNAL_RMW_ALL(add, Add)
KILN_SIGNAL_RMW_ALL(subtract, Subtract)
KILN_SIGNAL_RMW_ALL(and, And)
KILN_SIGNAL_RMW_ALL(or, Or)
KILN_SIGNAL_RMW_ALL(xor, Xor)
#undef KILN_SIGNAL_RMW_ALL
#undef KILN_SIGNAL_RMW

hsa_signal_value_t HSA_API hsa_signal_wait_scacquire(hsa_signal_t signal, hsa_signal_condition_t condition,
                                                     hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                                     hsa_wait_state_t wait_state_hint) {
  return WaitOne(__func__, signal, condition, compare_value, timeout_hint, wait_state_hint, std::memory_order_acquire);
}

hsa_signal_value_t HSA_API hsa_signal_wait_relaxed(hsa_signal_t signal, hsa_signal_condition_t condition,
                                                   hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                                   hsa_wait_state_t wait_state_hint) {
  return WaitOne(__func__, signal, condition, compare_value, timeout_hint, wait_state_hint, std::memory_order_relaxed);
}

// HSA promises only relaxed ordering here; the simulator loads with acquire, which is allowed
// and lets ThreadSanitizer see the completion -> reader edge without a separate fence.
uint32_t HSA_API hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t* signals, hsa_signal_condition_t* conds,
                                         hsa_signal_value_t* values, uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                         hsa_signal_value_t* satisfying_value) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return UINT32_MAX;
  if (signal_count == 0 || signals == nullptr || conds == nullptr || values == nullptr) {
    SetLastError("signal_count is 0 or signals, conds or values is null");
    return UINT32_MAX;
  }
  std::vector<std::shared_ptr<Signal>> held(signal_count);
  std::vector<Signal*> raw(signal_count);
  for (uint32_t i = 0; i < signal_count; ++i) {
    held[i] = signals[i].handle ? session->signals.Find(signals[i].handle) : nullptr;
    if (!held[i]) {
      SetLastError(StrCat("signals[", i, "] (", Hex(signals[i].handle), ") is not a live signal of this runtime"));
      return UINT32_MAX;
    }
    if (!ValidCondition(conds[i])) {
      SetLastError(StrCat("conds[", i, "] = ", RawEnum(conds[i]), " is not an hsa_signal_condition_t"));
      return UINT32_MAX;
    }
    raw[i] = held[i].get();
  }
  int64_t observed = 0;
  int index = WaitAny(raw, conds, values, DeadlineAfter(timeout_hint), SpinFor(wait_hint), std::memory_order_acquire,
                      &observed);
  if (index < 0) return UINT32_MAX;
  if (satisfying_value) *satisfying_value = observed;
  return static_cast<uint32_t>(index);
}

}  // extern "C"
