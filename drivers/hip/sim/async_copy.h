// The copy engine of a GPU agent: hsa_amd_memory_async_copy's work, done by one thread per GPU
// agent in submission order. A copy waits until every dependency signal reads 0, copies, and
// decrements its completion signal by 1 with release semantics. A copy whose range is no
// longer inside an allocation when it runs sets the completion signal to -1 (HSA's
// "negative on error") and writes the reason to stderr, the only place it can go.
//
// In-order processing is what HSA allows: a copy waiting for its dependencies holds up the
// copies behind it on the same engine.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "drivers/hip/sim/signal.h"

namespace kiln::hsa_sim {

class AllocationTable;
struct Agent;

struct CopyJob {
  void* dst = nullptr;
  const void* src = nullptr;
  size_t size = 0;
  std::vector<std::shared_ptr<Signal>> dependencies;
  std::shared_ptr<Signal> completion;
};

class CopyEngine {
 public:
  CopyEngine(const Agent& agent, AllocationTable& memory);
  ~CopyEngine();  // Stop()s
  CopyEngine(const CopyEngine&) = delete;
  CopyEngine& operator=(const CopyEngine&) = delete;

  void Submit(CopyJob job);
  // Joins the thread; copies not done by then never complete.
  void Stop();

 private:
  void Main();
  bool WaitDependencies(const CopyJob& job);
  void Execute(const CopyJob& job);

  const Agent& agent_;
  AllocationTable& memory_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<CopyJob> jobs_;
  bool stop_ = false;  // guarded by mu_; also read through stopping_
  std::atomic<bool> stopping_{false};
  Waiter waiter_;  // dependency signals and Stop()
  std::thread thread_;
};

}  // namespace kiln::hsa_sim
