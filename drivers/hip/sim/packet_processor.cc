// The packet processor of a queue (see queue.h for the model); the workers that run the
// dispatches it launches are in workers.cc.
//
// The queue errors, each with the detail kiln_hsa_sim_last_error() returns inside the queue's
// error callback (all raised here but the traps, which the workers raise):
//   HSA_STATUS_ERROR_INVALID_PACKET_FORMAT   packet type other than KERNEL_DISPATCH,
//                                            BARRIER_AND, BARRIER_OR; fence scope 3; setup
//                                            dimensions not 1..3; a zero workgroup or grid
//                                            size; an unused dimension not 1; a workgroup of
//                                            more than 1024 work-items
//   HSA_STATUS_ERROR_INVALID_CODE_OBJECT     kernel_object not a kernel of a frozen executable
//                                            loaded for this queue's agent
//   HSA_STATUS_ERROR_INVALID_ARGUMENT        kernarg_address null, misaligned for the kernel, or
//                                            its kernarg segment not inside one fine-grained
//                                            (kernarg pool or other fine-grained) allocation;
//                                            group segment smaller than the kernel's static size
//                                            or larger than the agent's LDS; private segment
//                                            smaller than the kernel's
//   HSA_STATUS_ERROR_INVALID_SIGNAL          a completion or dependency signal that is not a live
//                                            signal (or is destroyed while a barrier waits on it)
//   HSA_STATUS_ERROR_EXCEPTION               a twin workgroup returned non-zero (trap); a
//                                            code-object workgroup failed (unimplemented
//                                            instruction, trap, kernarg mismatch); injected
//                                            queue_error fault
//   HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION  injected memory fault, or an access of a code-object
//                                            kernel outside every allocation (raised by the
//                                            workers), after the system event handlers got
//                                            HSA_AMD_GPU_MEMORY_FAULT_EVENT
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "drivers/hip/sim/code_objects.h"
#include "drivers/hip/sim/isa/executor.h"
#include "drivers/hip/sim/paired_dispatch.h"
#include "drivers/hip/sim/queue.h"
#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {
namespace {

// How long the processor polls an empty slot before sleeping on the doorbell, and for how
// much of that it polls without yielding (see WaitForPacket).
constexpr auto kProcessorSpin = std::chrono::microseconds(50);
constexpr auto kProcessorPauseSpin = std::chrono::microseconds(2);

inline uint16_t LoadHeader(const void* slot) {
  return __atomic_load_n(static_cast<const uint16_t*>(slot), __ATOMIC_ACQUIRE);
}

inline uint32_t HeaderField(uint16_t header, int offset, int width) { return (header >> offset) & ((1u << width) - 1); }
inline uint32_t PacketType(uint16_t header) {
  return HeaderField(header, HSA_PACKET_HEADER_TYPE, HSA_PACKET_HEADER_WIDTH_TYPE);
}

const char* PacketTypeName(uint32_t type) {
  switch (type) {
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC:
      return "VENDOR_SPECIFIC";
    case HSA_PACKET_TYPE_INVALID:
      return "INVALID";
    case HSA_PACKET_TYPE_KERNEL_DISPATCH:
      return "KERNEL_DISPATCH";
    case HSA_PACKET_TYPE_BARRIER_AND:
      return "BARRIER_AND";
    case HSA_PACKET_TYPE_AGENT_DISPATCH:
      return "AGENT_DISPATCH";
    case HSA_PACKET_TYPE_BARRIER_OR:
      return "BARRIER_OR";
  }
  return "unknown";
}

}  // namespace

// The simulator's own hand-offs (the acquire load of the header, the workers' mutex, acquire
// loads of dependency signals, the release decrement of completion signals) already order what
// the fences would; they stay for what HSA says. GCC refuses fences under -fsanitize=thread
// (ThreadSanitizer does not model them), so TSan builds leave them out, relying on those
// hand-offs, which TSan does see.
void ApplyFence(uint32_t scope, std::memory_order order) {
#if !defined(__SANITIZE_THREAD__)
  if (scope != HSA_FENCE_SCOPE_NONE) std::atomic_thread_fence(order);
#else
  (void)scope;
  (void)order;
#endif
}

bool Queue::running() const {
  return !stop_.load(std::memory_order_acquire) && !failed_.load(std::memory_order_acquire);
}

