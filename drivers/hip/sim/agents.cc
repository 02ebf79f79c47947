// Agents, ISAs and memory pools as the application sees them: hsa_iterate_agents,
// hsa_agent_get_info, hsa_agent_iterate_isas, hsa_isa_get_info_alt,
// hsa_amd_agent_iterate_memory_pools, hsa_amd_memory_pool_get_info; and the fault table.
//
// Attributes HSA defines only for kernel agents read as 0 on the CPU agent. Attributes the
// simulator does not know are HSA_STATUS_ERROR_INVALID_ARGUMENT with the number in the last
// error, so a driver asking for something new finds out which.
#include <algorithm>
#include <cstring>
#include <thread>

#include "drivers/hip/sim/async_copy.h"
#include "drivers/hip/sim/runtime.h"

namespace kiln::hsa_sim {

Agent::Agent() = default;
Agent::~Agent() = default;

std::string Agent::Describe() const {
  return gpu ? StrCat("GPU agent ", gpu_index, " (", name, ")") : std::string("the CPU agent");
}

void FaultTable::Arm(kiln_hsa_sim_fault_kind_t kind, uint64_t packet_ordinal, uint64_t value) {
  std::lock_guard lock(mu_);
  uint64_t base = kind == KILN_HSA_SIM_FAULT_COPY_REFUSED ? copies_ : started_;
  uint64_t target = base + packet_ordinal < base ? UINT64_MAX : base + packet_ordinal;
  armed_.push_back({kind, target, value});
}

void FaultTable::Clear() {
  std::lock_guard lock(mu_);
  armed_.clear();
}

bool FaultTable::OnCopyCall() {
  std::lock_guard lock(mu_);
  uint64_t ordinal = copies_++;
  for (auto it = armed_.begin(); it != armed_.end(); ++it) {
    if (it->kind == KILN_HSA_SIM_FAULT_COPY_REFUSED && it->target == ordinal) {
      armed_.erase(it);
      return true;
    }
  }
  return false;
}

FaultTable::Effects FaultTable::OnDispatchStart() {
  std::lock_guard lock(mu_);
  Effects effects;
  effects.ordinal = started_++;
  for (auto it = armed_.begin(); it != armed_.end();) {
    if (it->kind == KILN_HSA_SIM_FAULT_COPY_REFUSED) {  // counted by OnCopyCall
      ++it;
      continue;
    }
    if (it->kind == KILN_HSA_SIM_FAULT_SLOW) {
      if (effects.ordinal >= it->target) effects.slow_us = std::max(effects.slow_us, it->value);
      ++it;
      continue;
    }
    if (it->target != effects.ordinal) {
      ++it;
      continue;
    }
    // One-shot: the first armed fault for this packet takes effect; all are consumed.
    if (!effects.memory_fault && !effects.queue_error) {
      if (it->kind == KILN_HSA_SIM_FAULT_MEMORY) {
        effects.memory_fault = true;
        effects.fault_address = it->value;
      } else {
        effects.queue_error = true;
      }
    }
    it = armed_.erase(it);
  }
  return effects;
}

namespace {

constexpr uint32_t kMaxClockMhz = 2100;
// Dispatch limits that GPU agents and their ISA report alike.
constexpr uint16_t kWorkgroupMaxDim[3] = {kWorkgroupMaxSize, kWorkgroupMaxSize, kWorkgroupMaxSize};
constexpr hsa_dim3_t kGridMaxDim = {kGridMaxSize, kGridMaxSize, kGridMaxSize};
constexpr uint32_t kFbarrierMaxSize = 32;

// A NUL-padded char[size] (agent names are char[64]).
hsa_status_t PutString(void* value, const std::string& text, size_t size) {
  char buffer[64] = {};
  std::memcpy(buffer, text.data(), std::min(text.size(), size - 1));
  std::memcpy(value, buffer, size);
  return HSA_STATUS_SUCCESS;
}

uint32_t ChipId(const std::string& isa) {
  if (isa == "gfx942") return 0x74a1;   // MI300X
  if (isa == "gfx90a") return 0x740f;   // MI210
  if (isa == "gfx1100") return 0x744c;  // RX 7900 XTX
  return 0;
}

hsa_status_t UnknownAgentAttribute(int64_t attribute) {
  return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "attribute ", Hex(static_cast<uint64_t>(attribute)),
              " is not an agent attribute the simulator knows");
}

hsa_status_t GpuAgentInfo(const Agent& agent, int64_t attribute, void* value) {
  const AgentConfig& c = agent.config;
  bool rdna = c.isa.size() >= 7;  // gfx10xx and later: 2 SIMDs of 32 lanes per CU
  switch (attribute) {
    case HSA_AGENT_INFO_NAME:
      return PutString(value, agent.name, 64);
    case HSA_AGENT_INFO_VENDOR_NAME:
      return PutString(value, "AMD", 64);
    case HSA_AGENT_INFO_FEATURE:
      return Put(value, HSA_AGENT_FEATURE_KERNEL_DISPATCH);
    case HSA_AGENT_INFO_MACHINE_MODEL:
      return Put(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_AGENT_INFO_PROFILE:
      return Put(value, HSA_PROFILE_BASE);
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      return Put(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      return Put<uint32_t>(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO | HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_FAST_F16_OPERATION:
      return Put(value, true);
    case HSA_AGENT_INFO_WAVEFRONT_SIZE:
      return Put<uint32_t>(value, c.wavefront_size);
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM:
      return Put(value, kWorkgroupMaxDim);
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
      return Put<uint32_t>(value, kWorkgroupMaxSize);
    case HSA_AGENT_INFO_GRID_MAX_DIM:
      return Put(value, kGridMaxDim);
    case HSA_AGENT_INFO_GRID_MAX_SIZE:
      return Put<uint32_t>(value, kGridMaxSize);
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
      return Put<uint32_t>(value, kFbarrierMaxSize);
    case HSA_AGENT_INFO_QUEUES_MAX:
      return Put<uint32_t>(value, kQueuesMax);
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
      return Put<uint32_t>(value, kQueueMinSize);
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      return Put<uint32_t>(value, kQueueMaxSize);
    case HSA_AGENT_INFO_QUEUE_TYPE:
      return Put<hsa_queue_type32_t>(value, HSA_QUEUE_TYPE_MULTI);
    case HSA_AGENT_INFO_NODE:
      return Put<uint32_t>(value, agent.node);
    case HSA_AGENT_INFO_DEVICE:
      return Put(value, HSA_DEVICE_TYPE_GPU);
    case HSA_AGENT_INFO_CACHE_SIZE:
      return Put<uint32_t[4]>(value, {32 * 1024, 4 * 1024 * 1024, 0, 0});
    case HSA_AGENT_INFO_ISA:
      return Put(value, agent.isa->handle());
    case HSA_AGENT_INFO_EXTENSIONS:
      std::memset(value, 0, 128);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_VERSION_MAJOR:
      return Put<uint16_t>(value, 1);
    case HSA_AGENT_INFO_VERSION_MINOR:
      return Put<uint16_t>(value, 1);
    case HSA_AMD_AGENT_INFO_CHIP_ID:
      return Put<uint32_t>(value, ChipId(c.isa));
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
      return Put<uint32_t>(value, 128);
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
      return Put<uint32_t>(value, c.compute_units);
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      return Put<uint32_t>(value, kMaxClockMhz);
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
      return Put<uint32_t>(value, agent.node);
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_BDFID:
      return Put<uint32_t>(value, agent.gpu_index << 8);
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
      return Put<uint32_t>(value, 1300);
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      return PutString(value, "kiln hip-sim " + c.isa, 64);
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
      return Put<uint32_t>(value, 32);
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
      return Put<uint32_t>(value, rdna ? 2 : 4);
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
      return Put<uint32_t>(value, std::max(1u, c.compute_units / 16));
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
      return Put<uint32_t>(value, rdna ? 2 : 1);
    case HSA_AMD_AGENT_INFO_DOMAIN:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
      return Put(value, false);
    case HSA_AMD_AGENT_INFO_UUID: {
      std::string uuid = StrCat("GPU-sim-", agent.gpu_index / 1000 % 10, agent.gpu_index / 100 % 10,
                                agent.gpu_index / 10 % 10, agent.gpu_index % 10);
      std::memcpy(value, uuid.c_str(), uuid.size() + 1);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_AGENT_INFO_ASIC_REVISION:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      return Put(value, true);
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      return Put<uint32_t>(value, c.compute_units);
  }
  return UnknownAgentAttribute(attribute);
}

hsa_status_t CpuAgentInfo(const Agent& agent, int64_t attribute, void* value) {
  switch (attribute) {
    case HSA_AGENT_INFO_NAME:
      return PutString(value, agent.name, 64);
    case HSA_AGENT_INFO_VENDOR_NAME:
      return PutString(value, "kiln", 64);
    case HSA_AGENT_INFO_FEATURE:
      return Put<uint32_t>(value, 0);  // no kernel or agent dispatch
    case HSA_AGENT_INFO_MACHINE_MODEL:
      return Put(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_AGENT_INFO_PROFILE:
      return Put(value, HSA_PROFILE_FULL);
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      return Put(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      return Put<uint32_t>(value, 0);
    case HSA_AGENT_INFO_FAST_F16_OPERATION:
      return Put(value, false);
    case HSA_AGENT_INFO_WAVEFRONT_SIZE:
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
    case HSA_AGENT_INFO_GRID_MAX_SIZE:
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
    case HSA_AGENT_INFO_QUEUES_MAX:
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      return Put<uint32_t>(value, 0);
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM:
      return Put<uint16_t[3]>(value, {0, 0, 0});
    case HSA_AGENT_INFO_GRID_MAX_DIM:
      return Put(value, hsa_dim3_t{0, 0, 0});
    case HSA_AGENT_INFO_QUEUE_TYPE:
      return Put<hsa_queue_type32_t>(value, HSA_QUEUE_TYPE_MULTI);
    case HSA_AGENT_INFO_NODE:
      return Put<uint32_t>(value, agent.node);
    case HSA_AGENT_INFO_DEVICE:
      return Put(value, HSA_DEVICE_TYPE_CPU);
    case HSA_AGENT_INFO_CACHE_SIZE:
      return Put<uint32_t[4]>(value, {0, 0, 0, 0});
    case HSA_AGENT_INFO_ISA:
      return Put(value, hsa_isa_t{0});
    case HSA_AGENT_INFO_EXTENSIONS:
      std::memset(value, 0, 128);
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_VERSION_MAJOR:
      return Put<uint16_t>(value, 1);
    case HSA_AGENT_INFO_VERSION_MINOR:
      return Put<uint16_t>(value, 1);
    case HSA_AMD_AGENT_INFO_CHIP_ID:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
      return Put<uint32_t>(value, 64);
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
      return Put<uint32_t>(value, std::max(1u, std::thread::hardware_concurrency()));
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
      return Put<uint32_t>(value, agent.node);
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      return PutString(value, "kiln hip-sim host", 64);
    case HSA_AMD_AGENT_INFO_UUID:
      std::memcpy(value, "CPU-XX", 7);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
    case HSA_AMD_AGENT_INFO_BDFID:
    case HSA_AMD_AGENT_INFO_DOMAIN:
    case HSA_AMD_AGENT_INFO_ASIC_REVISION:
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      return Put<uint32_t>(value, 0);
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
      return Put(value, false);
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      return Put(value, true);
  }
  return UnknownAgentAttribute(attribute);
}

hsa_status_t IsaInfo(const Isa& isa, int64_t attribute, void* value) {
  switch (attribute) {
    case HSA_ISA_INFO_NAME_LENGTH:
      return Put<uint32_t>(value, static_cast<uint32_t>(isa.name.size()));
    case HSA_ISA_INFO_NAME:
      return PutName(value, isa.name);
    case HSA_ISA_INFO_MACHINE_MODELS:
      return Put<bool[2]>(value, {false, true});  // SMALL, LARGE
    case HSA_ISA_INFO_PROFILES:
      return Put<bool[2]>(value, {true, false});  // BASE, FULL
    case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
    case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      return Put<bool[3]>(value, {false, true, true});  // DEFAULT, ZERO, NEAR
    case HSA_ISA_INFO_FAST_F16_OPERATION:
      return Put(value, true);
    case HSA_ISA_INFO_WORKGROUP_MAX_DIM:
      return Put(value, kWorkgroupMaxDim);
    case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
      return Put<uint32_t>(value, kWorkgroupMaxSize);
    case HSA_ISA_INFO_GRID_MAX_DIM:
      return Put(value, kGridMaxDim);
    case HSA_ISA_INFO_GRID_MAX_SIZE:
      return Put<uint64_t>(value, kGridMaxSize);
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
      return Put<uint32_t>(value, kFbarrierMaxSize);
  }
  return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "attribute ", attribute,
              " is not an ISA attribute the simulator knows (the call-convention ones are deprecated)");
}

hsa_status_t PoolInfo(const Pool& pool, int64_t attribute, void* value) {
  bool global = pool.segment == HSA_AMD_SEGMENT_GLOBAL;
  switch (attribute) {
    case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
      return Put(value, pool.segment);
    case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
      return Put<uint32_t>(value, pool.global_flags);
    case HSA_AMD_MEMORY_POOL_INFO_SIZE:
      return Put<size_t>(value, pool.size);
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
      return Put(value, pool.alloc_allowed);
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
    case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
      return Put<size_t>(value, pool.alloc_allowed ? kAllocGranule : 0);
    case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
      return Put(value, pool.accessible_by_all);
    case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
      return Put<size_t>(value, global ? pool.size : 0);
  }
  return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "attribute ", attribute,
              " is not a memory pool attribute the simulator knows");
}

}  // namespace
}  // namespace kiln::hsa_sim

using namespace kiln::hsa_sim;

extern "C" {

hsa_status_t HSA_API hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void* data), void* data) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "callback is null");
  for (const auto& agent : session->agents()) {
    hsa_status_t status = callback(agent->handle(), data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void* value) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Agent* a = session->FindAgent(agent);
  if (!a) return InvalidAgent(agent);
  if (value == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "value is null");
  int64_t attr = RawEnum(attribute);
  return a->gpu ? GpuAgentInfo(*a, attr, value) : CpuAgentInfo(*a, attr, value);
}

hsa_status_t HSA_API hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t isa, void* data),
                                            void* data) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Agent* a = session->FindAgent(agent);
  if (!a) return InvalidAgent(agent);
  if (callback == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "callback is null");
  if (!a->isa) return HSA_STATUS_SUCCESS;  // the CPU agent runs no kernels
  return callback(a->isa->handle(), data);
}

hsa_status_t HSA_API hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void* value) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Isa* i = session->FindIsa(isa);
  if (!i) return Fail(HSA_STATUS_ERROR_INVALID_ISA, "ISA ", Hex(isa.handle), " is not an ISA of this runtime");
  if (value == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "value is null");
  return IsaInfo(*i, RawEnum(attribute), value);
}

hsa_status_t HSA_API hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void* data), void* data) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Agent* a = session->FindAgent(agent);
  if (!a) return InvalidAgent(agent);
  if (callback == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "callback is null");
  for (const auto& pool : a->pools) {
    hsa_status_t status = callback(pool->handle(), data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                                  hsa_amd_memory_pool_info_t attribute, void* value) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Pool* pool = session->FindPool(memory_pool);
  if (!pool) return InvalidMemoryPool(memory_pool);
  if (value == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "value is null");
  return PoolInfo(*pool, RawEnum(attribute), value);
}

}  // extern "C"
