// Helpers for the HSA simulator's tests: a fixture that configures and initializes the runtime
// and shuts it down after each test, the test twin (sim_test_twin.c), a packet submitter that
// behaves like a driver, and kernarg blocks in the ABI's layout.
#pragma once

#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "drivers/hip/sim/hsa_sim_control.h"

namespace kiln::hsa_sim_test {

// Waits that only a hang reaches.
inline constexpr uint64_t kHangTimeoutNs = 30'000'000'000ull;

#define ASSERT_HSA_OK(expr)                                                                    \
  do {                                                                                         \
    hsa_status_t kiln_status_ = (expr);                                                        \
    ASSERT_EQ(kiln_status_, HSA_STATUS_SUCCESS) << #expr << ": " << kiln_hsa_sim_last_error(); \
  } while (0)
#define EXPECT_HSA_OK(expr)                                                                    \
  do {                                                                                         \
    hsa_status_t kiln_status_ = (expr);                                                        \
    EXPECT_EQ(kiln_status_, HSA_STATUS_SUCCESS) << #expr << ": " << kiln_hsa_sim_last_error(); \
  } while (0)

kiln_hsa_sim_agent_config_t Gpu(const char* isa, uint64_t memory_bytes = 0, uint32_t wavefront_size = 0);

// The bytes of the file at `path`; empty when it cannot be read.
std::vector<uint8_t> ReadFileBytes(const char* path);
// The bytes of build/lib/kernels/sim_test_twin.so.
const std::vector<uint8_t>& TestTwinBytes();

struct Pools {
  hsa_amd_memory_pool_t coarse{}, fine{}, group{};                  // GPU agent
  hsa_amd_memory_pool_t kernarg{}, system_fine{}, system_coarse{};  // CPU agent
};

// Records the queue error callback's arguments and what kiln_hsa_sim_last_error() said inside it.
struct QueueErrorCatcher {
  QueueErrorCatcher();
  ~QueueErrorCatcher();
  static void Callback(hsa_status_t status, hsa_queue_t* source, void* data);
  // Waits for the first call (ASSERTs it comes).
  void Wait();
  hsa_signal_t called{};  // 0 -> 1 at the first call
  std::atomic<int> calls{0};
  hsa_status_t status = HSA_STATUS_SUCCESS;
  hsa_queue_t* source = nullptr;
  std::string message;
};

class SimTest : public ::testing::Test {
 protected:
  void TearDown() override;

  // kiln_hsa_sim_configure(gpus) (none: the default) and hsa_init; fills gpus_, cpu_.
  void Init(std::initializer_list<kiln_hsa_sim_agent_config_t> gpus = {});
  Pools PoolsOf(hsa_agent_t gpu) const;
  void* Allocate(hsa_amd_memory_pool_t pool, size_t size);
  hsa_signal_t Signal(int64_t value);
  hsa_queue_t* CreateQueue(hsa_agent_t agent, uint32_t size, QueueErrorCatcher* errors = nullptr);

  // Loads the test twin for `agent` into a new executable and freezes it.
  hsa_executable_t LoadTwin(hsa_agent_t agent);
  uint64_t KernelObject(hsa_executable_t executable, hsa_agent_t agent, const char* name);

  std::vector<hsa_agent_t> gpus_;
  hsa_agent_t cpu_{};
  bool initialized_ = false;
};

// Builds a kernarg block (bindings, constants, workgroup_count) at `dst`.
void WriteKernarg(void* dst, std::initializer_list<const void*> bindings, std::initializer_list<uint32_t> constants,
                  const uint32_t grid[3], const uint16_t workgroup[3]);

uint16_t Header(hsa_packet_type_t type, bool barrier, uint32_t acquire_scope = HSA_FENCE_SCOPE_SYSTEM,
                uint32_t release_scope = HSA_FENCE_SCOPE_SYSTEM);

hsa_kernel_dispatch_packet_t DispatchPacket(uint64_t kernel_object, void* kernarg, std::initializer_list<uint32_t> grid,
                                            std::initializer_list<uint16_t> workgroup, hsa_signal_t completion,
                                            bool barrier = false, uint32_t group_segment_size = 0);

// Submits a 64-byte packet the way a driver does: reserve a slot, wait while the ring is
// full, write the body, publish header and setup with one release store, ring the doorbell.
// Returns the packet id.
uint64_t Submit(hsa_queue_t* queue, const void* packet);

// An executable symbol's attribute of type T (EXPECTs the query succeeds).
template <typename T>
T SymbolInfo(hsa_executable_symbol_t symbol, hsa_executable_symbol_info_t attribute) {
  T value{};
  EXPECT_EQ(hsa_executable_symbol_get_info(symbol, attribute, &value), HSA_STATUS_SUCCESS) << kiln_hsa_sim_last_error();
  return value;
}

// Waits until `signal` equals `value`; returns the value seen.
int64_t WaitEq(hsa_signal_t signal, int64_t value, uint64_t timeout_ns = kHangTimeoutNs);

}  // namespace kiln::hsa_sim_test
