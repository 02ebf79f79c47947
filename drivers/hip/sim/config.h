// What the simulated system looks like: the GPU agents (from kiln_hsa_sim_configure, the
// KILN_HSA_SIM_AGENTS environment variable or the default) and the faults armed at hsa_init
// (KILN_HSA_SIM_FAULTS). Parsing and validation only; runtime.cc decides which source applies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "drivers/hip/sim/hsa_sim_control.h"

namespace kiln::hsa_sim {

// One GPU agent with every default resolved.
struct AgentConfig {
  std::string isa;  // "gfx942"
  uint32_t compute_units = 0;
  uint32_t wavefront_size = 0;
  uint32_t lds_bytes = 0;
  uint64_t device_memory_bytes = 0;
};

inline constexpr uint32_t kDefaultLdsBytes = 64 * 1024;
inline constexpr uint64_t kDefaultDeviceMemoryBytes = 16ull << 30;
// Bounds that keep a configuration meaningful (and its arithmetic far from overflow).
inline constexpr uint32_t kMaxGpuAgents = 16;
inline constexpr uint32_t kMaxLdsBytes = 1u << 20;

// Validates one agent from kiln_hsa_sim_configure and fills in the ISA's defaults. Errors name
// the field and the accepted values.
StatusOr<AgentConfig> ResolveAgentConfig(const kiln_hsa_sim_agent_config_t& config);

// Parses KILN_HSA_SIM_AGENTS: "gfx942", "gfx942,gfx1100:cu=48:wave=32:lds=64K:mem=2G".
StatusOr<std::vector<AgentConfig>> ParseAgentsText(std::string_view text);

// The configuration without kiln_hsa_sim_configure or the environment: one gfx942.
std::vector<AgentConfig> DefaultAgents();

// A fault armed by kiln_hsa_sim_inject or KILN_HSA_SIM_FAULTS.
struct FaultSpec {
  kiln_hsa_sim_fault_kind_t kind;
  uint32_t gpu_agent_index = 0;
  uint64_t packet_ordinal = 0;
  uint64_t value = 0;  // memory: the faulting address; slow: microseconds
};

// Parses KILN_HSA_SIM_FAULTS: ';'-separated "[AGENT/]memory@N[:ADDRESS]",
// "[AGENT/]queue_error@N", "[AGENT/]slow@N:MICROSECONDS". Agent indices are checked later,
// against the configured agents.
StatusOr<std::vector<FaultSpec>> ParseFaultsText(std::string_view text);

}  // namespace kiln::hsa_sim
