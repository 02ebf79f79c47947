// The simulated agents: GPU agents as configured (hsa_sim_control.h), then one CPU agent, each
// with its memory pools; the ISA records; the per-agent fault table of kiln_hsa_sim_inject.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "drivers/hip/sim/config.h"
#include "drivers/hip/sim/isa/counts.h"
#include "drivers/hip/sim/isa/occupancy.h"
#include "drivers/hip/sim/memory.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim {

class CopyEngine;

// Packet-processor limits reported to the application and enforced at dispatch.
inline constexpr uint32_t kWorkgroupMaxSize = 1024;
inline constexpr uint32_t kGridMaxSize = UINT32_MAX;
inline constexpr uint32_t kQueueMinSize = 4;       // packets
inline constexpr uint32_t kQueueMaxSize = 131072;  // packets
inline constexpr uint32_t kQueuesMax = 128;
inline constexpr uint64_t kAllocGranule = 4096;

// One ISA ("amdgcn-amd-amdhsa--gfx942"). Agents with the same ISA share the record, so equal
// handles mean equal ISAs as HSA requires.
struct Isa {
  std::string name;  // full name
  hsa_isa_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }
};

struct Pool {
  std::string description;  // "device coarse-grained pool of GPU agent 0 (gfx942)", for messages
  hsa_amd_segment_t segment = HSA_AMD_SEGMENT_GLOBAL;
  uint32_t global_flags = 0;
  uint64_t size = 0;
  bool alloc_allowed = false;
  bool accessible_by_all = false;
  MemoryBudget* budget = nullptr;  // null when alloc_allowed is false
  const struct Agent* owner = nullptr;  // the agent whose pool this is (async copies name it)
  bool fine_grained() const { return global_flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED; }
  hsa_amd_memory_pool_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }
};

// Faults armed on one GPU agent. Ordinals count the kernel dispatch packets the agent's queues
// start; arming at ordinal N targets the N-th packet started after the arming.
class FaultTable {
 public:
  void Arm(kiln_hsa_sim_fault_kind_t kind, uint64_t packet_ordinal, uint64_t value);
  void Clear();

  struct Effects {
    bool memory_fault = false;
    uint64_t fault_address = 0;
    bool queue_error = false;
    uint64_t slow_us = 0;
    uint64_t ordinal = 0;  // of this packet since hsa_init
  };
  // Counts a dispatch packet as started and returns what happens to it. One-shot faults
  // are disarmed once they hit.
  Effects OnDispatchStart();
  // Counts an hsa_amd_memory_async_copy call on this agent's copy engine and returns whether
  // an armed KILN_HSA_SIM_FAULT_COPY_REFUSED refuses it (one-shot).
  bool OnCopyCall();

 private:
  struct Armed {
    kiln_hsa_sim_fault_kind_t kind;
    uint64_t target;  // absolute ordinal
    uint64_t value;
  };
  std::mutex mu_;
  uint64_t started_ = 0;
  uint64_t copies_ = 0;  // copy calls, the ordinals of COPY_REFUSED
  std::vector<Armed> armed_;
};

struct Agent {
  Agent();
  ~Agent();
  uint32_t gpu_index = 0;  // GPUs: position among the GPU agents
  bool gpu = false;
  uint32_t node = 0;
  AgentConfig config;        // GPUs
  const Isa* isa = nullptr;  // GPUs
  std::string name;          // "gfx942", "kiln-sim-cpu"
  MemoryBudget device_memory;
  std::vector<std::unique_ptr<Pool>> pools;
  std::unique_ptr<CopyEngine> copy_engine;  // GPUs
  FaultTable faults;
  std::atomic<uint64_t> dispatches_completed{0};
  std::atomic<uint64_t> system_acquires{0}, system_releases{0};  // packets with system-scope fences
  std::atomic<uint32_t> queues{0};
  // The counts of the last code-object dispatch that completed (kiln_hsa_sim_last_dispatch_counts).
  std::mutex counts_mu;
  std::string last_counts_kernel;  // empty: none yet
  uint64_t last_counts_ordinal = 0;  // dispatches_completed once it completed
  std::vector<std::string> last_mfma_mnemonics;  // its Program::mfma_mnemonics
  isa::ExecutionCounts last_counts;
  isa::Occupancy last_occupancy;

  hsa_agent_t handle() const { return {reinterpret_cast<uint64_t>(this)}; }
  std::string Describe() const;  // "GPU agent 0 (gfx942)"
};

}  // namespace kiln::hsa_sim
