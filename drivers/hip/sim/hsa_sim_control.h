/* Control interface of kiln's HSA simulator (libkiln_hsa_sim.so), beside the subset of the
 * HSA runtime API it exports. Plain C, no HSA types: tests and the hip driver reach these
 * through dlsym on the same library handle.
 *
 * Configuration: the simulated agents are fixed at hsa_init. They come from the last
 * kiln_hsa_sim_configure call made while the runtime was not initialized, else from the
 * environment variable KILN_HSA_SIM_AGENTS, else one default agent:
 *   KILN_HSA_SIM_AGENTS="gfx942"                      one agent, defaults for gfx942
 *   KILN_HSA_SIM_AGENTS="gfx942,gfx1100:cu=48"        two agents
 *   KILN_HSA_SIM_AGENTS="gfx942:cu=8:mem=1G"          keys separated by ':'
 *   keys: cu=N (compute units), wave=64|32, lds=BYTES, mem=BYTES (device memory); BYTES takes a
 *   K/M/G suffix (binary multiples). Any "gfx" + 3 to 5 hex digits is accepted; ISAs without
 *   defaults below get 64 CUs and wave64 (three digits, GCN/CDNA) or wave32 (more, RDNA).
 * Defaults per ISA: gfx942: 304 CUs, wave 64, 64 KiB LDS; gfx90a: 104, 64, 64 KiB;
 * gfx1100: 48, wave 32, 64 KiB; device memory 16 GiB (accounting only: host memory is
 * committed as it is touched). A CPU agent with system and kernarg pools always exists.
 *
 * Faults for tests: KILN_HSA_SIM_FAULTS="memory@3" (the same syntax as kiln_hsa_sim_inject
 * below, ';'-separated) is read at hsa_init too. */
#ifndef KILN_DRIVERS_HIP_SIM_HSA_SIM_CONTROL_H_
#define KILN_DRIVERS_HIP_SIM_HSA_SIM_CONTROL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_hsa_sim_agent_config_t {
  const char* isa;              /* "gfx942", "gfx90a", "gfx1100", ... (copied) */
  uint32_t compute_units;       /* 0: the ISA's default */
  uint32_t wavefront_size;      /* 0: the ISA's default; else 64 or 32 */
  uint32_t lds_bytes;           /* 0: 64 KiB */
  uint64_t device_memory_bytes; /* 0: 16 GiB */
} kiln_hsa_sim_agent_config_t;

/* Sets the agents of the next hsa_init. Returns 0, or -1 when the runtime is initialized or
 * a field is invalid (see kiln_hsa_sim_last_error). count 0 restores the default. */
int kiln_hsa_sim_configure(const kiln_hsa_sim_agent_config_t* agents, uint32_t count);

typedef enum kiln_hsa_sim_fault_kind_t {
  /* The dispatch packet raises a GPU memory fault at `value` (an address): every system event
   * handler gets HSA_AMD_GPU_MEMORY_FAULT_EVENT (page not present), then the queue's error
   * callback gets HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION; the packet never completes and
   * the queue processes nothing more. */
  KILN_HSA_SIM_FAULT_MEMORY = 1,
  /* The queue's error callback gets HSA_STATUS_ERROR_EXCEPTION at that packet (a trap). */
  KILN_HSA_SIM_FAULT_QUEUE_ERROR = 2,
  /* The packet takes `value` microseconds longer before it completes: its workgroups start that
   * much later, while later packets without the barrier bit may run (and complete) meanwhile. */
  KILN_HSA_SIM_FAULT_SLOW = 3,
  /* The packet_ordinal-th hsa_amd_memory_async_copy call on that agent's copy engine (counted
   * from now; calls, not packets) is refused with HSA_STATUS_ERROR_OUT_OF_RESOURCES, as a
   * runtime out of copy resources refuses one. */
  KILN_HSA_SIM_FAULT_COPY_REFUSED = 4,
} kiln_hsa_sim_fault_kind_t;

/* Arms a fault on a GPU agent's kernel dispatch packets: the one-shot faults (memory, queue
 * error) hit the packet_ordinal-th kernel dispatch packet that agent's queues start from now
 * on (0: the next one). SLOW applies to every dispatch packet from that ordinal on until
 * cleared. Returns 0, or -1 for a bad agent index or kind. Works at any time after hsa_init.
 * Text form (KILN_HSA_SIM_FAULTS): "memory@N[:ADDRESS]", "queue_error@N", "slow@N:MICROSECONDS",
 * "copy_refused@N",
 * each optionally prefixed by "AGENT/" (GPU agent index, default 0); numbers are decimal or 0x
 * hexadecimal; ADDRESS defaults to 0. A packet starts once it passed the packet processor's checks
 * and its barrier bit's wait; one that then faults or traps has counted. */
