// The MI300X estimate of kiln-benchmark-module --dispatches (runtime/gpu_estimate.h) against
// figures worked out by hand from the model in docs/hip-sim-executor.md ("Counts").
#include "runtime/gpu_estimate.h"

#include <gtest/gtest.h>

namespace kiln::runtime {
namespace {

TEST(Mi300xEstimate, MfmaCyclesFollowThePeakRateOfTheInputType) {
  // 2 * M * N * K / (peak FLOPs per SIMD and cycle: f16 512, f32 64, 8-bit 1024, xf32 256).
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_32x32x8_f16"), 32.0);
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_16x16x16_bf16"), 16.0);
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_32x32x8f16"), 32.0) << "the older spelling";
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_32x32x2_f32"), 64.0);
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_16x16x4_f32"), 32.0);
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_i32_32x32x16_i8"), 32.0);
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_16x16x32_fp8_bf8"), 16.0);
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_32x32x4_xf32"), 32.0);
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_4x4x4_16b_f16"), 4.0) << "16 blocks of 4x4x4";
  EXPECT_EQ(Mi300xMfmaCycles("v_mfma_f32_32x32x8_q4"), std::nullopt);
  EXPECT_EQ(Mi300xMfmaCycles("v_add_f32"), std::nullopt);
}

TEST(Mi300xEstimate, StreamingKernelIsBoundByHbm) {
  hal::DispatchCounters c;
  c.workgroups = 2432;
  c.waves = 2432;
  c.valu = 47360;
  c.global_read_bytes = 8 << 20;
  c.global_written_bytes = 4 << 20;
  c.occupancy_workgroups_per_cu = 32;
  Mi300xEstimate e = EstimateMi300x(c, std::nullopt);
  EXPECT_EQ(e.bound, "HBM");
  EXPECT_NEAR(e.memory_us, 12582912 / 5.3e12 * 1e6, 1e-9);
  EXPECT_EQ(e.time_us, e.memory_us);
  // 8 workgroups (one wave each) on the busiest CU: 47360 * 8 / 2432 VALU instructions on 4
  // SIMDs at 4 cycles each.
  EXPECT_NEAR(e.compute_us, 47360.0 * 8 / 2432 * 4 / 4 / 2.1e3, 1e-9);
  // HBM traffic is at most the footprint: re-read bytes are taken to hit in the caches.
  EXPECT_NEAR(EstimateMi300x(c, 1 << 20).memory_us, (1 << 20) / 5.3e12 * 1e6, 1e-9);
}

TEST(Mi300xEstimate, MatmulIsBoundByItsMfmasOnTheCusItUses) {
  // 16 workgroups of 4 waves: 16 CUs busy, each with 4 SIMDs; 2048 32x32x8 f16 MFMAs of 32
  // cycles: 128 per CU, 32 per SIMD, 1024 cycles.
  hal::DispatchCounters c;
  c.workgroups = 16;
  c.waves = 64;
  c.mfma = 2048;
  c.mfma_by_mnemonic = {{"v_mfma_f32_32x32x8_f16", 2048}};
  c.occupancy_workgroups_per_cu = 2;
  Mi300xEstimate e = EstimateMi300x(c, 1 << 20);
  EXPECT_EQ(e.bound, "MFMA");
  EXPECT_NEAR(e.compute_us, 1024 / 2.1e3, 1e-9);
  EXPECT_TRUE(e.mfma_rates_known);
  // One-wave workgroups use one SIMD of their CU: four times as long.
  c.waves = 16;
  EXPECT_NEAR(EstimateMi300x(c, 1 << 20).compute_us, 4096 / 2.1e3, 1e-9);
  // An MFMA the model has no rate for is left out, and the estimate says so.
  c.mfma_by_mnemonic.emplace_back("v_mfma_f32_32x32x8_q4", 10);
  EXPECT_FALSE(EstimateMi300x(c, 1 << 20).mfma_rates_known);
}

TEST(Mi300xEstimate, LdsAndScalarPipes) {
  hal::DispatchCounters c;
  c.workgroups = 304;
  c.waves = 304 * 4;
  c.lds_read_bytes = 304 * 128 * 1000;  // 1000 cycles of LDS per CU
  c.salu = 304 * 500;
  Mi300xEstimate e = EstimateMi300x(c, 0);
  EXPECT_EQ(e.bound, "LDS");
  EXPECT_NEAR(e.compute_us, 1000 / 2.1e3, 1e-9);
  c.salu = 304 * 2000;  // 2000 scalar instructions per CU, one a cycle
  EXPECT_EQ(EstimateMi300x(c, 0).bound, "scalar");
}

}  // namespace
}  // namespace kiln::runtime
