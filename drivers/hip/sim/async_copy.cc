// hsa_amd_memory_async_copy and the copy engines behind it (see async_copy.h).
#include "drivers/hip/sim/async_copy.h"

#include <cstdio>
#include <cstring>

#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {

CopyEngine::CopyEngine(const Agent& agent, AllocationTable& memory) : agent_(agent), memory_(memory) {
  thread_ = std::thread([this] { Main(); });
}

CopyEngine::~CopyEngine() { Stop(); }

void CopyEngine::Submit(CopyJob job) {
  {
    std::lock_guard lock(mu_);
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
}

void CopyEngine::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  stopping_.store(true, std::memory_order_release);
  cv_.notify_all();
  waiter_.Wake();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mu_);
  jobs_.clear();
}

void CopyEngine::Main() {
  StartSimThread(this, "hsa-sim-dma");
  while (true) {
    CopyJob job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
      if (stop_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    if (!WaitDependencies(job)) {
      if (stopping_.load(std::memory_order_acquire)) return;
      std::fprintf(stderr,
                   "kiln_hsa_sim: async copy on %s: a dependency signal was destroyed while the copy "
                   "waited on it; the completion signal is set to -1\n",
                   agent_.Describe().c_str());
      job.completion->Store(-1, std::memory_order_release);
      continue;
    }
    Execute(job);
  }
}

bool CopyEngine::WaitDependencies(const CopyJob& job) {
  if (job.dependencies.empty()) return true;
  std::vector<Signal*> signals;
  for (const auto& s : job.dependencies) signals.push_back(s.get());
  WaitRegistration registration(signals, &waiter_);
  while (true) {
    bool all_zero = true;
    for (Signal* s : signals) {
      if (s->abandoned()) return false;
      // Exactly 0: a negative value (a failed copy) keeps the dependency pending.
      if (s->Load(std::memory_order_acquire) != 0) all_zero = false;
    }
    if (all_zero) return true;
    if (stopping_.load(std::memory_order_acquire)) return false;
    waiter_.SleepUntil(Clock::time_point::max());
  }
}

void CopyEngine::Execute(const CopyJob& job) {
  if (job.size > 0) {
    // Hold the table so neither range is freed during the copy.
    auto lock = memory_.LockShared();
    uintptr_t dst = reinterpret_cast<uintptr_t>(job.dst), src = reinterpret_cast<uintptr_t>(job.src);
    bool dst_ok = memory_.FindLocked(dst, job.size) != nullptr, src_ok = memory_.FindLocked(src, job.size) != nullptr;
    if (!dst_ok || !src_ok) {
      std::string why = !dst_ok ? "destination " + memory_.DescribeLocked(dst, job.size)
                                : "source " + memory_.DescribeLocked(src, job.size);
      lock.unlock();
      std::fprintf(stderr,
                   "kiln_hsa_sim: async copy of %zu bytes on %s failed: %s (freed before the copy ran?); "
                   "the completion signal is set to -1\n",
                   job.size, agent_.Describe().c_str(), why.c_str());
      job.completion->Store(-1, std::memory_order_release);
      return;
    }
    std::memmove(job.dst, job.src, job.size);  // overlapping ranges: undefined in HSA, harmless here
  }
  job.completion->Subtract(1, std::memory_order_release);
}

}  // namespace kiln::hsa_sim

using namespace kiln::hsa_sim;

extern "C" {

hsa_status_t HSA_API hsa_amd_memory_async_copy(void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent,
                                               size_t size, uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
                                               hsa_signal_t completion_signal) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* to = session->FindAgent(dst_agent);
  if (!to)
    return Fail(HSA_STATUS_ERROR_INVALID_AGENT, "dst_agent ", Hex(dst_agent.handle),
                " is not an agent of this runtime");
  Agent* from = session->FindAgent(src_agent);
  if (!from)
    return Fail(HSA_STATUS_ERROR_INVALID_AGENT, "src_agent ", Hex(src_agent.handle),
                " is not an agent of this runtime");
  if (dst == nullptr || src == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "dst or src is null");
  if (completion_signal.handle == 0)
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "completion_signal is the 0 handle");
  if (num_dep_signals > 0 && dep_signals == nullptr) {
    return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "num_dep_signals is ", num_dep_signals, " but dep_signals is null");
  }
  CopyJob job;
  job.dst = dst;
  job.src = src;
  job.size = size;
  job.completion = session->signals.Find(completion_signal.handle);
  if (!job.completion) {
    return Fail(HSA_STATUS_ERROR_INVALID_SIGNAL, "completion_signal ", Hex(completion_signal.handle),
                " is not a live signal");
  }
  for (uint32_t i = 0; i < num_dep_signals; ++i) {
    std::shared_ptr<Signal> s = dep_signals[i].handle ? session->signals.Find(dep_signals[i].handle) : nullptr;
    if (!s) {
      return Fail(HSA_STATUS_ERROR_INVALID_SIGNAL, "dep_signals[", i, "] (", Hex(dep_signals[i].handle),
                  ") is not a live signal");
    }
    job.dependencies.push_back(std::move(s));
  }
  if (size > 0) {
    auto lock = session->memory.LockShared();
    uintptr_t d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
    const Allocation* to_allocation = session->memory.FindLocked(d, size);
    if (!to_allocation) {
      return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "the destination of ", size,
                  " bytes is not inside one pool allocation: ", session->memory.DescribeLocked(d, size));
    }
    const Allocation* from_allocation = session->memory.FindLocked(s, size);
    if (!from_allocation) {
      return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "the source of ", size,
                  " bytes is not inside one pool allocation: ", session->memory.DescribeLocked(s, size));
    }
    // Each agent is the one the memory belongs to, as HSA asks ("the agent associated with
    // the buffer"): system memory is the CPU agent's, even when a GPU may access it.
    if (to_allocation->pool->owner != to) {
      return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "dst_agent is ", to->Describe(), " but the destination lies in the ",
                  to_allocation->pool->description);
    }
    if (from_allocation->pool->owner != from) {
      return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "src_agent is ", from->Describe(), " but the source lies in the ",
                  from_allocation->pool->description);
    }
  }
  // The engine of the GPU side of the copy; host-to-host copies use GPU agent 0's.
  Agent* engine_agent = to->gpu ? to : from->gpu ? from : session->gpu(0);
  if (!engine_agent || !engine_agent->copy_engine) {
    return Fail(HSA_STATUS_ERROR_INVALID_AGENT, "there is no GPU agent whose copy engine could do this copy");
  }
  if (engine_agent->faults.OnCopyCall()) {
    return Fail(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "the copy engine of ", engine_agent->Describe(),
                " refused this copy (an injected KILN_HSA_SIM_FAULT_COPY_REFUSED)");
  }
  engine_agent->copy_engine->Submit(std::move(job));
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
