// Dispatch profiling (hsa_amd_profiling_*): times recorded per completion signal on a queue
// with profiling enabled, in system-timestamp ticks, and the errors for signals without them.
#include <cstring>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

class HsaSimProfilingTest : public SimTest {
 protected:
  void SetUpAgents(std::initializer_list<kiln_hsa_sim_agent_config_t> gpus = {}) {
    Init(gpus);
    gpu_ = gpus_[0];
    Pools pools = PoolsOf(gpu_);
    executable_ = LoadTwin(gpu_);
    kernargs_ = static_cast<uint8_t*>(Allocate(pools.kernarg, 16 * 64));
    data_ = static_cast<int32_t*>(Allocate(pools.coarse, 16 * sizeof(int32_t)));
    std::memset(data_, 0, 16 * sizeof(int32_t));
  }
  // add_one of data_[k] into data_[k + 1], completing `completion`.
  hsa_kernel_dispatch_packet_t AddOne(uint32_t k, hsa_signal_t completion, bool barrier) {
    void* kernarg = kernargs_ + 64 * k;
    uint32_t grid[3] = {1, 1, 1};
    uint16_t workgroup[3] = {64, 1, 1};
    WriteKernarg(kernarg, {&data_[k], &data_[k + 1]}, {1}, grid, workgroup);
    return DispatchPacket(KernelObject(executable_, gpu_, "add_one.kd"), kernarg, {1}, {64}, completion, barrier);
  }
  uint64_t SystemTimestamp() {
    uint64_t ticks = 0;
    EXPECT_HSA_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ticks));
    return ticks;
  }

  hsa_agent_t gpu_{};
  hsa_executable_t executable_{};
  uint8_t* kernargs_ = nullptr;
  int32_t* data_ = nullptr;
};

// Two dispatches, the first slowed down, the second behind a barrier bit: each signal has
// its own dispatch's times, inside the host's view of the run, in order, and the slow one
// lasts at least its delay.
TEST_F(HsaSimProfilingTest, EachSignalGetsItsDispatchTimes) {
  SetUpAgents();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  ASSERT_HSA_OK(hsa_amd_profiling_set_profiler_enabled(queue, 1));
  constexpr uint64_t kSlowUs = 20'000;
  ASSERT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_SLOW, 0, 0, kSlowUs), 0);
  hsa_signal_t first = Signal(1), second = Signal(1);
  uint64_t before = SystemTimestamp();
  hsa_kernel_dispatch_packet_t a = AddOne(0, first, false);
  hsa_kernel_dispatch_packet_t b = AddOne(1, second, true);
  Submit(queue, &a);
  Submit(queue, &b);
  ASSERT_EQ(WaitEq(second, 0), 0);
  uint64_t after = SystemTimestamp();
  EXPECT_EQ(data_[2], 2);

  hsa_amd_profiling_dispatch_time_t ta{}, tb{};
  ASSERT_HSA_OK(hsa_amd_profiling_get_dispatch_time(gpu_, first, &ta));
  ASSERT_HSA_OK(hsa_amd_profiling_get_dispatch_time(gpu_, second, &tb));
  EXPECT_LE(before, ta.start);
  EXPECT_LE(ta.start, ta.end);
  EXPECT_GE(ta.end - ta.start, kSlowUs * 1000) << "the slowed dispatch's time does not cover its delay";
  EXPECT_LE(ta.end, tb.start) << "the barrier packet started before the packet it waits for ended";
  EXPECT_LE(tb.start, tb.end);
  EXPECT_LE(tb.end, after);
  kiln_hsa_sim_clear_faults();
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

// Profiling is per queue and off at creation; turning it off stops the recording.
TEST_F(HsaSimProfilingTest, OnlyDispatchesOfAProfilingQueueAreTimed) {
  SetUpAgents();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  hsa_signal_t unprofiled = Signal(1);
  hsa_kernel_dispatch_packet_t a = AddOne(0, unprofiled, false);
  Submit(queue, &a);
  ASSERT_EQ(WaitEq(unprofiled, 0), 0);
  hsa_amd_profiling_dispatch_time_t t{};
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(gpu_, unprofiled, &t), HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("completed no dispatch packet of a queue with profiling"),
            std::string::npos)
      << kiln_hsa_sim_last_error();

  ASSERT_HSA_OK(hsa_amd_profiling_set_profiler_enabled(queue, 1));
  ASSERT_HSA_OK(hsa_amd_profiling_set_profiler_enabled(queue, 0));
  hsa_signal_t after_off = Signal(1);
  hsa_kernel_dispatch_packet_t b = AddOne(1, after_off, true);
  Submit(queue, &b);
  ASSERT_EQ(WaitEq(after_off, 0), 0);
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(gpu_, after_off, &t), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

TEST_F(HsaSimProfilingTest, ArgumentErrors) {
  SetUpAgents({Gpu("gfx942"), Gpu("gfx942")});
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  EXPECT_EQ(hsa_amd_profiling_set_profiler_enabled(nullptr, 1), HSA_STATUS_ERROR_INVALID_QUEUE);
  hsa_queue_t not_a_queue{};
  EXPECT_EQ(hsa_amd_profiling_set_profiler_enabled(&not_a_queue, 1), HSA_STATUS_ERROR_INVALID_QUEUE);
  ASSERT_HSA_OK(hsa_amd_profiling_set_profiler_enabled(queue, 1));
  hsa_signal_t done = Signal(1);
  hsa_kernel_dispatch_packet_t a = AddOne(0, done, false);
  Submit(queue, &a);
  ASSERT_EQ(WaitEq(done, 0), 0);

  hsa_amd_profiling_dispatch_time_t t{};
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(gpu_, done, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(gpu_, hsa_signal_t{0}, &t), HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(gpu_, hsa_signal_t{0x1234}, &t), HSA_STATUS_ERROR_INVALID_SIGNAL);
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(hsa_agent_t{0x1234}, done, &t), HSA_STATUS_ERROR_INVALID_AGENT);
  // The dispatch ran on the first GPU, not the second.
  EXPECT_EQ(hsa_amd_profiling_get_dispatch_time(gpus_[1], done, &t), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_HSA_OK(hsa_amd_profiling_get_dispatch_time(gpu_, done, &t));

  // The simulated agents count in the system clock: the conversion is the identity.
  uint64_t system_tick = 0;
  ASSERT_HSA_OK(hsa_amd_profiling_convert_tick_to_system_domain(gpu_, 123456789, &system_tick));
  EXPECT_EQ(system_tick, 123456789u);
  EXPECT_EQ(hsa_amd_profiling_convert_tick_to_system_domain(gpu_, 1, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t{0x1234}, 1, &system_tick),
            HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

}  // namespace
}  // namespace kiln::hsa_sim_test
