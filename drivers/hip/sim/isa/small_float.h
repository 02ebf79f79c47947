// The narrow floating-point formats of gfx942 and their conversions to and from f32, for the
// f16 VALU group (valu_f16.cc) and MFMA (mfma.cc).
//
// - f16: IEEE binary16 (1, 5, 10; bias 15) with denormals, infinities and NaNs.
// - bf16: the top half of an f32 (1, 8, 7).
// - fp8 and bf8 as CDNA3 defines them (CDNA3 ISA, "Matrix Arithmetic Instructions", the FP8/BF8
//   formats): FP8 is E4M3 with exponent bias 8, BF8 is E5M2 with bias 16; both have no
//   infinities and no negative zero: 0x80 is their only NaN (the "FNUZ" variants).
//
// Widening is exact. F32ToF16 rounds to nearest even (the default FLOAT_ROUND_MODE_16_64) and
// keeps denormals (FLOAT_DENORM_MODE_16_64 = 3, the compute default).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "drivers/hip/sim/isa/wave.h"  // AsFloat, AsBits

namespace kiln::hsa_sim::isa {

inline float F16ToF32(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 31, mantissa = h & 1023;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    return AsFloat((sign << 31) | 0x7f800000u | (mantissa << 13));  // inf or NaN, payload kept
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 1024), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

// Round to nearest even; overflow gives infinity; NaNs stay NaN (quieted, payload truncated).
// From double, so that f16 arithmetic computed exactly in double (sums and products of two
// f16 values are) rounds once.
inline uint16_t F64ToF16(double d) {
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  if (std::isnan(d)) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    return static_cast<uint16_t>(sign | 0x7e00 | ((bits >> 42) & 0x3ff));
  }
  double a = std::fabs(d);
  if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00);  // rounds to infinity
  if (a < 0x1p-14) {
    // Denormal (or zero): units of 2^-24, rounded to nearest even by nearbyint's default mode;
    // 1024 units are the smallest normal, which the same encoding gives.
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24)));
  }
  int exponent = std::ilogb(a);  // -14..15
  double mantissa = std::nearbyint(std::ldexp(a, 10 - exponent));  // 1024..2048
  if (mantissa == 2048.0) {
    mantissa = 1024.0;
    ++exponent;  // still <= 15: a < 65520
  }
  return static_cast<uint16_t>(sign | ((exponent + 15) << 10) | (static_cast<uint32_t>(mantissa) - 1024));
}
inline uint16_t F32ToF16(float f) { return F64ToF16(f); }  // widening is exact

// The f16 lanes of a 16-bit VALU source, as floats (exact): the low half, or the high half
// with op_sel (kModOpSel), then ABS and NEG on the f16 (CDNA3 ISA, VOP3 input modifiers).
inline void LanesF16(const Wave& w, const Operand& op, float out[kLanes]) {
  uint32_t bits[kLanes];
  Lanes32(w, op, bits);
  uint32_t shift = op.modifiers & kModOpSel ? 16 : 0;
  for (uint32_t l = 0; l < kLanes; ++l) {
    auto h = static_cast<uint16_t>(bits[l] >> shift);
    if (op.modifiers & kModAbs) h &= 0x7fff;
    if (op.modifiers & kModNeg) h ^= 0x8000;
    out[l] = F16ToF32(h);
  }
}

inline float Bf16ToF32(uint16_t b) { return AsFloat(uint32_t{b} << 16); }

// FP8 (E4M3, bias 8) and BF8 (E5M2, bias 16), FNUZ: 0x80 is NaN, no infinities.
template <int kExponentBits, int kBias>
float Fp8ToF32(uint8_t v) {
  constexpr int kMantissaBits = 7 - kExponentBits;
  if (v == 0x80) return std::nanf("");
  int exponent = (v >> kMantissaBits) & ((1 << kExponentBits) - 1);
  int mantissa = v & ((1 << kMantissaBits) - 1);
  float magnitude = exponent == 0
                        ? std::ldexp(static_cast<float>(mantissa), 1 - kBias - kMantissaBits)
                        : std::ldexp(static_cast<float>(mantissa | (1 << kMantissaBits)), exponent - kBias - kMantissaBits);
  return (v & 0x80) ? -magnitude : magnitude;
}
inline float Fp8E4M3ToF32(uint8_t v) { return Fp8ToF32<4, 8>(v); }
inline float Bf8E5M2ToF32(uint8_t v) { return Fp8ToF32<5, 16>(v); }

}  // namespace kiln::hsa_sim::isa
