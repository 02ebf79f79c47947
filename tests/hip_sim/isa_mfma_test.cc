// MFMA on the code-object executor (drivers/hip/sim/isa/mfma.cc): isa/mfma.s runs
// v_mfma_f32_32x32x8_f16, v_mfma_f32_32x32x2_f32 and v_mfma_i32_32x32x16_i8 on operands this
// test packs by the layout of the CDNA3 ISA ("Matrix Arithmetic Instructions"), and the
// results are compared with a plain triple loop over the logical matrices, plus elements
// worked out by hand.
#include <algorithm>
#include <cmath>

#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

constexpr uint32_t kLaneBytes = 48;

uint16_t F16(int value) {  // small integers: exact in f16 (sign, exponent, 10 mantissa bits)
  if (value == 0) return 0;
  uint16_t sign = value < 0 ? 0x8000 : 0;
  uint32_t m = static_cast<uint32_t>(std::abs(value)), e = 0;
  while ((m >> e) > 1) ++e;
  return static_cast<uint16_t>(sign | ((e + 15) << 10) | (((m << 10) >> e) & 0x3ff));
}
uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// The logical operands.
int AF16(uint32_t i, uint32_t k) { return static_cast<int>((i + 3 * k) % 5) - 2; }  // 32 x 8
int BF16(uint32_t k, uint32_t j) { return static_cast<int>((2 * j + k) % 7) - 3; }  // 8 x 32
float AF32(uint32_t i, uint32_t k) { return (static_cast<float>(i) - 16) * 0.25f + static_cast<float>(k); }
float BF32(uint32_t k, uint32_t j) { return static_cast<float>(j) * 0.5f - 3.0f * static_cast<float>(k); }
int8_t AI8(uint32_t i, uint32_t k) { return static_cast<int8_t>((i * 7 + k * 13) % 256 - 128); }  // 32 x 16
int8_t BI8(uint32_t k, uint32_t j) { return static_cast<int8_t>((j * 11 + k * 5 + 3) % 256 - 128); }

class HsaSimMfmaTest : public IsaTest {};

TEST_F(HsaSimMfmaTest, ThirtyTwoByThirtyTwoShapesFollowTheIsaLayout) {
  // Pack: with M = 32 and 2 lane groups, A[i][k] is element k % E of lane i + 32 * (k / E)
  // and B[k][j] element k % E of lane j + 32 * (k / E), E = K / 2 elements per lane.
  std::vector<uint8_t> in(64 * kLaneBytes, 0);
  auto put16 = [&](uint32_t lane, uint32_t dword, uint32_t half, uint16_t v) {
    std::memcpy(&in[lane * kLaneBytes + 4 * dword + 2 * half], &v, 2);
  };
  for (uint32_t k = 0; k < 8; ++k) {
    for (uint32_t x = 0; x < 32; ++x) {
      uint32_t lane = x + 32 * (k / 4), e = k % 4;
      put16(lane, e / 2, e % 2, F16(AF16(x, k)));
      put16(lane, 2 + e / 2, e % 2, F16(BF16(k, x)));
    }
  }
  for (uint32_t k = 0; k < 2; ++k) {
    for (uint32_t x = 0; x < 32; ++x) {
      float a = AF32(x, k), b = BF32(k, x);
      std::memcpy(&in[(x + 32 * k) * kLaneBytes + 16], &a, 4);
      std::memcpy(&in[(x + 32 * k) * kLaneBytes + 20], &b, 4);
    }
  }
  for (uint32_t k = 0; k < 16; ++k) {
    for (uint32_t x = 0; x < 32; ++x) {
      uint32_t lane = x + 32 * (k / 8);
      in[lane * kLaneBytes + 32 + k % 8] = static_cast<uint8_t>(AI8(x, k));
      in[lane * kLaneBytes + 40 + k % 8] = static_cast<uint8_t>(BI8(k, x));
    }
  }
  hsa_executable_t executable{};
  ASSERT_EQ(LoadIsa("mfma", &executable), HSA_STATUS_SUCCESS) << last_error_;
  void* in_buffer = Allocate(pools_.coarse, in.size());
  std::memcpy(in_buffer, in.data(), in.size());
  constexpr size_t kWords = 48 * 64;
  auto* out = static_cast<uint32_t*>(Allocate(pools_.coarse, kWords * 4));
  for (size_t i = 0; i < kWords; ++i) out[i] = 0xdeadbeef;
  std::vector<uint8_t> kernarg;
  Put(kernarg, 0, in_buffer);
  Put(kernarg, 8, out);
  ASSERT_TRUE(Dispatch(executable, "mfma.kd", kernarg, 64, 64)) << errors_->message;

  // D[i][j] is in register (i / 8) * 4 + i % 4 of lane j + 32 * ((i / 4) % 2).
  auto d = [&](uint32_t first_row, uint32_t i, uint32_t j) {
    return out[64 * (first_row + (i / 8) * 4 + i % 4) + j + 32 * ((i / 4) % 2)];
  };
  // By hand: row 0 of A is -2 1 -1 2 0 -2 1 -1, column 0 of B is -3 -2 -1 0 1 2 3 -3, so
  // D[0][0] = 6 - 2 + 1 + 0 + 0 - 4 + 3 + 3 + 0.5 = 7.5.
  EXPECT_EQ(d(0, 0, 0), Bits(7.5f));
  // f32: D[31][1] = A[31][0] B[0][1] + A[31][1] B[1][1] = 3.75 * 0.5 + 4.75 * -2.5 = -10.
  EXPECT_EQ(d(16, 31, 1), Bits(-10.0f));
  for (uint32_t i = 0; i < 32; ++i) {
    for (uint32_t j = 0; j < 32; ++j) {
      SCOPED_TRACE(testing::Message() << "D[" << i << "][" << j << "]");
      int f16 = 0, i8 = 0;
      for (uint32_t k = 0; k < 8; ++k) f16 += AF16(i, k) * BF16(k, j);
      for (uint32_t k = 0; k < 16; ++k) i8 += AI8(i, k) * BI8(k, j);
      // C = +0 comes first: a sum of two -0 products is +0 (D[12][0]).
      float f32 = (0.0f + AF32(i, 0) * BF32(0, j)) + AF32(i, 1) * BF32(1, j);
      EXPECT_EQ(d(0, i, j), Bits(static_cast<float>(f16) + 0.5f)) << "f16";
      EXPECT_EQ(d(16, i, j), Bits(f32)) << "f32";
      EXPECT_EQ(d(32, i, j), static_cast<uint32_t>(2 * i8)) << "i8, accumulated twice";
    }
  }
}

