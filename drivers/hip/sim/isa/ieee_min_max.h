// V_MAX_* / V_MIN_* for f32 and f64 in IEEE mode (compute_pgm_rsrc1 ENABLE_IEEE_MODE, set for
// compute kernels; CDNA3 ISA, V_MAX_F32 / V_MAX_F64): a signalling NaN operand gives that NaN
// quieted; otherwise a quiet NaN operand yields the other operand; -0 orders below +0.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace kiln::hsa_sim::isa {

template <typename T>
using IeeeBits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

// The quiet bit: the mantissa's highest.
template <typename T>
inline constexpr IeeeBits<T> kQuietNanBit = IeeeBits<T>{1} << (std::numeric_limits<T>::digits - 2);

template <typename T>
bool IsSignalingNan(T f) {
  return std::isnan(f) && !(std::bit_cast<IeeeBits<T>>(f) & kQuietNanBit<T>);
}

template <typename T>
T QuietNan(T f) {
  return std::bit_cast<T>(std::bit_cast<IeeeBits<T>>(f) | kQuietNanBit<T>);
}

template <typename T, bool kMax>
T IeeeMinMax(T a, T b) {
  if (IsSignalingNan(a)) return QuietNan(a);
  if (IsSignalingNan(b)) return QuietNan(b);
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return (std::signbit(a) == kMax) ? b : a;  // the zeros: max takes +0, min -0
  return (a > b) == kMax ? a : b;
}

}  // namespace kiln::hsa_sim::isa