void Queue::RaiseError(hsa_status_t status, std::string detail) {
  {
    std::lock_guard lock(error_mu_);
    if (error_status_ != HSA_STATUS_SUCCESS) return;  // the first error is the queue's error
    error_status_ = status;
    error_detail_ = StrCat("queue ", hsa_.id, " on ", agent_.Describe(), ": ", detail);
  }
  failed_.store(true, std::memory_order_release);
  processor_waiter_.Wake();
}

void Queue::RaiseMemoryFault(std::string detail, uint64_t address) {
  if (!running()) return;  // a fault of another workgroup came first
  hsa_amd_event_t event{};
  event.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT;
  event.memory_fault.agent = agent_.handle();
  event.memory_fault.virtual_address = address;
  event.memory_fault.fault_reason_mask = HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
  SetLastErrorRaw(detail);
  session_.events.Deliver(event);
  RaiseError(static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION), std::move(detail));
}

void Queue::DeliverErrorAndIdle() {
  hsa_status_t status;
  std::string detail;
  {
    std::lock_guard lock(error_mu_);
    status = error_status_;
    detail = error_detail_;
  }
  SetLastErrorRaw(detail);
  if (callback_) {
    callback_(status, &hsa_, callback_data_);
  } else {
    std::fprintf(stderr, "kiln_hsa_sim: queue error without a callback: %s\n", detail.c_str());
  }
  while (!stop_.load(std::memory_order_acquire)) processor_waiter_.SleepUntil(Clock::time_point::max());
}

void Queue::ProcessorMain() {
  StartSimThread(this, "hsa-sim-cp");
  char* ring = static_cast<char*>(ring_);
  uint64_t index = 0;
  while (running() && WaitForPacket(index)) {
    char* slot = ring + (index & mask_) * 64;
    // The header was published last, with release; everything after it is visible now.
    unsigned char packet[64];
    uint16_t header = LoadHeader(slot);
    std::memcpy(packet, &header, sizeof(header));
    std::memcpy(packet + 2, slot + 2, 62);
    __atomic_store_n(reinterpret_cast<uint16_t*>(slot), uint16_t{HSA_PACKET_TYPE_INVALID}, __ATOMIC_RELAXED);
    read_index_.store(index + 1, std::memory_order_release);
    uint64_t id = index++;

    // Unannounced work may wait for this packet only if the packet waits for it anyway.
    if (!HeaderField(header, HSA_PACKET_HEADER_BARRIER, HSA_PACKET_HEADER_WIDTH_BARRIER)) AnnouncePendingWork();

    uint32_t type = PacketType(header);
    uint32_t acquire =
        HeaderField(header, HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE, HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE);
    uint32_t release =
        HeaderField(header, HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE, HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE);
    if (type != HSA_PACKET_TYPE_KERNEL_DISPATCH && type != HSA_PACKET_TYPE_BARRIER_AND &&
        type != HSA_PACKET_TYPE_BARRIER_OR) {
      RaiseError(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                 StrCat("packet ", id, ": type ", type, " (", PacketTypeName(type),
                        ") is not processed by this agent; it takes KERNEL_DISPATCH, BARRIER_AND and BARRIER_OR"));
      break;
    }
    if (acquire > HSA_FENCE_SCOPE_SYSTEM || release > HSA_FENCE_SCOPE_SYSTEM) {
      RaiseError(
          HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
          StrCat("packet ", id, " (", PacketTypeName(type), "): ", acquire > 2 ? "acquire" : "release", " fence scope ",
                 acquire > 2 ? acquire : release, " is not an hsa_fence_scope_t (NONE 0, AGENT 1, SYSTEM 2)"));
      break;
    }
    if (acquire == HSA_FENCE_SCOPE_SYSTEM) agent_.system_acquires.fetch_add(1, std::memory_order_relaxed);
    if (release == HSA_FENCE_SCOPE_SYSTEM) agent_.system_releases.fetch_add(1, std::memory_order_relaxed);
    if (type == HSA_PACKET_TYPE_KERNEL_DISPATCH) {
      hsa_kernel_dispatch_packet_t dispatch;
      std::memcpy(&dispatch, packet, sizeof(dispatch));
      HandleKernelDispatch(id, dispatch);
    } else {
      hsa_barrier_and_packet_t barrier;  // the OR packet has the same layout
      std::memcpy(&barrier, packet, sizeof(barrier));
      HandleBarrier(id, barrier, type == HSA_PACKET_TYPE_BARRIER_AND);
    }
  }
  // No callback once hsa_queue_destroy has begun: the application is done with the queue.
  if (failed_.load(std::memory_order_acquire) && !stop_.load(std::memory_order_acquire)) DeliverErrorAndIdle();
}

