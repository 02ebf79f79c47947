// How many workgroups of a distributed dispatch have work, when the compiler can tell: the
// host launches min(worker count, bound) instead of a workgroup per worker (a GPU's
// worker count is 8 per compute unit: an 8x4 product would otherwise start 2432
// workgroups, all but one finding nothing to do).
#pragma once

#include <cstdint>

namespace kiln::compiler {

// ceil(E / divisor) workgroups have work, where E is `extent`, or push-constant word
// `word` (an index, read as an unsigned 32-bit value) when word >= 0.
struct WorkgroupBound {
  int64_t extent = 0;
  int64_t word = -1;
  int64_t divisor = 1;
  bool operator==(const WorkgroupBound&) const = default;
};

// The attribute FormKernels puts on a kernel: array<i64: extent, word, divisor>.
inline constexpr char kWorkgroupBoundAttr[] = "kiln.gpu.workgroup_bound";

}  // namespace kiln::compiler
