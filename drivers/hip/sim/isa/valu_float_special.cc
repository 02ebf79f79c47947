// Vector ALU, f32 rounding, exponent, transcendental and division-helper operations (CDNA3
// ISA, the VOP1 and VOP3 opcode tables: V_RCP_F32, V_RCP_IFLAG_F32, V_RSQ_F32, V_SQRT_F32,
// V_EXP_F32, V_LOG_F32, V_FLOOR/CEIL/TRUNC/RNDNE/FRACT_F32, V_LDEXP_F32, V_FREXP_*_F32,
// V_DIV_SCALE_F32, V_DIV_FMAS_F32, V_DIV_FIXUP_F32).
//
// Precision: the hardware's V_RCP/RSQ/SQRT/EXP/LOG are approximations documented to 1 ULP; the
// executor returns the correctly rounded value (std::), which is one of the values the hardware
// may return, so code that relies on more than the documented accuracy is not caught here. The
// division helpers follow the ISA's pseudo-code; LLVM's f32 division (scale, rcp, refinement
// fmas, fmas, fixup) then gives the correctly rounded quotient. Input modifiers ABS/NEG apply;
// CLAMP and OMOD are not modelled for this group (the instruction fails when they are set).
// Operands: dst[0] VDST (dst[1] the VCC-like SDST of V_DIV_SCALE_F32), src[0..2] SRC0..SRC2,
// src[3] the implicit VCC of V_DIV_FMAS_F32.
#include <cmath>
#include <cstdint>
#include <limits>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

bool NoOutputModifiers(Wave& w, const Instruction& i, int first) {
  for (int n = first; n < i.num_imm; ++n) {
    if (i.imm[n] != 0) {
      w.Fail(i, "CLAMP/OMOD on this instruction are not modelled yet");
      return false;
    }
  }
  return true;
}

template <float (*F)(float)>
void UnaryF32(Wave& w, const Instruction& i) {
  if (!NoOutputModifiers(w, i, 0)) return;
  uint32_t a[kLanes], r[kLanes];
  LanesF32Bits(w, i.src[0], a);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = AsBits(F(AsFloat(a[l])));
  WriteLanes32(w, i.dst[0], r, w.exec());
}
float Rcp(float a) { return 1.0f / a; }
float Rsq(float a) { return 1.0f / std::sqrt(a); }
float Sqrt(float a) { return std::sqrt(a); }
float Exp2(float a) { return std::exp2(a); }
float Log2(float a) { return std::log2(a); }
float Floor(float a) { return std::floor(a); }
float Ceil(float a) { return std::ceil(a); }
float Trunc(float a) { return std::trunc(a); }
float Rndne(float a) { return std::nearbyint(a); }  // the default rounding mode: to nearest even
// V_FRACT_F32: S0 - floor(S0), kept below 1 (the largest float under 1 for tiny negatives);
// NaN for NaN and infinities.
float Fract(float a) {
  if (!std::isfinite(a)) return std::numeric_limits<float>::quiet_NaN();
  return std::fmin(a - std::floor(a), 0x1.fffffep-1f);
}
float FrexpMant(float a) {
  if (!std::isfinite(a)) return a;
  int e;
  return std::frexp(a, &e);
}
// V_FREXP_EXP_I32_F32: the exponent frexp gives (0 for 0, infinities and NaN).
uint32_t FrexpExp(uint32_t bits) {
  float a = AsFloat(bits);
  if (!std::isfinite(a) || a == 0.0f) return 0;
  int e;
  std::frexp(a, &e);
  return static_cast<uint32_t>(e);
}

