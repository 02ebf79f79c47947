#include "drivers/hip/hsa_runtime.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace kiln::hip {
namespace {

// Agent and pool queries write into a typed out-parameter; these wrap the C calls.
template <typename T>
hsa_status_t AgentInfo(const HsaLibrary& hsa, hsa_agent_t agent, uint32_t attribute, T* out) {
  return hsa.hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(attribute), out);
}
template <typename T>
hsa_status_t PoolInfo(const HsaLibrary& hsa, hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute,
                      T* out) {
  return hsa.hsa_amd_memory_pool_get_info(pool, attribute, out);
}

// The handles an HSA iterate function reports, in order: `iterate(args..., callback, data)`.
template <typename Handle, typename Iterate, typename... Args>
StatusOr<std::vector<Handle>> Collect(const HsaLibrary& hsa, Iterate iterate, const char* what, Args... args) {
  std::vector<Handle> out;
  auto callback = [](Handle handle, void* data) {
    static_cast<std::vector<Handle>*>(data)->push_back(handle);
    return HSA_STATUS_SUCCESS;
  };
  KILN_RETURN_IF_ERROR(hsa.Check(iterate(args..., callback, &out), what));
  return out;
}

struct PoolFacts {
  hsa_amd_memory_pool_t pool;
  hsa_amd_segment_t segment;
  uint32_t flags;
  size_t size;
  bool allocatable;
};

StatusOr<std::vector<PoolFacts>> Pools(const HsaLibrary& hsa, hsa_agent_t agent) {
  KILN_ASSIGN_OR_RETURN(std::vector<hsa_amd_memory_pool_t> pools,
                        Collect<hsa_amd_memory_pool_t>(hsa, hsa.hsa_amd_agent_iterate_memory_pools,
                                                       "hsa_amd_agent_iterate_memory_pools", agent));
  std::vector<PoolFacts> out;
  for (hsa_amd_memory_pool_t pool : pools) {
    PoolFacts facts{pool, HSA_AMD_SEGMENT_GLOBAL, 0, 0, false};
    KILN_RETURN_IF_ERROR(hsa.Check(PoolInfo(hsa, pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &facts.segment),
                                   "querying a memory pool's segment"));
    if (facts.segment == HSA_AMD_SEGMENT_GLOBAL) {
      KILN_RETURN_IF_ERROR(hsa.Check(PoolInfo(hsa, pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &facts.flags),
                                     "querying a memory pool's flags"));
    }
    KILN_RETURN_IF_ERROR(
        hsa.Check(PoolInfo(hsa, pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &facts.size), "querying a memory pool's size"));
    KILN_RETURN_IF_ERROR(hsa.Check(PoolInfo(hsa, pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
                                            &facts.allocatable),
                                   "querying whether a memory pool allows allocation"));
    out.push_back(facts);
  }
  return out;
}

const PoolFacts* FindPool(const std::vector<PoolFacts>& pools, hsa_amd_segment_t segment, uint32_t required_flags) {
  for (const PoolFacts& p : pools) {
    if (p.segment != segment) continue;
    if (segment == HSA_AMD_SEGMENT_GLOBAL && (!p.allocatable || (p.flags & required_flags) != required_flags)) continue;
    return &p;
  }
  return nullptr;
}

std::string Trim(const char* text, size_t capacity) { return std::string(text, strnlen(text, capacity)); }

}  // namespace

std::string GpuAgent::Summary() const {
  return StrCat(name, ", ", compute_units, " compute units, wave", wavefront_size, ", ", lds_bytes / 1024,
                " KiB LDS", product.empty() ? "" : ", ", product);
}

PooledSignal::~PooledSignal() { runtime_->ReturnSignal(handle_); }

StatusOr<std::shared_ptr<HsaRuntime>> HsaRuntime::Acquire(const std::string& library_path) {
  static std::mutex mutex;
  static auto* live = new std::map<std::string, std::weak_ptr<HsaRuntime>>();
  std::lock_guard lock(mutex);
  if (auto it = live->find(library_path); it != live->end()) {
    if (std::shared_ptr<HsaRuntime> runtime = it->second.lock()) return runtime;
  }
  KILN_ASSIGN_OR_RETURN(const HsaLibrary* hsa, HsaLibrary::Open(library_path));
  std::shared_ptr<HsaRuntime> runtime(new HsaRuntime(hsa));
  KILN_RETURN_IF_ERROR(runtime->Initialize());
  (*live)[library_path] = runtime;
  return runtime;
}

