/* Kernels used only by the benchmarks, built as an ELF shared object against
 * hal/abi/executable_abi.h like tests/kernels/test_kernels.c. */
#include <stdint.h>
#include <time.h>

#include "hal/abi/executable_abi.h"

#define EXPORT __attribute__((visibility("default")))

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Every workgroup waits until all workgroups of the dispatch have arrived, so a dispatch of
 * N workgroups (N <= worker count) completes only once N workers ran it at the same time:
 * the HAL counterpart of "parallel_for, 2 chunks forced onto 2 threads" in ANCHORS.md.
 * binding 0: uint32 [arrivals (monotonic across dispatches), timeouts]. A workgroup that
 * waits more than 20 ms gives up and counts a timeout instead of hanging. */
static int rendezvous(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  (void)w;
  if (d->binding_lengths[0] < 2 * sizeof(uint32_t)) return 3;
  uint32_t* counters = (uint32_t*)d->binding_ptrs[0];
  uint32_t n = d->workgroup_count[0] * d->workgroup_count[1] * d->workgroup_count[2];
  uint32_t old = __atomic_fetch_add(&counters[0], 1, __ATOMIC_ACQ_REL);
  uint32_t target = (old / n + 1) * n;
  uint64_t start = 0;
  for (uint32_t spins = 0; (int32_t)(__atomic_load_n(&counters[0], __ATOMIC_ACQUIRE) - target) < 0; ++spins) {
    __builtin_ia32_pause();
    if ((spins & 255) == 0) {
      uint64_t t = now_ns();
      if (start == 0) {
        start = t;
      } else if (t - start > 20000000u) {
        __atomic_fetch_add(&counters[1], 1, __ATOMIC_RELAXED);
        return 0;
      }
    }
  }
  return 0;
}

static const kiln_export_v2_t kExports[] = {
    {"rendezvous", rendezvous, 1, 0, {1, 1, 1}, 0, "bench_kernels.c:rendezvous", 0, NULL},
};

static const kiln_executable_library_v2_t kLibrary = {
    KILN_EXECUTABLE_ABI_VERSION, sizeof(kExports) / sizeof(kExports[0]), kExports};

EXPORT const kiln_executable_library_v2_t* kiln_executable_library_query(uint32_t abi_version) {
  return abi_version == KILN_EXECUTABLE_ABI_VERSION ? &kLibrary : NULL;
}
