#include "drivers/hip/submission.h"

#include <cstring>

namespace kiln::hip {
namespace {

constexpr uint32_t kMaxBarrierDependencies = 5;  // dep_signal slots of a barrier-AND packet

// The end of the run of copies that starts at steps[i]: copies with no barrier between
// them run together after everything before them.
size_t CopyRunEnd(const std::vector<Step>& steps, size_t i) {
  size_t end = i + 1;
  while (end < steps.size() && std::holds_alternative<CopyStep>(steps[end].op) && !steps[end].barrier_before) ++end;
  return end;
}

}  // namespace

Status PrepareSubmission(InFlight& sub, HsaRuntime& runtime, HostArena& arena) {
  for (size_t i = 0; i < sub.command_buffers.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(RefCounted * prepared, sub.command_buffers[i]->Prepared([&]() -> StatusOr<Ref<RefCounted>> {
      KILN_ASSIGN_OR_RETURN(Ref<Program> program, Program::Build(*sub.command_buffers[i], arena));
      return Ref<RefCounted>(std::move(program));
    }), "while preparing command buffer ", i);
    sub.programs.push_back(static_cast<Program*>(prepared));
    if (sub.programs.back()->has_index_checks()) {
      // Its records must be this submission's alone (another may run the same command buffer).
      KILN_ASSIGN_OR_RETURN(Ref<Program> own, Program::Build(*sub.command_buffers[i], arena),
                            "while preparing command buffer ", i);
      sub.programs.back() = own.get();
      sub.checked_programs.push_back(std::move(own));
    }
    KILN_RETURN_IF_ERROR(sub.programs.back()->CheckCommitted(), "in command buffer ", i);
  }
  // Every dispatch packet of an untraced submission decrements the completion signal too, so
  // its value tells how far the submission got (which dispatch a fault hit); the final fence
  // takes it to zero. A traced one's dispatches complete signals of their own instead (their
  // GPU timestamps are read from them), which tell the same.
  for (Program* program : sub.programs) {
    const std::vector<Step>& steps = program->steps();
    for (size_t i = 0; i < steps.size();) {
      if (std::holds_alternative<DispatchStep>(steps[i].op)) {
        ++sub.dispatch_count, ++i;
        continue;
      }
      size_t end = CopyRunEnd(steps, i);
      KILN_ASSIGN_OR_RETURN(Ref<PooledSignal> started, runtime.AcquireSignal(1));
      KILN_ASSIGN_OR_RETURN(Ref<PooledSignal> done, runtime.AcquireSignal(static_cast<int64_t>(end - i)));
      sub.copy_runs.push_back(done->handle());
      sub.run_signals.push_back(std::move(started));
      sub.run_signals.push_back(std::move(done));
      i = end;
    }
  }
  if (!sub.traced) return runtime.ReuseSignal(sub.completion, static_cast<int64_t>(sub.dispatch_count) + 1);
  sub.dispatch_signals.reserve(sub.dispatch_count);
  for (size_t k = 0; k < sub.dispatch_count; ++k) {
    KILN_ASSIGN_OR_RETURN(Ref<PooledSignal> own, runtime.AcquireSignal(1), "for the timestamps of dispatch ", k);
    sub.dispatch_signals.push_back(std::move(own));
  }
  return runtime.ReuseSignal(sub.completion, 1);
}

void EmitSubmission(InFlight& sub, AqlQueue::Batch& batch, const HsaLibrary& hsa, hsa_agent_t gpu, hsa_agent_t cpu,
                    std::mutex& shared_mutex) {
  auto owner = [&](const hal::Buffer* buffer) {
    return hal::AnySet(buffer->memory_type(), hal::MemoryType::kDeviceLocal) ? gpu : cpu;
  };
  bool barrier = false;
  // Fence scopes: system scope only where memory must agree with something outside this
  // GPU's L2. The first packet acquires what the host wrote (kernel arguments, staging, host
  // buffers); a wait for other queues, devices or copy engines acquires what they wrote; a
  // fence that starts copies or ends the submission releases what the kernels wrote to the
  // copy engines and the host. Between the kernels of one GPU agent scope suffices.
  bool acquire_system = true;
  auto acquire_scope = [&] {
    hsa_fence_scope_t scope = acquire_system ? HSA_FENCE_SCOPE_SYSTEM : HSA_FENCE_SCOPE_AGENT;
    acquire_system = false;
    return scope;
  };
  // Barrier-AND packets that hold the queue until `deps` are all zero; the packet after
  // them gets the barrier bit too, so nothing overtakes them.
  auto wait_for = [&](std::span<const Ref<PooledSignal>> deps) {
    for (size_t first = 0; first < deps.size(); first += kMaxBarrierDependencies) {
      auto* p = batch.Next<hsa_barrier_and_packet_t>();
      for (size_t k = 0; k < kMaxBarrierDependencies && first + k < deps.size(); ++k) {
        p->dep_signal[k] = deps[first + k]->handle();
      }
      acquire_system = false;
      batch.Publish(PacketHeader(HSA_PACKET_TYPE_BARRIER_AND, false, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_AGENT), 0);
      barrier = true;
    }
  };
  // A packet that completes `signal` once everything before it on the queue has, with
  // everything written before it visible to the host and the copy engines.
  auto fence = [&](hsa_signal_t signal) {
    auto* p = batch.Next<hsa_barrier_and_packet_t>();
    p->completion_signal = signal;
    batch.Publish(PacketHeader(HSA_PACKET_TYPE_BARRIER_AND, true, acquire_scope(), HSA_FENCE_SCOPE_SYSTEM), 0);
  };
  // Exactly the packets written below unless a copy is refused: the barrier packets for the
  // device waits, one per dispatch, two per copy run (its fence and the wait for it) and the
  // final fence.
  batch.Reserve((sub.keep.size() + kMaxBarrierDependencies - 1) / kMaxBarrierDependencies + sub.dispatch_count +
                sub.run_signals.size() + 1);
  wait_for(sub.keep);

  size_t next_run = 0;
  const Ref<PooledSignal>* copies_done = nullptr;  // the last copy run, until a packet waits for it
  Status copy_failure;
  for (size_t cb = 0; cb < sub.programs.size(); ++cb) {
    // Command buffers of one submission run in order: each starts after the one before.
    if (cb > 0) barrier = true;
    const std::vector<Step>& steps = sub.programs[cb]->steps();
    for (size_t i = 0; i < steps.size() && copy_failure.ok();) {
      if (const auto* d = std::get_if<DispatchStep>(&steps[i].op)) {
        if (copies_done) {
          wait_for({copies_done, 1});
          copies_done = nullptr;
        }
        auto* p = batch.Next<hsa_kernel_dispatch_packet_t>();
        std::memcpy(reinterpret_cast<uint8_t*>(p) + 4, reinterpret_cast<const uint8_t*>(&d->packet) + 4, 60);
        const size_t ordinal = sub.dispatches.size();
        p->completion_signal = sub.traced ? sub.dispatch_signals[ordinal]->handle() : sub.completion->handle();
        {
          std::lock_guard lock(shared_mutex);
          sub.dispatches.emplace_back(batch.index(), d->command);
        }
        batch.Publish(PacketHeader(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier || steps[i].barrier_before,
                                   acquire_scope(), HSA_FENCE_SCOPE_AGENT),
                      d->setup);
        barrier = false;
        ++i;
        continue;
      }
      size_t end = CopyRunEnd(steps, i);
      if (copies_done) wait_for({copies_done, 1});
      const Ref<PooledSignal>& started = sub.run_signals[next_run++];
      copies_done = &sub.run_signals[next_run++];
      fence(started->handle());
      hsa_signal_t start_handle = started->handle();
      for (size_t first = i; i < end; ++i) {
        const CopyStep& c = std::get<CopyStep>(steps[i].op);
        const uint8_t* source = c.source ? c.source->storage()->device_address() + c.source->byte_offset() + c.source_offset
                                         : c.staging;
        uint8_t* target = c.target->storage()->device_address() + c.target->byte_offset() + c.target_offset;
        hsa_agent_t source_agent = c.source ? owner(c.source) : cpu;  // staging lives in system memory
        Status copied = hsa.Check(hsa.hsa_amd_memory_async_copy(target, owner(c.target), source, source_agent, c.length, 1,
                                                                  &start_handle, (*copies_done)->handle()),
                                   StrCat("hsa_amd_memory_async_copy of ", c.length, " bytes"));
        if (!copied.ok()) {
          // The copies not issued will never decrement the run's signal.
          hsa.hsa_signal_subtract_screlease((*copies_done)->handle(), static_cast<hsa_signal_value_t>(end - i));
          copy_failure = copied.With("in command ", i - first, " of a run of copies");
          break;
        }
      }
    }
  }
  if (copies_done) wait_for({copies_done, 1});
  // The record stays valid only while it is emitting: once its final fence completes (or,
  // on a failed device, once it is no longer emitting) the completion thread retires it.
  const hsa_signal_t completion = sub.completion->handle();
  {
    std::lock_guard lock(shared_mutex);
    if (!copy_failure.ok()) {
      sub.failure = copy_failure;
      // An untraced submission's dispatches each decrement the completion signal: those never
      // written are taken off here, or the fence would leave it above zero (never retired).
      size_t unwritten = sub.dispatch_count - sub.dispatches.size();
      if (!sub.traced && unwritten > 0) {
        hsa.hsa_signal_subtract_screlease(completion, static_cast<hsa_signal_value_t>(unwritten));
      }
    }
    sub.emitting = false;
  }
  fence(completion);
}

}  // namespace kiln::hip
