// Vector compares and selects (CDNA3 ISA, VOPC and V_CNDMASK_B32); 16-bit integer and f16
// compares read the low halves of their sources (f16: every f32 predicate, on the exact values). A compare writes one bit
// per lane to its SGPR pair (VCC for the _e32 forms): the predicate for active lanes, 0 for
// inactive ones. V_CMPX_* also write EXEC (gfx9: both the mask and EXEC). F32 and f64 compares apply
// the VOP3 ABS/NEG input modifiers; the "n" predicates (nlt, nge, ...) are true on unordered.
#include <bit>
#include <cmath>
#include <cstdint>

#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/small_float.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

void WriteMask(Wave& w, const Instruction& i, uint64_t mask, bool exec_too) {
  if (i.num_dst > 0) w.SetSgpr64(i.dst[0].index, mask);
  if (exec_too) w.SetSgpr64(kExecLo, mask);
}

template <typename T, bool (*P)(T, T), bool kExecToo>
void Compare(Wave& w, const Instruction& i) {
  uint64_t exec = w.exec(), mask = 0;
  if constexpr (std::is_same_v<T, double>) {
    uint64_t a[kLanes], b[kLanes];
    LanesF64Bits(w, i.src[0], a);
    LanesF64Bits(w, i.src[1], b);
    for (uint32_t l = 0; l < kLanes; ++l) {
      mask |= uint64_t{P(std::bit_cast<double>(a[l]), std::bit_cast<double>(b[l]))} << l;
    }
  } else if constexpr (sizeof(T) == 8) {
    uint64_t a[kLanes], b[kLanes];
    Lanes64(w, i.src[0], a);
    Lanes64(w, i.src[1], b);
    for (uint32_t l = 0; l < kLanes; ++l) mask |= uint64_t{P(static_cast<T>(a[l]), static_cast<T>(b[l]))} << l;
  } else if constexpr (std::is_floating_point_v<T>) {
    uint32_t a[kLanes], b[kLanes];
    LanesF32Bits(w, i.src[0], a);
    LanesF32Bits(w, i.src[1], b);
    for (uint32_t l = 0; l < kLanes; ++l) mask |= uint64_t{P(AsFloat(a[l]), AsFloat(b[l]))} << l;
  } else {
    uint32_t a[kLanes], b[kLanes];
    Lanes32(w, i.src[0], a);
    Lanes32(w, i.src[1], b);
    for (uint32_t l = 0; l < kLanes; ++l) mask |= uint64_t{P(static_cast<T>(a[l]), static_cast<T>(b[l]))} << l;
  }
  WriteMask(w, i, mask & exec, kExecToo);
}

// f16 compares: the sources' low halves (or high with op_sel), exactly as f32.
template <bool (*P)(float, float), bool kExecToo>
void CompareF16(Wave& w, const Instruction& i) {
  float a[kLanes], b[kLanes];
  LanesF16(w, i.src[0], a);
  LanesF16(w, i.src[1], b);
  uint64_t mask = 0;
  for (uint32_t l = 0; l < kLanes; ++l) mask |= uint64_t{P(a[l], b[l])} << l;
  WriteMask(w, i, mask & w.exec(), kExecToo);
}

template <typename T>
bool F(T, T) {
  return false;
}
template <typename T>
bool Lt(T a, T b) {
  return a < b;
}
template <typename T>
bool Eq(T a, T b) {
  return a == b;
}
template <typename T>
bool Le(T a, T b) {
  return a <= b;
}
template <typename T>
bool Gt(T a, T b) {
  return a > b;
}
// Integers: ne; f32: neq (true when unordered).
template <typename T>
bool Ne(T a, T b) {
  return a != b;
}
template <typename T>
bool Ge(T a, T b) {
  return a >= b;
}
template <typename T>
bool T_(T, T) {
  return true;
}
// The float-only predicates, for f32 (and f16 on exact f32 values) and f64.
template <typename T>
bool Lg(T a, T b) {
  return a < b || a > b;
}
template <typename T>
bool O(T a, T b) {
  return !std::isnan(a) && !std::isnan(b);
}
template <typename T>
bool U(T a, T b) {
  return std::isnan(a) || std::isnan(b);
}
template <typename T>
bool Nge(T a, T b) {
  return !(a >= b);
}
template <typename T>
bool Nlg(T a, T b) {
  return !Lg(a, b);
}
template <typename T>
bool Ngt(T a, T b) {
  return !(a > b);
}
template <typename T>
bool Nle(T a, T b) {
  return !(a <= b);
}
template <typename T>
bool Nlt(T a, T b) {
  return !(a < b);
}

// V_CMP_CLASS_F32: true when SRC1 has the bit of SRC0's class (CDNA3 ISA, V_CMP_CLASS_F32):
// 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
// 8 +normal, 9 +inf.
uint32_t ClassBit(float f) {
  bool negative = std::signbit(f);
  switch (std::fpclassify(f)) {
    case FP_NAN:
      return (AsBits(f) & 0x00400000u) ? 1 : 0;
    case FP_INFINITE:
      return negative ? 2 : 9;
    case FP_NORMAL:
      return negative ? 3 : 8;
    case FP_SUBNORMAL:
      return negative ? 4 : 7;
    default:
      return negative ? 5 : 6;
  }
}
template <bool kExecToo>
void CompareClassF32(Wave& w, const Instruction& i) {
  uint32_t a[kLanes], b[kLanes];
  LanesF32Bits(w, i.src[0], a);
  Lanes32(w, i.src[1], b);
  uint64_t mask = 0;
  for (uint32_t l = 0; l < kLanes; ++l) mask |= uint64_t{(b[l] >> ClassBit(AsFloat(a[l]))) & 1} << l;
  WriteMask(w, i, mask & w.exec(), kExecToo);
}

