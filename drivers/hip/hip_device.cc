#include "drivers/hip/hip_device.h"

#include <pthread.h>
#include <sched.h>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <thread>

#include "base/trace.h"
#include "drivers/hip/aql_queue.h"
#include "drivers/hip/command_program.h"
#include "drivers/hip/dispatch_trace.h"
#include "drivers/hip/hip_allocator.h"
#include "drivers/hip/hip_executable.h"
#include "drivers/hip/host_arena.h"
#include "drivers/hip/submission.h"

namespace kiln::hip {
namespace {

constexpr uint32_t kDefaultQueuePackets = 4096;

// What a deferred queue operation reaches after the device is gone: `device` becomes null
// and the operation fails its signals instead of running.
struct DeviceLink {
  std::mutex mutex;
  std::condition_variable idle_cv;
  class HipDevice* device = nullptr;
  uint64_t pending = 0;  // deferred operations not yet finished
};

std::string DescribeDispatch(const hal::DispatchCommand& d) {
  const hal::ExportInfo& info = d.executable->exports()[d.export_ordinal];
  return StrCat("in dispatch '", info.name, "' of executable '", d.executable->debug_name(), "'",
                info.source_location.empty() ? "" : " (", info.source_location, info.source_location.empty() ? "" : ")",
                " with workgroup count (", d.workgroup_count[0], ", ", d.workgroup_count[1], ", ", d.workgroup_count[2],
                ")");
}

std::string FaultReasons(uint32_t mask) {
  static const std::pair<uint32_t, const char*> kReasons[] = {
      {HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT, "page not present"}, {HSA_AMD_MEMORY_FAULT_READ_ONLY, "write to read-only"},
      {HSA_AMD_MEMORY_FAULT_NX, "execute of non-executable"},     {HSA_AMD_MEMORY_FAULT_HOST_ONLY, "host-only memory"},
      {HSA_AMD_MEMORY_FAULT_DRAMECC, "DRAM ECC error"},           {HSA_AMD_MEMORY_FAULT_IMPRECISE, "imprecise"},
      {HSA_AMD_MEMORY_FAULT_SRAMECC, "SRAM ECC error"},           {HSA_AMD_MEMORY_FAULT_HANG, "hang"}};
  std::string out;
  for (const auto& [bit, text] : kReasons) {
    if (mask & bit) out += StrCat(out.empty() ? "" : ", ", text);
  }
  return out.empty() ? "unknown reason" : out;
}

// Names the calling thread (for profilers; best effort) and gives it the SCHED_BATCH policy
// (best effort: a sandbox may refuse it), for the completion thread: retiring a submission
// is bookkeeping that may wait for a CPU, and a completion that wakes it then does not
// preempt the application thread that is submitting the next work (each such preemption
// costs that thread a context switch and the rest of its time slice). It still gets its fair
// share of CPU time, and runs at once on an idle CPU.
void BecomeBackgroundThread(const char* name) {
  pthread_setname_np(pthread_self(), name);
  sched_param param{};
  param.sched_priority = 0;  // the only priority SCHED_BATCH has
  (void)sched_setscheduler(0, SCHED_BATCH, &param);
}

// Workgroups of a distributed dispatch per compute unit (see worker_count).
constexpr uint32_t kWorkgroupsPerComputeUnit = 8;

class HipDevice final : public hal::Device {
 public:
  HipDevice(std::string driver_name, std::shared_ptr<HsaRuntime> runtime, const GpuAgent& gpu, uint32_t index)
      : runtime_(std::move(runtime)), hsa_(runtime_->hsa()), gpu_(gpu), allocator_(runtime_, gpu),
        host_arena_(HostArena::Create(runtime_, runtime_->kernarg_pool(), "kernarg", gpu.agent)),
        link_(std::make_shared<DeviceLink>()), dispatch_tracer_(hsa_, gpu.agent, runtime_->timestamp_frequency()) {
    name_ = StrCat(driver_name, ":", index);
    index_ = index;
    info_.driver = std::move(driver_name);
    info_.name = StrCat(name_, " ", gpu.Summary());
    info_.architecture = gpu.name;
    info_.compute_units = gpu.compute_units;
    info_.subgroup_size = gpu.wavefront_size;
    // A distributed dispatch is split into this many workgroups (DESIGN.md section 3): a few
    // per compute unit, so that each SIMD has waves to switch between while others wait.
    info_.worker_count = gpu.compute_units * kWorkgroupsPerComputeUnit;
    info_.max_workgroup_count = {0x7fffffffu, 0xffffu, 0xffffu};
    info_.max_local_memory_bytes = gpu.lds_bytes;
    info_.executable_formats = {std::string(hal::kExecutableFormatAmdgpu)};
    link_->device = this;
  }

