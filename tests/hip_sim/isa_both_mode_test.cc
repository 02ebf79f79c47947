// KILN_HSA_SIM_MODE=both (drivers/hip/sim/paired_dispatch.h) through the HSA API, as the hip
// driver uses it: the HSACO is offered first and refused (its kernels kept), the twin loads
// and takes them; a dispatch runs the twin on the buffers and the code object on copies, and
// completes only when they agree, else fails naming the first differing element.
#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

class HsaSimBothModeTest : public IsaTest {
 protected:
  const char* Mode() const override { return "both"; }

  // Offers isa/NAME's HSACO (refused, as the driver sees it), then loads the twin.
  hsa_executable_t LoadPair(const char* hsaco) {
    EXPECT_EQ(LoadIsa(hsaco, nullptr), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    EXPECT_NE(last_error_.find("KILN_HSA_SIM_MODE=both: the HSACO's 1 kernels are kept to run beside their host twins"),
              std::string::npos)
        << last_error_;
    return LoadTwin(gpu_);
  }

  // add_one over n work-items in workgroups of 64: in[i] = 3i; returns whether it completed.
  bool RunAddOne(hsa_executable_t executable, uint32_t n, int32_t** out) {
    auto* in = static_cast<int32_t*>(Allocate(pools_.coarse, n * 4));
    *out = static_cast<int32_t*>(Allocate(pools_.coarse, n * 4));
    for (uint32_t i = 0; i < n; ++i) {
      in[i] = 3 * static_cast<int32_t>(i);
      (*out)[i] = -1;
    }
    std::vector<uint8_t> kernarg(32);
    const uint32_t grid[3] = {n, 1, 1};
    const uint16_t workgroup[3] = {64, 1, 1};
    WriteKernarg(kernarg.data(), {in, *out}, {n}, grid, workgroup);
    bool ok = Dispatch(executable, "add_one.kd", kernarg, n, 64);
    if (!ok) errors_->Wait();
    return ok;
  }
};

TEST_F(HsaSimBothModeTest, AgreeingTwinAndCodeObjectCompleteWithTheTwinsResult) {
  hsa_executable_t executable = LoadPair("paired_add_one");
  int32_t* out = nullptr;
  constexpr uint32_t kN = 100;  // two workgroups, the second partial
  ASSERT_TRUE(RunAddOne(executable, kN, &out)) << errors_->message;
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], 3 * static_cast<int32_t>(i) + 1) << "out[" << i << "]";
  // The code object's half ran too: its counts are the dispatch's.
  kiln_hsa_sim_dispatch_counts_t counts{};
  ASSERT_EQ(kiln_hsa_sim_last_dispatch_counts(0, &counts), 0) << kiln_hsa_sim_last_error();
  EXPECT_STREQ(counts.kernel, "add_one");
  EXPECT_EQ(counts.workgroups, 2u);
  EXPECT_EQ(counts.global_written_bytes, 4u * kN);
}

TEST_F(HsaSimBothModeTest, DisagreementFailsTheDispatchNamingTheFirstDifferingElement) {
  hsa_executable_t executable = LoadPair("paired_add_one_wrong");
  int32_t* out = nullptr;
  ASSERT_FALSE(RunAddOne(executable, 100, &out));
  EXPECT_EQ(errors_->status, HSA_STATUS_ERROR_EXCEPTION);
  EXPECT_NE(errors_->message.find("(kernel add_one.kd): KILN_HSA_SIM_MODE=both: kernel add_one: the host twin and the "
                                  "code object disagree at argument 1 'out', 4-byte element 0 (byte offset 0x0): "
                                  "twin wrote 0x1, code object 0x2"),
            std::string::npos)
      << errors_->message;
  EXPECT_EQ(out[99], 3 * 99 + 1) << "the application's buffer holds the twin's result";
}

TEST_F(HsaSimBothModeTest, TwinsWithoutAnHsacoKernelRunAlone) {
  hsa_executable_t executable = LoadTwin(gpu_);  // no HSACO offered: add_one has no pair
  int32_t* out = nullptr;
  ASSERT_TRUE(RunAddOne(executable, 64, &out)) << errors_->message;
  EXPECT_EQ(out[63], 3 * 63 + 1);
  kiln_hsa_sim_dispatch_counts_t counts{};
  EXPECT_EQ(kiln_hsa_sim_last_dispatch_counts(0, &counts), -1) << "no code object ran";
}

}  // namespace
}  // namespace kiln::hsa_sim_test
