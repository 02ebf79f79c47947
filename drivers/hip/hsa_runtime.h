// One initialised HSA runtime (a library from hsa_library.h after hsa_init), shared by every
// device, buffer and executable made from it; hsa_shut_down runs when the last goes.
//
// It also owns what devices of one runtime share: the agents and their pools, a pool of
// signals, the registry of semaphore timepoints that queues will signal (so a wait on one
// becomes a barrier packet instead of a host round trip), and the system event handler that
// routes GPU memory faults to the device of the faulting agent.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/ref.h"
#include "drivers/hip/hsa_library.h"
#include "hal/semaphore.h"

namespace kiln::hip {

struct GpuAgent {
  hsa_agent_t agent{};
  std::string name;     // "gfx942"
  std::string isa;      // "amdgcn-amd-amdhsa--gfx942"
  std::string product;  // marketing name, may be empty
  uint32_t compute_units = 0;
  uint32_t wavefront_size = 0;
  uint32_t max_workgroup_size = 0;
  uint32_t lds_bytes = 0;
  uint32_t queue_max_packets = 0;
  hsa_amd_memory_pool_t coarse_pool{};  // device-local, not host accessible
  bool has_fine_pool = false;
  hsa_amd_memory_pool_t fine_pool{};    // device-local, host accessible
  std::string Summary() const;          // "gfx942, 304 compute units, wave64, 64 KiB LDS"
};

class HsaRuntime;

// A signal from the runtime's pool, returned to it when the last reference goes.
class PooledSignal final : public RefCounted {
 public:
  hsa_signal_t handle() const { return handle_; }

 private:
  friend class HsaRuntime;
  PooledSignal(std::shared_ptr<HsaRuntime> runtime, hsa_signal_t handle)
      : runtime_(std::move(runtime)), handle_(handle) {}
  ~PooledSignal() override;
  std::shared_ptr<HsaRuntime> runtime_;
  hsa_signal_t handle_;
};

// Receives GPU memory faults of one agent (the device that owns it).
using MemoryFaultHandler = std::function<void(uint64_t address, uint32_t reason_mask)>;

class HsaRuntime : public std::enable_shared_from_this<HsaRuntime> {
 public:
  // The runtime of `library_path`, initialised on first use and shared while anyone holds
  // it. UNAVAILABLE with the reason when the library is missing or hsa_init fails.
  static StatusOr<std::shared_ptr<HsaRuntime>> Acquire(const std::string& library_path);
  ~HsaRuntime();

  const HsaLibrary& hsa() const { return *hsa_; }
  const std::vector<GpuAgent>& gpus() const { return gpus_; }
  hsa_agent_t cpu_agent() const { return cpu_agent_; }
  hsa_amd_memory_pool_t kernarg_pool() const { return kernarg_pool_; }
  hsa_amd_memory_pool_t system_pool() const { return system_pool_; }
  uint64_t timestamp_frequency() const { return timestamp_frequency_; }

  // A signal with `initial_value`, from the pool or new.
  StatusOr<Ref<PooledSignal>> AcquireSignal(int64_t initial_value);
  // Makes `signal` a signal with `initial_value`: the same one when the caller holds its only
  // reference (nothing can still wait on it or signal it), else one from AcquireSignal. A
  // submission record reuses its completion signal this way.
  Status ReuseSignal(Ref<PooledSignal>& signal, int64_t initial_value);

  // Timepoints: `signal` reaches 0 (or below, on failure) once `semaphore` has value `value`
  // from the GPU's side. Registered at submission, withdrawn at retirement.
  void AddTimepoint(const hal::Semaphore* semaphore, uint64_t value, const Ref<PooledSignal>& signal);
  void RemoveTimepoint(const hal::Semaphore* semaphore, const PooledSignal* signal);
  // The pending signal of the submission that will signal `semaphore` to exactly `value`, or
  // null. Only an exact match: a submission that signals a later value is sufficient but not
  // necessary (the host may signal `value` first), and waiting on it could deadlock.
  Ref<PooledSignal> FindTimepoint(const hal::Semaphore* semaphore, uint64_t value);

  // Memory faults of `agent` go to `handler` until it is removed.
  void SetFaultHandler(hsa_agent_t agent, MemoryFaultHandler handler);
  void RemoveFaultHandler(hsa_agent_t agent);

 private:
  explicit HsaRuntime(const HsaLibrary* hsa) : hsa_(hsa) {}
  Status Initialize();
  Status DiscoverAgents();
  void ReturnSignal(hsa_signal_t signal);
  static hsa_status_t OnSystemEvent(const hsa_amd_event_t* event, void* data);
  friend class PooledSignal;

  const HsaLibrary* hsa_;
  bool initialized_ = false;
  std::vector<GpuAgent> gpus_;
  hsa_agent_t cpu_agent_{};
  hsa_amd_memory_pool_t kernarg_pool_{};
  hsa_amd_memory_pool_t system_pool_{};
  uint64_t timestamp_frequency_ = 1'000'000'000;

  std::mutex signal_mutex_;
  std::vector<hsa_signal_t> free_signals_;

  struct Timepoint {
    const hal::Semaphore* semaphore;
    uint64_t value;
    Ref<PooledSignal> signal;
  };
  std::mutex timepoint_mutex_;
  std::vector<Timepoint> timepoints_;

  std::mutex fault_mutex_;
  std::vector<std::pair<uint64_t, MemoryFaultHandler>> fault_handlers_;  // by agent handle
};

}  // namespace kiln::hip
