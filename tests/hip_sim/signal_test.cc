// Signals: values, waits with deadlines, wait-any, handle checks.
#include <chrono>
#include <string>
#include <thread>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

using HsaSimSignalTest = SimTest;
using std::chrono::steady_clock;

TEST_F(HsaSimSignalTest, Operations) {
  Init();
  hsa_signal_t s = Signal(10);
  EXPECT_EQ(hsa_signal_load_scacquire(s), 10);
  hsa_signal_add_screlease(s, 5);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 15);
  hsa_signal_subtract_relaxed(s, 20);
  EXPECT_EQ(hsa_signal_load_relaxed(s), -5);
  hsa_signal_store_screlease(s, 0b1100);
  hsa_signal_and_scacq_screl(s, 0b0110);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 0b0100);
  hsa_signal_or_relaxed(s, 0b0001);
  hsa_signal_xor_screlease(s, 0b1111);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 0b1010);
  EXPECT_EQ(hsa_signal_exchange_scacq_screl(s, 3), 0b1010);
  EXPECT_EQ(hsa_signal_cas_scacq_screl(s, 4, 9), 3);  // no match: unchanged
  EXPECT_EQ(hsa_signal_cas_scacq_screl(s, 3, 9), 3);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 9);
  hsa_signal_silent_store_relaxed(s, 1);
  EXPECT_EQ(hsa_signal_load_relaxed(s), 1);
  ASSERT_HSA_OK(hsa_signal_destroy(s));
}

TEST_F(HsaSimSignalTest, HandlesAreChecked) {
  Init();
  hsa_signal_t s = Signal(1);
  hsa_signal_t out;
  EXPECT_EQ(hsa_signal_create(0, 0, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_signal_create(0, 1, nullptr, &out), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t twice[2] = {gpus_[0], gpus_[0]};
  EXPECT_EQ(hsa_signal_create(0, 2, twice, &out), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t both[2] = {gpus_[0], cpu_};
  ASSERT_HSA_OK(hsa_signal_create(0, 2, both, &out));
  EXPECT_EQ(hsa_signal_destroy(hsa_signal_t{0}), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_signal_destroy(hsa_signal_t{0x1234}), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_HSA_OK(hsa_signal_destroy(s));
  EXPECT_EQ(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
  // Operations on a dead handle do nothing and say why.
  hsa_signal_store_relaxed(s, 5);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("hsa_signal_store_relaxed: signal"), std::string::npos)
      << kiln_hsa_sim_last_error();
  EXPECT_EQ(hsa_signal_load_scacquire(s), 0);
  EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, kHangTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
  // The last error belongs to the last call.
  EXPECT_EQ(hsa_signal_load_scacquire(out), 0);
  EXPECT_STREQ(kiln_hsa_sim_last_error(), "");
}

TEST_F(HsaSimSignalTest, WaitTimesOutWithTheCurrentValue) {
  Init();
  hsa_signal_t s = Signal(5);
  constexpr uint64_t kTimeoutNs = 30'000'000;
  auto start = steady_clock::now();
  EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, kTimeoutNs, HSA_WAIT_STATE_BLOCKED), 5);
  EXPECT_GE(steady_clock::now() - start, std::chrono::nanoseconds(kTimeoutNs));
  // Conditions already true return at once with the value.
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_GTE, 5, UINT64_MAX, HSA_WAIT_STATE_ACTIVE), 5);
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_LT, 6, UINT64_MAX, HSA_WAIT_STATE_ACTIVE), 5);
  EXPECT_EQ(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_NE, 4, UINT64_MAX, HSA_WAIT_STATE_ACTIVE), 5);
  // A bad condition returns the value at once.
  EXPECT_EQ(hsa_signal_wait_relaxed(s, static_cast<hsa_signal_condition_t>(9), 0, UINT64_MAX, HSA_WAIT_STATE_ACTIVE),
            5);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("condition 9"), std::string::npos);
}

TEST_F(HsaSimSignalTest, WaitWakesOnAnotherThreadsStore) {
  Init();
  hsa_signal_t s = Signal(1);
  int data = 0;
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // let the waiter go to sleep
    data = 42;
    hsa_signal_subtract_screlease(s, 1);
  });
  EXPECT_EQ(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, kHangTimeoutNs, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_EQ(data, 42);  // released by the subtract, acquired by the wait
  writer.join();
}

TEST_F(HsaSimSignalTest, WaitAny) {
  Init();
  hsa_signal_t signals[3] = {Signal(1), Signal(1), Signal(7)};
  hsa_signal_condition_t conds[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_LT};
  hsa_signal_value_t values[3] = {0, 0, 0};
  hsa_signal_value_t satisfying = -1;
  EXPECT_EQ(hsa_amd_signal_wait_any(3, signals, conds, values, 10'000'000, HSA_WAIT_STATE_BLOCKED, &satisfying),
            UINT32_MAX);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    hsa_signal_store_screlease(signals[1], 0);
  });
  EXPECT_EQ(hsa_amd_signal_wait_any(3, signals, conds, values, kHangTimeoutNs, HSA_WAIT_STATE_BLOCKED, &satisfying),
            1u);
  EXPECT_EQ(satisfying, 0);
  writer.join();
  hsa_signal_store_relaxed(signals[2], -3);
  hsa_signal_store_relaxed(signals[1], 1);
  EXPECT_EQ(hsa_amd_signal_wait_any(3, signals, conds, values, kHangTimeoutNs, HSA_WAIT_STATE_BLOCKED, &satisfying),
            2u);
  EXPECT_EQ(satisfying, -3);
  hsa_signal_t bad[1] = {hsa_signal_t{77}};
  EXPECT_EQ(hsa_amd_signal_wait_any(1, bad, conds, values, kHangTimeoutNs, HSA_WAIT_STATE_BLOCKED, nullptr),
            UINT32_MAX);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("signals[0]"), std::string::npos);
}

TEST_F(HsaSimSignalTest, ShutdownReleasesWaiters) {
  Init();
  hsa_signal_t s = Signal(1);
  std::thread waiter([&] {
    // 1 if the wait began before hsa_shut_down, 0 (a dead handle) if after: either way it returns.
    hsa_signal_value_t value =
        hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
    EXPECT_TRUE(value == 1 || value == 0) << value;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_HSA_OK(hsa_shut_down());
  waiter.join();
}

}  // namespace
}  // namespace kiln::hsa_sim_test
