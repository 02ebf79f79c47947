// The compute-unit workers of a queue (see queue.h for the model): they run the workgroups of
// the kernel dispatches the packet processor (packet_processor.cc) launched, and complete each
// dispatch when its last workgroup finishes: a twin's entry, or, for a code-object kernel, the
// instruction-level executor (isa/executor.h). A workgroup that traps or fails raises the
// queue error; one whose access falls outside every allocation raises a memory fault.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "drivers/hip/sim/code_objects.h"
#include "drivers/hip/sim/isa/executor.h"
#include "drivers/hip/sim/paired_dispatch.h"
#include "drivers/hip/sim/queue.h"
#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {
namespace {

// Group segments start with this byte in every position: their contents are undefined at
// workgroup entry, and a twin that reads LDS before writing it should not see zeros.
constexpr int kGroupSegmentPoison = 0xa5;

// A group segment for a thread that runs workgroups: one agent's LDS, 64-byte aligned; null when out of memory.
std::unique_ptr<void, void (*)(void*)> AllocateGroupSegment(const AgentConfig& config) {
  size_t bytes = (std::max<size_t>(config.lds_bytes, 64) + 63) / 64 * 64;
  return {std::aligned_alloc(64, bytes), &std::free};
}

}  // namespace

bool Queue::ClaimWorkgroup(std::shared_ptr<Dispatch>* dispatch, uint64_t* workgroup, Clock::time_point* earliest) {
  *earliest = Clock::time_point::max();
  Clock::time_point now = Clock::time_point::min();
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    Dispatch& d = **it;
    if (d.not_before != Clock::time_point::min()) {
      if (now == Clock::time_point::min()) now = Clock::now();
      if (d.not_before > now) {  // SLOW: not yet; later dispatches may go first
        *earliest = std::min(*earliest, d.not_before);
        continue;
      }
    }
    *dispatch = *it;
    *workgroup = d.next_workgroup++;
    if (d.next_workgroup == d.total_workgroups) pending_.erase(it);
    return true;
  }
  return false;
}