  Status Start(uint32_t queue_packets) {
    KILN_ASSIGN_OR_RETURN(queue_, AqlQueue::Create(runtime_, gpu_, queue_packets, &HipDevice::OnQueueError, this),
                          "on ", name_);
    runtime_->SetFaultHandler(gpu_.agent, [this](uint64_t address, uint32_t reasons) { OnMemoryFault(address, reasons); });
    completion_thread_ = std::thread([this] { RetireLoop(); });
    return OkStatus();
  }

  ~HipDevice() override {
    {
      // Deferred operations that resolve from now on fail; those running finish first.
      std::unique_lock lock(link_->mutex);
      link_->device = nullptr;
      link_->idle_cv.wait(lock, [&] { return submitting_ == 0; });
    }
    {
      // Deferred operations that have not resolved will fail when they do; the submitted
      // ones retire (or fail, if the device failed) before the queue goes.
      std::unique_lock lock(mutex_);
      idle_cv_.wait(lock, [&] { return in_flight_.empty() && retiring_ == 0; });
      stopping_ = true;
    }
    work_cv_.notify_all();
    if (completion_thread_.joinable()) completion_thread_.join();
    runtime_->RemoveFaultHandler(gpu_.agent);
    queue_.reset();
  }

  const hal::DeviceInfo& info() const override { return info_; }
  hal::Allocator& allocator() override { return allocator_; }

  StatusOr<Ref<hal::Executable>> CreateExecutable(const hal::ExecutableParams& params) override {
    return HipExecutable::Load(this, runtime_, gpu_, params);
  }

  hal::QueueStatistics queue_statistics() const override {
    return {submissions_.load(), dispatches_.load(), transient_bytes_.load(), device_waits_.load()};
  }

  StatusOr<Ref<hal::Buffer>> QueueAlloca(hal::SemaphoreList wait, hal::SemaphoreList signal,
                                         const hal::BufferParams& params, size_t size) override {
    KILN_RETURN_IF_ERROR(ValidateQueueLists(wait, signal), "in queue_alloca");
    trace::Scope scope("allocation", "queue_alloca");
    if (scope.enabled()) scope.Arg("bytes", StrCat(size));
    KILN_ASSIGN_OR_RETURN(auto allocation, allocator_.AllocateStorage(params, size), "in queue_alloca of ", size,
                          " bytes on ", name_);
    transient_bytes_.fetch_add(size, std::memory_order_relaxed);
    Ref<hal::Buffer> buffer = hal::Buffer::Create(allocation.first, allocation.second->memory_type | hal::MemoryType::kTransient,
                                                  params.usage, params.access);
    // The storage exists now; the alloca completes (and may be used) once its waits are met.
    Defer(wait, signal, [](HipDevice*) { return OkStatus(); });
    return buffer;
  }

  Status QueueDealloca(hal::SemaphoreList wait, hal::SemaphoreList signal, const Ref<hal::Buffer>& buffer) override {
    KILN_RETURN_IF_ERROR(ValidateQueueLists(wait, signal), "in queue_dealloca");
    if (!buffer) return InvalidArgumentError("queue_dealloca of a null buffer");
    auto* storage = dynamic_cast<PoolStorage*>(buffer->storage());
    if (!storage || !hal::AllSet(buffer->memory_type(), hal::MemoryType::kTransient) || buffer->byte_offset() != 0 ||
        buffer->byte_length() != storage->size()) {
      return InvalidArgumentError("queue_dealloca needs a whole buffer made by queue_alloca of a hip device");
    }
    Ref<PoolStorage> keep(storage);
    Defer(wait, signal, [keep](HipDevice* device) {
      trace::Scope scope("allocation", "queue_dealloca");
      if (scope.enabled()) scope.Arg("bytes", StrCat(keep->size()));
      if (keep->device_address()) {
        keep->Free();
        if (device) device->transient_bytes_.fetch_sub(keep->size(), std::memory_order_relaxed);
      }
      return OkStatus();
    });
    return OkStatus();
  }

