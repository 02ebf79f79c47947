/* Hand-written host twins of GPU kernels (hal/abi/gpu_kernel_abi.h) for the HAL conformance
 * suite on hip-sim, written the way the compiler lowers a kernel after thread mapping: one
 * call runs a whole workgroup, its work-items are loops, and a workgroup barrier splits a
 * kernel into consecutive loops over the work-items. Built once per simulated chip
 * (KILN_TWIN_CHIP, KILN_TWIN_WAVE). */
#include <stdint.h>

#include "hal/abi/gpu_kernel_abi.h"

#define EXPORT __attribute__((visibility("default")))
#define STR2(x) #x
#define STR(x) STR2(x)

typedef const kiln_gpu_twin_workgroup_v1_t Workgroup;

/* Kernel argument accessors (gpu_kernel_abi.h section 1). */
static void* binding(const void* kernarg, uint32_t k) { return ((void* const*)kernarg)[k]; }
static uint32_t constant(const void* kernarg, uint32_t bindings, uint32_t k) {
  return ((const uint32_t*)((const uint8_t*)kernarg + kiln_gpu_kernarg_constants_offset(bindings)))[k];
}
static const uint32_t* workgroup_count(const void* kernarg, uint32_t bindings, uint32_t constants) {
  return (const uint32_t*)((const uint8_t*)kernarg + kiln_gpu_kernarg_workgroup_count_offset(bindings, constants));
}
static uint32_t linear_id(Workgroup* w, const uint32_t* count) {
  return w->workgroup_id[0] + count[0] * (w->workgroup_id[1] + count[1] * w->workgroup_id[2]);
}

static int noop(const void* kernarg, Workgroup* w) {
  (void)kernarg;
  (void)w;
  return 0;
}

/* out[i] = a[i] + b[i] over this workgroup's chunk; constants: n, elements per workgroup.
 * Work-item t handles chunk elements t, t + 64, ... */
static int add_f32(const void* kernarg, Workgroup* w) {
  uint32_t n = constant(kernarg, 3, 0), chunk = constant(kernarg, 3, 1);
  const float* a = binding(kernarg, 0);
  const float* b = binding(kernarg, 1);
  float* out = binding(kernarg, 2);
  uint64_t begin = (uint64_t)linear_id(w, workgroup_count(kernarg, 3, 2)) * chunk;
  uint64_t end = begin + chunk < n ? begin + chunk : n;
  for (uint32_t t = 0; t < w->workgroup_size[0]; ++t) {
    for (uint64_t i = begin + t; i < end; i += w->workgroup_size[0]) out[i] = a[i] + b[i];
  }
  return 0;
}

/* out[linear id] += linear id + 1: every workgroup of a 3-D grid runs exactly once. */
static int write_ids(const void* kernarg, Workgroup* w) {
  uint32_t id = linear_id(w, workgroup_count(kernarg, 1, 0));
  uint32_t* out = binding(kernarg, 0);
  out[id] += id + 1;
  return 0;
}

/* out (binding 7)[i] = sum of bindings 0..6 [i] * (k+1); constant: n. One workgroup. */
static int weighted_sum8(const void* kernarg, Workgroup* w) {
  (void)w;
  uint32_t n = constant(kernarg, 8, 0);
  uint32_t* out = binding(kernarg, 7);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 7; ++k) sum += ((const uint32_t*)binding(kernarg, k))[i] * (k + 1);
    out[i] = sum;
  }
  return 0;
}

/* 4 KiB of LDS: each of the 256 work-items writes 4 words of the workgroup id; barrier;
 * work-item 0 sums all 1024 words into out[id]. Traps if the group segment is short. */
static int local_sum(const void* kernarg, Workgroup* w) {
  enum { kWords = 1024 };
  if (!w->group_segment || w->group_segment_size < kWords * 4 || ((uintptr_t)w->group_segment & 15)) return 5;
  uint32_t id = linear_id(w, workgroup_count(kernarg, 1, 0));
  volatile uint32_t* lds = (volatile uint32_t*)w->group_segment;
  uint32_t items = w->workgroup_size[0];
  for (uint32_t t = 0; t < items; ++t) {
    for (uint32_t i = t; i < kWords; i += items) lds[i] = id;
  }
  /* barrier */
  uint32_t sum = 0;
  for (uint32_t i = 0; i < kWords; ++i) sum += lds[i];
  ((uint32_t*)binding(kernarg, 0))[id] = sum;
  return 0;
}

