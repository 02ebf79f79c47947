// Scalar ALU: SOP1, SOP2, SOPK and SOPC instructions (CDNA3 ISA, "Scalar ALU Operations" and
// the SOP1/SOP2/SOPK/SOPC opcode tables). Operands: dst[0] the SDST, src[0]/src[1] SSRC0/SSRC1,
// imm[0] the SOPK simm16. SCC is written exactly where the ISA's description says so.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

uint32_t S0(const Wave& w, const Instruction& i) { return Scalar32(w, i.src[0]); }
uint32_t S1(const Wave& w, const Instruction& i) { return Scalar32(w, i.src[1]); }
uint64_t S0x(const Wave& w, const Instruction& i) { return Scalar64(w, i.src[0]); }
uint64_t S1x(const Wave& w, const Instruction& i) { return Scalar64(w, i.src[1]); }
void D(Wave& w, const Instruction& i, uint32_t v) { SetScalar32(w, i.dst[0], v); }
void Dx(Wave& w, const Instruction& i, uint64_t v) { SetScalar64(w, i.dst[0], v); }

// ---- SOP1 ----
void SMovB32(Wave& w, const Instruction& i) { D(w, i, S0(w, i)); }
void SMovB64(Wave& w, const Instruction& i) { Dx(w, i, S0x(w, i)); }
void SCmovB32(Wave& w, const Instruction& i) {
  if (w.scc) D(w, i, S0(w, i));
}
void SCmovB64(Wave& w, const Instruction& i) {
  if (w.scc) Dx(w, i, S0x(w, i));
}
void SNotB32(Wave& w, const Instruction& i) {
  uint32_t r = ~S0(w, i);
  D(w, i, r);
  w.scc = r != 0;
}
void SNotB64(Wave& w, const Instruction& i) {
  uint64_t r = ~S0x(w, i);
  Dx(w, i, r);
  w.scc = r != 0;
}
// S_ABS_I32: D = |S0| as a signed integer (0x80000000 stays 0x80000000); SCC = D != 0.
void SAbsI32(Wave& w, const Instruction& i) {
  uint32_t s0 = S0(w, i), r = static_cast<int32_t>(s0) < 0 ? 0u - s0 : s0;
  D(w, i, r);
  w.scc = r != 0;
}
// S_*_SAVEEXEC_B64: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0. S0 is read before D is
// written, as the ISA's pseudo-code orders it.
template <uint64_t (*F)(uint64_t s0, uint64_t exec)>
void SSaveexec(Wave& w, const Instruction& i) {
  uint64_t s0 = S0x(w, i), exec = w.exec();
  Dx(w, i, exec);
  uint64_t next = F(s0, exec);
  w.SetSgpr64(kExecLo, next);
  w.scc = next != 0;
}
uint64_t AndExec(uint64_t s0, uint64_t exec) { return s0 & exec; }
uint64_t OrExec(uint64_t s0, uint64_t exec) { return s0 | exec; }
uint64_t XorExec(uint64_t s0, uint64_t exec) { return s0 ^ exec; }
uint64_t Andn2Exec(uint64_t s0, uint64_t exec) { return s0 & ~exec; }
uint64_t Orn2Exec(uint64_t s0, uint64_t exec) { return s0 | ~exec; }

