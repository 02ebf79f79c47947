// Loading AMDGPU code objects in KILN_HSA_SIM_MODE=code-object: the symbols and their
// metadata, the mode switch, and corrupt files (every truncation, byte flips) refused without
// a crash.
#include "tests/hip_sim/isa_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

using HsaSimIsaLoaderTest = IsaTest;

TEST_F(HsaSimIsaLoaderTest, KernelSymbolsComeFromTheMetadata) {
  hsa_executable_t executable{};
  ASSERT_EQ(LoadIsa("elementwise", &executable), HSA_STATUS_SUCCESS) << last_error_;
  for (const char* name :
       {"add_f32.kd", "add_f32_x4.kd", "add_f32_no_wait.kd", "add_f32_short_wait.kd", "add_f32_no_lgkm_wait.kd"}) {
    hsa_executable_symbol_t symbol{};
    ASSERT_HSA_OK(hsa_executable_get_symbol_by_name(executable, name, &gpu_, &symbol));
    EXPECT_EQ(SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE), 28u) << name;
    EXPECT_EQ(SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT), 8u);
    EXPECT_EQ(SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE), 0u);
    EXPECT_NE(SymbolInfo<uint64_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT), 0u);
  }
  hsa_executable_symbol_t symbol{};
  EXPECT_EQ(hsa_executable_get_symbol_by_name(executable, "add_f32", &gpu_, &symbol),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  ASSERT_HSA_OK(hsa_executable_destroy(executable));
}

TEST_F(HsaSimIsaLoaderTest, TwinsStillLoadInCodeObjectMode) {
  hsa_executable_t executable = LoadTwin(gpu_);
  EXPECT_NE(KernelObject(executable, gpu_, "add_one.kd"), 0u);
}

TEST_F(HsaSimIsaLoaderTest, CorruptCodeObjectsAreRefusedWithoutACrash) {
  std::vector<uint8_t> good = IsaKernelBytes("elementwise");
  ASSERT_FALSE(good.empty());
  int refused = 0;
  // Every truncation (in steps: the file is a few KiB) and single-byte corruptions.
  for (size_t size = 64; size < good.size(); size += 7) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + size);
    hsa_status_t status = LoadBytes(cut, nullptr);
    if (status != HSA_STATUS_SUCCESS) {
      ++refused;
      EXPECT_EQ(status, HSA_STATUS_ERROR_INVALID_CODE_OBJECT) << last_error_;
    }
  }
  EXPECT_GT(refused, 0);
  uint32_t seed = 12345;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<uint8_t> bad = good;
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1664525u + 1013904223u;
      bad[64 + (seed >> 8) % (bad.size() - 64)] ^= static_cast<uint8_t>(1u << (seed & 7));
    }
    hsa_status_t status = LoadBytes(bad, nullptr);
    EXPECT_TRUE(status == HSA_STATUS_SUCCESS || status == HSA_STATUS_ERROR_INVALID_CODE_OBJECT ||
                status == HSA_STATUS_ERROR_INVALID_ISA)
        << status << ": " << last_error_;
  }
}

class HsaSimModeTest : public SimTest {
 protected:
  void TearDown() override {
    SimTest::TearDown();
    unsetenv("KILN_HSA_SIM_MODE");
  }
};

TEST_F(HsaSimModeTest, TwinModeRefusesTheHsacoAndNamesTheSwitch) {
  setenv("KILN_HSA_SIM_MODE", "twin", 1);
  Init();
  std::vector<uint8_t> bytes = IsaKernelBytes("elementwise");
  hsa_code_object_reader_t reader{};
  ASSERT_HSA_OK(hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader));
  hsa_executable_t executable{};
  ASSERT_HSA_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, "", &executable));
  EXPECT_EQ(hsa_executable_load_agent_code_object(executable, gpus_[0], reader, nullptr, nullptr),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  std::string error = kiln_hsa_sim_last_error();
  EXPECT_NE(error.find("KILN_HSA_SIM_MODE=code-object"), std::string::npos) << error;
}

TEST_F(HsaSimModeTest, CodeObjectForAnotherProcessorIsRefused) {
  setenv("KILN_HSA_SIM_MODE", "code-object", 1);
  Init({Gpu("gfx90a")});
  std::vector<uint8_t> bytes = IsaKernelBytes("elementwise");
  hsa_code_object_reader_t reader{};
  ASSERT_HSA_OK(hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader));
  hsa_executable_t executable{};
  ASSERT_HSA_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, "", &executable));
  EXPECT_EQ(hsa_executable_load_agent_code_object(executable, gpus_[0], reader, nullptr, nullptr),
            HSA_STATUS_ERROR_INVALID_ISA);
  std::string error = kiln_hsa_sim_last_error();
  EXPECT_NE(error.find("the AMDGPU code object is for gfx942 but GPU agent 0 (gfx90a)"), std::string::npos) << error;
}

TEST_F(HsaSimModeTest, UnknownModesAreRefusedAtInit) {
  setenv("KILN_HSA_SIM_MODE", "fast", 1);
  EXPECT_EQ(hsa_init(), HSA_STATUS_ERROR);
  std::string error = kiln_hsa_sim_last_error();
  EXPECT_NE(error.find("unknown mode 'fast' (twin, code-object or both)"), std::string::npos) << error;
}

}  // namespace
}  // namespace kiln::hsa_sim_test