/* Traps (s_trap) in the workgroup whose linear id is constants[0]. */
static int fail_at(const void* kernarg, Workgroup* w) {
  return linear_id(w, workgroup_count(kernarg, 0, 1)) == constant(kernarg, 0, 0) ? 42 : 0;
}

/* buf[i] = buf[i] * 2 + 1 for i < n, one workgroup: ordering tests see each step. */
static int double_plus_one(const void* kernarg, Workgroup* w) {
  uint32_t n = constant(kernarg, 1, 0);
  uint32_t* buf = binding(kernarg, 0);
  for (uint32_t t = 0; t < w->workgroup_size[0]; ++t) {
    for (uint32_t i = t; i < n; i += w->workgroup_size[0]) buf[i] = buf[i] * 2 + 1;
  }
  return 0;
}

/* out[g*256 + t] = in[g*256 + 255 - t] through LDS: work-item t stores in[.. + t] to
 * lds[t]; barrier; work-item t loads lds[255 - t]. Wrong without the barrier split or with
 * LDS shared between workgroups. constant: n (elements; partial last workgroup). */
static int lds_reverse(const void* kernarg, Workgroup* w) {
  uint32_t n = constant(kernarg, 2, 0);
  const uint32_t* in = binding(kernarg, 0);
  uint32_t* out = binding(kernarg, 1);
  uint32_t* lds = (uint32_t*)w->group_segment;
  uint32_t items = w->workgroup_size[0];
  uint32_t base = w->workgroup_id[0] * items;
  for (uint32_t t = 0; t < items; ++t) lds[t] = base + t < n ? in[base + t] : 0;
  /* barrier */
  for (uint32_t t = 0; t < items; ++t) {
    if (base + t < n) out[base + t] = lds[items - 1 - t];
  }
  return 0;
}

/* Every work-item of a workgroup whose linear id is at least constants[0] fails an index
 * check of site constants[1]; the first to claim the workgroup's record (gpu_kernel_abi.h,
 * section 3) writes index 100 + linear id and bound 10, as test_kernels.c's check_index. */
static int check_index(const void* kernarg, Workgroup* w) {
  uint32_t id = linear_id(w, workgroup_count(kernarg, 0, 2));
  if (id < constant(kernarg, 0, 0)) return 0;
  kiln_index_check_record_v2_t* record =
      *(kiln_index_check_record_v2_t* const*)((const uint8_t*)kernarg + kiln_gpu_kernarg_index_checks_offset(0, 2)) + id;
  for (uint32_t t = 0; t < w->workgroup_size[0]; ++t) {
    int64_t unset = 0;
    if (__atomic_compare_exchange_n(&record->site, &unset, (int64_t)constant(kernarg, 0, 1), 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
      record->index = 100 + (int64_t)id;
      record->bound = 10;
    }
  }
  return 0;
}

/* Broken builds for the driver's load checks report more kernel arguments than the ABI
 * passes (hidden arguments) or a stricter alignment than it gives. */
#ifndef KILN_TWIN_EXTRA_KERNARG_BYTES
#define KILN_TWIN_EXTRA_KERNARG_BYTES 0
#endif
#ifndef KILN_TWIN_KERNARG_ALIGNMENT
#define KILN_TWIN_KERNARG_ALIGNMENT KILN_GPU_KERNARG_ALIGNMENT
#endif
#define KILN_GPU_TEST_KERNEL(name, b, c, x, y, z, lds, loc, checked) \
  {#name ".kd", name, KILN_GPU_KERNARG_SIZE(b, c, checked) + KILN_TWIN_EXTRA_KERNARG_BYTES, KILN_TWIN_KERNARG_ALIGNMENT, lds, 0},
static const kiln_gpu_twin_kernel_v1_t kKernels[] = {
#include "tests/kernels/gpu_test_kernels.def"
};
#undef KILN_GPU_TEST_KERNEL

static const kiln_gpu_twin_library_v1_t kLibrary = {KILN_GPU_TWIN_ABI_VERSION, "amdgcn-amd-amdhsa--" STR(KILN_TWIN_CHIP),
                                                    KILN_TWIN_WAVE, sizeof(kKernels) / sizeof(kKernels[0]), kKernels};

EXPORT const kiln_gpu_twin_library_v1_t* kiln_gpu_twin_library_query(uint32_t abi_version) {
  return abi_version == KILN_GPU_TWIN_ABI_VERSION ? &kLibrary : NULL;
}
