// Packed and mixed-precision math, VOP3P (CDNA3 ISA, "VOP3P", V_PK_* and V_FMA_MIX*): two results per
// lane, a low and a high one. For each source, op_sel picks the element the low result reads
// and op_sel_hi the one the high result reads (0: the low element, 1: the high one); neg_lo
// and neg_hi negate the element read for the low and for the high result. Elements are f16
// halves of a 32-bit source (V_PK_*_F16) or f32 dwords of a 64-bit register pair (V_PK_*_F32,
// gfx90a and later). Rounding as the scalar forms: nearest even, denormals kept; f16 sums and
// products are exact in double and round once; V_PK_FMA_F32 rounds once (std::fma).
// Operands: dst[0] VDST, src[0..2] with kModOpSel (op_sel), kModOpSelHi (op_sel_hi), kModNeg
// (neg_lo), kModNegHi (neg_hi); imm[0] CLAMP (not modelled: the instruction fails when set).
// A constant source is read only as its low element (both op_sel bits 0).
#include <cmath>
#include <cstdint>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/small_float.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

constexpr uint8_t kPacked = kModOpSel | kModOpSelHi;

bool Refused(Wave& w, const Instruction& i, int sources) {
  if (i.num_imm > 0 && i.imm[0] != 0) {
    w.Fail(i, "CLAMP on a packed operation is not modelled");
    return true;
  }
  for (int k = 0; k < sources; ++k) {
    // A constant is its low element: LLVM sets op_sel and op_sel_hi to 0 for them, so both
    // results read it; an op_sel that reads its high element is not modelled.
    if (i.num_src <= k ||
        (i.src[k].kind == Operand::Kind::kImm && (i.src[k].modifiers & (kModOpSel | kModOpSelHi)))) {
      w.Fail(i, "a constant source whose high element is read (or a missing source) is not modelled");
      return true;
    }
  }
  return false;
}

// Element `high` (0 low result, 1 high result) of source `op`'s f32 pair value.
float ElementF32(const Operand& op, uint64_t pair, int high) {
  bool upper = op.modifiers & (high ? kModOpSelHi : kModOpSel);
  auto bits = static_cast<uint32_t>(upper ? pair >> 32 : pair);
  if (op.modifiers & (high ? kModNegHi : kModNeg)) bits ^= 0x80000000u;
  return AsFloat(bits);
}
float ElementF16(const Operand& op, uint32_t value, int high) {
  bool upper = op.modifiers & (high ? kModOpSelHi : kModOpSel);
  auto bits = static_cast<uint16_t>(upper ? value >> 16 : value);
  if (op.modifiers & (high ? kModNegHi : kModNeg)) bits ^= 0x8000;
  return F16ToF32(bits);
}

float AddF32(float a, float b, float) { return a + b; }
float MulF32(float a, float b, float) { return a * b; }
float FmaF32(float a, float b, float c) { return std::fma(a, b, c); }

template <float (*F)(float, float, float), int kSources>
void PackedF32(Wave& w, const Instruction& i) {
  if (Refused(w, i, kSources)) return;
  uint64_t s[3][kLanes] = {}, r[kLanes];
  for (int k = 0; k < kSources; ++k) Lanes64(w, i.src[k], s[k]);
  for (uint32_t l = 0; l < kLanes; ++l) {
    uint32_t half[2];
    for (int h = 0; h < 2; ++h) {
      float c = kSources > 2 ? ElementF32(i.src[2], s[2][l], h) : 0.0f;
      half[h] = AsBits(F(ElementF32(i.src[0], s[0][l], h), ElementF32(i.src[1], s[1][l], h), c));
    }
    r[l] = half[0] | (uint64_t{half[1]} << 32);
  }
  WriteLanes64(w, i.dst[0], r, w.exec());
}

double AddF16(double a, double b) { return a + b; }
double MulF16(double a, double b) { return a * b; }

template <double (*F)(double, double)>
void PackedF16(Wave& w, const Instruction& i) {
  if (Refused(w, i, 2)) return;
  uint32_t a[kLanes], b[kLanes], r[kLanes];
  Lanes32(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  for (uint32_t l = 0; l < kLanes; ++l) {
    uint32_t lo = F64ToF16(F(ElementF16(i.src[0], a[l], 0), ElementF16(i.src[1], b[l], 0)));
    uint32_t hi = F64ToF16(F(ElementF16(i.src[0], a[l], 1), ElementF16(i.src[1], b[l], 1)));
    r[l] = lo | (hi << 16);
  }
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// V_FMA_MIX_F32, V_FMA_MIXLO_F16, V_FMA_MIXHI_F16 (VOP3P, mixed precision): source k is an f32
// (op_sel_hi[k] = 0) or the f16 half op_sel[k] picks (op_sel_hi[k] = 1), with neg_lo as NEG and
// neg_hi as ABS; D = fma(S0, S1, S2) rounded once to f32, then (mixlo/mixhi) rounded to f16
// into D[15:0] or D[31:16], the other half kept. A constant is read as an f32 only.
template <int kResult>  // 0: f32, 1: f16 low half, 2: f16 high half
void FmaMix(Wave& w, const Instruction& i) {
  if (i.num_imm > 0 && i.imm[0] != 0) return w.Fail(i, "CLAMP on a mixed-precision operation is not modelled");
  float in[3][kLanes];
  for (int k = 0; k < 3; ++k) {
    const Operand& op = i.src[k];
    bool f16 = op.modifiers & kModOpSelHi;
    if (i.num_src <= k || (f16 && op.kind == Operand::Kind::kImm)) {
      return w.Fail(i, "an f16 constant (or missing) source of a mixed-precision operation is not modelled");
    }
    uint32_t bits[kLanes];
    Lanes32(w, op, bits);
    for (uint32_t l = 0; l < kLanes; ++l) {
      float v = f16 ? F16ToF32(static_cast<uint16_t>(op.modifiers & kModOpSel ? bits[l] >> 16 : bits[l]))
                    : AsFloat(bits[l]);
      if (op.modifiers & kModNegHi) v = std::fabs(v);
      if (op.modifiers & kModNeg) v = -v;
      in[k][l] = v;
    }
  }
  uint32_t r[kLanes];
  const uint32_t* d = w.v(i.dst[0].index);
  for (uint32_t l = 0; l < kLanes; ++l) {
    float f = std::fma(in[0][l], in[1][l], in[2][l]);
    if constexpr (kResult == 0) {
      r[l] = AsBits(f);
    } else if constexpr (kResult == 1) {
      r[l] = (d[l] & 0xffff0000u) | F32ToF16(f);
    } else {
      r[l] = (d[l] & 0xffffu) | (uint32_t{F32ToF16(f)} << 16);
    }
  }
  WriteLanes32(w, i.dst[0], r, w.exec());
}

constexpr OpSemantics kValuPacked[] = {
    {"v_fma_mix_f32", &FmaMix<0>, kPacked},
    {"v_fma_mixlo_f16", &FmaMix<1>, kPacked},
    {"v_fma_mixhi_f16", &FmaMix<2>, kPacked},
    {"v_pk_add_f32", &PackedF32<AddF32, 2>, kPacked},
    {"v_pk_mul_f32", &PackedF32<MulF32, 2>, kPacked},
    {"v_pk_fma_f32", &PackedF32<FmaF32, 3>, kPacked},
    {"v_pk_add_f16", &PackedF16<AddF16>, kPacked},
    {"v_pk_mul_f16", &PackedF16<MulF16>, kPacked},
};

}  // namespace

std::span<const OpSemantics> ValuPackedSemantics() { return kValuPacked; }

}  // namespace kiln::hsa_sim::isa
