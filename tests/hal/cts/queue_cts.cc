#include <thread>

#include "tests/hal/cts/cts_fixture.h"

namespace kiln::hal::cts {
namespace {

using namespace std::chrono_literals;

class QueueTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    kernels_ = Kernels();
    ASSERT_TRUE(kernels_);
  }

  // A command buffer that applies buf = buf * 2 + 1 to `n` words.
  Ref<CommandBuffer> Step(const Ref<Buffer>& buf, uint32_t n) {
    Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
    BufferBinding binding{buf};
    EXPECT_TRUE(cb->Dispatch(kernels_, Export(kernels_, "double_plus_one"), {1, 1, 1}, {&n, 1}, {&binding, 1}).ok());
    EXPECT_TRUE(cb->Finalize().ok());
    return cb;
  }
  Ref<CommandBuffer> Failing() {
    Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
    uint32_t id = 0;
    EXPECT_TRUE(cb->Dispatch(kernels_, Export(kernels_, "fail_at"), {1, 1, 1}, {&id, 1}, {}).ok());
    EXPECT_TRUE(cb->Finalize().ok());
    return cb;
  }

  Ref<Executable> kernels_;
};

TEST_P(QueueTest, ExecuteWaitsForItsWaitSemaphores) {
  Ref<Buffer> buf = HostBufferWith<uint32_t>({0});
  Ref<Semaphore> gate = Semaphore::Create(0), done = Semaphore::Create(0);
  SemaphoreValue wait[] = {{gate, 2}};
  SemaphoreValue signal[] = {{done, 1}};
  Ref<CommandBuffer> cbs[] = {Step(buf, 1)};
  KILN_ASSERT_OK(device_->QueueExecute(wait, signal, cbs));
  KILN_ASSERT_OK(gate->Signal(1));  // not yet enough
  ExpectError(done->Wait(1, Deadline::After(20ms)), StatusCode::kDeadlineExceeded, "did not reach 1");
  EXPECT_EQ(Contents<uint32_t>(buf)[0], 0u);
  KILN_ASSERT_OK(gate->Signal(2));
  KILN_ASSERT_OK(done->Wait(1, Deadline::After(10s)));
  EXPECT_EQ(Contents<uint32_t>(buf)[0], 1u);
}

TEST_P(QueueTest, ChainedSubmissionsRunInSemaphoreOrder) {
  Ref<Buffer> buf = HostBufferWith<uint32_t>({0, 0});
  Ref<Semaphore> timeline = Semaphore::Create(0);
  Ref<CommandBuffer> step = Step(buf, 2);
  // Submit in reverse so only the semaphores can produce the right order.
  for (uint64_t i = 6; i >= 1; --i) {
    SemaphoreValue wait[] = {{timeline, i - 1}};
    SemaphoreValue signal[] = {{timeline, i}};
    Ref<CommandBuffer> cbs[] = {step};
    KILN_ASSERT_OK(device_->QueueExecute(wait, signal, cbs));
  }
  KILN_ASSERT_OK(timeline->Wait(6, Deadline::After(10s)));
  EXPECT_EQ(Contents<uint32_t>(buf), (std::vector<uint32_t>{63, 63}));
}

TEST_P(QueueTest, SeveralCommandBuffersInOneSubmissionRunInOrder) {
  Ref<Buffer> buf = HostBufferWith<uint32_t>({1});
  KILN_ASSERT_OK(SubmitAndWait({Step(buf, 1), Step(buf, 1), Step(buf, 1)}));
  EXPECT_EQ(Contents<uint32_t>(buf)[0], 15u);
}

