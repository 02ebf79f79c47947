// Timeouts and deadlines on the monotonic clock.
#pragma once

#include <chrono>
#include <cstdint>

namespace kiln {

using Clock = std::chrono::steady_clock;

// A point in time after which a wait gives up. Infinite() never expires; Immediate() has
// always expired (a poll).
class Deadline {
 public:
  static Deadline Infinite() { return Deadline(Clock::time_point::max()); }
  static Deadline Immediate() { return Deadline(Clock::time_point::min()); }
  static Deadline After(std::chrono::nanoseconds timeout) {
    if (timeout.count() < 0) return Immediate();
    Clock::time_point now = Clock::now();
    if (timeout >= Clock::time_point::max() - now) return Infinite();
    return Deadline(now + timeout);
  }
  bool is_infinite() const { return at_ == Clock::time_point::max(); }
  bool Expired() const { return !is_infinite() && Clock::now() >= at_; }
  Clock::time_point at() const { return at_; }

 private:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  Clock::time_point at_;
};

}  // namespace kiln
