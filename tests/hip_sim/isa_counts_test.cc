// The executor's per-dispatch counts (drivers/hip/sim/isa/counts.h) through
// kiln_hsa_sim_last_dispatch_counts: instructions by class per wave, and bytes moved, against
// what the hand-written kernels (isa/elementwise.s, isa/lds.s) execute, counted by hand.
#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

class HsaSimCountsTest : public IsaTest {
 protected:
  // Runs isa/lds.s's lds over one 256-work-item workgroup with `group_segment` bytes of LDS and
  // returns the dispatch's counts.
  kiln_hsa_sim_dispatch_counts_t RunLds(uint32_t group_segment) {
    hsa_executable_t executable{};
    EXPECT_EQ(LoadIsa("lds", &executable), HSA_STATUS_SUCCESS) << last_error_;
    std::vector<uint8_t> kernarg;
    Put(kernarg, 0, Allocate(pools_.coarse, 5 * 1024));
    EXPECT_TRUE(Dispatch(executable, "lds.kd", kernarg, 256, 256, group_segment)) << errors_->message;
    kiln_hsa_sim_dispatch_counts_t c{};
    EXPECT_EQ(kiln_hsa_sim_last_dispatch_counts(0, &c), 0) << kiln_hsa_sim_last_error();
    return c;
  }
};

TEST_F(HsaSimCountsTest, ElementwiseAddCountsEveryWavesInstructionsAndBytes) {
  kiln_hsa_sim_dispatch_counts_t c{};
  EXPECT_EQ(kiln_hsa_sim_last_dispatch_counts(0, &c), -1) << "no dispatch completed yet";
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("has completed no code-object dispatch"), std::string::npos);

  constexpr uint32_t kN = 1000;  // 4 workgroups of 256: 16 waves, the last one with 40 work-items
  hsa_executable_t executable{};
  ASSERT_EQ(LoadIsa("elementwise", &executable), HSA_STATUS_SUCCESS) << last_error_;
  void* a = Allocate(pools_.coarse, kN * 4);
  void* b = Allocate(pools_.coarse, kN * 4);
  void* out = Allocate(pools_.coarse, kN * 4);
  std::vector<uint8_t> kernarg;
  Put(kernarg, 0, a);
  Put(kernarg, 8, b);
  Put(kernarg, 16, out);
  Put(kernarg, 24, kN);
  ASSERT_TRUE(Dispatch(executable, "add_f32.kd", kernarg, kN, 256)) << errors_->message;
  ASSERT_EQ(kiln_hsa_sim_last_dispatch_counts(0, &c), 0) << kiln_hsa_sim_last_error();
  EXPECT_STREQ(c.kernel, "add_f32");
  EXPECT_EQ(c.workgroups, 4u);
  constexpr uint64_t kWaves = 16;
  EXPECT_EQ(c.waves, kWaves);
  // Per wave (every wave has active work-items, so none skips the body): 3 s_load; s_lshl_b32,
  // s_and_saveexec_b64, s_endpgm; v_add_u32, v_cmp_gt_u32, v_lshlrev_b32, v_add_f32; two
  // s_waitcnt; s_cbranch_execz; two global_load_dword and a global_store_dword.
  EXPECT_EQ(c.smem, 3 * kWaves);
  EXPECT_EQ(c.salu, 3 * kWaves);
  EXPECT_EQ(c.valu, 4 * kWaves);
  EXPECT_EQ(c.wait, 2 * kWaves);
  EXPECT_EQ(c.branch, 1 * kWaves);
  EXPECT_EQ(c.vmem, 3 * kWaves);
  EXPECT_EQ(c.mfma, 0u);
  EXPECT_EQ(c.lds, 0u);
  EXPECT_EQ(c.global_read_bytes, 2u * 4 * kN) << "two f32 loads per active work-item, none by inactive lanes";
  EXPECT_EQ(c.global_written_bytes, 4u * kN);
  EXPECT_EQ(c.lds_read_bytes + c.lds_written_bytes, 0u);
  // 8 VGPRs, no LDS, four waves per workgroup: 8 waves per SIMD, 32 per CU, 8 workgroups.
  EXPECT_EQ(c.occupancy_waves_per_simd, 8u);
  EXPECT_EQ(c.occupancy_workgroups_per_cu, 8u);
  EXPECT_EQ(c.occupancy_waves_per_cu, 32u);
  EXPECT_STREQ(c.occupancy_limit, "waves");
  EXPECT_STREQ(c.mfma_ops[0].mnemonic, "") << "no MFMA";
  EXPECT_EQ(c.dispatch_ordinal, 1u);
  EXPECT_EQ(c.dispatch_ordinal, kiln_hsa_sim_dispatches_completed(0));
}

