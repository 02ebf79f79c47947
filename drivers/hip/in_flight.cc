#include "drivers/hip/in_flight.h"

namespace kiln::hip {

void InFlight::Clear() {
  signal.clear();
  command_buffers.clear();
  device_waits.clear();
  keep.clear();
  programs.clear();
  checked_programs.clear();
  run_signals.clear();
  copy_runs.clear();
  dispatch_count = 0;
  traced = false;
  dispatch_signals.clear();
  dispatches.clear();
  failure = OkStatus();
  emitting = true;
  trace_start_ns = -1;
  trace_args.clear();
}

std::unique_ptr<InFlight> InFlightPool::Take() {
  {
    std::lock_guard lock(mutex_);
    if (!spare_.empty()) {
      std::unique_ptr<InFlight> record = std::move(spare_.back());
      spare_.pop_back();
      return record;
    }
  }
  return std::make_unique<InFlight>();
}

void InFlightPool::Give(std::unique_ptr<InFlight> record) {
  record->Clear();
  std::lock_guard lock(mutex_);
  if (spare_.size() < kMaxSpare) spare_.push_back(std::move(record));
}

}  // namespace kiln::hip