  Status QueueExecute(hal::SemaphoreList wait, hal::SemaphoreList signal,
                      std::span<const Ref<hal::CommandBuffer>> command_buffers) override {
    trace::Scope scope("queue", "queue_execute");
    if (scope.enabled()) scope.Arg("command_buffers", StrCat(command_buffers.size()));
    KILN_RETURN_IF_ERROR(ValidateQueueLists(wait, signal), "in queue_execute");
    KILN_RETURN_IF_ERROR(ValidateCommandBuffers(command_buffers), "in queue_execute");
    submissions_.fetch_add(1, std::memory_order_relaxed);
    std::unique_ptr<InFlight> sub = records_.Take();
    sub->signal.assign(signal.begin(), signal.end());
    sub->command_buffers.assign(command_buffers.begin(), command_buffers.end());
    // Waits already met drop out; waits a GPU queue of this runtime will signal become
    // barrier packets; the rest are waited for on the host.
    std::vector<hal::SemaphoreValue> host_waits;
    for (const hal::SemaphoreValue& sv : wait) {
      StatusOr<uint64_t> current = sv.semaphore->Query();
      if (!current.ok()) {
        host_waits.push_back(sv);  // resolves at once, failing the submission
        continue;
      }
      if (*current >= sv.value) continue;
      if (Ref<PooledSignal> pending = runtime_->FindTimepoint(sv.semaphore.get(), sv.value)) {
        sub->keep.push_back(std::move(pending));
        sub->device_waits.push_back(sv);
        device_waits_.fetch_add(1, std::memory_order_relaxed);
      } else {
        host_waits.push_back(sv);
      }
    }
    if (host_waits.empty()) return Submit(std::move(sub));
    std::shared_ptr<InFlight> deferred(sub.release());
    Defer(host_waits, {}, [deferred](HipDevice* device) -> Status {
      if (!device) {
        Status cancelled = CancelledError("the device was destroyed before the queue_execute's waits were met");
        hal::FailAll(deferred->signal, cancelled);
        return OkStatus();
      }
      return device->Submit(std::make_unique<InFlight>(std::move(*deferred)));
    }, /*fail_on_wait_failure=*/deferred->signal);
    return OkStatus();
  }

  Status WaitIdle(Deadline deadline) override {
    std::unique_lock lock(mutex_);
    auto idle = [&] { return in_flight_.empty() && retiring_ == 0 && deferred_ == 0; };
    if (deadline.is_infinite()) {
      idle_cv_.wait(lock, idle);
    } else if (!idle_cv_.wait_until(lock, deadline.at(), idle)) {
      return DeadlineExceededError(in_flight_.size() + deferred_, " queue operations of ", name_,
                                   " were still pending at the deadline");
    }
    return OkStatus();
  }

