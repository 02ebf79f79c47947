// hsa_init / hsa_shut_down, configuration, system info, agents, ISAs, status strings.
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

using HsaSimRuntimeTest = SimTest;

std::string AgentName(hsa_agent_t agent, hsa_agent_info_t attribute = HSA_AGENT_INFO_NAME) {
  char name[64];
  std::memset(name, 'x', sizeof(name));
  EXPECT_EQ(hsa_agent_get_info(agent, attribute, name), HSA_STATUS_SUCCESS);
  EXPECT_EQ(name[63], '\0') << "agent names are NUL-padded char[64]";
  return name;
}

template <typename T>
T AgentInfo(hsa_agent_t agent, int attribute) {
  T value{};
  EXPECT_EQ(hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(attribute), &value), HSA_STATUS_SUCCESS)
      << kiln_hsa_sim_last_error();
  return value;
}

TEST_F(HsaSimRuntimeTest, EverythingNeedsInit) {
  hsa_signal_t signal;
  EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &signal), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("not initialized"), std::string::npos);
  uint16_t major;
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  // hsa_status_string works without hsa_init and keeps the last call's detail.
  const char* text = nullptr;
  EXPECT_EQ(hsa_status_string(HSA_STATUS_ERROR_NOT_INITIALIZED, &text), HSA_STATUS_SUCCESS);
  EXPECT_NE(std::string(text).find("NOT_INITIALIZED"), std::string::npos);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("hsa_shut_down: the HSA runtime is not initialized"),
            std::string::npos)
      << kiln_hsa_sim_last_error();
  EXPECT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_SLOW, 0, 0, 1), -1);
  EXPECT_EQ(kiln_hsa_sim_dispatches_completed(0), 0u);
}