// V_LDEXP_F32: S0 * 2^S1, S1 a signed 32-bit integer (no input modifiers on it).
void Ldexp(Wave& w, const Instruction& i) {
  if (!NoOutputModifiers(w, i, 0)) return;
  uint32_t a[kLanes], b[kLanes], r[kLanes];
  LanesF32Bits(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  for (uint32_t l = 0; l < kLanes; ++l) {
    int32_t e = static_cast<int32_t>(b[l]);
    e = e < -1000 ? -1000 : e > 1000 ? 1000 : e;  // beyond the f32 range either way
    r[l] = AsBits(std::ldexp(AsFloat(a[l]), e));
  }
  WriteLanes32(w, i.dst[0], r, w.exec());
}

int Exponent(float f) { return static_cast<int>((AsBits(f) >> 23) & 0xff); }
bool IsDenormal(float f) { return f != 0.0f && std::fpclassify(f) == FP_SUBNORMAL; }

// V_DIV_SCALE_F32 D, VCC, S0, S1 (denominator), S2 (numerator); S0 is S1 or S2. Scales the
// operand by 2^64 (or 2^-64) where the quotient or the reciprocal would leave the normal range,
// and sets the lane's VCC bit when the final quotient must be rescaled (V_DIV_FMAS_F32).
void DivScale(Wave& w, const Instruction& i) {
  if (i.num_src < 3 || i.num_dst < 2) return w.Fail(i, "the operands are missing");
  if (!NoOutputModifiers(w, i, 0)) return;
  uint32_t s0[kLanes], s1[kLanes], s2[kLanes], r[kLanes];
  LanesF32Bits(w, i.src[0], s0);
  LanesF32Bits(w, i.src[1], s1);
  LanesF32Bits(w, i.src[2], s2);
  uint64_t exec = w.exec(), vcc = 0;
  for (uint32_t l = 0; l < kLanes; ++l) {
    float q = AsFloat(s0[l]), d = AsFloat(s1[l]), n = AsFloat(s2[l]), out = q;
    bool flag = false;
    if (n == 0.0f || d == 0.0f) {
      out = std::numeric_limits<float>::quiet_NaN();
    } else if (Exponent(n) - Exponent(d) >= 96) {
      flag = true;
      if (q == d) out = std::ldexp(q, 64);
    } else if (IsDenormal(d)) {
      out = std::ldexp(q, 64);
    } else if (IsDenormal(1.0f / d) && IsDenormal(n / d)) {
      flag = true;
      if (q == d) out = std::ldexp(q, 64);
    } else if (IsDenormal(1.0f / d)) {
      out = std::ldexp(q, -64);
    } else if (IsDenormal(n / d)) {
      flag = true;
      if (q == n) out = std::ldexp(q, 64);
    } else if (Exponent(n) <= 23) {
      out = std::ldexp(q, 64);
    }
    r[l] = AsBits(out);
    vcc |= uint64_t{flag} << l;
  }
  WriteLanes32(w, i.dst[0], r, exec);
  w.SetSgpr64(i.dst[1].index, vcc & exec);
}

// V_DIV_FMAS_F32: D = fma(S0, S1, S2), times 2^64 when |S2| >= 2 or 2^-64 otherwise in the
// lanes whose VCC bit is set (undoing V_DIV_SCALE_F32's scaling).
void DivFmas(Wave& w, const Instruction& i) {
  if (i.num_src < 4) return w.Fail(i, "the operands (and VCC) are missing");
  if (!NoOutputModifiers(w, i, 0)) return;
  uint32_t a[kLanes], b[kLanes], c[kLanes], r[kLanes];
  LanesF32Bits(w, i.src[0], a);
  LanesF32Bits(w, i.src[1], b);
  LanesF32Bits(w, i.src[2], c);
  uint64_t vcc = Scalar64(w, i.src[3]);
  for (uint32_t l = 0; l < kLanes; ++l) {
    float v = std::fma(AsFloat(a[l]), AsFloat(b[l]), AsFloat(c[l]));
    if ((vcc >> l) & 1) v = std::ldexp(v, Exponent(AsFloat(c[l])) >= 128 ? 64 : -64);
    r[l] = AsBits(v);
  }
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// V_DIV_FIXUP_F32 D, S0 (quotient), S1 (denominator), S2 (numerator): the IEEE special cases
// of S2 / S1, else S0 with the quotient's sign.
void DivFixup(Wave& w, const Instruction& i) {
  if (i.num_src < 3) return w.Fail(i, "the operands are missing");
  if (!NoOutputModifiers(w, i, 0)) return;
  uint32_t s0[kLanes], s1[kLanes], s2[kLanes], r[kLanes];
  LanesF32Bits(w, i.src[0], s0);
  LanesF32Bits(w, i.src[1], s1);
  LanesF32Bits(w, i.src[2], s2);
  constexpr float kInf = std::numeric_limits<float>::infinity();
  for (uint32_t l = 0; l < kLanes; ++l) {
    float q = AsFloat(s0[l]), d = AsFloat(s1[l]), n = AsFloat(s2[l]), out;
    bool negative = std::signbit(d) != std::signbit(n);
    if (std::isnan(n)) {
      out = AsFloat(s2[l] | 0x00400000u);
    } else if (std::isnan(d)) {
      out = AsFloat(s1[l] | 0x00400000u);
    } else if ((d == 0.0f && n == 0.0f) || (std::isinf(d) && std::isinf(n))) {
      out = AsFloat(0xffc00000u);
    } else if (d == 0.0f || std::isinf(n)) {
      out = negative ? -kInf : kInf;
    } else if (std::isinf(d) || n == 0.0f) {
      out = negative ? -0.0f : 0.0f;
    } else {
      out = negative ? -std::fabs(q) : std::fabs(q);
    }
    r[l] = AsBits(out);
  }
  WriteLanes32(w, i.dst[0], r, w.exec());
}

constexpr OpSemantics kValuFloatSpecial[] = {
    {"v_rcp_f32", &UnaryF32<Rcp>},
    {"v_rcp_iflag_f32", &UnaryF32<Rcp>},
    {"v_rsq_f32", &UnaryF32<Rsq>},
    {"v_sqrt_f32", &UnaryF32<Sqrt>},
    {"v_exp_f32", &UnaryF32<Exp2>},
    {"v_log_f32", &UnaryF32<Log2>},
    {"v_floor_f32", &UnaryF32<Floor>},
    {"v_ceil_f32", &UnaryF32<Ceil>},
    {"v_trunc_f32", &UnaryF32<Trunc>},
    {"v_rndne_f32", &UnaryF32<Rndne>},
    {"v_fract_f32", &UnaryF32<Fract>},
    {"v_frexp_mant_f32", &UnaryF32<FrexpMant>},
    {"v_frexp_exp_i32_f32", &UnaryLanes32<FrexpExp, true>},
    {"v_ldexp_f32", &Ldexp},
    {"v_div_scale_f32", &DivScale},
    {"v_div_fmas_f32", &DivFmas},
    {"v_div_fixup_f32", &DivFixup},
};

}  // namespace

std::span<const OpSemantics> ValuFloatSpecialSemantics() { return kValuFloatSpecial; }

}  // namespace kiln::hsa_sim::isa