  // hip-sim's counts of its last completed kernel dispatch, when it ran a code object: the
  // simulator's kiln_hsa_sim_last_dispatch_counts, found in the HSA library this device runs
  // on (hsa_library.h). The device index is the agent's index among the runtime's GPU agents,
  // which is the simulator's GPU agent index. Counts of an earlier dispatch (a host twin ran
  // since) are not this one's: the ordinal tells.
  std::optional<hal::DispatchCounters> LastDispatchCounters() const override {
    if (!hsa_.sim_last_dispatch_counts || !hsa_.sim_dispatches_completed) return std::nullopt;
    kiln_hsa_sim_dispatch_counts_t c{};
    if (hsa_.sim_last_dispatch_counts(index_, &c) != 0) return std::nullopt;
    if (c.dispatch_ordinal != hsa_.sim_dispatches_completed(index_)) return std::nullopt;
    // The simulator's strings are NUL-padded fixed arrays.
    auto text = [](const auto& chars) { return std::string(chars, strnlen(chars, sizeof(chars))); };
    hal::DispatchCounters out;
    out.kernel = text(c.kernel);
    out.workgroups = c.workgroups;
    out.waves = c.waves;
    out.salu = c.salu;
    out.smem = c.smem;
    out.valu = c.valu;
    out.mfma = c.mfma;
    out.vmem = c.vmem;
    out.lds = c.lds;
    out.branch = c.branch;
    out.wait = c.wait;
    for (const auto& op : c.mfma_ops) {
      std::string mnemonic = text(op.mnemonic);
      if (!mnemonic.empty()) out.mfma_by_mnemonic.emplace_back(std::move(mnemonic), op.count);
    }
    out.global_read_bytes = c.global_read_bytes;
    out.global_written_bytes = c.global_written_bytes;
    out.lds_read_bytes = c.lds_read_bytes;
    out.lds_written_bytes = c.lds_written_bytes;
    out.occupancy_waves_per_simd = c.occupancy_waves_per_simd;
    out.occupancy_workgroups_per_cu = c.occupancy_workgroups_per_cu;
    out.occupancy_waves_per_cu = c.occupancy_waves_per_cu;
    out.occupancy_limit = text(c.occupancy_limit);
    return out;
  }

 private:
  Status failure() const {
    if (!failed_.load(std::memory_order_acquire)) return OkStatus();
    std::lock_guard lock(mutex_);
    return failure_;
  }

  // Runs `action` on the thread that meets the last of `wait` (or here), then signals
  // `signal` with its result. A failed wait fails `on_wait_failure` (default: `signal`)
  // without running the action.
  void Defer(hal::SemaphoreList wait, hal::SemaphoreList signal, std::function<Status(HipDevice*)> action,
             hal::SemaphoreList on_wait_failure = {}) {
    {
      std::lock_guard lock(mutex_);
      ++deferred_;
    }
    std::vector<hal::SemaphoreValue> signals(signal.begin(), signal.end());
    std::vector<hal::SemaphoreValue> failures(on_wait_failure.empty() ? signal.begin() : on_wait_failure.begin(),
                                              on_wait_failure.empty() ? signal.end() : on_wait_failure.end());
    hal::WhenAllReached(wait, [link = link_, signals = std::move(signals), failures = std::move(failures),
                               action = std::move(action)](const Status& waited) {
      HipDevice* device;
      {
        std::lock_guard lock(link->mutex);
        device = link->device;
        if (device) ++device->submitting_;
      }
      Status status = waited.ok() ? action(device)
                                  : waited.With("while waiting on a wait semaphore of a queue operation");
      if (!waited.ok()) {
        hal::FailAll(failures, status);
      } else if (status.ok()) {
        hal::SignalAll(signals);
      } else {
        hal::FailAll(signals.empty() ? failures : signals, status);
      }
      if (device) {
        {
          std::lock_guard lock(device->mutex_);
          --device->deferred_;
        }
        device->idle_cv_.notify_all();
        std::lock_guard lock(link->mutex);
        --device->submitting_;
        link->idle_cv.notify_all();
      }
    });
  }

  static bool Abandon(void* self) { return static_cast<HipDevice*>(self)->failed_.load(std::memory_order_acquire); }

  // Writes the submission's packets and starts its copies. It is registered (in flight,
  // and its semaphores' timepoints) before its first packet is visible, so a fault always
  // finds it. A submission that cannot be prepared (a transient buffer not allocated, no
  // memory for kernel arguments), or that meets a failed device, is accepted and fails its
  // signals, as if it had failed running.
  Status Submit(std::unique_ptr<InFlight> owned) {
    trace::Recorder* recorder = trace::Active();
    owned->traced = recorder != nullptr;
    if (Status status = PrepareSubmission(*owned, *runtime_, *host_arena_); !status.ok()) {
      hal::FailAll(owned->signal, status.With("in queue_execute on ", name_));
      records_.Give(std::move(owned));
      return OkStatus();
    }
    AqlQueue::Batch batch = queue_->Begin(&HipDevice::Abandon, this);
    if (Status failed = failure(); !failed.ok()) {
      hal::FailAll(owned->signal, failed.With("the device ", name_, " failed earlier and accepts no more work"));
      records_.Give(std::move(owned));
      return OkStatus();
    }
    InFlight& sub = *owned;
    if (sub.traced != profiling_) SetProfiling(sub.traced);
    if (recorder) TraceSubmission(*recorder, sub);
    for (const hal::SemaphoreValue& sv : sub.signal) runtime_->AddTimepoint(sv.semaphore.get(), sv.value, sub.completion);
    {
      std::lock_guard lock(mutex_);
      in_flight_.push_back(std::move(owned));
    }
    work_cv_.notify_one();
    EmitSubmission(sub, batch, hsa_, gpu_.agent, runtime_->cpu_agent(), mutex_);
    return OkStatus();
  }

