// The AQL queue writer on hip-sim: slots a batch reserved and did not use become empty
// barrier packets (a hole left INVALID would stall the packet processor forever), and a
// batch larger than the ring goes through it.
#include "drivers/hip/aql_queue.h"

#include <gtest/gtest.h>

#include "tests/util/status_testing.h"

namespace kiln::hip {
namespace {

class AqlQueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<std::shared_ptr<HsaRuntime>> runtime = HsaRuntime::Acquire(DefaultSimulatorLibraryPath());
    ASSERT_TRUE(runtime.ok()) << runtime.status().ToString();
    runtime_ = *runtime;
    ASSERT_FALSE(runtime_->gpus().empty());
    StatusOr<std::unique_ptr<AqlQueue>> queue =
        AqlQueue::Create(runtime_, runtime_->gpus()[0], 16, /*on_error=*/nullptr, nullptr);
    ASSERT_TRUE(queue.ok()) << queue.status().ToString();
    queue_ = std::move(*queue);
  }
  void TearDown() override {
    queue_.reset();
    runtime_.reset();
  }

  // A barrier-AND packet without dependencies that decrements `signal`.
  static void Fence(AqlQueue::Batch& batch, const Ref<PooledSignal>& signal) {
    auto* packet = batch.Next<hsa_barrier_and_packet_t>();
    packet->completion_signal = signal->handle();
    batch.Publish(PacketHeader(HSA_PACKET_TYPE_BARRIER_AND, true, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM), 0);
  }
  // The signal's value once it drops below `above` or 5 s pass.
  int64_t WaitBelow(const Ref<PooledSignal>& signal, int64_t above) {
    const HsaLibrary& hsa = runtime_->hsa();
    return hsa.hsa_signal_wait_scacquire(signal->handle(), HSA_SIGNAL_CONDITION_LT, above,
                                         5 * runtime_->timestamp_frequency(), HSA_WAIT_STATE_BLOCKED);
  }

  std::shared_ptr<HsaRuntime> runtime_;
  std::unique_ptr<AqlQueue> queue_;
};

TEST_F(AqlQueueTest, UnusedReservedSlotsAreFilled) {
  StatusOr<Ref<PooledSignal>> first = runtime_->AcquireSignal(1), second = runtime_->AcquireSignal(1);
  KILN_ASSERT_OK(first.status());
  KILN_ASSERT_OK(second.status());
  {
    AqlQueue::Batch batch = queue_->Begin(nullptr, nullptr);
    batch.Reserve(5);
    Fence(batch, *first);
  }  // four reserved slots left: padded
  {
    AqlQueue::Batch batch = queue_->Begin(nullptr, nullptr);
    Fence(batch, *second);
  }
  EXPECT_EQ(WaitBelow(*first, 1), 0);
  EXPECT_EQ(WaitBelow(*second, 1), 0) << "the packet after the padded slots never ran";
  EXPECT_EQ(queue_->read_index(), 6u);
}

TEST_F(AqlQueueTest, ABatchLargerThanTheRingWrapsAround) {
  constexpr int kPackets = 100;  // the ring holds 16
  StatusOr<Ref<PooledSignal>> done = runtime_->AcquireSignal(kPackets);
  KILN_ASSERT_OK(done.status());
  {
    AqlQueue::Batch batch = queue_->Begin(nullptr, nullptr);
    batch.Reserve(kPackets);
    for (int i = 0; i < kPackets; ++i) Fence(batch, *done);
  }
  EXPECT_EQ(WaitBelow(*done, 1), 0);
}

}  // namespace
}  // namespace kiln::hip
