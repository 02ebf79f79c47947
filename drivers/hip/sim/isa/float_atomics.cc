// The float-atomic log and the order tolerance of KILN_HSA_SIM_MODE=both (see float_atomics.h).
#include "drivers/hip/sim/isa/float_atomics.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace kiln::hsa_sim::isa {

void FloatAtomicLog::RecordLanes(const uint64_t* address, const uint32_t* data, const uint32_t* old,
                                 uint64_t lanes) {
  std::lock_guard lock(mu_);
  for (uint32_t l = 0; l < 64; ++l) {
    if (!((lanes >> l) & 1)) continue;
    FloatAtomicRecord& r = words_[address[l]];
    ++r.adds;
    r.sum_of_magnitudes += std::fabs(static_cast<double>(std::bit_cast<float>(data[l])));
    r.largest_old = std::max(r.largest_old, std::fabs(static_cast<double>(std::bit_cast<float>(old[l]))));
  }
}

const FloatAtomicRecord* FloatAtomicLog::Find(uint64_t address) const {
  std::lock_guard lock(mu_);
  auto it = words_.find(address);
  return it == words_.end() ? nullptr : &it->second;
}

bool F32SumsAgree(uint32_t a, uint32_t b, const FloatAtomicRecord& record) {
  if (a == b) return true;
  double x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  if (std::isinf(x) || std::isinf(y)) return false;  // equal infinities have equal bits
  double n = static_cast<double>(record.adds);
  double bound = record.largest_old + record.sum_of_magnitudes;
  double tolerance = 2 * n * (std::ldexp(bound, -24) + std::ldexp(1.0, -126));
  return std::fabs(x - y) <= tolerance;
}

}  // namespace kiln::hsa_sim::isa
