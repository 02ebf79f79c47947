/* A hand-written host twin (hal/abi/gpu_kernel_abi.h) for the HSA simulator's tests: what
 * kiln's compiler emits beside an HSACO, for a few small kernels lowered "for gfx942, wave64".
 * Each entry runs one whole workgroup, looping over its work-items and splitting the loop at
 * barriers, with LDS in the group segment the simulator passes.
 *
 * Kernarg layout (the ABI): binding pointers (8 bytes each), push constants (4 bytes each),
 * then workgroup_count[3]. Every kernel checks that workgroup_count matches the dispatch and
 * returns 9 (a trap) when it does not. */
#define _POSIX_C_SOURCE 199309L /* nanosleep */

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "hal/abi/gpu_kernel_abi.h"

#define EXPORT __attribute__((visibility("default")))

/* add_one and sleep_add_one access memory with relaxed atomics: the overlap test runs them
 * concurrently on the same word on purpose (what a missing barrier bit does on a GPU), which
 * ThreadSanitizer would otherwise rightly call a data race. They compile to plain moves. */
static int32_t load_relaxed(const int32_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static void store_relaxed(int32_t* p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

static const uint32_t* constants_of(const void* kernarg, uint32_t bindings) {
  return (const uint32_t*)((const char*)kernarg + kiln_gpu_kernarg_constants_offset(bindings));
}

static int check_workgroup_count(const void* kernarg, uint32_t bindings, uint32_t constants,
                                 const kiln_gpu_twin_workgroup_v1_t* w) {
  const uint32_t* count =
      (const uint32_t*)((const char*)kernarg + kiln_gpu_kernarg_workgroup_count_offset(bindings, constants));
  for (int d = 0; d < 3; ++d) {
    uint32_t expected = (w->grid_size[d] + w->workgroup_size[d] - 1) / w->workgroup_size[d];
    if (count[d] != expected || w->workgroup_id[d] >= expected) return 9;
  }
  return 0;
}

/* add_one: out[i] = in[i] + 1 for every work-item i < n of a 1-, 2- or 3-D grid (i is the
 * work-item's linear id in the grid). Bindings: in, out (int32). Constants: n. */
static int add_one(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* w) {
  if (check_workgroup_count(kernarg, 2, 1, w)) return 9;
  const int32_t* in = *(const int32_t* const*)kernarg;
  int32_t* out = *(int32_t* const*)((const char*)kernarg + 8);
  uint32_t n = constants_of(kernarg, 2)[0];
  for (uint32_t z = 0; z < w->workgroup_size[2]; ++z) {
    for (uint32_t y = 0; y < w->workgroup_size[1]; ++y) {
      for (uint32_t x = 0; x < w->workgroup_size[0]; ++x) {
        uint64_t gx = (uint64_t)w->workgroup_id[0] * w->workgroup_size[0] + x;
        uint64_t gy = (uint64_t)w->workgroup_id[1] * w->workgroup_size[1] + y;
        uint64_t gz = (uint64_t)w->workgroup_id[2] * w->workgroup_size[2] + z;
        if (gx >= w->grid_size[0] || gy >= w->grid_size[1] || gz >= w->grid_size[2]) continue;
        uint64_t i = gx + (uint64_t)w->grid_size[0] * (gy + (uint64_t)w->grid_size[1] * gz);
        if (i < n) store_relaxed(&out[i], load_relaxed(&in[i]) + 1);
      }
    }
  }
  return 0;
}

/* lds_reverse: reverses each workgroup's chunk of a 1-D grid through LDS: every work-item
 * stores in[i] to LDS, barrier, then out[i] = LDS[last - local id]. Bindings: in, out (int32).
 * Constants: n. Returns 7 if the group segment is missing, misaligned or too small. */
#define LDS_REVERSE_MAX 1024
static int lds_reverse(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* w) {
  if (check_workgroup_count(kernarg, 2, 1, w)) return 9;
  const int32_t* in = *(const int32_t* const*)kernarg;
  int32_t* out = *(int32_t* const*)((const char*)kernarg + 8);
  uint32_t n = constants_of(kernarg, 2)[0];
  int32_t* lds = (int32_t*)w->group_segment;
  if (!lds || ((uintptr_t)lds & 15) != 0 || w->group_segment_size < w->workgroup_size[0] * sizeof(int32_t)) return 7;
  uint64_t base = (uint64_t)w->workgroup_id[0] * w->workgroup_size[0];
  uint32_t count = w->workgroup_size[0];
  if (base + count > w->grid_size[0]) count = (uint32_t)(w->grid_size[0] - base);
  if (base + count > n) count = base < n ? (uint32_t)(n - base) : 0;
  for (uint32_t x = 0; x < count; ++x) lds[x] = in[base + x]; /* phase 1 */
  /* barrier */
  for (uint32_t x = 0; x < count; ++x) out[base + x] = lds[count - 1 - x]; /* phase 2 */
  return 0;
}

/* trap: traps (returns 1) in the workgroup whose x id equals constant 0, else does nothing.
 * Bindings: none. Constants: trap_at. */
static int trap(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* w) {
  if (check_workgroup_count(kernarg, 0, 1, w)) return 9;
  return w->workgroup_id[0] == constants_of(kernarg, 0)[0] ? 1 : 0;
}

/* sleep_add_one: sleeps constant 1 microseconds, then out[0] = in[0] + 1 (one work-item).
 * Bindings: in, out (int32). Constants: n (ignored), sleep_us. A long-running kernel for
 * overlap tests. */
static int sleep_add_one(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* w) {
  if (check_workgroup_count(kernarg, 2, 2, w)) return 9;
  const int32_t* in = *(const int32_t* const*)kernarg;
  int32_t* out = *(int32_t* const*)((const char*)kernarg + 8);
  uint32_t sleep_us = constants_of(kernarg, 2)[1];
  struct timespec t = {(time_t)(sleep_us / 1000000u), (long)(sleep_us % 1000000u) * 1000L};
  while (nanosleep(&t, &t) != 0) {
  }
  if (w->workgroup_id[0] == 0) store_relaxed(&out[0], load_relaxed(&in[0]) + 1);
  return 0;
}

/* wait_add_one: waits until *flag is non-zero, then out[0] = in[0] + 1 (one work-item).
 * Bindings: in, out, flag (int32). Constants: n (ignored). A kernel that runs until the test
 * lets it finish: overlap tests without timing assumptions. */
static int wait_add_one(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* w) {
  if (check_workgroup_count(kernarg, 3, 1, w)) return 9;
  const int32_t* in = *(const int32_t* const*)kernarg;
  int32_t* out = *(int32_t* const*)((const char*)kernarg + 8);
  const int32_t* flag = *(const int32_t* const*)((const char*)kernarg + 16);
  while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) {
    struct timespec t = {0, 100000};
    nanosleep(&t, NULL);
  }
  if (w->workgroup_id[0] == 0) store_relaxed(&out[0], load_relaxed(&in[0]) + 1);
  return 0;
}

/* probe: workgroup 0 writes what the simulator passed it: out[0..2] workgroup size, [3..5] grid
 * size, [6] wavefront size, [7] group segment size, [8] group segment address % 16, [9] the
 * first group segment byte (undefined contents: not expected to be 0). Bindings: out (uint32). */
static int probe(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* w) {
  if (check_workgroup_count(kernarg, 1, 0, w)) return 9;
  uint32_t* out = *(uint32_t* const*)kernarg;
  if (w->workgroup_id[0] | w->workgroup_id[1] | w->workgroup_id[2]) return 0;
  for (int d = 0; d < 3; ++d) {
    out[d] = w->workgroup_size[d];
    out[3 + d] = w->grid_size[d];
  }
  out[6] = w->wavefront_size;
  out[7] = w->group_segment_size;
  out[8] = (uint32_t)((uintptr_t)w->group_segment % 16);
  out[9] = w->group_segment_size ? *(const uint8_t*)w->group_segment : 0;
  return 0;
}

/* float_sum: out[0] += in[i] for every work-item i < n of a 1-D grid, the work-items of a
 * workgroup from the last to the first (the code object's float atomics add in another order:
 * isa/paired_float_sum.inc), and work-item 0 stores out[1] = in[0]. Bindings: in, out (f32).
 * Constants: n. */
static int float_sum(const void* kernarg, const kiln_gpu_twin_workgroup_v1_t* w) {
  if (check_workgroup_count(kernarg, 2, 1, w)) return 9;
  const float* in = *(const float* const*)kernarg;
  float* out = *(float* const*)((const char*)kernarg + 8);
  uint32_t n = constants_of(kernarg, 2)[0];
  for (uint32_t x = w->workgroup_size[0]; x-- > 0;) {
    uint64_t i = (uint64_t)w->workgroup_id[0] * w->workgroup_size[0] + x;
    if (i >= n || i >= w->grid_size[0]) continue;
    out[0] += in[i];
    if (i == 0) out[1] = in[0];
  }
  return 0;
}

static const kiln_gpu_twin_kernel_v1_t kKernels[] = {
    {"add_one.kd", add_one, 32, 16, 0, 0},
    {"lds_reverse.kd", lds_reverse, 32, 16, LDS_REVERSE_MAX * 4, 0},
    {"trap.kd", trap, 16, 16, 0, 0},
    {"sleep_add_one.kd", sleep_add_one, 36, 16, 0, 0},
    {"wait_add_one.kd", wait_add_one, 40, 16, 0, 0},
    {"probe.kd", probe, 20, 16, 0, 16},
    {"float_sum.kd", float_sum, 32, 16, 0, 0},
};

static const kiln_gpu_twin_library_v1_t kLibrary = {
    KILN_GPU_TWIN_ABI_VERSION, "amdgcn-amd-amdhsa--gfx942", 64, sizeof(kKernels) / sizeof(kKernels[0]), kKernels,
};

EXPORT const kiln_gpu_twin_library_v1_t* kiln_gpu_twin_library_query(uint32_t abi_version) {
  return abi_version == KILN_GPU_TWIN_ABI_VERSION ? &kLibrary : NULL;
}