Status HsaRuntime::Initialize() {
  hsa_status_t status = hsa_->hsa_init();
  if (status != HSA_STATUS_SUCCESS) {
    std::string why = hsa_->Describe(status);
    if (!hsa_->is_simulator() && access("/dev/kfd", F_OK) != 0) {
      why += "; this machine has no /dev/kfd (no AMD GPU kernel driver): use --device=hip-sim to run GPU code "
             "on kiln's HSA simulator";
    }
    return UnavailableError("hsa_init of '", hsa_->path, "' failed: ", why);
  }
  initialized_ = true;
  KILN_RETURN_IF_ERROR(hsa_->Check(
      hsa_->hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &timestamp_frequency_), "hsa_system_get_info"));
  if (timestamp_frequency_ == 0) timestamp_frequency_ = 1'000'000'000;
  KILN_RETURN_IF_ERROR(DiscoverAgents());
  return hsa_->Check(hsa_->hsa_amd_register_system_event_handler(&HsaRuntime::OnSystemEvent, this),
                     "hsa_amd_register_system_event_handler");
}

Status HsaRuntime::DiscoverAgents() {
  KILN_ASSIGN_OR_RETURN(std::vector<hsa_agent_t> agents,
                        Collect<hsa_agent_t>(*hsa_, hsa_->hsa_iterate_agents, "hsa_iterate_agents"));
  bool have_cpu = false;
  for (hsa_agent_t agent : agents) {
    hsa_device_type_t type;
    KILN_RETURN_IF_ERROR(hsa_->Check(AgentInfo(*hsa_, agent, HSA_AGENT_INFO_DEVICE, &type), "querying an agent's type"));
    KILN_ASSIGN_OR_RETURN(std::vector<PoolFacts> pools, Pools(*hsa_, agent));
    if (type == HSA_DEVICE_TYPE_CPU && !have_cpu) {
      const PoolFacts* kernarg = FindPool(pools, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
      const PoolFacts* fine = FindPool(pools, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
      if (!kernarg || !fine) continue;
      cpu_agent_ = agent;
      kernarg_pool_ = kernarg->pool;
      system_pool_ = fine->pool;
      have_cpu = true;
      continue;
    }
    if (type != HSA_DEVICE_TYPE_GPU) continue;
    GpuAgent gpu;
    gpu.agent = agent;
    char name[64] = {};
    KILN_RETURN_IF_ERROR(hsa_->Check(AgentInfo(*hsa_, agent, HSA_AGENT_INFO_NAME, name), "querying a GPU's name"));
    gpu.name = Trim(name, sizeof(name));
    char product[64] = {};
    if (AgentInfo(*hsa_, agent, HSA_AMD_AGENT_INFO_PRODUCT_NAME, product) == HSA_STATUS_SUCCESS) {
      gpu.product = Trim(product, sizeof(product));
    }
    KILN_RETURN_IF_ERROR(hsa_->Check(AgentInfo(*hsa_, agent, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &gpu.compute_units),
                                     "querying a GPU's compute units"));
    KILN_RETURN_IF_ERROR(hsa_->Check(AgentInfo(*hsa_, agent, HSA_AGENT_INFO_WAVEFRONT_SIZE, &gpu.wavefront_size),
                                     "querying a GPU's wavefront size"));
    KILN_RETURN_IF_ERROR(hsa_->Check(AgentInfo(*hsa_, agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &gpu.max_workgroup_size),
                                     "querying a GPU's workgroup size limit"));
    KILN_RETURN_IF_ERROR(hsa_->Check(AgentInfo(*hsa_, agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &gpu.queue_max_packets),
                                     "querying a GPU's queue size limit"));
    KILN_ASSIGN_OR_RETURN(std::vector<hsa_isa_t> isas,
                          Collect<hsa_isa_t>(*hsa_, hsa_->hsa_agent_iterate_isas, "hsa_agent_iterate_isas", agent));
    if (!isas.empty()) {
      uint32_t length = 0;
      KILN_RETURN_IF_ERROR(hsa_->Check(hsa_->hsa_isa_get_info_alt(isas[0], HSA_ISA_INFO_NAME_LENGTH, &length),
                                       "querying an ISA name's length"));
      std::string isa(length, '\0');
      KILN_RETURN_IF_ERROR(
          hsa_->Check(hsa_->hsa_isa_get_info_alt(isas[0], HSA_ISA_INFO_NAME, isa.data()), "querying an ISA name"));
      gpu.isa = Trim(isa.data(), isa.size());
    }
    const PoolFacts* coarse = FindPool(pools, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    if (!coarse) continue;  // a GPU without allocatable device memory is of no use here
    gpu.coarse_pool = coarse->pool;
    if (const PoolFacts* fine = FindPool(pools, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED)) {
      gpu.has_fine_pool = true;
      gpu.fine_pool = fine->pool;
    }
    if (const PoolFacts* group = FindPool(pools, HSA_AMD_SEGMENT_GROUP, 0)) gpu.lds_bytes = static_cast<uint32_t>(group->size);
    gpus_.push_back(std::move(gpu));
  }
  if (!have_cpu) return UnavailableError("the HSA runtime '", hsa_->path, "' reports no CPU agent with a kernarg pool");
  return OkStatus();
}

HsaRuntime::~HsaRuntime() {
  {
    std::lock_guard lock(signal_mutex_);
    for (hsa_signal_t signal : free_signals_) hsa_->hsa_signal_destroy(signal);
    free_signals_.clear();
  }
  if (initialized_) hsa_->hsa_shut_down();
}

StatusOr<Ref<PooledSignal>> HsaRuntime::AcquireSignal(int64_t initial_value) {
  hsa_signal_t signal{};
  {
    std::lock_guard lock(signal_mutex_);
    if (!free_signals_.empty()) {
      signal = free_signals_.back();
      free_signals_.pop_back();
    }
  }
  // A pooled signal has no waiters: a silent store (no wake-up of waiters, which on ROCm is an
  // event write) is enough.
  if (signal.handle != 0) {
    hsa_->hsa_signal_silent_store_relaxed(signal, initial_value);
  } else {
    KILN_RETURN_IF_ERROR(hsa_->Check(hsa_->hsa_signal_create(initial_value, 0, nullptr, &signal), "hsa_signal_create"));
  }
  return Ref<PooledSignal>(new PooledSignal(shared_from_this(), signal));
}

Status HsaRuntime::ReuseSignal(Ref<PooledSignal>& signal, int64_t initial_value) {
  if (signal && signal->HasOneRef()) {
    hsa_->hsa_signal_silent_store_relaxed(signal->handle(), initial_value);  // no waiters, as above
    return OkStatus();
  }
  KILN_ASSIGN_OR_RETURN(signal, AcquireSignal(initial_value));
  return OkStatus();
}

void HsaRuntime::ReturnSignal(hsa_signal_t signal) {
  std::lock_guard lock(signal_mutex_);
  free_signals_.push_back(signal);
}

void HsaRuntime::AddTimepoint(const hal::Semaphore* semaphore, uint64_t value, const Ref<PooledSignal>& signal) {
  std::lock_guard lock(timepoint_mutex_);
  timepoints_.push_back({semaphore, value, signal});
}

void HsaRuntime::RemoveTimepoint(const hal::Semaphore* semaphore, const PooledSignal* signal) {
  std::lock_guard lock(timepoint_mutex_);
  std::erase_if(timepoints_, [&](const Timepoint& t) { return t.semaphore == semaphore && t.signal.get() == signal; });
}

Ref<PooledSignal> HsaRuntime::FindTimepoint(const hal::Semaphore* semaphore, uint64_t value) {
  std::lock_guard lock(timepoint_mutex_);
  for (const Timepoint& t : timepoints_) {
    if (t.semaphore == semaphore && t.value == value) return t.signal;
  }
  return nullptr;
}

void HsaRuntime::SetFaultHandler(hsa_agent_t agent, MemoryFaultHandler handler) {
  std::lock_guard lock(fault_mutex_);
  fault_handlers_.emplace_back(agent.handle, std::move(handler));
}

void HsaRuntime::RemoveFaultHandler(hsa_agent_t agent) {
  std::lock_guard lock(fault_mutex_);
  std::erase_if(fault_handlers_, [&](const auto& entry) { return entry.first == agent.handle; });
}

hsa_status_t HsaRuntime::OnSystemEvent(const hsa_amd_event_t* event, void* data) {
  if (!event || event->event_type != HSA_AMD_GPU_MEMORY_FAULT_EVENT) return HSA_STATUS_SUCCESS;
  auto* self = static_cast<HsaRuntime*>(data);
  std::lock_guard lock(self->fault_mutex_);
  for (const auto& [agent, handler] : self->fault_handlers_) {
    if (agent == event->memory_fault.agent.handle) {
      handler(event->memory_fault.virtual_address, event->memory_fault.fault_reason_mask);
    }
  }
  // Handled: ROCm aborts the process on a memory fault only when no handler is registered.
  return HSA_STATUS_SUCCESS;
}

}  // namespace kiln::hip