// ---- SOP2: arithmetic ----
void SAddU32(Wave& w, const Instruction& i) {
  uint64_t r = uint64_t{S0(w, i)} + S1(w, i);
  D(w, i, static_cast<uint32_t>(r));
  w.scc = r >> 32;  // carry out
}
void SAddcU32(Wave& w, const Instruction& i) {
  uint64_t r = uint64_t{S0(w, i)} + S1(w, i) + (w.scc ? 1 : 0);
  D(w, i, static_cast<uint32_t>(r));
  w.scc = r >> 32;
}
void SSubU32(Wave& w, const Instruction& i) {
  uint32_t a = S0(w, i), b = S1(w, i);
  D(w, i, a - b);
  w.scc = b > a;  // borrow
}
void SSubbU32(Wave& w, const Instruction& i) {
  uint32_t a = S0(w, i), b = S1(w, i), c = w.scc ? 1 : 0;
  D(w, i, a - b - c);
  w.scc = uint64_t{b} + c > a;
}
void SAddI32(Wave& w, const Instruction& i) {
  int32_t a = static_cast<int32_t>(S0(w, i)), b = static_cast<int32_t>(S1(w, i)), r;
  w.scc = __builtin_add_overflow(a, b, &r);  // signed overflow
  D(w, i, static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
void SSubI32(Wave& w, const Instruction& i) {
  int32_t a = static_cast<int32_t>(S0(w, i)), b = static_cast<int32_t>(S1(w, i)), r;
  w.scc = __builtin_sub_overflow(a, b, &r);
  D(w, i, static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
void SMulI32(Wave& w, const Instruction& i) { D(w, i, S0(w, i) * S1(w, i)); }  // SCC unchanged
void SMulHiU32(Wave& w, const Instruction& i) { D(w, i, static_cast<uint32_t>((uint64_t{S0(w, i)} * S1(w, i)) >> 32)); }
void SMulHiI32(Wave& w, const Instruction& i) {
  int64_t p = int64_t{static_cast<int32_t>(S0(w, i))} * static_cast<int32_t>(S1(w, i));
  D(w, i, static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32));
}
void SMinU32(Wave& w, const Instruction& i) {
  uint32_t a = S0(w, i), b = S1(w, i);
  w.scc = a < b;
  D(w, i, w.scc ? a : b);
}
void SMaxU32(Wave& w, const Instruction& i) {
  uint32_t a = S0(w, i), b = S1(w, i);
  w.scc = a > b;
  D(w, i, w.scc ? a : b);
}
void SMinI32(Wave& w, const Instruction& i) {
  int32_t a = static_cast<int32_t>(S0(w, i)), b = static_cast<int32_t>(S1(w, i));
  w.scc = a < b;
  D(w, i, static_cast<uint32_t>(w.scc ? a : b));
}
void SMaxI32(Wave& w, const Instruction& i) {
  int32_t a = static_cast<int32_t>(S0(w, i)), b = static_cast<int32_t>(S1(w, i));
  w.scc = a > b;
  D(w, i, static_cast<uint32_t>(w.scc ? a : b));
}
void SCselectB32(Wave& w, const Instruction& i) { D(w, i, w.scc ? S0(w, i) : S1(w, i)); }
void SCselectB64(Wave& w, const Instruction& i) { Dx(w, i, w.scc ? S0x(w, i) : S1x(w, i)); }

// ---- SOP2: bitwise and shifts; SCC = (D != 0) ----
template <typename T, T (*F)(T, T)>
void SBitwise(Wave& w, const Instruction& i) {
  T r;
  if constexpr (sizeof(T) == 4) {
    r = F(S0(w, i), S1(w, i));
    D(w, i, r);
  } else {
    r = F(S0x(w, i), S1x(w, i));
    Dx(w, i, r);
  }
  w.scc = r != 0;
}
template <typename T>
T And(T a, T b) {
  return a & b;
}
template <typename T>
T Or(T a, T b) {
  return a | b;
}
template <typename T>
T Xor(T a, T b) {
  return a ^ b;
}
template <typename T>
T Andn2(T a, T b) {
  return a & ~b;
}
template <typename T>
T Orn2(T a, T b) {
  return a | ~b;
}
template <typename T>
T Nand(T a, T b) {
  return ~(a & b);
}
template <typename T>
T Nor(T a, T b) {
  return ~(a | b);
}
template <typename T>
T Xnor(T a, T b) {
  return ~(a ^ b);
}
uint32_t Lshl32(uint32_t a, uint32_t b) { return a << (b & 31); }
uint32_t Lshr32(uint32_t a, uint32_t b) { return a >> (b & 31); }
uint32_t Ashr32(uint32_t a, uint32_t b) { return static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)); }
// 64-bit shifts take their amount from S1[5:0] of a 32-bit S1.
void SLshlB64(Wave& w, const Instruction& i) {
  uint64_t r = S0x(w, i) << (S1(w, i) & 63);
  Dx(w, i, r);
  w.scc = r != 0;
}
void SLshrB64(Wave& w, const Instruction& i) {
  uint64_t r = S0x(w, i) >> (S1(w, i) & 63);
  Dx(w, i, r);
  w.scc = r != 0;
}
void SAshrI64(Wave& w, const Instruction& i) {
  uint64_t r = static_cast<uint64_t>(static_cast<int64_t>(S0x(w, i)) >> (S1(w, i) & 63));
  Dx(w, i, r);
  w.scc = r != 0;
}
// S_BFE_U32: S1[4:0] is the offset, S1[22:16] the width.
void SBfeU32(Wave& w, const Instruction& i) {
  uint32_t s1 = S1(w, i), offset = s1 & 31, width = (s1 >> 16) & 0x7f;
  uint32_t r = width == 0 ? 0 : width >= 32 ? S0(w, i) >> offset : (S0(w, i) >> offset) & ((1u << width) - 1);
  D(w, i, r);
  w.scc = r != 0;
}
// S_BFE_I32: as S_BFE_U32, sign-extended from the field's top bit.
void SBfeI32(Wave& w, const Instruction& i) {
  uint32_t s1 = S1(w, i), width = (s1 >> 16) & 0x7f;
  uint32_t r = SignedBitfield(S0(w, i), s1 & 31, std::min<uint32_t>(width, 32));
  D(w, i, r);
  w.scc = r != 0;
}
// S_BREV_B32, S_SEXT_I32_I8/I16 (SOP1): SCC is unchanged.
void SBrevB32(Wave& w, const Instruction& i) { D(w, i, ReverseBits32(S0(w, i))); }
template <typename T>
void SSext(Wave& w, const Instruction& i) { D(w, i, static_cast<uint32_t>(static_cast<int32_t>(static_cast<T>(S0(w, i))))); }

// ---- SOPK ----
void SMovkI32(Wave& w, const Instruction& i) { D(w, i, static_cast<uint32_t>(static_cast<int16_t>(i.imm[0]))); }
void SAddkI32(Wave& w, const Instruction& i) {
  int32_t a = static_cast<int32_t>(w.s[i.dst[0].index]), b = static_cast<int16_t>(i.imm[0]), r;
  w.scc = __builtin_add_overflow(a, b, &r);
  D(w, i, static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
void SMulkI32(Wave& w, const Instruction& i) {
  D(w, i, w.s[i.dst[0].index] * static_cast<uint32_t>(static_cast<int16_t>(i.imm[0])));
}

// S_FLBIT_I32_B32/B64: the number of zeros above the most significant 1 (counting from bit
// 31/63), or -1 when S0 is 0. S_FF1_I32_B32/B64: the index of the least significant 1, or -1.
// S_BCNT1_I32_B32/B64: the number of ones; SCC = result != 0. The others leave SCC alone.
void SFlbitB32(Wave& w, const Instruction& i) {
  uint32_t a = S0(w, i);
  D(w, i, a == 0 ? UINT32_MAX : static_cast<uint32_t>(__builtin_clz(a)));
}
void SFlbitB64(Wave& w, const Instruction& i) {
  uint64_t a = S0x(w, i);
  D(w, i, a == 0 ? UINT32_MAX : static_cast<uint32_t>(__builtin_clzll(a)));
}
void SFf1B32(Wave& w, const Instruction& i) {
  uint32_t a = S0(w, i);
  D(w, i, a == 0 ? UINT32_MAX : static_cast<uint32_t>(__builtin_ctz(a)));
}
void SFf1B64(Wave& w, const Instruction& i) {
  uint64_t a = S0x(w, i);
  D(w, i, a == 0 ? UINT32_MAX : static_cast<uint32_t>(__builtin_ctzll(a)));
}
void SBcnt1B32(Wave& w, const Instruction& i) {
  uint32_t r = static_cast<uint32_t>(__builtin_popcount(S0(w, i)));
  D(w, i, r);
  w.scc = r != 0;
}
void SBcnt1B64(Wave& w, const Instruction& i) {
  uint32_t r = static_cast<uint32_t>(__builtin_popcountll(S0x(w, i)));
  D(w, i, r);
  w.scc = r != 0;
}

// S_CMPK_*: SCC = SSRC0 op simm16, sign-extended for the _i32 forms, zero-extended for _u32.
template <typename T, bool (*F)(T, T)>
void SCmpk(Wave& w, const Instruction& i) {
  uint32_t k = static_cast<uint32_t>(i.imm[0]) & 0xffff;
  if constexpr (std::is_signed_v<T>) {
    w.scc = F(static_cast<T>(S0(w, i)), static_cast<T>(static_cast<int16_t>(k)));
  } else {
    w.scc = F(static_cast<T>(S0(w, i)), static_cast<T>(k));
  }
}

// ---- SOPC: SCC = S0 op S1 ----
template <typename T, bool (*F)(T, T)>
void SCmp(Wave& w, const Instruction& i) {
  if constexpr (sizeof(T) == 8) {
    w.scc = F(static_cast<T>(S0x(w, i)), static_cast<T>(S1x(w, i)));
  } else {
    w.scc = F(static_cast<T>(S0(w, i)), static_cast<T>(S1(w, i)));
  }
}
template <typename T>
bool Eq(T a, T b) {
  return a == b;
}
template <typename T>
bool Lg(T a, T b) {
  return a != b;
}
template <typename T>
bool Gt(T a, T b) {
  return a > b;
}
template <typename T>
bool Ge(T a, T b) {
  return a >= b;
}
template <typename T>
bool Lt(T a, T b) {
  return a < b;
}
template <typename T>
bool Le(T a, T b) {
  return a <= b;
}
// S_BITCMP0/1_B32: SCC = S0[S1[4:0]] == 0 / 1.
void SBitcmp0B32(Wave& w, const Instruction& i) { w.scc = ((S0(w, i) >> (S1(w, i) & 31)) & 1) == 0; }
void SBitcmp1B32(Wave& w, const Instruction& i) { w.scc = ((S0(w, i) >> (S1(w, i) & 31)) & 1) == 1; }
// S_BITSET0/1_B32 and _B64 (SOP1): D[S0[4:0]] (D[S0[5:0]]) = 0 / 1, the other bits of D kept;
// SCC unchanged.
template <bool kSet>
void SBitsetB32(Wave& w, const Instruction& i) {
  uint32_t bit = uint32_t{1} << (S0(w, i) & 31), d = Scalar32(w, i.dst[0]);
  D(w, i, kSet ? d | bit : d & ~bit);
}
template <bool kSet>
void SBitsetB64(Wave& w, const Instruction& i) {
  uint64_t bit = uint64_t{1} << (S0(w, i) & 63), d = Scalar64(w, i.dst[0]);
  Dx(w, i, kSet ? d | bit : d & ~bit);
}

constexpr OpSemantics kSalu[] = {
    {"s_mov_b32", &SMovB32},
    {"s_mov_b64", &SMovB64},
    {"s_cmov_b32", &SCmovB32},
    {"s_cmov_b64", &SCmovB64},
    {"s_not_b32", &SNotB32},
    {"s_not_b64", &SNotB64},
    {"s_abs_i32", &SAbsI32},
    {"s_and_saveexec_b64", &SSaveexec<AndExec>},
    {"s_or_saveexec_b64", &SSaveexec<OrExec>},
    {"s_xor_saveexec_b64", &SSaveexec<XorExec>},
    {"s_andn2_saveexec_b64", &SSaveexec<Andn2Exec>},
    {"s_orn2_saveexec_b64", &SSaveexec<Orn2Exec>},
    {"s_add_u32", &SAddU32},
    {"s_addc_u32", &SAddcU32},
    {"s_sub_u32", &SSubU32},
    {"s_subb_u32", &SSubbU32},
    {"s_add_i32", &SAddI32},
    {"s_sub_i32", &SSubI32},
    {"s_mul_i32", &SMulI32},
    {"s_mul_hi_u32", &SMulHiU32},
    {"s_mul_hi_i32", &SMulHiI32},
    {"s_flbit_i32_b32", &SFlbitB32},
    {"s_flbit_i32_b64", &SFlbitB64},
    {"s_ff1_i32_b32", &SFf1B32},
    {"s_ff1_i32_b64", &SFf1B64},
    {"s_bcnt1_i32_b32", &SBcnt1B32},
    {"s_bcnt1_i32_b64", &SBcnt1B64},
    {"s_min_u32", &SMinU32},
    {"s_max_u32", &SMaxU32},
    {"s_min_i32", &SMinI32},
    {"s_max_i32", &SMaxI32},
    {"s_cselect_b32", &SCselectB32},
    {"s_cselect_b64", &SCselectB64},
    {"s_and_b32", &SBitwise<uint32_t, And<uint32_t>>},
    {"s_and_b64", &SBitwise<uint64_t, And<uint64_t>>},
    {"s_or_b32", &SBitwise<uint32_t, Or<uint32_t>>},
    {"s_or_b64", &SBitwise<uint64_t, Or<uint64_t>>},
    {"s_xor_b32", &SBitwise<uint32_t, Xor<uint32_t>>},
    {"s_xor_b64", &SBitwise<uint64_t, Xor<uint64_t>>},
    {"s_andn2_b32", &SBitwise<uint32_t, Andn2<uint32_t>>},
    {"s_andn2_b64", &SBitwise<uint64_t, Andn2<uint64_t>>},
    {"s_orn2_b32", &SBitwise<uint32_t, Orn2<uint32_t>>},
    {"s_orn2_b64", &SBitwise<uint64_t, Orn2<uint64_t>>},
    {"s_nand_b32", &SBitwise<uint32_t, Nand<uint32_t>>},
    {"s_nand_b64", &SBitwise<uint64_t, Nand<uint64_t>>},
    {"s_nor_b32", &SBitwise<uint32_t, Nor<uint32_t>>},
    {"s_nor_b64", &SBitwise<uint64_t, Nor<uint64_t>>},
    {"s_xnor_b32", &SBitwise<uint32_t, Xnor<uint32_t>>},
    {"s_xnor_b64", &SBitwise<uint64_t, Xnor<uint64_t>>},
    {"s_lshl_b32", &SBitwise<uint32_t, Lshl32>},
    {"s_lshr_b32", &SBitwise<uint32_t, Lshr32>},
    {"s_ashr_i32", &SBitwise<uint32_t, Ashr32>},
    {"s_lshl_b64", &SLshlB64},
    {"s_lshr_b64", &SLshrB64},
    {"s_ashr_i64", &SAshrI64},
    {"s_bfe_u32", &SBfeU32},
    {"s_bfe_i32", &SBfeI32},
    {"s_brev_b32", &SBrevB32},
    {"s_sext_i32_i8", &SSext<int8_t>},
    {"s_sext_i32_i16", &SSext<int16_t>},
    {"s_movk_i32", &SMovkI32},
    {"s_addk_i32", &SAddkI32},
    {"s_mulk_i32", &SMulkI32},
    {"s_cmp_eq_i32", &SCmp<int32_t, Eq<int32_t>>},
    {"s_cmp_lg_i32", &SCmp<int32_t, Lg<int32_t>>},
    {"s_cmp_gt_i32", &SCmp<int32_t, Gt<int32_t>>},
    {"s_cmp_ge_i32", &SCmp<int32_t, Ge<int32_t>>},
    {"s_cmp_lt_i32", &SCmp<int32_t, Lt<int32_t>>},
    {"s_cmp_le_i32", &SCmp<int32_t, Le<int32_t>>},
    {"s_cmp_eq_u32", &SCmp<uint32_t, Eq<uint32_t>>},
    {"s_cmp_lg_u32", &SCmp<uint32_t, Lg<uint32_t>>},
    {"s_cmp_gt_u32", &SCmp<uint32_t, Gt<uint32_t>>},
    {"s_cmp_ge_u32", &SCmp<uint32_t, Ge<uint32_t>>},
    {"s_cmp_lt_u32", &SCmp<uint32_t, Lt<uint32_t>>},
    {"s_cmp_le_u32", &SCmp<uint32_t, Le<uint32_t>>},
    {"s_cmp_eq_u64", &SCmp<uint64_t, Eq<uint64_t>>},
    {"s_cmp_lg_u64", &SCmp<uint64_t, Lg<uint64_t>>},
    {"s_cmpk_eq_i32", &SCmpk<int32_t, Eq<int32_t>>},
    {"s_cmpk_eq_u32", &SCmpk<uint32_t, Eq<uint32_t>>},
    {"s_cmpk_lg_i32", &SCmpk<int32_t, Lg<int32_t>>},
    {"s_cmpk_lg_u32", &SCmpk<uint32_t, Lg<uint32_t>>},
    {"s_cmpk_gt_i32", &SCmpk<int32_t, Gt<int32_t>>},
    {"s_cmpk_gt_u32", &SCmpk<uint32_t, Gt<uint32_t>>},
    {"s_cmpk_ge_i32", &SCmpk<int32_t, Ge<int32_t>>},
    {"s_cmpk_ge_u32", &SCmpk<uint32_t, Ge<uint32_t>>},
    {"s_cmpk_lt_i32", &SCmpk<int32_t, Lt<int32_t>>},
    {"s_cmpk_lt_u32", &SCmpk<uint32_t, Lt<uint32_t>>},
    {"s_cmpk_le_i32", &SCmpk<int32_t, Le<int32_t>>},
    {"s_cmpk_le_u32", &SCmpk<uint32_t, Le<uint32_t>>},
    {"s_bitcmp0_b32", &SBitcmp0B32},
    {"s_bitcmp1_b32", &SBitcmp1B32},
    {"s_bitset0_b32", &SBitsetB32<false>},
    {"s_bitset1_b32", &SBitsetB32<true>},
    {"s_bitset0_b64", &SBitsetB64<false>},
    {"s_bitset1_b64", &SBitsetB64<true>},
};

}  // namespace

std::span<const OpSemantics> SaluSemantics() { return kSalu; }

}  // namespace kiln::hsa_sim::isa
