/* The GPU kernel ABI: the contract between kiln's compiler (which emits AMDGPU code objects
 * and their host twins) and the hip driver (which loads them and fills dispatch packets).
 * Plain C so that hand-written twins in C and generated code see the same layout.
 *
 * Versioning as for the CPU ABI (executable_abi.h): any change to a layout below adds a new
 * version and bumps the version number; the driver refuses code whose version it lacks,
 * naming both.
 *
 * 1. Kernel arguments (the kernarg segment of every kiln kernel, on the GPU and in the twin)
 *
 *      offset 0                      binding_count 64-bit device pointers (binding base + bound offset)
 *      8 * binding_count             constant_count 32-bit push constants
 *      then, 4-byte aligned          workgroup_count[3], 32-bit each
 *      then, 8-byte aligned          only in a kernel with index check sites (the export's
 *                                    check_sites in gpu_executable.fbs): a 64-bit pointer to
 *                                    the dispatch's index check records (section 3)
 *
 *    There are no implicit (hidden) arguments: a kernel reads its workgroup id and size from
 *    the dispatch registers (on the GPU) or the twin's workgroup state (on hip-sim), and the
 *    grid's shape from workgroup_count. The block is KILN_GPU_KERNARG_ALIGNMENT-aligned and
 *    its size is exactly kiln_gpu_kernarg_size(); a code object whose kernel reports another
 *    kernarg size or a smaller alignment is refused at load.
 *
 * 2. The host twin (what hip-sim runs in place of the AMDGPU machine code)
 *
 *    An x86-64 ELF shared object lowered from the same IR as the code object after thread
 *    mapping. It exports KILN_GPU_TWIN_QUERY_SYMBOL; the simulator calls it with the highest
 *    version it supports and gets a library descriptor of exactly that version or NULL. Each
 *    kernel's entry runs one whole workgroup: the twin itself emulates the work-items (loops
 *    split at barriers), LDS lives in the group segment the simulator passes in.
 *
 * 3. Index check records (checked mode, kiln-compile --check-indices)
 *
 *    One kiln_index_check_record_v2_t (executable_abi.h: site, index, bound) per workgroup,
 *    at position x + count_x * (y + count_y * z) of the array the kernarg pointer names,
 *    zeroed by the driver before the dispatch and read by the host after it retires (memory
 *    both can access, and in which the GPU's 64-bit compare-and-swap is atomic). The
 *    work-items of a workgroup race for its record: a failing check swaps the site word
 *    from 0 to its site (1 + the check site's ordinal in check_sites) and, only if that
 *    succeeded, writes index and bound; the workgroup then finishes with the op's defined
 *    out-of-range behaviour. The driver fails the dispatch with the record of the failing
 *    workgroup of the lowest linear id, as the CPU driver does. */
#ifndef KILN_HAL_ABI_GPU_KERNEL_ABI_H_
#define KILN_HAL_ABI_GPU_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#include "hal/abi/executable_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2 added the index check records (section 3). */
#define KILN_GPU_KERNEL_ABI_VERSION 2u
#define KILN_GPU_KERNARG_ALIGNMENT 16u

static inline uint32_t kiln_gpu_kernarg_constants_offset(uint32_t binding_count) { return 8u * binding_count; }
static inline uint32_t kiln_gpu_kernarg_workgroup_count_offset(uint32_t binding_count, uint32_t constant_count) {
  return 8u * binding_count + 4u * constant_count;
}
/* Where the index check records' pointer is, in a kernel that takes it. */
#define KILN_GPU_KERNARG_INDEX_CHECKS_OFFSET(binding_count, constant_count) \
  ((8u * (binding_count) + 4u * (constant_count) + 12u + 7u) & ~7u)
static inline uint32_t kiln_gpu_kernarg_index_checks_offset(uint32_t binding_count, uint32_t constant_count) {
  return KILN_GPU_KERNARG_INDEX_CHECKS_OFFSET(binding_count, constant_count);
}
/* Size of the kernarg block of a kernel with these counts; `index_checked`: the export has
 * index check sites, so the block ends with the records' pointer (the macro for static tables). */
#define KILN_GPU_KERNARG_SIZE(binding_count, constant_count, index_checked)                      \
  ((index_checked) ? KILN_GPU_KERNARG_INDEX_CHECKS_OFFSET(binding_count, constant_count) + 8u \
                   : 8u * (binding_count) + 4u * (constant_count) + 12u)
static inline uint32_t kiln_gpu_kernarg_size(uint32_t binding_count, uint32_t constant_count, int index_checked) {
  return KILN_GPU_KERNARG_SIZE(binding_count, constant_count, index_checked);
}

#define KILN_GPU_TWIN_ABI_VERSION 1u
#define KILN_GPU_TWIN_QUERY_SYMBOL "kiln_gpu_twin_library_query"

/* What the simulator passes to a twin entry for one workgroup. Valid for the call only. */
typedef struct kiln_gpu_twin_workgroup_v1_t {
  uint32_t workgroup_id[3];
  uint32_t workgroup_size[3];  /* from the dispatch packet */
  uint32_t grid_size[3];       /* work-items, from the dispatch packet; the last workgroup of a
                                  dimension may be partial */
  uint32_t wavefront_size;     /* the agent's: 64 or 32 */
  void* group_segment;         /* LDS: the packet's group_segment_size bytes, 16-byte aligned,
                                  contents undefined at entry as on the GPU */
  uint32_t group_segment_size;
} kiln_gpu_twin_workgroup_v1_t;

/* Runs one workgroup. Returns 0; any other value is a trap (s_trap on the GPU): the queue
 * fails with HSA_STATUS_ERROR_EXCEPTION and the dispatch never completes. */
typedef int (*kiln_gpu_twin_entry_v1_t)(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* workgroup);

/* One kernel: what the code object's kernel descriptor and metadata say about it. */
typedef struct kiln_gpu_twin_kernel_v1_t {
  const char* symbol;             /* the code object's kernel symbol, "name.kd" */
  kiln_gpu_twin_entry_v1_t entry;
  uint32_t kernarg_segment_size;
  uint32_t kernarg_segment_alignment;
  uint32_t group_segment_size;    /* static LDS bytes */
  uint32_t private_segment_size;  /* scratch bytes per work-item */
} kiln_gpu_twin_kernel_v1_t;

typedef struct kiln_gpu_twin_library_v1_t {
  uint32_t abi_version;           /* must equal the version requested */
  const char* isa;                /* "amdgcn-amd-amdhsa--gfx942": the ISA the twin was lowered for */
  uint32_t wavefront_size;        /* 64 or 32 */
  uint32_t kernel_count;
  const kiln_gpu_twin_kernel_v1_t* kernels;
} kiln_gpu_twin_library_v1_t;

typedef const kiln_gpu_twin_library_v1_t* (*kiln_gpu_twin_query_fn_t)(uint32_t abi_version);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* KILN_HAL_ABI_GPU_KERNEL_ABI_H_ */