TEST_F(HsaSimCountsTest, LdsKernelCountsLdsInstructionsAndBytes) {
  kiln_hsa_sim_dispatch_counts_t c = RunLds(2048);
  EXPECT_STREQ(c.kernel, "lds");
  EXPECT_EQ(c.waves, 4u);
  // Per wave: two ds_write_b32, ds_add_u32, ds_read_b32, ds_read2_b32, ds_bpermute_b32, and
  // the last ds_read_b32; two s_barrier and three s_waitcnt.
  EXPECT_EQ(c.lds, 7u * 4);
  EXPECT_EQ(c.wait, 5u * 4);
  // 256 work-items: reads 4 (ds_add) + 4 + 8 (read2) + 4 bytes each, writes 4 + 4 + 4 (ds_add);
  // ds_bpermute_b32 moves data between lanes, not through LDS memory.
  EXPECT_EQ(c.lds_read_bytes, 20u * 256);
  EXPECT_EQ(c.lds_written_bytes, 12u * 256);
  EXPECT_EQ(c.global_written_bytes, 5u * 4 * 256);
  EXPECT_EQ(c.global_read_bytes, 0u);
}

TEST_F(HsaSimCountsTest, OccupancyEstimateFollowsVgprsAndLds) {
  // 40000 of the CU's 64 KiB of LDS per workgroup: one workgroup (four waves) per CU.
  kiln_hsa_sim_dispatch_counts_t c = RunLds(40000);
  EXPECT_EQ(c.occupancy_waves_per_simd, 8u) << "16 VGPRs do not limit";
  EXPECT_EQ(c.occupancy_workgroups_per_cu, 1u);
  EXPECT_EQ(c.occupancy_waves_per_cu, 4u);
  EXPECT_STREQ(c.occupancy_limit, "LDS");
  // mfma.s allocates 96 unified VGPRs (accum_offset 80): 512 / 96 = 5 waves per SIMD, and its
  // one-wave workgroups fill 4 SIMDs x 5.
  hsa_executable_t executable{};
  ASSERT_EQ(LoadIsa("mfma", &executable), HSA_STATUS_SUCCESS) << last_error_;
  void* in = Allocate(pools_.coarse, 64 * 1024);
  void* results = Allocate(pools_.coarse, 48 * 64 * 4);
  std::vector<uint8_t> kernarg;
  Put(kernarg, 0, in);
  Put(kernarg, 8, results);
  ASSERT_TRUE(Dispatch(executable, "mfma.kd", kernarg, 64, 64)) << errors_->message;
  ASSERT_EQ(kiln_hsa_sim_last_dispatch_counts(0, &c), 0) << kiln_hsa_sim_last_error();
  // One wave: each MFMA line once, by mnemonic in order of first appearance.
  EXPECT_EQ(c.mfma, 4u);
  EXPECT_STREQ(c.mfma_ops[0].mnemonic, "v_mfma_f32_32x32x8_f16");
  EXPECT_EQ(c.mfma_ops[0].count, 1u);
  EXPECT_STREQ(c.mfma_ops[1].mnemonic, "v_mfma_f32_32x32x2_f32");
  EXPECT_EQ(c.mfma_ops[1].count, 1u);
  EXPECT_STREQ(c.mfma_ops[2].mnemonic, "v_mfma_i32_32x32x16_i8");
  EXPECT_EQ(c.mfma_ops[2].count, 2u);
  EXPECT_STREQ(c.mfma_ops[3].mnemonic, "");
  EXPECT_EQ(c.mfma_ops[3].count, 0u);
  EXPECT_EQ(c.dispatch_ordinal, kiln_hsa_sim_dispatches_completed(0)) << "the last dispatch completed";
  EXPECT_EQ(c.occupancy_waves_per_simd, 5u);
  EXPECT_EQ(c.occupancy_workgroups_per_cu, 20u);
  EXPECT_EQ(c.occupancy_waves_per_cu, 20u);
  EXPECT_STREQ(c.occupancy_limit, "VGPRs");
}

}  // namespace
}  // namespace kiln::hsa_sim_test