bool Queue::WaitForPacket(uint64_t index) {
  const char* slot = static_cast<const char*>(ring_) + (index & mask_) * 64;
  auto ready = [&] { return PacketType(LoadHeader(slot)) != HSA_PACKET_TYPE_INVALID; };
  // Three stages: polling at full speed catches the next packet of a burst; polling with
  // yields bridges a pause in the burst (the host thread was preempted, say) without taking
  // the CPU from anyone who wants it; after that the queue is idle and the processor sleeps
  // until the doorbell rings, which costs the next submitter a wake-up.
  Clock::time_point start = Clock::now();
  for (Clock::time_point pause_end = start + kProcessorPauseSpin;;) {
    if (ready()) return true;
    if (!running()) return false;
    if (Clock::now() >= pause_end) break;
    for (int k = 0; k < 16; ++k) CpuRelax();
  }
  // No packet right behind it: a dispatch not yet announced must not wait for one.
  AnnouncePendingWork();
  for (Clock::time_point yield_end = start + kProcessorSpin;;) {
    if (ready()) return true;
    if (!running()) return false;
    if (Clock::now() >= yield_end) break;
    std::this_thread::yield();
  }
  // Sleep until the doorbell rings (or a completion, an error or Stop wakes us).
  Signal* doorbell[1] = {doorbell_.get()};
  WaitRegistration registration(doorbell, &processor_waiter_);
  while (true) {
    if (ready()) return true;
    if (!running()) return false;
    processor_waiter_.SleepUntil(Clock::time_point::max());
  }
}

bool Queue::WaitAllComplete() {
  RunPendingWork();
  while (in_flight_.load(std::memory_order_acquire) > 0) {
    if (!running()) return false;
    processor_waiter_.SleepUntil(Clock::time_point::max());
  }
  return running();
}

