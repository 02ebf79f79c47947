/* Hand-written kernels for the HAL conformance tests and benchmarks, built as an ELF
 * shared object against hal/abi/executable_abi.h, the way compiled executables will be. */
#include <stdint.h>

#include "hal/abi/executable_abi.h"

#define EXPORT __attribute__((visibility("default")))

static uint32_t linear_id(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  return w->workgroup_id[0] + d->workgroup_count[0] * (w->workgroup_id[1] + d->workgroup_count[1] * w->workgroup_id[2]);
}

/* No work: dispatch-overhead benchmarks and smoke tests. */
static int noop(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  (void)d;
  (void)w;
  return 0;
}

/* out[i] = a[i] + b[i] for i in this workgroup's chunk. constants: n, elements per workgroup.
 * Returns 3 if a binding is too short for n floats. */
static int add_f32(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  uint32_t n = d->constants[0], chunk = d->constants[1];
  for (int i = 0; i < 3; ++i) {
    if (d->binding_lengths[i] < (size_t)n * sizeof(float)) return 3;
  }
  const float* restrict a = (const float*)d->binding_ptrs[0];
  const float* restrict b = (const float*)d->binding_ptrs[1];
  float* restrict out = (float*)d->binding_ptrs[2];
  uint64_t begin = (uint64_t)linear_id(d, w) * chunk;
  uint64_t end = begin + chunk < n ? begin + chunk : n;
  for (uint64_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
  return 0;
}

/* out[linear id] = linear id + 1: every workgroup of a 3-D grid runs exactly once. */
static int write_ids(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  uint32_t id = linear_id(d, w);
  if (d->binding_lengths[0] < ((size_t)id + 1) * sizeof(uint32_t)) return 3;
  uint32_t* out = (uint32_t*)d->binding_ptrs[0];
  out[id] += id + 1;
  return 0;
}

/* Eight bindings: out (binding 7)[i] = sum of bindings 0..6 [i] * (k+1). constant: n.
 * One workgroup does it all. */
static int weighted_sum8(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  (void)w;
  uint32_t n = d->constants[0];
  uint32_t* out = (uint32_t*)d->binding_ptrs[7];
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 7; ++k) sum += ((const uint32_t*)d->binding_ptrs[k])[i] * (k + 1);
    out[i] = sum;
  }
  return 0;
}

/* Uses 4 KiB of workgroup-local memory: fills it with the workgroup id, sums it back and
 * writes the sum to out[id]. Returns 5 if the local memory is missing, misaligned or short. */
static int local_sum(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  enum { kWords = 1024 };
  if (!w->local_memory || ((uintptr_t)w->local_memory & 63) || w->local_memory_size < kWords * 4) return 5;
  uint32_t id = linear_id(d, w);
  volatile uint32_t* local = (volatile uint32_t*)w->local_memory;
  for (uint32_t i = 0; i < kWords; ++i) local[i] = id;
  uint32_t sum = 0;
  for (uint32_t i = 0; i < kWords; ++i) sum += local[i];
  ((uint32_t*)d->binding_ptrs[0])[id] = sum;
  return 0;
}

/* Returns 42 from the workgroup whose linear id is constants[0]; the others succeed. */
static int fail_at(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  return linear_id(d, w) == d->constants[0] ? 42 : 0;
}

/* Workgroups from linear id constants[0] on record index 100 + id (bound 10) at site
 * constants[1] and return KILN_DISPATCH_INDEX_OUT_OF_RANGE, as a checked kernel does. */
static int check_index(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  uint32_t id = linear_id(d, w);
  if (id < d->constants[0]) return 0;
  w->index_check->site = d->constants[1];
  w->index_check->index = 100 + (int64_t)id;
  w->index_check->bound = 10;
  return KILN_DISPATCH_INDEX_OUT_OF_RANGE;
}
static const char* const kCheckSites[] = {"dimension 0 of the source of a gather", "dimension 1 of the original of a scatter"};

/* buf[i] = buf[i] * 2 + 1 for i < n, single workgroup: ordering tests see each step. */
static int double_plus_one(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  (void)w;
  uint32_t n = d->constants[0];
  uint32_t* buf = (uint32_t*)d->binding_ptrs[0];
  for (uint32_t i = 0; i < n; ++i) buf[i] = buf[i] * 2 + 1;
  return 0;
}

/* Each workgroup announces itself in binding 0 (a u32 counter) and waits until
 * constants[0] workgroups have arrived: the dispatch completes only if that many workers run
 * at once. Returns 9 after about a second without everyone arriving. */
static int rendezvous(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  (void)w;
  uint32_t* counter = (uint32_t*)d->binding_ptrs[0];
  __atomic_fetch_add(counter, 1, __ATOMIC_ACQ_REL);
  for (uint64_t spins = 0; __atomic_load_n(counter, __ATOMIC_ACQUIRE) < d->constants[0]; ++spins) {
    if (spins > (1ull << 28)) return 9;
    __builtin_ia32_pause();
  }
  return 0;
}

static const kiln_export_v2_t kExports[] = {
    {"noop", noop, 0, 0, {1, 1, 1}, 0, "test_kernels.c:noop", 0, NULL},
    {"add_f32", add_f32, 3, 2, {64, 1, 1}, 0, "test_kernels.c:add_f32", 0, NULL},
    {"write_ids", write_ids, 1, 0, {1, 1, 1}, 0, NULL, 0, NULL},
    {"weighted_sum8", weighted_sum8, 8, 1, {1, 1, 1}, 0, NULL, 0, NULL},
    {"local_sum", local_sum, 1, 0, {1, 1, 1}, 4096, NULL, 0, NULL},
    {"fail_at", fail_at, 0, 1, {1, 1, 1}, 0, "test_kernels.c:fail_at", 0, NULL},
    {"double_plus_one", double_plus_one, 1, 1, {1, 1, 1}, 0, NULL, 0, NULL},
    {"rendezvous", rendezvous, 1, 1, {1, 1, 1}, 0, NULL, 0, NULL},
    {"check_index", check_index, 0, 2, {1, 1, 1}, 0, "test_kernels.c:check_index", 2, kCheckSites},
};

static const kiln_executable_library_v2_t kLibrary = {
    KILN_EXECUTABLE_ABI_VERSION, sizeof(kExports) / sizeof(kExports[0]), kExports};

EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  return abi_version == KILN_EXECUTABLE_ABI_VERSION ? &kLibrary : NULL;
}
