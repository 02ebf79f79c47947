// The compute-unit workers of a queue (see queue.h for the model): they run the workgroups of
// the kernel dispatches the packet processor (packet_processor.cc) launched, and complete each
// dispatch when its last workgroup finishes. A workgroup that traps raises the queue error.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "drivers/hip/sim/code_objects.h"
#include "drivers/hip/sim/queue.h"
#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {
namespace {

// Group segments start with this byte in every position: their contents are undefined at
// workgroup entry, and a twin that reads LDS before writing it should not see zeros.
constexpr int kGroupSegmentPoison = 0xa5;

}  // namespace

void Queue::WorkerMain() {
  StartSimThread(this);
  size_t group_bytes = (std::max<size_t>(agent_.config.lds_bytes, 64) + 63) / 64 * 64;
  std::unique_ptr<void, decltype(&std::free)> group(std::aligned_alloc(64, group_bytes), &std::free);
  std::unique_lock lock(work_mu_);
  while (!stop_.load(std::memory_order_acquire)) {
    std::shared_ptr<Dispatch> dispatch;
    uint64_t workgroup = 0;
    Clock::time_point earliest = Clock::time_point::max();
    Clock::time_point now = Clock::now();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      Dispatch& d = **it;
      if (d.not_before > now) {  // SLOW: not yet; later dispatches may go first
        earliest = std::min(earliest, d.not_before);
        continue;
      }
      dispatch = *it;
      workgroup = d.next_workgroup++;
      if (d.next_workgroup == d.total_workgroups) pending_.erase(it);
      break;
    }
    if (!dispatch) {
      if (earliest == Clock::time_point::max()) {
        work_cv_.wait(lock);
      } else {
        work_cv_.wait_until(lock, earliest);
      }
      continue;
    }
    lock.unlock();
    if (group) {
      RunWorkgroup(*dispatch, workgroup, group.get());
    } else {
      RaiseError(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "no memory for a worker's group segment");
      FinishWorkgroup(*dispatch, false);
    }
    dispatch.reset();
    lock.lock();
  }
}

void Queue::RunWorkgroup(Dispatch& d, uint64_t workgroup, void* group_segment) {
  if (!running() || d.failed.load(std::memory_order_relaxed)) return FinishWorkgroup(d, false);
  const hsa_kernel_dispatch_packet_t& p = d.packet;
  kiln_gpu_twin_workgroup_v1_t w{};
  uint64_t xy = uint64_t{d.workgroup_count[0]} * d.workgroup_count[1];
  w.workgroup_id[0] = static_cast<uint32_t>(workgroup % d.workgroup_count[0]);
  w.workgroup_id[1] = static_cast<uint32_t>(workgroup / d.workgroup_count[0] % d.workgroup_count[1]);
  w.workgroup_id[2] = static_cast<uint32_t>(workgroup / xy);
  w.workgroup_size[0] = p.workgroup_size_x;
  w.workgroup_size[1] = p.workgroup_size_y;
  w.workgroup_size[2] = p.workgroup_size_z;
  w.grid_size[0] = p.grid_size_x;
  w.grid_size[1] = p.grid_size_y;
  w.grid_size[2] = p.grid_size_z;
  w.wavefront_size = agent_.config.wavefront_size;
  w.group_segment = group_segment;
  w.group_segment_size = p.group_segment_size;
  std::memset(group_segment, kGroupSegmentPoison, p.group_segment_size);
  int result = d.kernel->entry(p.kernarg_address, &w);
  if (result != 0) {
    RaiseError(HSA_STATUS_ERROR_EXCEPTION, StrCat("kernel dispatch packet ", d.packet_id, " (kernel ", d.kernel->name,
                                                  "): workgroup (", w.workgroup_id[0], ", ", w.workgroup_id[1], ", ",
                                                  w.workgroup_id[2], ") trapped (the twin returned ", result, ")"));
  }
  FinishWorkgroup(d, result == 0);
}

void Queue::FinishWorkgroup(Dispatch& d, bool ok) {
  if (!ok) d.failed.store(true, std::memory_order_relaxed);
  if (d.finished.fetch_add(1, std::memory_order_acq_rel) + 1 != d.total_workgroups) return;
  // The last workgroup: every other workgroup's writes happen-before this point.
  if (!d.failed.load(std::memory_order_relaxed) && running()) {
    ApplyFence(d.release_scope, std::memory_order_release);
    agent_.dispatches_completed.fetch_add(1, std::memory_order_relaxed);
    if (d.completion) d.completion->Subtract(1, std::memory_order_release);
  }
  in_flight_.fetch_sub(1, std::memory_order_acq_rel);
  processor_waiter_.Wake();
}

}  // namespace kiln::hsa_sim