  // Turns the queue's dispatch profiling on for a traced submission (its dispatches' GPU
  // timestamps are recorded in their completion signals) and off again for an untraced one
  // once no traced submission is in flight (its dispatches may not have started yet). Called
  // with the queue's batch held, before the submission's packets, so it is serialized and
  // applies to them.
  void SetProfiling(bool enable) {
    if (!enable) {
      std::lock_guard lock(mutex_);
      for (const auto& sub : in_flight_) {
        if (sub->traced) return;
      }
    }
    // A failure only costs the trace its dispatch events (their times cannot be read).
    if (hsa_.hsa_amd_profiling_set_profiler_enabled(queue_->handle(), enable ? 1 : 0) == HSA_STATUS_SUCCESS) {
      profiling_ = enable;
    }
  }

  // Notes when `sub` goes to the queue and what it runs: its event spans from the hand-over
  // to the retirement, which bounds the execution (queueing behind earlier work included);
  // its dispatches get events of their own from the GPU's timestamps (DispatchTracer).
  static void TraceSubmission(trace::Recorder& recorder, InFlight& sub) {
    sub.trace_start_ns = recorder.NowNs();
    std::string names;
    for (const Ref<hal::CommandBuffer>& cb : sub.command_buffers) {
      for (const hal::Command& command : cb->commands()) {
        const auto* dispatch = std::get_if<hal::DispatchCommand>(&command);
        if (!dispatch) continue;
        const hal::ExportInfo& info = dispatch->executable->exports()[dispatch->export_ordinal];
        names += StrCat(names.empty() ? "" : ", ", trace::JsonString(info.name));
      }
    }
    sub.trace_args = StrCat("\"command_buffers\": ", sub.command_buffers.size(), ", \"dispatches\": [", names, "]");
  }

  void TraceRetirement(const InFlight& sub) {
    trace::Recorder* recorder = trace::Active();
    if (!recorder || sub.trace_start_ns < 0) return;
    recorder->NameThread(StrCat(name_, " retirement"));
    trace::Event event;
    event.name = "queue_execute on device";
    event.category = "queue";
    event.start_ns = sub.trace_start_ns;
    event.duration_ns = recorder->NowNs() - sub.trace_start_ns;
    event.tid = trace::CurrentThreadId();
    event.args = sub.trace_args;
    recorder->Add(std::move(event));
    dispatch_tracer_.Emit(*recorder, sub, trace::CurrentThreadId());
  }

