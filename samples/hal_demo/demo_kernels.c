/* The demo's two kernels: y = alpha * x + beta, then per-row sums of y. */
#include <stdint.h>
#include <string.h>

#include "hal/abi/executable_abi.h"

static float as_float(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

/* constants: n, elements per workgroup, alpha bits, beta bits. bindings: x, y. */
static int scale_add(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  uint32_t n = d->constants[0], chunk = d->constants[1];
  float alpha = as_float(d->constants[2]), beta = as_float(d->constants[3]);
  if (d->binding_lengths[0] < (size_t)n * 4 || d->binding_lengths[1] < (size_t)n * 4) return 1;
  const float* x = (const float*)d->binding_ptrs[0];
  float* y = (float*)d->binding_ptrs[1];
  uint64_t begin = (uint64_t)w->workgroup_id[0] * chunk, end = begin + chunk < n ? begin + chunk : n;
  for (uint64_t i = begin; i < end; ++i) y[i] = alpha * x[i] + beta;
  return 0;
}

/* constants: rows, cols. bindings: y [rows x cols], sums [rows]. One workgroup per row. */
static int row_sum(const kiln_dispatch_state_v2_t* d, const kiln_workgroup_state_v2_t* w) {
  uint32_t rows = d->constants[0], cols = d->constants[1], row = w->workgroup_id[0];
  if (row >= rows || d->binding_lengths[0] < (size_t)rows * cols * 4 || d->binding_lengths[1] < (size_t)rows * 4) return 1;
  const float* y = (const float*)d->binding_ptrs[0] + (size_t)row * cols;
  double sum = 0;
  for (uint32_t c = 0; c < cols; ++c) sum += y[c];
  ((float*)d->binding_ptrs[1])[row] = (float)sum;
  return 0;
}

static const kiln_export_v2_t kExports[] = {
    {"scale_add", scale_add, 2, 4, {1, 1, 1}, 0, "demo_kernels.c:scale_add", 0, NULL},
    {"row_sum", row_sum, 2, 2, {1, 1, 1}, 0, "demo_kernels.c:row_sum", 0, NULL},
};
static const kiln_executable_library_v2_t kLibrary = {KILN_EXECUTABLE_ABI_VERSION, 2, kExports};

__attribute__((visibility("default"))) const kiln_executable_library_v2_t* kiln_executable_library_query(
    uint32_t abi_version) {
  return abi_version == KILN_EXECUTABLE_ABI_VERSION ? &kLibrary : NULL;
}
