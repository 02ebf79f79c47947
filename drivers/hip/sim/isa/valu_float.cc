// Vector ALU, f32 arithmetic and conversions (CDNA3 ISA, "Vector ALU Operations"; VOP3
// input modifiers ABS/NEG, output modifiers OMOD and CLAMP, in that order). Results are IEEE
// single precision with round-to-nearest-even and denormals kept: the mode compute kernels
// run in (FLOAT_ROUND_MODE_32 0, FLOAT_DENORM_MODE_32 3); other modes are not modelled yet.
// v_fma_f32/v_fmac_f32 round once (std::fma).
#include <cmath>
#include <cstdint>
#include <limits>

#include "drivers/hip/sim/isa/ieee_min_max.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

// VOP3's trailing CLAMP and OMOD immediates (absent in the _e32 forms).
struct OutputModifiers {
  bool clamp = false;
  uint32_t omod = 0;  // 0: none, 1: x2, 2: x4, 3: /2
};
OutputModifiers OutputOf(const Instruction& i) {
  OutputModifiers m;
  if (i.num_imm >= 1) m.clamp = i.imm[0] != 0;
  if (i.num_imm >= 2) m.omod = static_cast<uint32_t>(i.imm[1]) & 3;
  return m;
}
float Apply(float r, OutputModifiers m) {
  static constexpr float kScale[4] = {1.0f, 2.0f, 4.0f, 0.5f};
  if (m.omod) r *= kScale[m.omod];
  if (m.clamp) r = std::isnan(r) ? 0.0f : std::fmin(std::fmax(r, 0.0f), 1.0f);
  return r;
}

void F32Lanes(const Wave& w, const Operand& op, float out[kLanes]) {
  uint32_t bits[kLanes];
  LanesF32Bits(w, op, bits);
  for (uint32_t l = 0; l < kLanes; ++l) out[l] = AsFloat(bits[l]);
}

template <float (*F)(float, float)>
void BinaryF32(Wave& w, const Instruction& i) {
  float a[kLanes], b[kLanes];
  uint32_t r[kLanes];
  F32Lanes(w, i.src[0], a);
  F32Lanes(w, i.src[1], b);
  OutputModifiers m = OutputOf(i);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = AsBits(Apply(F(a[l], b[l]), m));
  WriteLanes32(w, i.dst[0], r, w.exec());
}
float Add(float a, float b) { return a + b; }
float Sub(float a, float b) { return a - b; }
float Subrev(float a, float b) { return b - a; }
float Mul(float a, float b) { return a * b; }
// V_MUL_LEGACY_F32: the product, except that a zero operand gives +0 whatever the other one
// is, infinity and NaN included (CDNA3 ISA, V_MUL_LEGACY_F32: "DX9 rules, 0.0 * x = 0.0").
float MulLegacy(float a, float b) { return a == 0.0f || b == 0.0f ? 0.0f : a * b; }
// V_MAX_F32 / V_MIN_F32 in IEEE mode (ieee_min_max.h).
float Max(float a, float b) { return IeeeMinMax<float, true>(a, b); }
float Min(float a, float b) { return IeeeMinMax<float, false>(a, b); }

// V_FMA_F32: D = S0 * S1 + S2, one rounding. V_FMAC_F32: D = S0 * S1 + D (src[2] is the tied
// accumulator when the disassembler lists it, else the destination itself).
void FmaF32(Wave& w, const Instruction& i) {
  float a[kLanes], b[kLanes], c[kLanes];
  uint32_t r[kLanes];
  F32Lanes(w, i.src[0], a);
  F32Lanes(w, i.src[1], b);
  F32Lanes(w, i.num_src >= 3 ? i.src[2] : i.dst[0], c);
  OutputModifiers m = OutputOf(i);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = AsBits(Apply(std::fma(a[l], b[l], c[l]), m));
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// Conversions (CDNA3 ISA V_CVT_*): float to integer truncates toward zero, saturates at the
// integer's range and gives 0 for NaN; integer to float rounds to nearest even.
uint32_t CvtF32U32(uint32_t a) { return AsBits(static_cast<float>(a)); }
uint32_t CvtF32I32(uint32_t a) { return AsBits(static_cast<float>(static_cast<int32_t>(a))); }
uint32_t CvtU32F32(uint32_t a) {
  float f = AsFloat(a);
  if (std::isnan(f) || f <= 0.0f) return 0;
  if (f >= 4294967296.0f) return UINT32_MAX;
  return static_cast<uint32_t>(f);
}
uint32_t CvtI32F32(uint32_t a) {
  float f = AsFloat(a);
  if (std::isnan(f)) return 0;
  if (f <= -2147483648.0f) return static_cast<uint32_t>(std::numeric_limits<int32_t>::min());
  if (f >= 2147483648.0f) return static_cast<uint32_t>(std::numeric_limits<int32_t>::max());
  return static_cast<uint32_t>(static_cast<int32_t>(f));
}

// V_MAX3/V_MIN3/V_MED3_F32 with the IEEE-mode NaN rules of V_MAX/V_MIN_F32. V_MED3_F32: a
// NaN operand gives the min3 of the three (the ISA's pseudo-code), otherwise the middle one.
template <float (*F)(float, float, float)>
void TernaryF32(Wave& w, const Instruction& i) {
  float a[kLanes], b[kLanes], c[kLanes];
  uint32_t r[kLanes];
  F32Lanes(w, i.src[0], a);
  F32Lanes(w, i.src[1], b);
  F32Lanes(w, i.src[2], c);
  OutputModifiers m = OutputOf(i);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = AsBits(Apply(F(a[l], b[l], c[l]), m));
  WriteLanes32(w, i.dst[0], r, w.exec());
}
float Max3(float a, float b, float c) { return Max(Max(a, b), c); }
float Min3(float a, float b, float c) { return Min(Min(a, b), c); }
float Med3(float a, float b, float c) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c)) return Min3(a, b, c);
  return Max(Min(a, b), Min(Max(a, b), c));
}

constexpr OpSemantics kValuFloat[] = {
    {"v_add_f32", &BinaryF32<Add>},
    {"v_sub_f32", &BinaryF32<Sub>},
    {"v_subrev_f32", &BinaryF32<Subrev>},
    {"v_mul_f32", &BinaryF32<Mul>},
    {"v_mul_legacy_f32", &BinaryF32<MulLegacy>},
    {"v_max_f32", &BinaryF32<Max>},
    {"v_min_f32", &BinaryF32<Min>},
    {"v_fma_f32", &FmaF32},
    {"v_fmac_f32", &FmaF32},
    {"v_fmamk_f32", &FmaF32},  // the decoder lists the literal K as a source: S0, K, S1
    {"v_fmaak_f32", &FmaF32},  // S0, S1, K
    {"v_max3_f32", &TernaryF32<Max3>},
    {"v_min3_f32", &TernaryF32<Min3>},
    {"v_med3_f32", &TernaryF32<Med3>},
    {"v_cvt_f32_u32", &UnaryLanes32<CvtF32U32, true>},
    {"v_cvt_f32_i32", &UnaryLanes32<CvtF32I32, true>},
    {"v_cvt_u32_f32", &UnaryLanes32<CvtU32F32, true>},
    {"v_cvt_i32_f32", &UnaryLanes32<CvtI32F32, true>},
};

}  // namespace

std::span<const OpSemantics> ValuFloatSemantics() { return kValuFloat; }

}  // namespace kiln::hsa_sim::isa
