// Same-run anchors for the HAL benchmarks: plain host loops (memcpy, memset, STREAM triad)
// that kiln's numbers are quoted against, and the small helpers they need.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace kiln::bench {

struct FreeDeleter {
  void operator()(void* p) const;
};
using HostBlock = std::unique_ptr<uint8_t[], FreeDeleter>;

// `bytes` of page-aligned host memory advised for huge pages, allocated the way the cpu
// driver allocates large buffers (drivers/cpu/host_memory.cc), every page touched.
HostBlock AllocateTouched(size_t bytes);

// a[i] = b[i] + s * c[i] for i in [begin, end): the STREAM triad kernel.
void Triad(float* a, const float* b, const float* c, float s, size_t begin, size_t end);
// The sum of p[i] for i in [begin, end), read once in order with independent partial sums:
// the streaming read that a matrix-vector product's weights take.
float ReadSum(const float* p, size_t begin, size_t end);
// out[i] = a[i] + b[i] for i in [begin, end): what the add_f32 test kernel does per workgroup.
void AddLoop(float* out, const float* a, const float* b, size_t begin, size_t end);

// The CPUs this thread may run on.
std::vector<int> AllowedCpus();
// Restricts the calling thread to `cpu` until destroyed, then restores its previous mask.
class ScopedPin {
 public:
  explicit ScopedPin(int cpu);
  ~ScopedPin();
  ScopedPin(const ScopedPin&) = delete;
  ScopedPin& operator=(const ScopedPin&) = delete;

 private:
  std::vector<uint8_t> saved_;  // a cpu_set_t
};
// Restricts the calling thread to `cpu` for good.
void PinThisThread(int cpu);

// Runs fn(0) on the calling thread and fn(1) on a second, persistent thread, and returns
// when both are done. The two threads are pinned to two different CPUs (as the cpu
// driver's workers are); the calling thread gets its affinity back on destruction. The
// second thread spins between runs, so keep one alive only for the duration of a benchmark.
class TwoThreads {
 public:
  TwoThreads();
  ~TwoThreads();
  TwoThreads(const TwoThreads&) = delete;
  TwoThreads& operator=(const TwoThreads&) = delete;
  void Run(const std::function<void(int part)>& fn);

 private:
  void Loop();
  const std::function<void(int)>* fn_ = nullptr;
  std::atomic<uint64_t> posted_{0};
  std::atomic<uint64_t> finished_{0};
  std::atomic<bool> stop_{false};
  std::vector<int> cpus_;  // allowed before pinning
  ScopedPin pin_;
  std::thread thread_;
};

// [begin, end) of `part` when `count` items are split in `parts` equal, 64-byte aligned
// (for 4-byte items) pieces.
inline void SplitRange(size_t count, int part, int parts, size_t* begin, size_t* end) {
  size_t per = (count / parts + 15) / 16 * 16;
  *begin = std::min(count, per * part);
  *end = part + 1 == parts ? count : std::min(count, per * (part + 1));
}

}  // namespace kiln::bench
