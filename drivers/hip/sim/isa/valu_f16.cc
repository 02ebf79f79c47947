// Vector ALU on f16 and the f16 <-> f32 conversions (CDNA3 ISA, the VOP1/VOP2/VOP3 opcode
// tables: V_ADD/SUB/SUBREV/MUL_F16, V_CVT_F16_F32, V_CVT_F32_F16, V_PACK_B32_F16). Results
// round to nearest even with denormals kept (FLOAT_ROUND_MODE_16_64 0, FLOAT_DENORM_MODE_16_64
// 3, the compute defaults): a sum or product of two f16 values is exact in double, so it is
// rounded once, from there. NaN results are quiet NaNs. On gfx9 a 16-bit result is written
// zero-extended (LLVM's GCNSubtarget::zeroesHigh16BitsOfDest lists these opcodes).
// Operands: dst[0] VDST, src[0..1] SRC0/SRC1 (with ABS/NEG, and op_sel for V_PACK_B32_F16),
// imm[0] CLAMP, imm[1] OMOD (VOP3; not modelled: the instruction fails when they are set).
#include <cmath>
#include <cstdint>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/small_float.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

bool HasOutputModifiers(Wave& w, const Instruction& i) {
  if ((i.num_imm > 0 && i.imm[0] != 0) || (i.num_imm > 1 && i.imm[1] != 0)) {
    w.Fail(i, "CLAMP and OMOD on an f16 operation are not modelled");
    return true;
  }
  return false;
}

double Add(double a, double b) { return a + b; }
double Sub(double a, double b) { return a - b; }
double Subrev(double a, double b) { return b - a; }
double Mul(double a, double b) { return a * b; }

template <double (*F)(double, double)>
void BinaryF16(Wave& w, const Instruction& i) {
  if (HasOutputModifiers(w, i)) return;
  float a[kLanes], b[kLanes];
  uint32_t r[kLanes];
  LanesF16(w, i.src[0], a);
  LanesF16(w, i.src[1], b);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = F64ToF16(F(a[l], b[l]));
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// V_CVT_F32_F16: exact; a signalling NaN comes out quieted.
void CvtF32F16(Wave& w, const Instruction& i) {
  if (HasOutputModifiers(w, i)) return;
  float a[kLanes];
  uint32_t r[kLanes];
  LanesF16(w, i.src[0], a);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = std::isnan(a[l]) ? AsBits(a[l]) | 0x00400000u : AsBits(a[l]);
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// V_CVT_F16_F32: rounds to nearest even, keeps denormals, overflows to infinity.
void CvtF16F32(Wave& w, const Instruction& i) {
  if (HasOutputModifiers(w, i)) return;
  uint32_t a[kLanes], r[kLanes];
  LanesF32Bits(w, i.src[0], a);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = F32ToF16(AsFloat(a[l]));
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// V_PACK_B32_F16: D[15:0] = S0.f16, D[31:16] = S1.f16, each the half op_sel picks, with
// ABS/NEG applied to it; the bits are moved, not converted.
void PackB32F16(Wave& w, const Instruction& i) {
  if (HasOutputModifiers(w, i)) return;
  uint32_t halves[2][kLanes], r[kLanes];
  for (int k = 0; k < 2; ++k) {
    const Operand& op = i.src[k];
    Lanes32(w, op, halves[k]);
    for (uint32_t l = 0; l < kLanes; ++l) {
      uint32_t h = (op.modifiers & kModOpSel ? halves[k][l] >> 16 : halves[k][l]) & 0xffff;
      if (op.modifiers & kModAbs) h &= 0x7fff;
      if (op.modifiers & kModNeg) h ^= 0x8000;
      halves[k][l] = h;
    }
  }
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = halves[0][l] | (halves[1][l] << 16);
  WriteLanes32(w, i.dst[0], r, w.exec());
}

constexpr OpSemantics kValuF16[] = {
    {"v_add_f16", &BinaryF16<Add>},
    {"v_sub_f16", &BinaryF16<Sub>},
    {"v_subrev_f16", &BinaryF16<Subrev>},
    {"v_mul_f16", &BinaryF16<Mul>},
    {"v_cvt_f32_f16", &CvtF32F16},
    {"v_cvt_f16_f32", &CvtF16F32},
    {"v_pack_b32_f16", &PackB32F16, kModOpSel},
};

}  // namespace

std::span<const OpSemantics> ValuF16Semantics() { return kValuF16; }

}  // namespace kiln::hsa_sim::isa
