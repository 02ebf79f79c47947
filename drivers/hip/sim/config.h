// What the simulated system looks like: the GPU agents (from kiln_hsa_sim_configure, the
// KILN_HSA_SIM_AGENTS environment variable or the default), the faults armed at hsa_init
// (KILN_HSA_SIM_FAULTS) and how kernels execute (KILN_HSA_SIM_MODE). Parsing and validation
// only; runtime.cc decides which source applies.
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

// How dispatches execute, chosen at hsa_init by KILN_HSA_SIM_MODE (docs/hip-sim-executor.md):
//   twin         (the default, also for an unset or empty variable) host twins load and run;
//                an AMDGPU code object is refused.
//   code-object  AMDGPU code objects (HSACOs) load too, and their kernels run on the
//                instruction-level executor (isa/executor.h); twins still load and run as
//                twins (the hip driver hands hip-sim the twin today).
//   both         HSACOs are decoded and refused, so the driver loads the twins; each twin kernel
//                with an HSACO kernel of the same name runs both: the twin on the buffers,
//                the code object on copies, and the dispatch fails naming the first differing
//                element (paired_dispatch.h).
enum class ExecutionMode { kTwin, kCodeObject, kBoth };

// Parses the variable's value; errors list the accepted values.
StatusOr<ExecutionMode> ParseExecutionMode(std::string_view text);

// How the code-object executor runs the waves of a workgroup and what it checks
// (docs/hip-sim-executor.md, "Scheduling" and "Race detector"), read at hsa_init:
//   KILN_HSA_SIM_INTERLEAVE_SEED=N  (decimal or 0x hexadecimal) besides switching waves at waits
//                                   and barriers, switch at random instruction points, and pick
//                                   the next wave at random, from a stream derived from N, the
//                                   dispatch and the workgroup: the same N gives the same
//                                   interleaving on every run. Unset or empty: round robin.
//   KILN_HSA_SIM_RACE_CHECK=on|off  the race detector (LDS accesses across waves without a
//                                   barrier, overlapping non-atomic global writes); on when
//                                   unset or empty.
struct ExecutorOptions {
  bool interleave = false;
  uint64_t interleave_seed = 0;
  bool race_check = true;
};

// Parses the two variables' values (null: unset); errors name the variable and what it takes.
StatusOr<ExecutorOptions> ParseExecutorOptions(const char* interleave_seed, const char* race_check);

}  // namespace kiln::hsa_sim