  void RetireLoop() {
    BecomeBackgroundThread("kiln-hip-retire");
    const uint64_t timeout = std::max<uint64_t>(runtime_->timestamp_frequency() / 100, 1);  // 10 ms
    for (;;) {
      hsa_signal_t front{};
      {
        std::unique_lock lock(mutex_);
        work_cv_.wait(lock, [&] { return stopping_ || !in_flight_.empty(); });
        if (in_flight_.empty()) return;  // stopping
        front = in_flight_.front()->completion->handle();
      }
      hsa_signal_value_t value =
          hsa_.hsa_signal_wait_scacquire(front, HSA_SIGNAL_CONDITION_LT, 1, timeout, HSA_WAIT_STATE_BLOCKED);
      if (value < 1) {
        std::unique_ptr<InFlight> done;
        {
          std::lock_guard lock(mutex_);
          // Traced while still in flight: WaitIdle (and so the recorder's owner) waits for it.
          TraceRetirement(*in_flight_.front());
          done = std::move(in_flight_.front());
          in_flight_.pop_front();
          ++retiring_;
        }
        // Its fence published the failure (if any) before its signal reached zero.
        Status status = !done->failure.ok() ? done->failure.With("in queue_execute on ", name_)
                        : value < 0         ? DataLossError("the submission's completion signal went negative on ", name_)
                                            : IndexCheckStatus(*done);
        Retire(*done, status);
        records_.Give(std::move(done));
        FinishRetiring(1);
      } else if (ReleaseFailedCopies()) {
        continue;
      } else if (Status failed = failure(); !failed.ok()) {
        // Submissions still being written stay until they are complete (the next round).
        std::vector<std::unique_ptr<InFlight>> failing;
        {
          std::lock_guard lock(mutex_);
          while (!in_flight_.empty() && !in_flight_.front()->emitting) {
            failing.push_back(std::move(in_flight_.front()));
            in_flight_.pop_front();
          }
          retiring_ += failing.size();
        }
        for (auto& sub : failing) {
          Retire(*sub, failed);
          records_.Give(std::move(sub));
        }
        FinishRetiring(failing.size());
      }
      idle_cv_.notify_all();
    }
  }

  // `count` submissions taken off in_flight_ have signalled their semaphores: only now is
  // the device idle for WaitIdle (which would otherwise return between the two).
  void FinishRetiring(size_t count) {
    std::lock_guard lock(mutex_);
    retiring_ -= count;
  }

  // A copy the engine failed sets its run's signal negative, which holds the barrier packet
  // waiting for it forever. The oldest submission's runs are checked while it is slow: a
  // failed one fails the submission and is set to zero so the queue moves on.
  bool ReleaseFailedCopies() {
    std::lock_guard lock(mutex_);
    if (in_flight_.empty()) return false;
    InFlight& front = *in_flight_.front();
    bool released = false;
    for (hsa_signal_t run : front.copy_runs) {
      if (hsa_.hsa_signal_load_scacquire(run) >= 0) continue;
      if (front.failure.ok()) front.failure = DataLossError("an async copy of the submission failed on ", name_);
      hsa_.hsa_signal_store_screlease(run, 0);
      released = true;
    }
    return released;
  }

  // After `sub` ran: the failure its first filled index check record stands for, if any.
  Status IndexCheckStatus(const InFlight& sub) const {
    for (const Program* program : sub.programs) {
      std::optional<IndexCheckHit> hit = program->FirstIndexCheck();
      if (!hit) continue;
      const hal::DispatchCommand& d = *hit->command;
      const hal::ExportInfo& info = d.executable->exports()[d.export_ordinal];
      std::string workgroup = hal::DescribeWorkgroup(hit->workgroup, d.workgroup_count);
      const kiln_index_check_record_v2_t& r = hit->record;
      Status status = hal::IndexCheckFailure(info, r.site, r.index, r.bound, workgroup)
                          .value_or(DataLossError(workgroup, " filled its index check record with site ", r.site,
                                                  "; the export has ", info.index_check_sites.size(), " check sites"));
      return status.With(DescribeDispatch(d)).With("in queue_execute on ", name_);
    }
    return OkStatus();
  }

  // Signals or fails the submission's semaphores. A submission whose barrier packets stood
  // for a timepoint of a submission that failed fails with it.
  void Retire(InFlight& sub, Status status) {
    for (const hal::SemaphoreValue& sv : sub.signal) runtime_->RemoveTimepoint(sv.semaphore.get(), sub.completion.get());
    // A failed wait is the cause: this submission's packets ran (or were cut short) after it.
    for (const hal::SemaphoreValue& sv : sub.device_waits) {
      if (StatusOr<uint64_t> current = sv.semaphore->Query(); !current.ok()) {
        status = current.status().With("while waiting on a wait semaphore of a queue_execute on ", name_);
        break;
      }
    }
    if (status.ok()) {
      dispatches_.fetch_add(sub.dispatches.size(), std::memory_order_relaxed);
      hal::SignalAll(sub.signal);
    } else {
      hal::FailAll(sub.signal, status);
      // Let queues waiting on this submission's completion move on; their own submissions
      // see this failure through device_waits.
      hsa_.hsa_signal_store_screlease(sub.completion->handle(), 0);
    }
  }

