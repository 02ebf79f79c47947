// DPP on the code-object executor (drivers/hip/sim/isa/dpp.cc): isa/dpp.s runs the forms LLVM's
// wave reductions and scans use (row_shr with bound_ctrl, row_bcast:15/31 under row masks,
// quad_perm) and the other gfx9 controls, with EXEC, ROW_MASK, BANK_MASK and BOUND_CTRL edge
// cases; every row of results is computed here from the CDNA3 ISA's description of DPP_CTRL.
#include <bit>

#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

using HsaSimDppTest = IsaTest;

TEST_F(HsaSimDppTest, RowShiftsBroadcastsAndPermutesReadTheLanesTheControlNames) {
  std::vector<uint32_t> out = RunWithOut("dpp", "dpp.kd", 64, 10 * 64);
  constexpr uint32_t kDead = 0xdead;
  for (uint32_t l = 0; l < 64; ++l) {
    SCOPED_TRACE(testing::Message() << "lane " << l);
    auto row = [&](int r) { return out[64 * r + l]; };
    uint32_t in_row = l % 16, row_base = l - in_row;
    EXPECT_EQ(row(0), (l + 1) * (l + 2) / 2) << "the wave's inclusive scan of lane + 1";
    EXPECT_EQ(row(1), (l & ~3u) | (3 - (l & 3))) << "quad_perm:[3,2,1,0]";
    EXPECT_EQ(row(2), in_row == 0 ? kDead : l - 1) << "row_shr:1 without bound_ctrl: no write at a row's start";
    uint32_t shr_exec = l == 5 ? kDead : l == 6 || in_row == 0 ? 0 : l - 1;
    EXPECT_EQ(row(3), shr_exec) << "row_shr:1 with bound_ctrl, lane 5 off in EXEC";
    bool writes = (l / 16 == 0 || l / 16 == 2) && in_row < 8;
    EXPECT_EQ(row(4), writes ? l : kDead) << "row_mask 0x5, bank_mask 0x3";
    float rotated = static_cast<float>(row_base + (in_row + 12) % 16);  // lane - 4 mod 16 in the row
    EXPECT_EQ(row(5), std::bit_cast<uint32_t>(0.5f - rotated)) << "row_ror:4 of -v6";
    EXPECT_EQ(row(6), row_base + 15 - in_row) << "row_mirror";
    EXPECT_EQ(row(7), (l & ~7u) + 7 - (l & 7)) << "row_half_mirror";
    EXPECT_EQ(row(8), l == 0 ? 0 : l - 1) << "wave_shr:1 with bound_ctrl";
    EXPECT_EQ(row(9), (l + 1) % 64) << "wave_rol:1";
  }
}

}  // namespace
}  // namespace kiln::hsa_sim_test
