#include "hal/semaphore.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace kiln::hal {
namespace {

using namespace std::chrono_literals;

TEST(Semaphore, SignalAdvancesAndMustIncrease) {
  Ref<Semaphore> sem = Semaphore::Create(3);
  EXPECT_EQ(*sem->Query(), 3u);
  EXPECT_TRUE(sem->Signal(5).ok());
  EXPECT_EQ(*sem->Query(), 5u);
  Status s = sem->Signal(5);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.ToString().find("already at 5"), std::string::npos) << s.ToString();
}

TEST(Semaphore, WaitReturnsAtOnceWhenReached) {
  Ref<Semaphore> sem = Semaphore::Create(10);
  EXPECT_TRUE(sem->Wait(7, Deadline::Immediate()).ok());
}

TEST(Semaphore, WaitTimesOut) {
  Ref<Semaphore> sem = Semaphore::Create(0);
  EXPECT_EQ(sem->Wait(1, Deadline::Immediate()).code(), StatusCode::kDeadlineExceeded);
  auto start = Clock::now();
  Status s = sem->Wait(1, Deadline::After(20ms));
  EXPECT_EQ(s.code(), StatusCode::kDeadlineExceeded);
  EXPECT_GE(Clock::now() - start, 20ms);
}

TEST(Semaphore, WaitWakesOnSignalFromAnotherThread) {
  Ref<Semaphore> sem = Semaphore::Create(0);
  std::thread signaler([&] {
    std::this_thread::sleep_for(5ms);
    EXPECT_TRUE(sem->Signal(1).ok());
    std::this_thread::sleep_for(5ms);
    EXPECT_TRUE(sem->Signal(2).ok());
  });
  EXPECT_TRUE(sem->Wait(2, Deadline::After(10s)).ok());
  signaler.join();
}

TEST(Semaphore, FailureReachesWaitersQueriesAndSignals) {
  Ref<Semaphore> sem = Semaphore::Create(0);
  std::thread failer([&] {
    std::this_thread::sleep_for(5ms);
    sem->Fail(AbortedError("kernel exploded"));
  });
  Status waited = sem->Wait(1, Deadline::After(10s));
  failer.join();
  EXPECT_EQ(waited.code(), StatusCode::kAborted);
  EXPECT_NE(waited.ToString().find("kernel exploded"), std::string::npos);
  EXPECT_EQ(sem->Query().status().code(), StatusCode::kAborted);
  EXPECT_EQ(sem->Signal(1).code(), StatusCode::kAborted);
  // The first failure wins.
  sem->Fail(InternalError("second"));
  EXPECT_EQ(sem->Query().status().message(), "kernel exploded");
}

TEST(Semaphore, CallbacksRunOnReachFailureOrDestruction) {
  Ref<Semaphore> sem = Semaphore::Create(0);
  std::vector<std::string> seen;
  sem->OnReach(0, [&](const Status& s) { seen.push_back("now:" + s.ToString()); });
  sem->OnReach(2, [&](const Status& s) { seen.push_back("two:" + s.ToString()); });
  sem->OnReach(9, [&](const Status& s) { seen.push_back("nine:" + std::string(StatusCodeName(s.code()))); });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(sem->Signal(1).ok());
  EXPECT_EQ(seen.size(), 1u);
  EXPECT_TRUE(sem->Signal(3).ok());
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1], "two:OK");
  sem.reset();  // destroyed with a pending callback: it is cancelled, not forgotten
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[2], "nine:CANCELLED");

  Ref<Semaphore> failing = Semaphore::Create(0);
  Status got;
  failing->OnReach(1, [&](const Status& s) { got = s; });
  failing->Fail(DataLossError("gone"));
  EXPECT_EQ(got.code(), StatusCode::kDataLoss);
}

TEST(Semaphore, WaitAllChecksEverySemaphore) {
  Ref<Semaphore> a = Semaphore::Create(1), b = Semaphore::Create(0);
  SemaphoreValue list[] = {{a, 1}, {b, 1}};
  EXPECT_EQ(WaitAll(list, Deadline::Immediate()).code(), StatusCode::kDeadlineExceeded);
  EXPECT_TRUE(b->Signal(1).ok());
  EXPECT_TRUE(WaitAll(list, Deadline::Immediate()).ok());
  SemaphoreValue with_null[] = {{a, 1}, {nullptr, 1}};
  EXPECT_EQ(WaitAll(with_null, Deadline::Immediate()).code(), StatusCode::kInvalidArgument);
}

TEST(Semaphore, ManyThreadsSignalAndWait) {
  Ref<Semaphore> sem = Semaphore::Create(0);
  constexpr int kSteps = 2000;
  std::atomic<int> waits_done{0};
  std::thread waiter([&] {
    for (int i = 1; i <= kSteps; ++i) {
      if (sem->Wait(i, Deadline::After(10s)).ok()) ++waits_done;
    }
  });
  for (int i = 1; i <= kSteps; ++i) ASSERT_TRUE(sem->Signal(i).ok());
  waiter.join();
  EXPECT_EQ(waits_done.load(), kSteps);
}

}  // namespace
}  // namespace kiln::hal
