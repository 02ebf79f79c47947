// Code object readers, executables and symbols: the host twin loads, everything else is
// refused with a reason.
#include <cstring>
#include <string>
#include <vector>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

class HsaSimCodeObjectTest : public SimTest {
 protected:
  // Loads `bytes` for `agent` into a new executable; returns the status, the executable in *out.
  hsa_status_t Load(hsa_agent_t agent, const std::vector<uint8_t>& bytes, hsa_executable_t* out = nullptr) {
    hsa_code_object_reader_t reader{};
    EXPECT_EQ(hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader), HSA_STATUS_SUCCESS);
    hsa_executable_t executable{};
    EXPECT_EQ(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, "", &executable),
              HSA_STATUS_SUCCESS);
    hsa_status_t status = hsa_executable_load_agent_code_object(executable, agent, reader, nullptr, nullptr);
    last_error_ = kiln_hsa_sim_last_error();
    EXPECT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
    if (out) {
      *out = executable;
    } else {
      EXPECT_EQ(hsa_executable_destroy(executable), HSA_STATUS_SUCCESS);
    }
    return status;
  }
  std::string last_error_;
};

TEST_F(HsaSimCodeObjectTest, TwinKernelsAndTheirSymbols) {
  Init();
  hsa_agent_t gpu = gpus_[0];
  hsa_executable_t executable{};
  ASSERT_EQ(Load(gpu, TestTwinBytes(), &executable), HSA_STATUS_SUCCESS) << last_error_;
  hsa_executable_symbol_t symbol{};
  ASSERT_HSA_OK(hsa_executable_get_symbol_by_name(executable, "lds_reverse.kd", &gpu, &symbol));
  EXPECT_EQ(SymbolInfo<hsa_symbol_kind_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE), HSA_SYMBOL_KIND_KERNEL);
  uint32_t length = SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH);
  std::string name(length, '\0');
  ASSERT_HSA_OK(hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name.data()));
  EXPECT_EQ(name, "lds_reverse.kd");
  EXPECT_EQ(SymbolInfo<hsa_agent_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_AGENT).handle, gpu.handle);
  EXPECT_EQ(SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE), 32u);
  EXPECT_EQ(SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT), 16u);
  EXPECT_EQ(SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE), 4096u);
  EXPECT_EQ(SymbolInfo<uint32_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE), 0u);
  EXPECT_FALSE(SymbolInfo<bool>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK));
  // HSA: kernel objects read 0 until the executable is frozen.
  EXPECT_EQ(SymbolInfo<uint64_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT), 0u);
  ASSERT_HSA_OK(hsa_executable_freeze(executable, nullptr));
  EXPECT_NE(SymbolInfo<uint64_t>(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT), 0u);
  EXPECT_EQ(hsa_executable_freeze(executable, nullptr), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);

  hsa_code_object_reader_t reader{};
  ASSERT_HSA_OK(hsa_code_object_reader_create_from_memory(TestTwinBytes().data(), TestTwinBytes().size(), &reader));
  EXPECT_EQ(hsa_executable_load_agent_code_object(executable, gpu, reader, nullptr, nullptr),
            HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  EXPECT_EQ(hsa_executable_load_agent_code_object(executable, cpu_, reader, nullptr, nullptr),
            HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_HSA_OK(hsa_code_object_reader_destroy(reader));
  EXPECT_EQ(hsa_code_object_reader_destroy(reader), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);

  EXPECT_EQ(hsa_executable_get_symbol_by_name(executable, "missing.kd", &gpu, &symbol),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  EXPECT_EQ(hsa_executable_get_symbol_by_name(executable, "add_one", &gpu, &symbol),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);  // the .kd suffix is part of the name
  EXPECT_EQ(hsa_executable_get_symbol_by_name(executable, "add_one.kd", nullptr, &symbol),
            HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);  // kernels have agent allocation
  EXPECT_EQ(hsa_executable_get_symbol_by_name(executable, "add_one.kd", &gpu, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);

  ASSERT_HSA_OK(hsa_executable_destroy(executable));
  uint32_t size;
  EXPECT_EQ(hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &size),
            HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
  EXPECT_EQ(hsa_executable_destroy(executable), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  EXPECT_EQ(hsa_executable_freeze(executable, nullptr), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
}

TEST_F(HsaSimCodeObjectTest, AmdgpuCodeObjectIsRefusedWithTheReason) {
  Init();
  // An ELF64 header for EM_AMDGPU (224), e_flags mach gfx942 (0x4c).
  std::vector<uint8_t> hsaco(64, 0);
  const uint8_t ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64, 3};
  std::memcpy(hsaco.data(), ident, sizeof(ident));
  hsaco[16] = 3;  // ET_DYN
  hsaco[18] = 224;
  hsaco[48] = 0x4c;
  EXPECT_EQ(Load(gpus_[0], hsaco), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  EXPECT_NE(last_error_.find("this is an AMDGPU code object (HSACO"), std::string::npos) << last_error_;
  EXPECT_NE(last_error_.find("gfx942"), std::string::npos) << last_error_;
  EXPECT_NE(last_error_.find("host twin"), std::string::npos) << last_error_;
}

TEST_F(HsaSimCodeObjectTest, TwinForAnotherIsaIsRefused) {
  Init({Gpu("gfx1100")});
  EXPECT_EQ(Load(gpus_[0], TestTwinBytes()), HSA_STATUS_ERROR_INVALID_ISA);
  EXPECT_NE(last_error_.find("lowered for amdgcn-amd-amdhsa--gfx942"), std::string::npos) << last_error_;
  EXPECT_NE(last_error_.find("is amdgcn-amd-amdhsa--gfx1100"), std::string::npos) << last_error_;
}

TEST_F(HsaSimCodeObjectTest, TwinForAnotherWavefrontSizeIsRefused) {
  Init({Gpu("gfx942", 0, 32)});
  EXPECT_EQ(Load(gpus_[0], TestTwinBytes()), HSA_STATUS_ERROR_INVALID_ISA);
  EXPECT_NE(last_error_.find("wave64"), std::string::npos) << last_error_;
  EXPECT_NE(last_error_.find("runs wave32"), std::string::npos) << last_error_;
}

TEST_F(HsaSimCodeObjectTest, OtherBytesAreRefused) {
  Init();
  std::vector<uint8_t> text = {'h', 'e', 'l', 'l', 'o'};
  EXPECT_EQ(Load(gpus_[0], text), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  EXPECT_NE(last_error_.find("not an ELF file"), std::string::npos) << last_error_;

  // An x86-64 shared object that is not a twin: the CPU driver's test kernels.
  std::vector<uint8_t> cpu_kernels = ReadFileBytes(KILN_KERNEL_DIR "/test_kernels.so");
  ASSERT_FALSE(cpu_kernels.empty());
  EXPECT_EQ(Load(gpus_[0], cpu_kernels), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  EXPECT_NE(last_error_.find("does not export kiln_gpu_twin_library_query"), std::string::npos) << last_error_;

  // A truncated twin: the ELF checks catch it before the loader sees it.
  std::vector<uint8_t> truncated(TestTwinBytes().begin(), TestTwinBytes().begin() + 200);
  EXPECT_EQ(Load(gpus_[0], truncated), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  EXPECT_NE(last_error_.find("could not be loaded"), std::string::npos) << last_error_;

  hsa_code_object_reader_t reader;
  EXPECT_EQ(hsa_code_object_reader_create_from_memory(nullptr, 4, &reader), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_code_object_reader_create_from_memory(text.data(), 0, &reader), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_executable_t executable;
  EXPECT_EQ(hsa_executable_create_alt(static_cast<hsa_profile_t>(5), HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, nullptr,
                                      &executable),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace kiln::hsa_sim_test