void Queue::HandleKernelDispatch(uint64_t id, const hsa_kernel_dispatch_packet_t& p) {
  auto fail = [&](hsa_status_t status, const auto&... args) {
    RaiseError(status, StrCat("kernel dispatch packet ", id, ": ", args...));
  };
  uint32_t dims = p.setup & ((1u << HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS) - 1);
  if (dims < 1 || dims > 3)
    return fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "setup dimensions are ", dims, ", not 1, 2 or 3");
  const uint32_t workgroup[3] = {p.workgroup_size_x, p.workgroup_size_y, p.workgroup_size_z};
  const uint32_t grid[3] = {p.grid_size_x, p.grid_size_y, p.grid_size_z};
  const char axis[3] = {'x', 'y', 'z'};
  for (uint32_t d = 0; d < 3; ++d) {
    if (workgroup[d] == 0) return fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "workgroup_size_", axis[d], " is 0");
    if (grid[d] == 0) return fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "grid_size_", axis[d], " is 0");
    if (d >= dims && (workgroup[d] != 1 || grid[d] != 1)) {
      return fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "a ", dims, "-dimensional dispatch has workgroup_size_",
                  axis[d], " ", workgroup[d], " and grid_size_", axis[d], " ", grid[d],
                  "; unused dimensions must be 1");
    }
  }
  uint64_t workitems = uint64_t{workgroup[0]} * workgroup[1] * workgroup[2];
  if (workitems > kWorkgroupMaxSize) {
    return fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "the workgroup ", workgroup[0], "x", workgroup[1], "x",
                workgroup[2], " has ", workitems, " work-items; WORKGROUP_MAX_SIZE is ", kWorkgroupMaxSize);
  }

  std::shared_ptr<KernelSymbol> kernel = session_.kernels.Find(p.kernel_object);
  if (!kernel) {
    return fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel_object ", Hex(p.kernel_object),
                " is not a kernel object of this runtime (destroyed executable, or not a KERNEL_OBJECT value)");
  }
  if (!kernel->frozen.load(std::memory_order_acquire)) {
    return fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel ", kernel->name,
                " belongs to an executable that is not frozen");
  }
  if (kernel->agent != &agent_) {
    return fail(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel ", kernel->name, " was loaded for ",
                kernel->agent->Describe(), ", not for this queue's agent");
  }
  auto where = [&] { return StrCat(" (kernel ", kernel->name, ")"); };
  uintptr_t kernarg = reinterpret_cast<uintptr_t>(p.kernarg_address);
  if (kernarg == 0) return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "kernarg_address is null", where());
  if (kernarg % kernel->kernarg_segment_alignment != 0) {
    return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "kernarg_address ", Hex(kernarg), " is not aligned to the kernel's ",
                kernel->kernarg_segment_alignment, "-byte kernarg segment alignment", where());
  }
  // A code-object kernel's arguments first, so that a short kernarg block names the argument.
  if (kernel->program) {
    if (Status s = isa::CheckKernargs(*kernel->program, session_.memory, p.kernarg_address); !s.ok()) {
      return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT,
                  "the kernarg segment does not match the kernel's metadata: ", s.message(), where());
    }
  }
  if (kernel->paired_program) {
    if (Status s = isa::CheckKernargs(*kernel->paired_program, session_.memory, p.kernarg_address); !s.ok()) {
      return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "KILN_HSA_SIM_MODE=both: the kernarg segment does not match ",
                  "the paired code object's metadata: ", s.message(), where());
    }
    if (kernel->paired_program->kernel.kernarg_segment_size > kernel->kernarg_segment_size) {
      return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "KILN_HSA_SIM_MODE=both: the paired code object takes ",
                  kernel->paired_program->kernel.kernarg_segment_size, " bytes of arguments, the twin ",
                  kernel->kernarg_segment_size, where());
    }
  }
  {
    auto lock = session_.memory.LockShared();
    size_t size = std::max<size_t>(kernel->kernarg_segment_size, 1);
    const Allocation* a = session_.memory.FindLocked(kernarg, size);
    if (!a) {
      return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "the kernarg segment [", Hex(kernarg), ", +",
                  kernel->kernarg_segment_size,
                  ") is not inside one pool allocation: ", session_.memory.DescribeLocked(kernarg, size), where());
    }
    if (!a->pool->fine_grained()) {
      return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "the kernarg segment at ", Hex(kernarg), " is in the ",
                  a->pool->description, ", which is coarse-grained; kernargs go in the kernarg pool", where());
    }
  }
  if (p.group_segment_size < kernel->group_segment_size) {
    return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "group_segment_size ", p.group_segment_size,
                " is less than the kernel's static group segment of ", kernel->group_segment_size, " bytes", where());
  }
  if (p.group_segment_size > agent_.config.lds_bytes) {
    return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "group_segment_size ", p.group_segment_size, " exceeds the ",
                agent_.config.lds_bytes, " bytes of LDS of ", agent_.Describe(), where());
  }
  if (p.private_segment_size < kernel->private_segment_size) {
    return fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "private_segment_size ", p.private_segment_size,
                " is less than the kernel's ", kernel->private_segment_size, " bytes per work-item", where());
  }
  std::shared_ptr<Signal> completion;
  if (p.completion_signal.handle != 0) {
    completion = session_.signals.Find(p.completion_signal.handle);
    if (!completion) {
      return fail(HSA_STATUS_ERROR_INVALID_SIGNAL, "completion_signal ", Hex(p.completion_signal.handle),
                  " is not a live signal", where());
    }
  }

  auto dispatch = std::make_shared<Dispatch>();
  uint64_t total = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    dispatch->workgroup_count[d] = static_cast<uint32_t>((uint64_t{grid[d]} + workgroup[d] - 1) / workgroup[d]);
    if (__builtin_mul_overflow(total, uint64_t{dispatch->workgroup_count[d]}, &total)) {
      return fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "the grid has more than 2^64 workgroups", where());
    }
  }

  if (HeaderField(p.header, HSA_PACKET_HEADER_BARRIER, HSA_PACKET_HEADER_WIDTH_BARRIER) && !WaitAllComplete()) return;
  ApplyFence(
      HeaderField(p.header, HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE, HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE),
      std::memory_order_acquire);

  // The packet starts here: this is what fault ordinals count, and its profiled start.
  const bool profiled = completion && profiling_.load(std::memory_order_relaxed);
  const uint64_t start_ticks = profiled ? TimestampNs() : 0;
  FaultTable::Effects effects = agent_.faults.OnDispatchStart();
  if (effects.memory_fault) {
    RaiseMemoryFault(StrCat("kernel dispatch packet ", id, where(), ": injected GPU memory fault at ",
                            Hex(effects.fault_address), " (page not present), dispatch ordinal ", effects.ordinal),
                     effects.fault_address);
    return;
  }
  if (effects.queue_error) {
    RaiseError(HSA_STATUS_ERROR_EXCEPTION, StrCat("kernel dispatch packet ", id, where(),
                                                  ": injected queue error, dispatch ordinal ", effects.ordinal));
    return;
  }

  // Both mode: copies of the buffers as they are now that the packet starts, for the code object.
  if (kernel->paired_program) {
    auto paired = PairedDispatch::Prepare(session_.memory, *kernel->paired_program, p.kernarg_address,
                                          kernel->kernarg_segment_size);
    if (!paired.ok()) {
      RaiseError(HSA_STATUS_ERROR_OUT_OF_RESOURCES, StrCat("kernel dispatch packet ", id, where(),
                                                           ": KILN_HSA_SIM_MODE=both: ", paired.status().message()));
      return;
    }
    dispatch->paired = std::move(*paired);
    dispatch->twin_workgroups = total;
    total *= 2;
  }
  dispatch->packet_id = id;
  dispatch->packet = p;
  // The race detector's write map, shared by the dispatch's workgroups (isa/global_races.h).
  if ((kernel->program || kernel->paired_program) && session_.executor.race_check) {
    dispatch->global_writes = std::make_shared<isa::GlobalWriteMap>();
  }
  dispatch->kernel = std::move(kernel);
  dispatch->completion = std::move(completion);
  dispatch->profiled = profiled;
  dispatch->start_ticks = start_ticks;
  dispatch->total_workgroups = total;
  dispatch->not_before =
      effects.slow_us ? Clock::now() + std::chrono::microseconds(effects.slow_us) : Clock::time_point::min();
  dispatch->release_scope =
      HeaderField(p.header, HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE, HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE);
  in_flight_.fetch_add(1, std::memory_order_acq_rel);
  // One workgroup alone waits to be announced (see queue.h); more, or a dispatch behind
  // another, go to the workers now.
  bool announce;
  {
    std::lock_guard lock(work_mu_);
    pending_.push_back(std::move(dispatch));
    announce = total > 1 || pending_.size() > 1;
    unannounced_ = !announce;
  }
  if (announce) work_cv_.notify_all();
}