TEST_F(HsaSimRuntimeTest, ReferenceCountedInitAndReconfiguration) {
  Init({Gpu("gfx90a")});
  ASSERT_EQ(gpus_.size(), 1u);
  EXPECT_EQ(AgentName(gpus_[0]), "gfx90a");
  // Configuration is refused while initialized.
  kiln_hsa_sim_agent_config_t two[] = {Gpu("gfx942"), Gpu("gfx1100")};
  EXPECT_EQ(kiln_hsa_sim_configure(two, 2), -1);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("initialized"), std::string::npos);

  ASSERT_HSA_OK(hsa_init());       // count 2
  ASSERT_HSA_OK(hsa_shut_down());  // count 1: still usable
  hsa_signal_t signal = Signal(3);
  EXPECT_EQ(hsa_signal_load_scacquire(signal), 3);
  ASSERT_HSA_OK(hsa_shut_down());  // count 0: everything is gone
  EXPECT_EQ(hsa_signal_load_scacquire(signal), 0);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("not initialized"), std::string::npos);
  EXPECT_EQ(hsa_iterate_agents([](hsa_agent_t, void*) { return HSA_STATUS_SUCCESS; }, nullptr),
            HSA_STATUS_ERROR_NOT_INITIALIZED);

  // The next hsa_init reads the configuration again.
  gpus_.clear();
  Init({Gpu("gfx942"), Gpu("gfx1100")});
  ASSERT_EQ(gpus_.size(), 2u);
  EXPECT_EQ(AgentName(gpus_[0]), "gfx942");
  EXPECT_EQ(AgentName(gpus_[1]), "gfx1100");
  EXPECT_EQ(AgentInfo<uint32_t>(gpus_[1], HSA_AGENT_INFO_WAVEFRONT_SIZE), 32u);
  EXPECT_EQ(AgentInfo<uint32_t>(gpus_[1], HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 48u);
  // The old signal handle stays invalid in the new runtime.
  EXPECT_EQ(hsa_signal_destroy(signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
}

TEST_F(HsaSimRuntimeTest, EnvironmentConfigurationAndFaults) {
  setenv("KILN_HSA_SIM_AGENTS", "gfx942:cu=8:mem=64M, gfx1100:wave=64:lds=32K", 1);
  Init();
  unsetenv("KILN_HSA_SIM_AGENTS");
  ASSERT_EQ(gpus_.size(), 2u);
  EXPECT_EQ(AgentInfo<uint32_t>(gpus_[0], HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 8u);
  EXPECT_EQ(AgentInfo<uint32_t>(gpus_[1], HSA_AGENT_INFO_WAVEFRONT_SIZE), 64u);
  Pools pools0 = PoolsOf(gpus_[0]), pools1 = PoolsOf(gpus_[1]);
  size_t size = 0;
  ASSERT_HSA_OK(hsa_amd_memory_pool_get_info(pools0.coarse, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  EXPECT_EQ(size, 64u << 20);
  ASSERT_HSA_OK(hsa_amd_memory_pool_get_info(pools1.group, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  EXPECT_EQ(size, 32u << 10);
  ASSERT_HSA_OK(hsa_shut_down());

  // Bad text fails hsa_init with the reason.
  setenv("KILN_HSA_SIM_AGENTS", "gfx942:warp=32", 1);
  EXPECT_EQ(hsa_init(), HSA_STATUS_ERROR);
  const char* text = nullptr;
  EXPECT_EQ(hsa_status_string(HSA_STATUS_ERROR, &text), HSA_STATUS_SUCCESS);  // keeps the detail
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("unknown key 'warp'"), std::string::npos)
      << kiln_hsa_sim_last_error();
  unsetenv("KILN_HSA_SIM_AGENTS");
  setenv("KILN_HSA_SIM_FAULTS", "1/slow@0:10", 1);
  EXPECT_EQ(hsa_init(), HSA_STATUS_ERROR);  // one default agent: there is no GPU agent 1
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("GPU agent 1"), std::string::npos) << kiln_hsa_sim_last_error();
  setenv("KILN_HSA_SIM_FAULTS", "memory@3:0x1000; slow@0:5", 1);
  EXPECT_EQ(hsa_init(), HSA_STATUS_SUCCESS) << kiln_hsa_sim_last_error();
  unsetenv("KILN_HSA_SIM_FAULTS");
  ASSERT_HSA_OK(hsa_shut_down());
}

TEST_F(HsaSimRuntimeTest, ConfigureChecksFields) {
  kiln_hsa_sim_agent_config_t bad = Gpu("gfx942", 0, 48);
  EXPECT_EQ(kiln_hsa_sim_configure(&bad, 1), -1);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("wavefront size 48"), std::string::npos);
  bad = Gpu("nvidia");
  EXPECT_EQ(kiln_hsa_sim_configure(&bad, 1), -1);
  bad = Gpu(nullptr);
  EXPECT_EQ(kiln_hsa_sim_configure(&bad, 1), -1);
  EXPECT_EQ(kiln_hsa_sim_configure(nullptr, 1), -1);
  EXPECT_EQ(kiln_hsa_sim_configure(nullptr, 0), 0);
}

TEST_F(HsaSimRuntimeTest, SystemInfo) {
  Init();
  uint16_t major = 0, minor = 7;
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor));
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 1);
  uint64_t frequency = 0, t0 = 0, t1 = 0, max_wait = 0;
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &frequency));
  EXPECT_EQ(frequency, 1'000'000'000u);
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0));
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1));
  EXPECT_LE(t0, t1);
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &max_wait));
  EXPECT_EQ(max_wait, UINT64_MAX);
  hsa_endianness_t endianness;
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &endianness));
  EXPECT_EQ(endianness, HSA_ENDIANNESS_LITTLE);
  hsa_machine_model_t model;
  ASSERT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model));
  EXPECT_EQ(model, HSA_MACHINE_MODEL_LARGE);
  EXPECT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_system_get_info(static_cast<hsa_system_info_t>(0x7777), &major), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  const char* text = nullptr;
  ASSERT_HSA_OK(hsa_status_string(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, &text));
  EXPECT_NE(std::string(text).find("HSA_STATUS_ERROR_INVALID_PACKET_FORMAT"), std::string::npos);
  ASSERT_HSA_OK(hsa_status_string(static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION), &text));
  EXPECT_NE(std::string(text).find("MEMORY_APERTURE_VIOLATION"), std::string::npos);
  EXPECT_EQ(hsa_status_string(static_cast<hsa_status_t>(0x4242), &text), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(HsaSimRuntimeTest, AgentsAndIsa) {
  Init();
  ASSERT_EQ(gpus_.size(), 1u);
  hsa_agent_t gpu = gpus_[0];
  EXPECT_EQ(AgentName(gpu), "gfx942");
  EXPECT_EQ(AgentName(gpu, HSA_AGENT_INFO_VENDOR_NAME), "AMD");
  EXPECT_EQ(AgentName(gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_PRODUCT_NAME)), "kiln hip-sim gfx942");
  EXPECT_EQ(AgentInfo<uint32_t>(gpu, HSA_AGENT_INFO_FEATURE), static_cast<uint32_t>(HSA_AGENT_FEATURE_KERNEL_DISPATCH));
  EXPECT_EQ(AgentInfo<uint32_t>(gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE), 64u);
  EXPECT_EQ(AgentInfo<uint32_t>(gpu, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE), 1024u);
  EXPECT_EQ(AgentInfo<uint32_t>(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE), 131072u);
  EXPECT_EQ(AgentInfo<uint32_t>(gpu, HSA_AGENT_INFO_QUEUE_TYPE), static_cast<uint32_t>(HSA_QUEUE_TYPE_MULTI));
  EXPECT_EQ(AgentInfo<hsa_profile_t>(gpu, HSA_AGENT_INFO_PROFILE), HSA_PROFILE_BASE);
  EXPECT_EQ(AgentInfo<uint32_t>(gpu, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 304u);
  EXPECT_EQ(AgentInfo<uint32_t>(gpu, HSA_AMD_AGENT_INFO_CHIP_ID), 0x74a1u);
  EXPECT_GT(AgentInfo<uint32_t>(gpu, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU), 0u);
  hsa_dim3_t grid_max = AgentInfo<hsa_dim3_t>(gpu, HSA_AGENT_INFO_GRID_MAX_DIM);
  EXPECT_EQ(grid_max.x, UINT32_MAX);
  char uuid[21] = {};
  ASSERT_HSA_OK(hsa_agent_get_info(gpu, static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_UUID), uuid));
  EXPECT_STREQ(uuid, "GPU-sim-0000");

  EXPECT_EQ(AgentName(cpu_), "kiln-sim-cpu");
  EXPECT_EQ(AgentInfo<hsa_device_type_t>(cpu_, HSA_AGENT_INFO_DEVICE), HSA_DEVICE_TYPE_CPU);
  EXPECT_EQ(AgentInfo<uint32_t>(cpu_, HSA_AGENT_INFO_FEATURE), 0u);

  uint32_t value;
  EXPECT_EQ(hsa_agent_get_info(hsa_agent_t{12345}, HSA_AGENT_INFO_NODE, &value), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NODE, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_agent_get_info(gpu, static_cast<hsa_agent_info_t>(0xBEEF), &value), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("0xbeef"), std::string::npos) << kiln_hsa_sim_last_error();

  std::vector<hsa_isa_t> isas;
  ASSERT_HSA_OK(hsa_agent_iterate_isas(
      gpu,
      [](hsa_isa_t isa, void* data) {
        static_cast<std::vector<hsa_isa_t>*>(data)->push_back(isa);
        return HSA_STATUS_SUCCESS;
      },
      &isas));
  ASSERT_EQ(isas.size(), 1u);
  uint32_t length = 0;
  ASSERT_HSA_OK(hsa_isa_get_info_alt(isas[0], HSA_ISA_INFO_NAME_LENGTH, &length));
  std::string name(length, '\0');
  ASSERT_HSA_OK(hsa_isa_get_info_alt(isas[0], HSA_ISA_INFO_NAME, name.data()));
  EXPECT_EQ(name, "amdgcn-amd-amdhsa--gfx942");
  EXPECT_EQ(hsa_isa_get_info_alt(hsa_isa_t{77}, HSA_ISA_INFO_NAME_LENGTH, &length), HSA_STATUS_ERROR_INVALID_ISA);
  size_t isas_of_cpu = 0;
  ASSERT_HSA_OK(hsa_agent_iterate_isas(
      cpu_, [](hsa_isa_t, void* data) { return ++*static_cast<size_t*>(data), HSA_STATUS_SUCCESS; }, &isas_of_cpu));
  EXPECT_EQ(isas_of_cpu, 0u);

  // A callback's status ends the iteration and is returned.
  int calls = 0;
  EXPECT_EQ(hsa_iterate_agents(
                [](hsa_agent_t, void* data) { return ++*static_cast<int*>(data), HSA_STATUS_INFO_BREAK; }, &calls),
            HSA_STATUS_INFO_BREAK);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace kiln::hsa_sim_test