void Queue::WorkerMain() {
  StartSimThread(this, "hsa-sim-cu");
  std::unique_ptr<void, void (*)(void*)> group = AllocateGroupSegment(agent_.config);
  std::unique_lock lock(work_mu_);
  while (!stop_.load(std::memory_order_acquire)) {
    std::shared_ptr<Dispatch> dispatch;
    uint64_t workgroup = 0;
    Clock::time_point earliest;
    if (!ClaimWorkgroup(&dispatch, &workgroup, &earliest)) {
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

void Queue::AnnouncePendingWork() {
  {
    std::lock_guard lock(work_mu_);
    if (!unannounced_) return;
    unannounced_ = false;
  }
  work_cv_.notify_one();  // unannounced work is one workgroup
}

void Queue::RunPendingWork() {
  if (!processor_group_) processor_group_ = AllocateGroupSegment(agent_.config);
  std::unique_lock lock(work_mu_);
  while (processor_group_ && running()) {
    std::shared_ptr<Dispatch> dispatch;
    uint64_t workgroup = 0;
    Clock::time_point earliest;
    if (!ClaimWorkgroup(&dispatch, &workgroup, &earliest)) break;
    lock.unlock();
    RunWorkgroup(*dispatch, workgroup, processor_group_.get());
    dispatch.reset();
    lock.lock();
  }
  // What is left may start later (SLOW) or is the workers' (no memory here): theirs now.
  bool announce = unannounced_ && !pending_.empty();
  unannounced_ = false;
  lock.unlock();
  if (announce) work_cv_.notify_all();
}

void Queue::RunWorkgroup(Dispatch& d, uint64_t workgroup, void* group_segment) {
  if (!running() || d.failed.load(std::memory_order_relaxed)) return FinishWorkgroup(d, false);
  const hsa_kernel_dispatch_packet_t& p = d.packet;
  const isa::Program* program = d.kernel->program.get();
  const void* kernarg = p.kernarg_address;
  if (d.paired && workgroup >= d.twin_workgroups) {  // both mode: the code object's half
    workgroup -= d.twin_workgroups;
    program = &d.paired->program();
    kernarg = d.paired->kernarg();
  }
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
  if (program) return FinishWorkgroup(d, RunCodeObjectWorkgroup(d, *program, kernarg, w.workgroup_id, group_segment));
  int result = d.kernel->entry(p.kernarg_address, &w);
  if (result != 0) {
    RaiseError(HSA_STATUS_ERROR_EXCEPTION, StrCat("kernel dispatch packet ", d.packet_id, " (kernel ", d.kernel->name,
                                                  "): workgroup (", w.workgroup_id[0], ", ", w.workgroup_id[1], ", ",
                                                  w.workgroup_id[2], ") trapped (the twin returned ", result, ")"));
  }
  FinishWorkgroup(d, result == 0);
}

bool Queue::RunCodeObjectWorkgroup(Dispatch& d, const isa::Program& program, const void* kernarg,
                                   const uint32_t workgroup_id[3], void* group_segment) {
  const hsa_kernel_dispatch_packet_t& p = d.packet;
  isa::WorkgroupLaunch launch;
  launch.program = &program;
  launch.memory = &session_.memory;
  launch.dispatch_packet = &d.packet;
  launch.queue = &hsa_;
  launch.queue_size = sizeof(hsa_);
  launch.dispatch_id = d.packet_id;
  launch.kernarg = kernarg;
  launch.group_segment = group_segment;
  launch.group_segment_size = p.group_segment_size;
  const uint32_t size[3] = {p.workgroup_size_x, p.workgroup_size_y, p.workgroup_size_z};
  const uint32_t grid[3] = {p.grid_size_x, p.grid_size_y, p.grid_size_z};
  for (int axis = 0; axis < 3; ++axis) {
    launch.workgroup_id[axis] = workgroup_id[axis];
    launch.workgroup_size[axis] = size[axis];
    launch.grid_size[axis] = grid[axis];
  }
  launch.interleave = session_.executor.interleave;
  launch.interleave_seed = session_.executor.interleave_seed;
  launch.global_writes = d.global_writes.get();
  launch.float_atomics = d.paired ? d.paired->float_atomics() : nullptr;  // both mode: the code object's half
  isa::ExecutionCounts counts;
  launch.counts = &counts;
  isa::Failure failure = isa::RunWorkgroup(launch);
  {
    std::lock_guard lock(d.counts_mu);
    d.counts.Add(counts);
  }
  if (failure.kind == isa::Failure::Kind::kNone) return true;
  std::string detail = StrCat("kernel dispatch packet ", d.packet_id, " (kernel ", d.kernel->name, "): workgroup (",
                              workgroup_id[0], ", ", workgroup_id[1], ", ", workgroup_id[2], "): ", failure.message);
  if (failure.kind == isa::Failure::Kind::kMemoryFault) {
    RaiseMemoryFault(StrCat(detail, " (memory fault at ", Hex(failure.address), ")"), failure.address);
  } else {
    RaiseError(HSA_STATUS_ERROR_EXCEPTION, std::move(detail));
  }
  return false;
}

void Queue::FinishWorkgroup(Dispatch& d, bool ok) {
  if (!ok) d.failed.store(true, std::memory_order_relaxed);
  if (d.finished.fetch_add(1, std::memory_order_acq_rel) + 1 != d.total_workgroups) return;
  // The last workgroup: every other workgroup's writes happen-before this point.
  if (d.paired) {  // both mode: the twin's bytes against the code object's
    Status same = d.failed.load(std::memory_order_relaxed) ? OkStatus() : d.paired->Compare();
    d.paired->Release();
    if (!same.ok()) {
      RaiseError(HSA_STATUS_ERROR_EXCEPTION,
                 StrCat("kernel dispatch packet ", d.packet_id, " (kernel ", d.kernel->name, "): ", same.message()));
      d.failed.store(true, std::memory_order_relaxed);
    }
  }
  if (!d.failed.load(std::memory_order_relaxed) && running()) {
    ApplyFence(d.release_scope, std::memory_order_release);
    const uint64_t ordinal = agent_.dispatches_completed.fetch_add(1, std::memory_order_relaxed) + 1;
    const isa::Program* counted = d.paired ? &d.paired->program() : d.kernel->program.get();
    if (counted) {
      std::lock_guard lock(agent_.counts_mu);
      agent_.last_counts_kernel = counted->kernel.name;
      agent_.last_counts_ordinal = ordinal;
      agent_.last_mfma_mnemonics = counted->mfma_mnemonics;
      agent_.last_counts = d.counts;  // every workgroup has finished: nothing writes it any more
      const hsa_kernel_dispatch_packet_t& p = d.packet;
      agent_.last_occupancy = isa::EstimateOccupancy(
          *counted, p.group_segment_size, uint32_t{p.workgroup_size_x} * p.workgroup_size_y * p.workgroup_size_z);
    }
    if (d.profiled) d.completion->RecordDispatchTime({&agent_, d.start_ticks, TimestampNs()});
    if (d.completion) d.completion->Subtract(1, std::memory_order_release);
  }
  in_flight_.fetch_sub(1, std::memory_order_acq_rel);
  processor_waiter_.Wake();
}

}  // namespace kiln::hsa_sim