// isa/extra_ops.s: one row per instruction, each value worked out by hand.
TEST_F(HsaSimMfmaTest, NarrowIntegerScalarAndSpecialFloatGroups) {
  hsa_executable_t executable{};
  ASSERT_EQ(LoadIsa("extra_ops", &executable), HSA_STATUS_SUCCESS) << last_error_;
  constexpr size_t kWords = 10 * 64;
  auto* out = static_cast<uint32_t*>(Allocate(pools_.coarse, kWords * 4));
  for (size_t i = 0; i < kWords; ++i) out[i] = 0xdeadbeef;
  std::vector<uint8_t> kernarg;
  Put(kernarg, 0, out);
  ASSERT_TRUE(Dispatch(executable, "extra.kd", kernarg, 64, 64)) << errors_->message;
  for (uint32_t l = 0; l < 64; ++l) {
    SCOPED_TRACE(testing::Message() << "lane " << l);
    auto row = [&](int r) { return out[64 * r + l]; };
    EXPECT_EQ(row(0), (0xfff0u + l) & 0xffff) << "v_add_u16 wraps and zeroes the high half";
    // Selectors 1, 7, 8, 12 over bytes {f0 de bc 9a 78 56 34 12}: de, 12, sign of de, 00.
    EXPECT_EQ(row(1), 0x00ff12deu) << "v_perm_b32";
    int32_t med = std::max(-5, std::min(static_cast<int32_t>(l) - 32, 7));
    EXPECT_EQ(row(2), static_cast<uint32_t>(med)) << "v_med3_i32";
    EXPECT_EQ(row(3), 3 * l) << "v_mul_u32_u24 ignores bits 31:24";
    EXPECT_EQ(row(4), 0xffffffffu) << "s_mul_hi_i32 -3 * 2^30";
    EXPECT_EQ(row(5), 1u) << "s_cmpk_lt_i32 sign-extends its constant";
    EXPECT_EQ(row(6), 43u) << "s_flbit_i32_b64 of 2^20";
    EXPECT_EQ(row(7), Bits(1.0f / static_cast<float>(l + 1))) << "v_rcp_f32";
    EXPECT_EQ(row(8), Bits(static_cast<float>(3 * (l + 1) + 5))) << "v_fmamk_f32 with its literal";
    EXPECT_EQ(row(9), 0x0c080701u) << "v_mov_b64 high dword";
  }
}

}  // namespace
}  // namespace kiln::hsa_sim_test