// V_CNDMASK_B32: D = mask[lane] ? SRC1 : SRC0, the mask in src[2] (VCC for _e32). The VOP3
// form applies ABS/NEG to the sources.
void Cndmask(Wave& w, const Instruction& i) {
  if (i.num_src < 3) return w.Fail(i, "the mask operand is missing");
  uint32_t a[kLanes], b[kLanes], r[kLanes];
  LanesF32Bits(w, i.src[0], a);
  LanesF32Bits(w, i.src[1], b);
  uint64_t mask = Scalar64(w, i.src[2]);
  for (uint32_t l = 0; l < kLanes; ++l) r[l] = (mask >> l) & 1 ? b[l] : a[l];
  WriteLanes32(w, i.dst[0], r, w.exec());
}

// clang-format off
#define KILN_INT_COMPARES(T, SUFFIX)                                                                  \
  {"v_cmp_f_" SUFFIX, &Compare<T, F<T>, false>},   {"v_cmpx_f_" SUFFIX, &Compare<T, F<T>, true>},    \
  {"v_cmp_lt_" SUFFIX, &Compare<T, Lt<T>, false>}, {"v_cmpx_lt_" SUFFIX, &Compare<T, Lt<T>, true>},  \
  {"v_cmp_eq_" SUFFIX, &Compare<T, Eq<T>, false>}, {"v_cmpx_eq_" SUFFIX, &Compare<T, Eq<T>, true>},  \
  {"v_cmp_le_" SUFFIX, &Compare<T, Le<T>, false>}, {"v_cmpx_le_" SUFFIX, &Compare<T, Le<T>, true>},  \
  {"v_cmp_gt_" SUFFIX, &Compare<T, Gt<T>, false>}, {"v_cmpx_gt_" SUFFIX, &Compare<T, Gt<T>, true>},  \
  {"v_cmp_ne_" SUFFIX, &Compare<T, Ne<T>, false>}, {"v_cmpx_ne_" SUFFIX, &Compare<T, Ne<T>, true>},  \
  {"v_cmp_ge_" SUFFIX, &Compare<T, Ge<T>, false>}, {"v_cmpx_ge_" SUFFIX, &Compare<T, Ge<T>, true>},  \
  {"v_cmp_t_" SUFFIX, &Compare<T, T_<T>, false>},  {"v_cmpx_t_" SUFFIX, &Compare<T, T_<T>, true>}

// f32, f16 and f64 (CDNA3 ISA, V_CMP_*_F64: the same predicates on 64-bit VGPR/SGPR pairs).
#define KILN_F32_COMPARE(NAME, P) \
  {"v_cmp_" NAME "_f32", &Compare<float, P<float>, false>}, {"v_cmpx_" NAME "_f32", &Compare<float, P<float>, true>}, \
  {"v_cmp_" NAME "_f16", &CompareF16<P<float>, false>}, {"v_cmpx_" NAME "_f16", &CompareF16<P<float>, true>}, \
  {"v_cmp_" NAME "_f64", &Compare<double, P<double>, false>}, {"v_cmpx_" NAME "_f64", &Compare<double, P<double>, true>}
// clang-format on

constexpr OpSemantics kVopc[] = {
    KILN_INT_COMPARES(int32_t, "i32"),  KILN_INT_COMPARES(uint32_t, "u32"), KILN_INT_COMPARES(int64_t, "i64"),
    KILN_INT_COMPARES(uint64_t, "u64"), KILN_INT_COMPARES(int16_t, "i16"), KILN_INT_COMPARES(uint16_t, "u16"), KILN_F32_COMPARE("f", F),    KILN_F32_COMPARE("lt", Lt),
    KILN_F32_COMPARE("eq", Eq),  KILN_F32_COMPARE("le", Le),  KILN_F32_COMPARE("gt", Gt),
    KILN_F32_COMPARE("lg", Lg),         KILN_F32_COMPARE("ge", Ge),  KILN_F32_COMPARE("o", O),
    KILN_F32_COMPARE("u", U),           KILN_F32_COMPARE("nge", Nge),       KILN_F32_COMPARE("nlg", Nlg),
    KILN_F32_COMPARE("ngt", Ngt),       KILN_F32_COMPARE("nle", Nle),       KILN_F32_COMPARE("neq", Ne),
    KILN_F32_COMPARE("nlt", Nlt),       KILN_F32_COMPARE("tru", T_), {"v_cndmask_b32", &Cndmask},
    {"v_cmp_class_f32", &CompareClassF32<false>}, {"v_cmpx_class_f32", &CompareClassF32<true>},
};

#undef KILN_INT_COMPARES
#undef KILN_F32_COMPARE

}  // namespace

std::span<const OpSemantics> VopcSemantics() { return kVopc; }

}  // namespace kiln::hsa_sim::isa
