// Vector ALU, integer and bit operations (CDNA3 ISA, "Vector ALU Operations" and the
// VOP1/VOP2/VOP3 opcode tables). Each lane of EXEC computes; other lanes keep their values.
// Carry-outs go to an SGPR pair (VCC for the _e32 forms) with 0 in the bits of inactive
// lanes, as the ISA specifies for VALU results written to SGPRs. Operands: dst[0] VDST,
// dst[1] the carry-out SDST, src[0..2] SRC0..SRC2, src[2] the carry-in, imm[0] VOP3 CLAMP.
#include <algorithm>
#include <cstdint>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

bool Clamp(const Instruction& i) { return i.num_imm > 0 && i.imm[0] != 0; }


uint32_t Mov(uint32_t a) { return a; }
uint32_t Not(uint32_t a) { return ~a; }
uint32_t And(uint32_t a, uint32_t b) { return a & b; }
uint32_t Or(uint32_t a, uint32_t b) { return a | b; }
uint32_t Xor(uint32_t a, uint32_t b) { return a ^ b; }
// The "rev" shifts take the amount from SRC0 (bits 4:0) and shift SRC1.
uint32_t Lshlrev(uint32_t a, uint32_t b) { return b << (a & 31); }
uint32_t Lshrrev(uint32_t a, uint32_t b) { return b >> (a & 31); }
uint32_t Ashrrev(uint32_t a, uint32_t b) { return static_cast<uint32_t>(static_cast<int32_t>(b) >> (a & 31)); }
uint32_t MulLo(uint32_t a, uint32_t b) { return a * b; }
uint32_t MulHiU(uint32_t a, uint32_t b) { return static_cast<uint32_t>((uint64_t{a} * b) >> 32); }
uint32_t MulHiI(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(static_cast<uint64_t>(int64_t{static_cast<int32_t>(a)} * static_cast<int32_t>(b)) >> 32);
}
uint32_t MinU(uint32_t a, uint32_t b) { return a < b ? a : b; }
uint32_t MaxU(uint32_t a, uint32_t b) { return a > b ? a : b; }
uint32_t MinI(uint32_t a, uint32_t b) { return static_cast<int32_t>(a) < static_cast<int32_t>(b) ? a : b; }
uint32_t MaxI(uint32_t a, uint32_t b) { return static_cast<int32_t>(a) > static_cast<int32_t>(b) ? a : b; }
// V_BFE_U32: SRC1[4:0] is the offset, SRC2[4:0] the width.
uint32_t BfeU(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t offset = b & 31, width = c & 31;
  return width == 0 ? 0 : (a >> offset) & ((1u << width) - 1);
}
// V_BFE_I32: as V_BFE_U32, sign-extended from the field's top bit.
uint32_t BfeI(uint32_t a, uint32_t b, uint32_t c) { return SignedBitfield(a, b & 31, c & 31); }
// V_ALIGNBIT_B32 / V_ALIGNBYTE_B32: bits 31:0 of {SRC0, SRC1} >> SRC2[4:0] (bytes: 8 * SRC2[1:0]).
uint32_t Alignbit(uint32_t a, uint32_t b, uint32_t c) {
  return static_cast<uint32_t>(((uint64_t{a} << 32) | b) >> (c & 31));
}
uint32_t Alignbyte(uint32_t a, uint32_t b, uint32_t c) {
  return static_cast<uint32_t>(((uint64_t{a} << 32) | b) >> (8 * (c & 3)));
}
uint32_t Add3(uint32_t a, uint32_t b, uint32_t c) { return a + b + c; }
// V_BFI_B32: bitfield insert, D = (S0 & S1) | (~S0 & S2): S1's bits where S0 has ones.
uint32_t Bfi(uint32_t a, uint32_t b, uint32_t c) { return (a & b) | (~a & c); }
uint32_t LshlAdd(uint32_t a, uint32_t b, uint32_t c) { return (a << (b & 31)) + c; }
uint32_t AddLshl(uint32_t a, uint32_t b, uint32_t c) { return (a + b) << (c & 31); }
uint32_t LshlOr(uint32_t a, uint32_t b, uint32_t c) { return (a << (b & 31)) | c; }
uint32_t AndOr(uint32_t a, uint32_t b, uint32_t c) { return (a & b) | c; }
uint32_t Or3(uint32_t a, uint32_t b, uint32_t c) { return a | b | c; }
uint32_t Xad(uint32_t a, uint32_t b, uint32_t c) { return (a ^ b) + c; }
uint32_t Bfrev(uint32_t a) { return ReverseBits32(a); }
// V_FFBH_U32: leading zeros; V_FFBH_I32: leading bits equal to the sign bit; V_FFBL_B32:
// trailing zeros. All give 0xffffffff when no bit qualifies.
uint32_t FfbhU(uint32_t a) { return a == 0 ? ~0u : static_cast<uint32_t>(__builtin_clz(a)); }
uint32_t FfbhI(uint32_t a) { return FfbhU(static_cast<int32_t>(a) < 0 ? ~a : a); }
uint32_t Ffbl(uint32_t a) { return a == 0 ? ~0u : static_cast<uint32_t>(__builtin_ctz(a)); }
// V_MIN3/V_MAX3/V_MED3 of three 32-bit integers (med3: the middle one).
template <typename T>
uint32_t Max3(uint32_t a, uint32_t b, uint32_t c) {
  T x = static_cast<T>(a), y = static_cast<T>(b), z = static_cast<T>(c);
  return static_cast<uint32_t>(std::max(x, std::max(y, z)));
}
template <typename T>
uint32_t Min3(uint32_t a, uint32_t b, uint32_t c) {
  T x = static_cast<T>(a), y = static_cast<T>(b), z = static_cast<T>(c);
  return static_cast<uint32_t>(std::min(x, std::min(y, z)));
}
template <typename T>
uint32_t Med3(uint32_t a, uint32_t b, uint32_t c) {
  T x = static_cast<T>(a), y = static_cast<T>(b), z = static_cast<T>(c);
  return static_cast<uint32_t>(std::max(std::min(x, y), std::min(std::max(x, y), z)));
}
// V_PERM_B32: byte k of D is selected by byte k of SRC2 from the 8 bytes {SRC0, SRC1}
// (SRC1 is bytes 0-3, SRC0 bytes 4-7); selectors 8-11 replicate a sign bit (of bytes 1, 3, 5,
// 7), 12 gives 0x00 and 13 and above 0xff.
uint32_t Perm(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t bytes = (uint64_t{a} << 32) | b;
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) {
    uint32_t sel = (c >> (8 * k)) & 0xff, out;
    if (sel < 8) {
      out = static_cast<uint32_t>(bytes >> (8 * sel)) & 0xff;
    } else if (sel < 12) {
      uint32_t source = 2 * (sel - 8) + 1;  // bytes 1, 3, 5, 7
      out = (bytes >> (8 * source + 7)) & 1 ? 0xff : 0x00;
    } else {
      out = sel == 12 ? 0x00 : 0xff;
    }
    r |= out << (8 * k);
  }
  return r;
}