void Queue::HandleBarrier(uint64_t id, const hsa_barrier_and_packet_t& p, bool is_and) {
  const char* kind = is_and ? "barrier-AND" : "barrier-OR";
  std::shared_ptr<Signal> completion;
  if (p.completion_signal.handle != 0) {
    completion = session_.signals.Find(p.completion_signal.handle);
    if (!completion) {
      return RaiseError(HSA_STATUS_ERROR_INVALID_SIGNAL,
                        StrCat(kind, " packet ", id, ": completion_signal ", Hex(p.completion_signal.handle),
                               " is not a live signal"));
    }
  }
  std::vector<std::shared_ptr<Signal>> held;
  std::vector<Signal*> deps;
  for (int i = 0; i < 5; ++i) {
    if (p.dep_signal[i].handle == 0) continue;  // AND: satisfied; OR: never satisfied
    std::shared_ptr<Signal> s = session_.signals.Find(p.dep_signal[i].handle);
    if (!s) {
      return RaiseError(HSA_STATUS_ERROR_INVALID_SIGNAL, StrCat(kind, " packet ", id, ": dep_signal[", i, "] ",
                                                                Hex(p.dep_signal[i].handle), " is not a live signal"));
    }
    deps.push_back(s.get());
    held.push_back(std::move(s));
  }
  if (HeaderField(p.header, HSA_PACKET_HEADER_BARRIER, HSA_PACKET_HEADER_WIDTH_BARRIER) && !WaitAllComplete()) return;
  ApplyFence(
      HeaderField(p.header, HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE, HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE),
      std::memory_order_acquire);

  // A dependency is satisfied when its value is exactly 0. A negative value (a failed async
  // copy) satisfies nothing: the barrier keeps waiting, as it would for a pending signal.
  auto satisfied = [&] {
    if (is_and) {
      return std::all_of(deps.begin(), deps.end(), [](Signal* s) { return s->Load(std::memory_order_acquire) == 0; });
    }
    return std::any_of(deps.begin(), deps.end(), [](Signal* s) { return s->Load(std::memory_order_acquire) == 0; });
  };
  {
    WaitRegistration registration(deps, &processor_waiter_);
    while (!satisfied()) {
      if (!running()) return;
      for (size_t i = 0; i < deps.size(); ++i) {
        if (deps[i]->abandoned()) {
          return RaiseError(
              HSA_STATUS_ERROR_INVALID_SIGNAL,
              StrCat(kind, " packet ", id, ": a dependency signal was destroyed while the packet waited on it"));
        }
      }
      processor_waiter_.SleepUntil(Clock::time_point::max());
    }
  }
  ApplyFence(
      HeaderField(p.header, HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE, HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE),
      std::memory_order_release);
  if (completion) completion->Subtract(1, std::memory_order_release);
}

}  // namespace kiln::hsa_sim