TEST_P(QueueTest, FailurePropagatesDownTheChain) {
  Ref<Buffer> buf = HostBufferWith<uint32_t>({0});
  Ref<Semaphore> a = Semaphore::Create(0), b = Semaphore::Create(0);
  SemaphoreValue signal_a[] = {{a, 1}};
  Ref<CommandBuffer> failing[] = {Failing()};
  KILN_ASSERT_OK(device_->QueueExecute({}, signal_a, failing));
  SemaphoreValue wait_a[] = {{a, 1}};
  SemaphoreValue signal_b[] = {{b, 1}};
  Ref<CommandBuffer> step[] = {Step(buf, 1)};
  KILN_ASSERT_OK(device_->QueueExecute(wait_a, signal_b, step));
  Status status = b->Wait(1, Deadline::After(10s));
  ExpectError(status, StatusCode::kAborted, KernelFailureText(42));
  ExpectError(status, StatusCode::kAborted, "while waiting on a wait semaphore");
  // The dependent work did not run.
  EXPECT_EQ(Contents<uint32_t>(buf)[0], 0u);
  // Work submitted after the failure on the failed semaphore fails at once.
  SemaphoreValue signal_next[] = {{b, 2}};
  ExpectError(device_->QueueExecute(wait_a, signal_next, step), StatusCode::kAborted, "already failed");
}

TEST_P(QueueTest, HostFailureOfAWaitSemaphoreFailsTheSubmission) {
  Ref<Semaphore> gate = Semaphore::Create(0), done = Semaphore::Create(0);
  Ref<Buffer> buf = HostBufferWith<uint32_t>({0});
  SemaphoreValue wait[] = {{gate, 1}};
  SemaphoreValue signal[] = {{done, 1}};
  Ref<CommandBuffer> cbs[] = {Step(buf, 1)};
  KILN_ASSERT_OK(device_->QueueExecute(wait, signal, cbs));
  gate->Fail(CancelledError("user gave up"));
  ExpectError(done->Wait(1, Deadline::After(10s)), StatusCode::kCancelled, "user gave up");
  EXPECT_EQ(Contents<uint32_t>(buf)[0], 0u);
}

TEST_P(QueueTest, SubmitArgumentsAreValidated) {
  Ref<Semaphore> sem = Semaphore::Create(5);
  Ref<CommandBuffer> cbs[] = {Step(HostBuffer(4), 1)};
  SemaphoreValue stale[] = {{sem, 5}};
  ExpectError(device_->QueueExecute({}, stale, cbs), StatusCode::kInvalidArgument, "already at 5");
  SemaphoreValue null_wait[] = {{nullptr, 1}};
  ExpectError(device_->QueueExecute(null_wait, {}, cbs), StatusCode::kInvalidArgument, "wait semaphore 0 is null");
  Ref<CommandBuffer> null_cb[] = {nullptr};
  ExpectError(device_->QueueExecute({}, {}, null_cb), StatusCode::kInvalidArgument, "command buffer 0 is null");
}

TEST_P(QueueTest, TransientBufferLifecycle) {
  constexpr uint32_t kN = 256;
  Ref<Semaphore> timeline = Semaphore::Create(0);
  SemaphoreValue t1[] = {{timeline, 1}}, t2[] = {{timeline, 2}}, t3[] = {{timeline, 3}};
  StatusOr<Ref<Buffer>> transient = device_->QueueAlloca(
      {}, t1, {MemoryType::kDeviceLocal, BufferUsage::kDefault}, kN * 4);
  KILN_ASSERT_OK(transient.status());
  EXPECT_TRUE(AllSet((*transient)->memory_type(), MemoryType::kTransient));
  Ref<Buffer> result = HostBuffer(kN * 4);
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  uint32_t three = 3, n = kN;
  BufferBinding binding{*transient};
  KILN_ASSERT_OK(cb->Fill(*transient, 0, kWholeBuffer, &three, 4));
  KILN_ASSERT_OK(cb->ExecutionBarrier());
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "double_plus_one"), {1, 1, 1}, {&n, 1}, {&binding, 1}));
  KILN_ASSERT_OK(cb->ExecutionBarrier());
  KILN_ASSERT_OK(cb->Copy(*transient, 0, result, 0, kN * 4));
  KILN_ASSERT_OK(cb->Finalize());
  Ref<CommandBuffer> cbs[] = {cb};
  KILN_ASSERT_OK(device_->QueueExecute(t1, t2, cbs));
  KILN_ASSERT_OK(device_->QueueDealloca(t2, t3, *transient));
  KILN_ASSERT_OK(timeline->Wait(3, Deadline::After(10s)));
  for (uint32_t v : Contents<uint32_t>(result)) ASSERT_EQ(v, 7u);
  EXPECT_EQ(device_->queue_statistics().transient_bytes_reserved, 0u);

  // Using the buffer after its dealloca fails the submission with the reason.
  Ref<Semaphore> after = Semaphore::Create(0);
  SemaphoreValue signal[] = {{after, 1}};
  KILN_ASSERT_OK(device_->QueueExecute({}, signal, cbs));
  ExpectError(after->Wait(1, Deadline::After(10s)), StatusCode::kFailedPrecondition,
              "transient buffer that is not allocated");
}

