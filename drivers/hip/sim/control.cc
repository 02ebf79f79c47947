// The control interface of hsa_sim_control.h, and hsa_amd_register_system_event_handler (whose
// events, in the simulator, are the injected memory faults).
#include <cstdio>

#include "drivers/hip/sim/runtime.h"

using namespace kiln::hsa_sim;

extern "C" {

KILN_HSA_SIM_EXPORT int kiln_hsa_sim_configure(const kiln_hsa_sim_agent_config_t* agents, uint32_t count) {
  BeginApiCall(__func__);
  std::optional<std::vector<AgentConfig>> configured;
  if (count > 0) {
    if (agents == nullptr) {
      SetLastError(kiln::StrCat("count is ", count, " but agents is null"));
      return -1;
    }
    if (count > kMaxGpuAgents) {
      SetLastError(kiln::StrCat(count, " agents exceed the limit of ", kMaxGpuAgents));
      return -1;
    }
    configured.emplace();
    for (uint32_t i = 0; i < count; ++i) {
      auto agent = ResolveAgentConfig(agents[i]);
      if (!agent.ok()) {
        SetLastError(kiln::StrCat("agents[", i, "]: ", agent.status().message()));
        return -1;
      }
      configured->push_back(std::move(*agent));
    }
  }
  if (!SetConfiguredAgents(std::move(configured))) {
    SetLastError("the runtime is initialized; configure before hsa_init or after the last hsa_shut_down");
    return -1;
  }
  return 0;
}

KILN_HSA_SIM_EXPORT int kiln_hsa_sim_inject(kiln_hsa_sim_fault_kind_t kind, uint32_t gpu_agent_index,
                                            uint64_t packet_ordinal, uint64_t value) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return -1;
  int64_t raw_kind = RawEnum(kind);
  if (raw_kind != KILN_HSA_SIM_FAULT_MEMORY && raw_kind != KILN_HSA_SIM_FAULT_QUEUE_ERROR &&
      raw_kind != KILN_HSA_SIM_FAULT_SLOW && raw_kind != KILN_HSA_SIM_FAULT_COPY_REFUSED) {
    SetLastError(kiln::StrCat("kind ", raw_kind, " is not a kiln_hsa_sim_fault_kind_t"));
    return -1;
  }
  Agent* agent = session->gpu(gpu_agent_index);
  if (!agent) {
    SetLastError(kiln::StrCat("GPU agent ", gpu_agent_index, " does not exist; there are ", session->gpu_count()));
    return -1;
  }
  agent->faults.Arm(kind, packet_ordinal, value);
  return 0;
}

KILN_HSA_SIM_EXPORT void kiln_hsa_sim_clear_faults(void) {
  BeginApiCall(__func__);
  std::shared_ptr<Session> session = CurrentSession();
  if (!session) return;
  for (uint32_t i = 0; i < session->gpu_count(); ++i) session->gpu(i)->faults.Clear();
}

KILN_HSA_SIM_EXPORT const char* kiln_hsa_sim_last_error(void) { return LastError().c_str(); }

KILN_HSA_SIM_EXPORT uint64_t kiln_hsa_sim_dispatches_completed(uint32_t gpu_agent_index) {
  std::shared_ptr<Session> session = CurrentSession();
  Agent* agent = session ? session->gpu(gpu_agent_index) : nullptr;
  return agent ? agent->dispatches_completed.load(std::memory_order_relaxed) : 0;
}

KILN_HSA_SIM_EXPORT int kiln_hsa_sim_last_dispatch_counts(uint32_t gpu_agent_index,
                                                          kiln_hsa_sim_dispatch_counts_t* out) {
  BeginApiCall(__func__);
  std::shared_ptr<Session> session = CurrentSession();
  Agent* agent = session ? session->gpu(gpu_agent_index) : nullptr;
  if (!agent || !out) {
    SetLastError(!session ? "the runtime is not initialized"
                 : !agent ? kiln::StrCat("no GPU agent ", gpu_agent_index)
                          : std::string("out is null"));
    return -1;
  }
  std::lock_guard lock(agent->counts_mu);
  if (agent->last_counts_kernel.empty()) {
    SetLastError(kiln::StrCat(agent->Describe(), " has completed no code-object dispatch"));
    return -1;
  }
  const isa::ExecutionCounts& c = agent->last_counts;
  *out = {};
  std::snprintf(out->kernel, sizeof(out->kernel), "%s", agent->last_counts_kernel.c_str());
  out->workgroups = c.workgroups;
  out->waves = c.waves;
  auto of = [&](isa::OpClass k) { return c.instructions[static_cast<int>(k)]; };
  out->salu = of(isa::OpClass::kSalu);
  out->smem = of(isa::OpClass::kSmem);
  out->valu = of(isa::OpClass::kValu);
  out->mfma = of(isa::OpClass::kMfma);
  out->vmem = of(isa::OpClass::kVmem);
  out->lds = of(isa::OpClass::kLds);
  out->branch = of(isa::OpClass::kBranch);
  out->wait = of(isa::OpClass::kWait);
  out->global_read_bytes = c.global_read_bytes;
  out->global_written_bytes = c.global_written_bytes;
  out->lds_read_bytes = c.lds_read_bytes;
  out->lds_written_bytes = c.lds_written_bytes;
  const isa::Occupancy& o = agent->last_occupancy;
  out->occupancy_waves_per_simd = o.waves_per_simd;
  out->occupancy_workgroups_per_cu = o.workgroups_per_cu;
  out->occupancy_waves_per_cu = o.waves_per_cu;
  std::snprintf(out->occupancy_limit, sizeof(out->occupancy_limit), "%s", o.limit);
  out->dispatch_ordinal = agent->last_counts_ordinal;
  static_assert(KILN_HSA_SIM_MFMA_OP_SLOTS == isa::kMfmaOpSlots);
  for (int k = 0; k < isa::kMfmaOpSlots; ++k) {
    if (k >= static_cast<int>(agent->last_mfma_mnemonics.size())) break;
    bool rest = k == isa::kMfmaOpSlots - 1 && agent->last_mfma_mnemonics.size() > static_cast<size_t>(k) + 1;
    std::snprintf(out->mfma_ops[k].mnemonic, sizeof(out->mfma_ops[k].mnemonic), "%s",
                  rest ? "other" : agent->last_mfma_mnemonics[k].c_str());
    out->mfma_ops[k].count = c.mfma_by_op[k];
  }
  return 0;
}

KILN_HSA_SIM_EXPORT void kiln_hsa_sim_system_fences(uint32_t gpu_agent_index, uint64_t* acquires,
                                                    uint64_t* releases) {
  std::shared_ptr<Session> session = CurrentSession();
  Agent* agent = session ? session->gpu(gpu_agent_index) : nullptr;
  if (acquires) *acquires = agent ? agent->system_acquires.load(std::memory_order_relaxed) : 0;
  if (releases) *releases = agent ? agent->system_releases.load(std::memory_order_relaxed) : 0;
}

hsa_status_t HSA_API hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback, void* data) {
  std::shared_ptr<Session> session = EnterApi(__func__);
  if (!session) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return Fail(HSA_STATUS_ERROR_INVALID_ARGUMENT, "callback is null");
  session->events.Add(callback, data);
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
