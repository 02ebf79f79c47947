// The f64 group (drivers/hip/sim/isa/valu_f64.cc, the f64 compares of vopc.cc) and v_bfi_b32,
// v_mul_legacy_f32, s_bitset0/1_b32 and s_abs_i32, which the StableHLO conformance files (compare,
// maximum, minimum, remainder, round, pow, abs) reach on the code object: isa/f64_and_bits.s,
// each row worked out by hand from the CDNA3 ISA's descriptions.
#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

using HsaSimF64Test = IsaTest;

TEST_F(HsaSimF64Test, ComparesMinMaxAddAndBitOperations) {
  std::vector<uint32_t> out = RunWithOut("f64_and_bits", "f64_and_bits.kd", 64, 12 * 64);
  constexpr uint32_t kOne = 0x3ff00000, kSixtyFour = 0x40500000, kMinusTwo = 0xc0000000, kNan = 0x7ff80000;
  constexpr uint32_t kThirtyTwo = 0x40400000;
  for (uint32_t l = 0; l < 64; ++l) {
    SCOPED_TRACE(testing::Message() << "lane " << l);
    auto row = [&](int r) { return out[64 * r + l]; };
    uint32_t quarter = l / 16;  // 1.0, 64.0, -2.0, NaN
    EXPECT_EQ(row(0), quarter == 0 || quarter == 2 ? 1u : 0u) << "v_cmp_gt_f64 32 > x (false on NaN)";
    EXPECT_EQ(row(1), quarter == 1 ? 0u : 1u) << "v_cmp_nge_f64: !(x >= 32), true on NaN";
    const uint32_t max[4] = {kThirtyTwo, kSixtyFour, kThirtyTwo, kThirtyTwo};
    const uint32_t min[4] = {kOne, kThirtyTwo, kMinusTwo, kThirtyTwo};
    const uint32_t sum[4] = {0x40408000 /* 33 */, 0x40580000 /* 96 */, 0x403e0000 /* 30 */, kNan};
    EXPECT_EQ(row(2), max[quarter]) << "v_max_f64 (a quiet NaN gives the other operand)";
    EXPECT_EQ(row(3), min[quarter]) << "v_min_f64";
    EXPECT_EQ(row(4), sum[quarter]) << "v_add_f64";
    EXPECT_EQ(row(5), quarter == 2 ? 1u : 0u) << "v_cmp_eq_f64 with NEG on a VGPR pair and the constant 2.0";
    EXPECT_EQ(row(6), (l & 0xff00ff00u) | (0x12345678u & 0x00ff00ffu)) << "v_bfi_b32";
    EXPECT_EQ(row(7), l == 0 ? 0u : 0x7f800000u) << "v_mul_legacy_f32: 0 * inf = 0";
    EXPECT_EQ(row(8), 0x7fffffffu) << "s_bitset0_b32 bit 31";
    EXPECT_EQ(row(9), 0x200u) << "s_bitset1_b32 bit 41 & 31";
    EXPECT_EQ(row(10), 7u) << "s_abs_i32 -7, SCC set";
    EXPECT_EQ(row(11), 0x80000000u) << "s_abs_i32 of the most negative value";
  }
}

}  // namespace
}  // namespace kiln::hsa_sim_test
