// KILN_HSA_SIM_MODE=both (drivers/hip/sim/paired_dispatch.h) through the HSA API, as the hip
// driver uses it: the HSACO is offered first and refused (its kernels kept), the twin loads
// and takes them; a dispatch runs the twin on the buffers and the code object on copies, and
// completes only when they agree, else fails naming the first differing element.
#include <cmath>

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
    return RunInOut(executable, "add_one.kd", in, *out, n);
  }

  // Dispatches `kernel` (kernarg: in, out, n, workgroup count) over n work-items in workgroups
  // of 64; returns whether it completed (else errors_ holds the queue error).
  bool RunInOut(hsa_executable_t executable, const char* kernel, void* in, void* out, uint32_t n) {
    std::vector<uint8_t> kernarg(32);
    const uint32_t grid[3] = {n, 1, 1};
    const uint16_t workgroup[3] = {64, 1, 1};
    WriteKernarg(kernarg.data(), {in, out}, {n}, grid, workgroup);
    bool ok = Dispatch(executable, kernel, kernarg, n, 64);
    if (!ok) errors_->Wait();
    return ok;
  }

  // float_sum over one workgroup of 64: in[0] = 1, in[1..63] = 2^-24. The code object adds in
  // lane order (1 + 2^-24 rounds back to 1 each time: 1.0), the twin in reverse (63 x 2^-24
  // first, then 1: 1 + 2^-18). Returns whether it completed; *out holds the twin's results.
  bool RunFloatSum(hsa_executable_t executable, float** out) {
    constexpr uint32_t kN = 64;
    auto* in = static_cast<float*>(Allocate(pools_.coarse, kN * 4));
    *out = static_cast<float*>(Allocate(pools_.coarse, 8));
    for (uint32_t i = 0; i < kN; ++i) in[i] = i == 0 ? 1.0f : std::ldexp(1.0f, -24);
    (*out)[0] = 0.0f;
    (*out)[1] = -1.0f;
    return RunInOut(executable, "float_sum.kd", in, *out, kN);
  }
  // float_sum with isa/HSACO as its code object, which must disagree: the queue error's text.
  std::string FloatSumDisagreement(const char* hsaco) {
    float* out = nullptr;
    EXPECT_FALSE(RunFloatSum(LoadPair(hsaco), &out));
    EXPECT_EQ(errors_->status, HSA_STATUS_ERROR_EXCEPTION);
    return errors_->message;
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

TEST_F(HsaSimBothModeTest, FloatAtomicSumsInAnotherOrderAgreeWithinTheirTolerance) {
  hsa_executable_t executable = LoadPair("paired_float_sum");
  float* out = nullptr;
  ASSERT_TRUE(RunFloatSum(executable, &out)) << errors_->message;
  // The twin's order: the code object's 1.0 differs by 32 ULPs, which the 64 adds of
  // magnitudes up to 2 allow (2 x 64 x 2^-24 x 2, about 128 ULPs of 1.0).
  EXPECT_EQ(out[0], 1.0f + std::ldexp(1.0f, -18));
  EXPECT_EQ(out[1], 1.0f);
}

TEST_F(HsaSimBothModeTest, FloatAtomicSumBeyondWhatTheOrderExplainsFails) {
  std::string m = FloatSumDisagreement("paired_float_sum_doubled");
  EXPECT_NE(m.find("KILN_HSA_SIM_MODE=both: kernel float_sum: the host twin and the code object disagree at argument "
                   "1 'out', 4-byte element 0 (byte offset 0x0): twin wrote 0x3f800020, code object 0x40000000 (64 "
                   "float atomic adds, sum of magnitudes "),
            std::string::npos)
      << m;
  EXPECT_NE(m.find(": more than their order can change)"), std::string::npos) << m;
}

TEST_F(HsaSimBothModeTest, PlainWordsBesideFloatAtomicsStayBitExact) {
  std::string m = FloatSumDisagreement("paired_float_sum_plain_ulp");
  // Element 0 (the atomic sum, 32 ULPs apart) passes; element 1, one ULP off, does not.
  EXPECT_NE(m.find("disagree at argument 1 'out', 4-byte element 1 (byte offset 0x4): twin wrote 0x3f800000, code "
                   "object 0x3f800001"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("float atomic"), std::string::npos) << m;
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
