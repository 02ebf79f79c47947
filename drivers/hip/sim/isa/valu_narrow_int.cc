// Vector ALU on 16-bit and 24-bit integers and byte conversions (CDNA3 ISA, the VOP2/VOP3
// opcode tables: V_*_U16/I16/B16, V_MUL_*_U24/I24, V_CVT_F32_UBYTE0..3, V_DOT4C_I32_I8). Each lane of EXEC
// computes; on gfx9 a 16-bit result is written zero-extended (the high half of the VGPR
// becomes 0; LLVM's GCNSubtarget::zeroesHigh16BitsOfDest lists these for gfx9). Operands as in
// valu_int.cc: dst[0] VDST, src[0..2] SRC0..SRC2, imm[0] VOP3 CLAMP (not modelled for 16-bit
// ops: the instruction fails when it is set).
#include <cstdint>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

uint32_t U16(uint32_t a) { return a & 0xffff; }
int32_t I16(uint32_t a) { return static_cast<int16_t>(a & 0xffff); }

template <uint32_t (*F)(uint32_t, uint32_t)>
void Binary16(Wave& w, const Instruction& i) {
  if (i.num_imm > 0 && i.imm[0] != 0) return w.Fail(i, "CLAMP on a 16-bit integer operation is not modelled");
  BinaryLanes32<F>(w, i);
}

uint32_t AddU16(uint32_t a, uint32_t b) { return U16(a + b); }
uint32_t SubU16(uint32_t a, uint32_t b) { return U16(a - b); }
uint32_t SubrevU16(uint32_t a, uint32_t b) { return U16(b - a); }
uint32_t MulLoU16(uint32_t a, uint32_t b) { return U16(U16(a) * U16(b)); }
// The "rev" shifts take the amount from SRC0 bits 3:0 and shift SRC1's low 16 bits.
uint32_t LshlrevB16(uint32_t a, uint32_t b) { return U16(U16(b) << (a & 15)); }
uint32_t LshrrevB16(uint32_t a, uint32_t b) { return U16(b) >> (a & 15); }
uint32_t AshrrevI16(uint32_t a, uint32_t b) { return U16(static_cast<uint32_t>(I16(b) >> (a & 15))); }
uint32_t MaxU16(uint32_t a, uint32_t b) { return U16(a) > U16(b) ? U16(a) : U16(b); }
uint32_t MinU16(uint32_t a, uint32_t b) { return U16(a) < U16(b) ? U16(a) : U16(b); }
uint32_t MaxI16(uint32_t a, uint32_t b) { return I16(a) > I16(b) ? U16(a) : U16(b); }
uint32_t MinI16(uint32_t a, uint32_t b) { return I16(a) < I16(b) ? U16(a) : U16(b); }

// V_MAD_LEGACY_U16: SRC0[15:0] * SRC1[15:0] + SRC2[15:0], 16 bits (VOP3; CLAMP not modelled).
uint32_t MadLegacyU16(uint32_t a, uint32_t b, uint32_t c) { return U16(U16(a) * U16(b) + U16(c)); }
template <uint32_t (*F)(uint32_t, uint32_t, uint32_t)>
void Ternary16(Wave& w, const Instruction& i) {
  if (i.num_imm > 0 && i.imm[0] != 0) return w.Fail(i, "CLAMP on a narrow integer operation is not modelled");
  TernaryLanes32<F>(w, i);
}