// V_ADD_U32 / V_SUB_U32 / V_SUBREV_U32 (gfx9: no carry-out); VOP3 CLAMP saturates.
template <int kSign, bool kReverse>
void AddNoCarry(Wave& w, const Instruction& i) {
  uint32_t a[kLanes], b[kLanes], r[kLanes];
  Lanes32(w, i.src[kReverse ? 1 : 0], a);
  Lanes32(w, i.src[kReverse ? 0 : 1], b);
  bool clamp = Clamp(i);
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (kSign > 0) {
      uint64_t s = uint64_t{a[l]} + b[l];
      r[l] = clamp && (s >> 32) ? UINT32_MAX : static_cast<uint32_t>(s);
    } else {
      r[l] = clamp && b[l] > a[l] ? 0 : a[l] - b[l];
    }
  }
  WriteLanes32(w, i.dst[0], r, w.exec());
}

void WriteMask(Wave& w, const Operand& dst, uint64_t mask) { w.SetSgpr64(dst.index, mask); }

// V_ADD_CO_U32, V_ADDC_CO_U32, V_SUB_CO_U32, V_SUBB_CO_U32 and their "rev" forms: dst[1]
// gets the carry (add) or borrow (sub) of each active lane; the _c/_b forms add the carry-in
// (subtract the borrow-in) of src[2].
template <int kSign, bool kReverse, bool kCarryIn>
void AddWithCarry(Wave& w, const Instruction& i) {
  if (i.num_dst < 2 || (kCarryIn && i.num_src < 3)) return w.Fail(i, "the carry operands are missing");
  uint32_t a[kLanes], b[kLanes], r[kLanes];
  Lanes32(w, i.src[kReverse ? 1 : 0], a);
  Lanes32(w, i.src[kReverse ? 0 : 1], b);
  uint64_t carry_in = kCarryIn ? Scalar64(w, i.src[2]) : 0;
  uint64_t exec = w.exec(), carry_out = 0;
  for (uint32_t l = 0; l < kLanes; ++l) {
    uint64_t c = (carry_in >> l) & 1;
    uint64_t out;
    if (kSign > 0) {
      uint64_t s = uint64_t{a[l]} + b[l] + c;
      r[l] = static_cast<uint32_t>(s);
      out = s >> 32;
    } else {
      r[l] = a[l] - b[l] - static_cast<uint32_t>(c);
      out = uint64_t{b[l]} + c > a[l] ? 1 : 0;
    }
    carry_out |= (out & (exec >> l) & 1) << l;
  }
  WriteLanes32(w, i.dst[0], r, exec);
  WriteMask(w, i.dst[1], carry_out);
}