int kiln_hsa_sim_inject(kiln_hsa_sim_fault_kind_t kind, uint32_t gpu_agent_index, uint64_t packet_ordinal,
                        uint64_t value);
/* Disarms every fault. */
void kiln_hsa_sim_clear_faults(void);

/* Details of the last HSA call on this thread that failed (which check, which values), or ""
 * when it gave none. Valid until this thread's next HSA call, except that a successful
 * hsa_status_string leaves it alone (describe the status, then read the detail). Inside a
 * queue's error callback and a system event handler it describes the queue error or fault
 * being reported. */
const char* kiln_hsa_sim_last_error(void);

/* Kernel dispatch packets a GPU agent's queues have completed since hsa_init. */
uint64_t kiln_hsa_sim_dispatches_completed(uint32_t gpu_agent_index);

/* Packets (of any type) a GPU agent's queues have processed since hsa_init whose acquire
 * (release) fence has system scope: how often a driver asks for the costly cache flushes
 * where agent scope would do. Either pointer may be null. */
void kiln_hsa_sim_system_fences(uint32_t gpu_agent_index, uint64_t* acquires, uint64_t* releases);

/* What a code-object dispatch executed on the instruction-level executor
 * (KILN_HSA_SIM_MODE=code-object; docs/hip-sim-executor.md, "Counts"). Instructions count once
 * per wave that issued them, by class: */
#define KILN_HSA_SIM_MFMA_OP_SLOTS 8
typedef struct kiln_hsa_sim_dispatch_counts_t {
  char kernel[64];      /* the kernel's name, NUL-terminated (truncated) */
  uint64_t workgroups;  /* workgroups and waves that ran */
  uint64_t waves;
  uint64_t salu;   /* s_* scalar ALU and other s_* not below */
  uint64_t smem;   /* s_load_*, s_store_*, s_buffer_*, s_dcache_*, s_memtime */
  uint64_t valu;   /* v_* except MFMA (v_accvgpr_* included) */
  uint64_t mfma;   /* v_mfma_* */
  uint64_t vmem;   /* global_*, flat_*, buffer_*, scratch_* */
  uint64_t lds;    /* ds_* */
  uint64_t branch; /* s_branch, s_cbranch_*, s_setpc, s_swappc */
  uint64_t wait;   /* s_waitcnt*, s_barrier, s_sleep */
  uint64_t global_read_bytes;    /* by active lanes of global/flat loads and atomics */
  uint64_t global_written_bytes; /* by active lanes of global/flat stores and atomics */
  uint64_t lds_read_bytes;       /* by active lanes of ds_* reads and atomics */
  uint64_t lds_written_bytes;    /* by active lanes of ds_* writes and atomics */
  /* The occupancy the kernel's resources allow on one CU: an estimate from LLVM's gfx942
   * resource model (docs/hip-sim-executor.md, "Counts"), not a measurement. */
  uint32_t occupancy_waves_per_simd;    /* by VGPRs and SGPRs, at most 8 */
  uint32_t occupancy_workgroups_per_cu; /* by registers, LDS (64 KiB per CU) and barriers */
  uint32_t occupancy_waves_per_cu;
  char occupancy_limit[16];             /* what bounds it: "VGPRs", "SGPRs", "LDS", "waves", "barriers" */
  /* kiln_hsa_sim_dispatches_completed(agent) just after this dispatch completed: when it is
   * still that function's value, the agent's last completed kernel dispatch is this one (and
   * not a host-twin dispatch since, which has no counts). */
  uint64_t dispatch_ordinal;
  /* The mfma instructions again, by mnemonic ("v_mfma_f32_32x32x8_f16"), in the order they
   * first appear in the code; unused entries have an empty mnemonic. A kernel with more
   * distinct MFMA mnemonics than entries counts the rest in the last entry, named "other". */
  struct {
    char mnemonic[32];
    uint64_t count;
  } mfma_ops[KILN_HSA_SIM_MFMA_OP_SLOTS];
} kiln_hsa_sim_dispatch_counts_t;

/* Fills *out with the counts of the last code-object kernel dispatch that completed on a GPU
 * agent (a failed dispatch never completes). Returns 0, or -1 when the runtime is not
 * initialized, the index names no GPU agent, no such dispatch completed yet, or out is null
 * (see kiln_hsa_sim_last_error). The hip driver looks this function up in the library it
 * loaded (optional: the real runtime lacks it) for hal::Device::LastDispatchCounters, which is
 * how kiln-benchmark-module --dispatches reports counts without linking the simulator. */
int kiln_hsa_sim_last_dispatch_counts(uint32_t gpu_agent_index, kiln_hsa_sim_dispatch_counts_t* out);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* KILN_DRIVERS_HIP_SIM_HSA_SIM_CONTROL_H_ */