TEST_P(QueueTest, DeallocaRejectsBuffersItDidNotAllocate) {
  Ref<Buffer> plain = HostBuffer(64);
  ExpectError(device_->QueueDealloca({}, {}, plain), StatusCode::kInvalidArgument, "made by queue_alloca");
  ExpectError(device_->QueueDealloca({}, {}, nullptr), StatusCode::kInvalidArgument, "null buffer");
}

TEST_P(QueueTest, WaitIdleWaitsForAcceptedWork) {
  Ref<Semaphore> gate = Semaphore::Create(0), done = Semaphore::Create(0);
  SemaphoreValue wait[] = {{gate, 1}};
  SemaphoreValue signal[] = {{done, 1}};
  Ref<CommandBuffer> cbs[] = {Step(HostBuffer(4), 1)};
  KILN_ASSERT_OK(device_->QueueExecute(wait, signal, cbs));
  ExpectError(device_->WaitIdle(Deadline::After(10ms)), StatusCode::kDeadlineExceeded, "still pending");
  std::thread opener([&] {
    std::this_thread::sleep_for(5ms);
    EXPECT_TRUE(gate->Signal(1).ok());
  });
  KILN_EXPECT_OK(device_->WaitIdle(Deadline::After(10s)));
  opener.join();
  KILN_EXPECT_OK(done->Query().status());
  EXPECT_EQ(*done->Query(), 1u);
}

TEST_P(QueueTest, DestroyingTheDeviceCancelsWorkStillWaiting) {
  Ref<Semaphore> gate = Semaphore::Create(0), done = Semaphore::Create(0);
  {
    SemaphoreValue wait[] = {{gate, 1}};
    SemaphoreValue signal[] = {{done, 1}};
    Ref<CommandBuffer> cbs[] = {Step(HostBuffer(4), 1)};
    KILN_ASSERT_OK(device_->QueueExecute(wait, signal, cbs));
    kernels_.reset();
    device_.reset();  // the last reference: the device goes away with work pending
  }
  KILN_ASSERT_OK(gate->Signal(1));
  ExpectError(done->Wait(1, Deadline::After(10s)), StatusCode::kCancelled, "device was destroyed");
}

TEST_P(QueueTest, ManyThreadsSubmitConcurrently) {
  constexpr int kThreads = 4, kPerThread = 50;
  std::vector<Ref<Buffer>> buffers;
  std::vector<Ref<CommandBuffer>> steps;
  for (int t = 0; t < kThreads; ++t) {
    buffers.push_back(HostBufferWith<uint32_t>({0}));
    steps.push_back(Step(buffers.back(), 1));
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Ref<Semaphore> sem = Semaphore::Create(0);
      for (int i = 1; i <= kPerThread; ++i) {
        SemaphoreValue signal[] = {{sem, static_cast<uint64_t>(i)}};
        Ref<CommandBuffer> cbs[] = {steps[t]};
        ASSERT_TRUE(device_->QueueExecute({}, signal, cbs).ok());
        ASSERT_TRUE(sem->Wait(i, Deadline::After(10s)).ok());
      }
    });
  }
  for (auto& th : threads) th.join();
  // 50 applications of x*2+1 wrap around in uint32; compute the expected value.
  uint32_t want = 0;
  for (int i = 0; i < kPerThread; ++i) want = want * 2 + 1;
  for (const auto& b : buffers) EXPECT_EQ(Contents<uint32_t>(b)[0], want);
}

KILN_INSTANTIATE_CTS(QueueTest);

}  // namespace
}  // namespace kiln::hal::cts