// V_LSHLREV_B64 / V_LSHRREV_B64 / V_ASHRREV_I64: SRC0[5:0] shifts the 64-bit SRC1.
template <int kKind>
void Shift64(Wave& w, const Instruction& i) {
  uint32_t a[kLanes];
  uint64_t b[kLanes], r[kLanes];
  Lanes32(w, i.src[0], a);
  Lanes64(w, i.src[1], b);
  for (uint32_t l = 0; l < kLanes; ++l) {
    uint32_t s = a[l] & 63;
    r[l] = kKind == 0 ? b[l] << s : kKind == 1 ? b[l] >> s : static_cast<uint64_t>(static_cast<int64_t>(b[l]) >> s);
  }
  WriteLanes64(w, i.dst[0], r, w.exec());
}

// V_MAD_U64_U32 / V_MAD_I64_I32: {VDST (64 bits), SDST} = SRC0 * SRC1 + SRC2 (64 bits); SDST
// gets each active lane's carry-out of the 64-bit add (unsigned) or its overflow (signed).
template <bool kSigned>
void Mad64(Wave& w, const Instruction& i) {
  if (i.num_dst < 2 || i.num_src < 3) return w.Fail(i, "the operands are missing");
  uint32_t a[kLanes], b[kLanes];
  uint64_t c[kLanes], r[kLanes];
  Lanes32(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  Lanes64(w, i.src[2], c);
  uint64_t exec = w.exec(), carry = 0;
  for (uint32_t l = 0; l < kLanes; ++l) {
    uint64_t out;
    if (kSigned) {
      int64_t p = int64_t{static_cast<int32_t>(a[l])} * static_cast<int32_t>(b[l]), s;
      out = __builtin_add_overflow(p, static_cast<int64_t>(c[l]), &s) ? 1 : 0;
      r[l] = static_cast<uint64_t>(s);
    } else {
      unsigned __int128 s = static_cast<unsigned __int128>(uint64_t{a[l]} * b[l]) + c[l];
      r[l] = static_cast<uint64_t>(s);
      out = static_cast<uint64_t>(s >> 64);
    }
    carry |= (out & (exec >> l) & 1) << l;
  }
  WriteLanes64(w, i.dst[0], r, exec);
  WriteMask(w, i.dst[1], carry);
}

// V_LSHL_ADD_U64 (gfx940+): D (64 bits) = (SRC0 << SRC1[2:0]) + SRC2, SRC0 and SRC2 64-bit.
void LshlAddU64(Wave& w, const Instruction& i) {
  uint64_t a[kLanes], c[kLanes], r[kLanes];
  uint32_t b[kLanes];
  Lanes64(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  Lanes64(w, i.src[2], c);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = (a[l] << (b[l] & 7)) + c[l];
  WriteLanes64(w, i.dst[0], r, w.exec());
}

// V_READFIRSTLANE_B32: the SGPR gets the value of the lowest active lane (lane 0 when EXEC
// is 0, as the ISA says).
void ReadFirstLane(Wave& w, const Instruction& i) {
  uint32_t a[kLanes];
  Lanes32(w, i.src[0], a);
  uint64_t exec = w.exec();
  uint32_t lane = exec ? static_cast<uint32_t>(__builtin_ctzll(exec)) : 0;
  w.s[i.dst[0].index] = a[lane];
}

// V_MOV_B64 (gfx940+): a 64-bit move, VGPR pair, SGPR pair or constant to a VGPR pair.
void MovB64(Wave& w, const Instruction& i) {
  uint64_t a[kLanes];
  Lanes64(w, i.src[0], a);
  WriteLanes64(w, i.dst[0], a, w.exec());
}

constexpr OpSemantics kValuInt[] = {
    {"v_mov_b32", &UnaryLanes32<Mov, false>},
    {"v_not_b32", &UnaryLanes32<Not, false>},
    {"v_and_b32", &BinaryLanes32<And>},
    {"v_or_b32", &BinaryLanes32<Or>},
    {"v_xor_b32", &BinaryLanes32<Xor>},
    {"v_lshlrev_b32", &BinaryLanes32<Lshlrev>},
    {"v_lshrrev_b32", &BinaryLanes32<Lshrrev>},
    {"v_ashrrev_i32", &BinaryLanes32<Ashrrev>},
    {"v_mul_lo_u32", &BinaryLanes32<MulLo>},
    {"v_mul_hi_u32", &BinaryLanes32<MulHiU>},
    {"v_mul_hi_i32", &BinaryLanes32<MulHiI>},
    {"v_min_u32", &BinaryLanes32<MinU>},
    {"v_max_u32", &BinaryLanes32<MaxU>},
    {"v_min_i32", &BinaryLanes32<MinI>},
    {"v_max_i32", &BinaryLanes32<MaxI>},
    {"v_bfe_u32", &TernaryLanes32<BfeU>},
    {"v_bfe_i32", &TernaryLanes32<BfeI>},
    {"v_alignbit_b32", &TernaryLanes32<Alignbit>},
    {"v_bfi_b32", &TernaryLanes32<Bfi>},
    {"v_alignbyte_b32", &TernaryLanes32<Alignbyte>},
    {"v_add3_u32", &TernaryLanes32<Add3>},
    {"v_lshl_add_u32", &TernaryLanes32<LshlAdd>},
    {"v_add_lshl_u32", &TernaryLanes32<AddLshl>},
    {"v_lshl_or_b32", &TernaryLanes32<LshlOr>},
    {"v_and_or_b32", &TernaryLanes32<AndOr>},
    {"v_or3_b32", &TernaryLanes32<Or3>},
    {"v_xad_u32", &TernaryLanes32<Xad>},
    {"v_add_u32", &AddNoCarry<1, false>},
    {"v_sub_u32", &AddNoCarry<-1, false>},
    {"v_subrev_u32", &AddNoCarry<-1, true>},
    {"v_add_co_u32", &AddWithCarry<1, false, false>},
    {"v_sub_co_u32", &AddWithCarry<-1, false, false>},
    {"v_subrev_co_u32", &AddWithCarry<-1, true, false>},
    {"v_addc_co_u32", &AddWithCarry<1, false, true>},
    {"v_subb_co_u32", &AddWithCarry<-1, false, true>},
    {"v_subbrev_co_u32", &AddWithCarry<-1, true, true>},
    {"v_lshlrev_b64", &Shift64<0>},
    {"v_lshrrev_b64", &Shift64<1>},
    {"v_ashrrev_i64", &Shift64<2>},
    {"v_lshl_add_u64", &LshlAddU64},
    {"v_mad_u64_u32", &Mad64<false>},
    {"v_mad_i64_i32", &Mad64<true>},
    {"v_readfirstlane_b32", &ReadFirstLane},
    {"v_mov_b64", &MovB64},
    {"v_bfrev_b32", &UnaryLanes32<Bfrev, false>},
    {"v_ffbh_u32", &UnaryLanes32<FfbhU, false>},
    {"v_ffbh_i32", &UnaryLanes32<FfbhI, false>},
    {"v_ffbl_b32", &UnaryLanes32<Ffbl, false>},
    {"v_max3_i32", &TernaryLanes32<Max3<int32_t>>},
    {"v_max3_u32", &TernaryLanes32<Max3<uint32_t>>},
    {"v_min3_i32", &TernaryLanes32<Min3<int32_t>>},
    {"v_min3_u32", &TernaryLanes32<Min3<uint32_t>>},
    {"v_med3_i32", &TernaryLanes32<Med3<int32_t>>},
    {"v_med3_u32", &TernaryLanes32<Med3<uint32_t>>},
    {"v_perm_b32", &TernaryLanes32<Perm>},
};

}  // namespace

std::span<const OpSemantics> ValuIntSemantics() { return kValuInt; }

}  // namespace kiln::hsa_sim::isa