  // The dispatch a fault hit: the first dispatch packet the queue has read and not completed.
  // Dispatches of a submission complete in order when barriers separate them (as the
  // compiler's do); without barriers it is one of those running beside it.
  std::string FaultSite() {
    uint64_t read = queue_->read_index();
    std::lock_guard lock(mutex_);
    for (const auto& sub : in_flight_) {
      int64_t completed = CompletedDispatches(*sub);
      if (completed < 0 || completed >= static_cast<int64_t>(sub->dispatches.size())) continue;
      const auto& [index, command] = sub->dispatches[completed];
      if (index < read) return StrCat(DescribeDispatch(*command), ", packet ", index);
    }
    return "while no dispatch was running";
  }

  // How many of `sub`'s dispatches (in packet order) have completed, as its signals say.
  int64_t CompletedDispatches(const InFlight& sub) const {
    if (sub.traced) {
      int64_t completed = 0;
      for (const Ref<PooledSignal>& signal : sub.dispatch_signals) {
        if (hsa_.hsa_signal_load_scacquire(signal->handle()) >= 1) break;
        ++completed;
      }
      return completed;
    }
    hsa_signal_value_t remaining = hsa_.hsa_signal_load_scacquire(sub.completion->handle());
    return static_cast<int64_t>(sub.dispatches.size()) + 1 - remaining;
  }

  void Fail(Status status) {
    {
      std::lock_guard lock(mutex_);
      if (failure_.ok()) failure_ = status;
    }
    failed_.store(true, std::memory_order_release);
    work_cv_.notify_all();
  }

  void OnMemoryFault(uint64_t address, uint32_t reasons) {
    Fail(AbortedError("GPU memory fault at address 0x", std::hex, address, std::dec, " (", FaultReasons(reasons), ") on ",
                       name_, " (", gpu_.name, ")")
             .With(FaultSite()));
  }

  static void OnQueueError(hsa_status_t status, hsa_queue_t*, void* data) {
    auto* self = static_cast<HipDevice*>(data);
    self->Fail(AbortedError("the AQL queue of ", self->name_, " (", self->gpu_.name, ") failed: ",
                             self->hsa_.Describe(status))
                   .With(self->FaultSite()));
  }

  std::shared_ptr<HsaRuntime> runtime_;
  const HsaLibrary& hsa_;
  GpuAgent gpu_;
  std::string name_;
  uint32_t index_ = 0;  // among the runtime's GPU agents
  hal::DeviceInfo info_;
  HipAllocator allocator_;
  std::shared_ptr<HostArena> host_arena_;
  std::unique_ptr<AqlQueue> queue_;
  std::shared_ptr<DeviceLink> link_;
  uint64_t submitting_ = 0;  // guarded by link_->mutex
  bool profiling_ = false;   // the queue's dispatch profiling; guarded by the queue's batch
  DispatchTracer dispatch_tracer_;  // retirement thread only
  InFlightPool records_;

  mutable std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  std::deque<std::unique_ptr<InFlight>> in_flight_;
  size_t retiring_ = 0;  // taken off in_flight_, semaphores not yet signalled
  uint64_t deferred_ = 0;
  bool stopping_ = false;
  std::atomic<bool> failed_{false};
  Status failure_;
  std::thread completion_thread_;

  std::atomic<uint64_t> submissions_{0};
  std::atomic<uint64_t> dispatches_{0};
  std::atomic<uint64_t> transient_bytes_{0};
  std::atomic<uint64_t> device_waits_{0};
};

}  // namespace

StatusOr<Ref<hal::Device>> CreateHipDevice(std::string driver_name, std::shared_ptr<HsaRuntime> runtime,
                                           const GpuAgent& gpu, const hal::DeviceOptions& options) {
  Ref<HipDevice> device(new HipDevice(std::move(driver_name), std::move(runtime), gpu, options.device_index));
  KILN_RETURN_IF_ERROR(device->Start(options.queue_capacity ? options.queue_capacity : kDefaultQueuePackets));
  return Ref<hal::Device>(std::move(device));
}

}  // namespace kiln::hip