// 24-bit multiplies: the low 24 bits of each source, unsigned or sign-extended from bit 23;
// _lo gives bits 31:0 of the 48-bit product, _hi bits 47:32.
int64_t I24(uint32_t a) { return static_cast<int32_t>(a << 8) >> 8; }
uint64_t U24(uint32_t a) { return a & 0xffffff; }
uint32_t MulU24(uint32_t a, uint32_t b) { return static_cast<uint32_t>(U24(a) * U24(b)); }
uint32_t MulHiU24(uint32_t a, uint32_t b) { return static_cast<uint32_t>((U24(a) * U24(b)) >> 32); }
uint32_t MulI24(uint32_t a, uint32_t b) { return static_cast<uint32_t>(I24(a) * I24(b)); }
uint32_t MulHiI24(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(static_cast<uint64_t>(I24(a) * I24(b)) >> 32);
}
// V_MAD_U32_U24 / V_MAD_I32_I24: the 24-bit product's bits 31:0 plus SRC2 (VOP3; CLAMP not
// modelled, as for the 16-bit operations: Ternary16).
uint32_t MadU24(uint32_t a, uint32_t b, uint32_t c) { return MulU24(a, b) + c; }
uint32_t MadI24(uint32_t a, uint32_t b, uint32_t c) { return MulI24(a, b) + c; }

// V_DOT4C_I32_I8: D = D + the sum over the four bytes of sext(SRC0.byte) * sext(SRC1.byte),
// wrapping (the accumulator is src[2] when the disassembler lists the tied operand).
void Dot4cI32I8(Wave& w, const Instruction& i) {
  uint32_t a[kLanes], b[kLanes], c[kLanes], r[kLanes];
  Lanes32(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  Lanes32(w, i.num_src >= 3 ? i.src[2] : i.dst[0], c);
  for (uint32_t l = 0; l < kLanes; ++l) {
    uint32_t sum = c[l];
    for (int k = 0; k < 4; ++k) {
      sum += static_cast<uint32_t>(static_cast<int8_t>(a[l] >> (8 * k)) * static_cast<int8_t>(b[l] >> (8 * k)));
    }
    r[l] = sum;
  }
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// V_CVT_F32_UBYTEn: byte n of SRC0 as an f32 (exact).
template <int kByte>
uint32_t CvtF32Ubyte(uint32_t a) {
  return AsBits(static_cast<float>((a >> (8 * kByte)) & 0xff));
}

constexpr OpSemantics kValuNarrowInt[] = {
    {"v_add_u16", &Binary16<AddU16>},
    {"v_sub_u16", &Binary16<SubU16>},
    {"v_subrev_u16", &Binary16<SubrevU16>},
    {"v_mul_lo_u16", &Binary16<MulLoU16>},
    {"v_mad_legacy_u16", &Ternary16<MadLegacyU16>},
    {"v_lshlrev_b16", &Binary16<LshlrevB16>},
    {"v_lshrrev_b16", &Binary16<LshrrevB16>},
    {"v_ashrrev_i16", &Binary16<AshrrevI16>},
    {"v_max_u16", &Binary16<MaxU16>},
    {"v_min_u16", &Binary16<MinU16>},
    {"v_max_i16", &Binary16<MaxI16>},
    {"v_min_i16", &Binary16<MinI16>},
    {"v_mul_u32_u24", &BinaryLanes32<MulU24>},
    {"v_mul_hi_u32_u24", &BinaryLanes32<MulHiU24>},
    {"v_mul_i32_i24", &BinaryLanes32<MulI24>},
    {"v_mul_hi_i32_i24", &BinaryLanes32<MulHiI24>},
    {"v_mad_u32_u24", &Ternary16<MadU24>},
    {"v_mad_i32_i24", &Ternary16<MadI24>},
    {"v_dot4c_i32_i8", &Dot4cI32I8},
    {"v_cvt_f32_ubyte0", &UnaryLanes32<CvtF32Ubyte<0>, false>},
    {"v_cvt_f32_ubyte1", &UnaryLanes32<CvtF32Ubyte<1>, false>},
    {"v_cvt_f32_ubyte2", &UnaryLanes32<CvtF32Ubyte<2>, false>},
    {"v_cvt_f32_ubyte3", &UnaryLanes32<CvtF32Ubyte<3>, false>},
};

}  // namespace

std::span<const OpSemantics> ValuNarrowIntSemantics() { return kValuNarrowInt; }

}  // namespace kiln::hsa_sim::isa
