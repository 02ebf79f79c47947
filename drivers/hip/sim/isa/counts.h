// What a code-object dispatch executed, counted by the executor (docs/hip-sim-executor.md,
// "Counts"): instructions by class, each counted once per wave that issued it (as the hardware
// issues a wave's instruction once, whatever its EXEC mask), and the bytes the active lanes
// moved to and from global memory (vector memory instructions: global_*, flat_*; scalar loads
// of kernel arguments are not counted) and LDS.
//
// Classes, by mnemonic (ClassOf):
//   kSalu    s_* scalar ALU and the other s_* that are neither below (s_nop, s_setprio, ...)
//   kSmem    s_load_*, s_store_*, s_buffer_*, s_dcache_*, s_memtime/s_memrealtime
//   kValu    v_* except MFMA
//   kMfma    v_mfma_* (v_accvgpr_* moves are kValu)
//   kVmem    global_*, flat_*, buffer_*, scratch_* (loads, stores, atomics, cache operations)
//   kLds     ds_*
//   kBranch  s_branch, s_cbranch_*, s_setpc, s_swappc
//   kWait    s_waitcnt*, s_barrier, s_sleep
#pragma once

#include <cstdint>
#include <string_view>

namespace kiln::hsa_sim::isa {

enum class OpClass : uint8_t { kSalu, kSmem, kValu, kMfma, kVmem, kLds, kBranch, kWait, kCount };

inline OpClass ClassOf(std::string_view m) {
  auto starts = [&](std::string_view prefix) { return m.substr(0, prefix.size()) == prefix; };
  if (starts("v_mfma_")) return OpClass::kMfma;
  if (starts("v_")) return OpClass::kValu;
  if (starts("ds_")) return OpClass::kLds;
  if (starts("global_") || starts("flat_") || starts("buffer_") || starts("scratch_")) return OpClass::kVmem;
  if (starts("s_waitcnt") || m == "s_barrier" || m == "s_sleep") return OpClass::kWait;
  if (m == "s_branch" || starts("s_cbranch_") || starts("s_setpc") || starts("s_swappc")) {
    return OpClass::kBranch;
  }
  if (starts("s_load_") || starts("s_store_") || starts("s_buffer_") || starts("s_dcache_") || starts("s_memtime") ||
      starts("s_memrealtime")) {
    return OpClass::kSmem;
  }
  return OpClass::kSalu;
}

// MFMA instructions are also counted by mnemonic (their throughput differs by shape and type):
// by Instruction::mfma_op, an index into Program::mfma_mnemonics; the last slot takes every
// mnemonic beyond the first kMfmaOpSlots - 1 of a program.
constexpr int kMfmaOpSlots = 8;

struct ExecutionCounts {
  uint64_t instructions[static_cast<int>(OpClass::kCount)] = {};  // by OpClass
  uint64_t mfma_by_op[kMfmaOpSlots] = {};  // by Instruction::mfma_op
  uint64_t workgroups = 0, waves = 0;
  uint64_t global_read_bytes = 0;     // loads and atomics (which read what they replace)
  uint64_t global_written_bytes = 0;  // stores and atomics
  uint64_t lds_read_bytes = 0;
  uint64_t lds_written_bytes = 0;

  void Add(const ExecutionCounts& o) {
    for (int k = 0; k < static_cast<int>(OpClass::kCount); ++k) instructions[k] += o.instructions[k];
    for (int k = 0; k < kMfmaOpSlots; ++k) mfma_by_op[k] += o.mfma_by_op[k];
    workgroups += o.workgroups;
    waves += o.waves;
    global_read_bytes += o.global_read_bytes;
    global_written_bytes += o.global_written_bytes;
    lds_read_bytes += o.lds_read_bytes;
    lds_written_bytes += o.lds_written_bytes;
  }
};

}  // namespace kiln::hsa_sim::isa
