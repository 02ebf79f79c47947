// Memory pools, allocation and its accounting, hsa_amd_agents_allow_access, async copies.
#include <cstring>
#include <string>
#include <vector>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

using HsaSimMemoryTest = SimTest;

template <typename T>
T PoolInfo(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute) {
  T value{};
  EXPECT_EQ(hsa_amd_memory_pool_get_info(pool, attribute, &value), HSA_STATUS_SUCCESS) << kiln_hsa_sim_last_error();
  return value;
}

TEST_F(HsaSimMemoryTest, PoolsOfEachAgent) {
  Init({Gpu("gfx942", 1 << 20)});
  Pools pools = PoolsOf(gpus_[0]);
  EXPECT_EQ(PoolInfo<hsa_amd_segment_t>(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_SEGMENT), HSA_AMD_SEGMENT_GLOBAL);
  EXPECT_EQ(PoolInfo<uint32_t>(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
            static_cast<uint32_t>(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED));
  EXPECT_EQ(PoolInfo<size_t>(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_SIZE), 1u << 20);
  EXPECT_TRUE(PoolInfo<bool>(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED));
  EXPECT_EQ(PoolInfo<size_t>(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE), 4096u);
  EXPECT_EQ(PoolInfo<size_t>(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT), 4096u);
  EXPECT_FALSE(PoolInfo<bool>(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL));
  EXPECT_EQ(PoolInfo<uint32_t>(pools.fine, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
            static_cast<uint32_t>(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED));
  EXPECT_EQ(PoolInfo<hsa_amd_segment_t>(pools.group, HSA_AMD_MEMORY_POOL_INFO_SEGMENT), HSA_AMD_SEGMENT_GROUP);
  EXPECT_EQ(PoolInfo<size_t>(pools.group, HSA_AMD_MEMORY_POOL_INFO_SIZE), 65536u);
  EXPECT_FALSE(PoolInfo<bool>(pools.group, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED));

  EXPECT_EQ(PoolInfo<uint32_t>(pools.kernarg, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
            static_cast<uint32_t>(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
                                  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT));
  EXPECT_EQ(PoolInfo<uint32_t>(pools.system_fine, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
            static_cast<uint32_t>(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED));
  EXPECT_EQ(PoolInfo<uint32_t>(pools.system_coarse, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS),
            static_cast<uint32_t>(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED));
  EXPECT_GT(PoolInfo<size_t>(pools.system_fine, HSA_AMD_MEMORY_POOL_INFO_SIZE), 1u << 20);

  size_t size;
  EXPECT_EQ(hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t{5}, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
            HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  EXPECT_EQ(hsa_amd_memory_pool_get_info(pools.coarse, HSA_AMD_MEMORY_POOL_INFO_SIZE, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(HsaSimMemoryTest, AllocationIsRoundedAlignedAndAccounted) {
  Init({Gpu("gfx942", 64 * 1024)});
  Pools pools = PoolsOf(gpus_[0]);
  void* a = Allocate(pools.coarse, 1);  // one 4 KiB granule
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 4096, 0u);
  std::memset(a, 1, 4096);                    // the whole granule is usable
  void* b = Allocate(pools.fine, 56 * 1024);  // the fine pool shares the device budget
  ASSERT_NE(b, nullptr);
  void* c = nullptr;
  EXPECT_EQ(hsa_amd_memory_pool_allocate(pools.coarse, 4097, 0, &c), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  std::string message = kiln_hsa_sim_last_error();
  EXPECT_NE(message.find("device coarse-grained pool of GPU agent 0 (gfx942)"), std::string::npos) << message;
  EXPECT_NE(message.find("8192 after rounding"), std::string::npos) << message;
  EXPECT_NE(message.find("61440 of its 65536 bytes are in use"), std::string::npos) << message;
  c = Allocate(pools.coarse, 4096);  // exactly the rest
  ASSERT_NE(c, nullptr);
  ASSERT_HSA_OK(hsa_amd_memory_pool_free(b));
  void* d = Allocate(pools.coarse, 56 * 1024);
  EXPECT_NE(d, nullptr);

  EXPECT_EQ(hsa_amd_memory_pool_allocate(pools.coarse, 128 * 1024, 0, &c), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(pools.group, 64, 0, &c), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(pools.coarse, 0, 0, &c), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(pools.coarse, 64, 1, &c), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(pools.coarse, 64, 0, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t{99}, 64, 0, &c), HSA_STATUS_ERROR_INVALID_MEMORY_POOL);

  // Freeing anything but a live allocation's base is refused, never a crash.
  EXPECT_EQ(hsa_amd_memory_pool_free(static_cast<char*>(a) + 8), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("at offset 8"), std::string::npos) << kiln_hsa_sim_last_error();
  int local = 0;
  EXPECT_EQ(hsa_amd_memory_pool_free(&local), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_HSA_OK(hsa_amd_memory_pool_free(d));
  EXPECT_EQ(hsa_amd_memory_pool_free(d), HSA_STATUS_ERROR_INVALID_ARGUMENT);  // twice
  // a and c are left allocated: hsa_shut_down frees them.
}

TEST_F(HsaSimMemoryTest, AllowAccess) {
  Init();
  Pools pools = PoolsOf(gpus_[0]);
  void* host = Allocate(pools.system_coarse, 8192);
  EXPECT_HSA_OK(hsa_amd_agents_allow_access(1, &gpus_[0], nullptr, host));
  EXPECT_HSA_OK(hsa_amd_agents_allow_access(1, &gpus_[0], nullptr, static_cast<char*>(host) + 5000));
  int local = 0;
  EXPECT_EQ(hsa_amd_agents_allow_access(1, &gpus_[0], nullptr, &local), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_agents_allow_access(0, &gpus_[0], nullptr, host), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  uint32_t flags = 0;
  EXPECT_EQ(hsa_amd_agents_allow_access(1, &gpus_[0], &flags, host), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t bogus{42};
  EXPECT_EQ(hsa_amd_agents_allow_access(1, &bogus, nullptr, host), HSA_STATUS_ERROR_INVALID_AGENT);
}

TEST_F(HsaSimMemoryTest, AsyncCopyWaitsForItsDependency) {
  Init();
  Pools pools = PoolsOf(gpus_[0]);
  constexpr size_t kSize = 3 * 4096 + 100;
  auto* src = static_cast<uint8_t*>(Allocate(pools.system_fine, kSize));
  auto* dst = static_cast<uint8_t*>(Allocate(pools.coarse, kSize));
  for (size_t i = 0; i < kSize; ++i) src[i] = static_cast<uint8_t>(i * 7);
  std::memset(dst, 0, kSize);
  hsa_signal_t dependency = Signal(1), done = Signal(1);
  ASSERT_HSA_OK(hsa_amd_memory_async_copy(dst, gpus_[0], src, cpu_, kSize, 1, &dependency, done));
  // The dependency is 1, so the copy cannot have run: the wait times out with the value 1.
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20'000'000, HSA_WAIT_STATE_BLOCKED), 1);
  EXPECT_EQ(dst[1], 0);
  hsa_signal_store_screlease(dependency, 0);
  ASSERT_EQ(WaitEq(done, 0), 0);
  EXPECT_EQ(std::memcmp(src, dst, kSize), 0);

  // A later independent copy on the same engine, and a 0-byte copy, complete too.
  hsa_signal_t done2 = Signal(2);
  ASSERT_HSA_OK(hsa_amd_memory_async_copy(src, cpu_, dst, gpus_[0], 64, 0, nullptr, done2));
  ASSERT_HSA_OK(hsa_amd_memory_async_copy(src, cpu_, dst, gpus_[0], 0, 0, nullptr, done2));
  EXPECT_EQ(WaitEq(done2, 0), 0);
}

TEST_F(HsaSimMemoryTest, AsyncCopyChecksItsArguments) {
  Init();
  Pools pools = PoolsOf(gpus_[0]);
  auto* buffer = static_cast<uint8_t*>(Allocate(pools.coarse, 4096));
  std::vector<uint8_t> host(4096);
  hsa_signal_t done = Signal(1);
  EXPECT_EQ(hsa_amd_memory_async_copy(buffer, gpus_[0], host.data(), cpu_, 16, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("source"), std::string::npos) << kiln_hsa_sim_last_error();
  EXPECT_EQ(hsa_amd_memory_async_copy(buffer + 4000, gpus_[0], buffer, gpus_[0], 200, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("past its end"), std::string::npos)
      << kiln_hsa_sim_last_error();
  EXPECT_EQ(hsa_amd_memory_async_copy(buffer, gpus_[0], buffer, gpus_[0], 16, 0, nullptr, hsa_signal_t{0}),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_async_copy(buffer, gpus_[0], buffer, gpus_[0], 16, 0, nullptr, hsa_signal_t{1234}),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_EQ(hsa_amd_memory_async_copy(buffer, hsa_agent_t{3}, buffer, gpus_[0], 16, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_amd_memory_async_copy(nullptr, gpus_[0], buffer, gpus_[0], 16, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_async_copy(buffer, gpus_[0], buffer, gpus_[0], 16, 1, nullptr, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);  // none of them ran
}

TEST_F(HsaSimMemoryTest, AsyncCopyNamesTheAgentThatOwnsEachSide) {
  Init();
  Pools pools = PoolsOf(gpus_[0]);
  auto* device = static_cast<uint8_t*>(Allocate(pools.coarse, 4096));
  auto* host = static_cast<uint8_t*>(Allocate(pools.system_fine, 4096));
  hsa_signal_t done = Signal(1);
  // System memory is the CPU agent's even though the GPU may access it.
  EXPECT_EQ(hsa_amd_memory_async_copy(device, gpus_[0], host, gpus_[0], 16, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("src_agent is GPU agent 0"), std::string::npos)
      << kiln_hsa_sim_last_error();
  EXPECT_EQ(hsa_amd_memory_async_copy(device, cpu_, host, cpu_, 16, 0, nullptr, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("device coarse-grained pool"), std::string::npos)
      << kiln_hsa_sim_last_error();
  EXPECT_EQ(hsa_signal_load_relaxed(done), 1);
  ASSERT_HSA_OK(hsa_amd_memory_async_copy(device, gpus_[0], host, cpu_, 16, 0, nullptr, done));
  EXPECT_EQ(WaitEq(done, 0), 0);
}

TEST_F(HsaSimMemoryTest, InjectedCopyRefusalRefusesThatCallOnly) {
  Init();
  Pools pools = PoolsOf(gpus_[0]);
  auto* a = static_cast<uint8_t*>(Allocate(pools.coarse, 4096));
  auto* b = static_cast<uint8_t*>(Allocate(pools.coarse, 4096));
  ASSERT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_COPY_REFUSED, 0, 1, 0), 0) << kiln_hsa_sim_last_error();
  hsa_signal_t done = Signal(2);
  ASSERT_HSA_OK(hsa_amd_memory_async_copy(a, gpus_[0], b, gpus_[0], 16, 0, nullptr, done));
  EXPECT_EQ(hsa_amd_memory_async_copy(a, gpus_[0], b, gpus_[0], 16, 0, nullptr, done),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("refused"), std::string::npos) << kiln_hsa_sim_last_error();
  ASSERT_HSA_OK(hsa_amd_memory_async_copy(a, gpus_[0], b, gpus_[0], 16, 0, nullptr, done));
  EXPECT_EQ(WaitEq(done, 0), 0);
}

TEST_F(HsaSimMemoryTest, AsyncCopyOfFreedMemoryFailsTheSignal) {
  Init();
  Pools pools = PoolsOf(gpus_[0]);
  void* a = Allocate(pools.coarse, 4096);
  void* b = Allocate(pools.coarse, 4096);
  hsa_signal_t dependency = Signal(1), done = Signal(1);
  ASSERT_HSA_OK(hsa_amd_memory_async_copy(a, gpus_[0], b, gpus_[0], 4096, 1, &dependency, done));
  ASSERT_HSA_OK(hsa_amd_memory_pool_free(b));  // before the copy runs
  hsa_signal_store_screlease(dependency, 0);
  EXPECT_LT(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 0, kHangTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
}

}  // namespace
}  // namespace kiln::hsa_sim_test
