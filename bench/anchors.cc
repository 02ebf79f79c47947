// Compiled with -O3 and no -march, like the kernels in tests/kernels (see CMakeLists.txt),
// so the anchors and the add_f32 kernel get the same code generation; ReadSum, the
// bandwidth that decode products are held to, takes the widest vectors the CPU has instead.
#include "bench/anchors.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace kiln::bench {
namespace {

inline void CpuRelax() {
#if defined(__x86_64__)
  _mm_pause();
#endif
}

}  // namespace

void FreeDeleter::operator()(void* p) const { std::free(p); }

HostBlock AllocateTouched(size_t bytes) {
  constexpr size_t kPage = 4096;
  size_t rounded = (bytes + kPage - 1) / kPage * kPage;
  void* block = std::aligned_alloc(kPage, rounded);
  if (!block) throw std::bad_alloc();
  madvise(block, rounded, MADV_HUGEPAGE);
  std::memset(block, 1, rounded);
  return HostBlock(static_cast<uint8_t*>(block));
}

void Triad(float* __restrict a, const float* __restrict b, const float* __restrict c, float s, size_t begin,
           size_t end) {
  for (size_t i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
}

namespace {

typedef float Floats16 __attribute__((vector_size(16)));
typedef float Floats32 __attribute__((vector_size(32)));
typedef float Floats64 __attribute__((vector_size(64)));

// The sum of p[begin, end) in four partial sums of type Vector (GCC's vector extension),
// so that the adds do not wait on each other: the loop is bound by the read, not by the
// adds. Inlined into a function per instruction set, so that Vector is as wide as that
// set's registers (wider ones would be split and kept on the stack).
template <typename Vector>
__attribute__((always_inline)) inline float ReadSumIn(const float* __restrict p, size_t begin, size_t end) {
  constexpr size_t kLanes = sizeof(Vector) / sizeof(float), kPartials = 4, kStep = kLanes * kPartials;
  Vector partial[kPartials] = {};
  size_t i = begin;
  for (; i + kStep <= end; i += kStep) {
    for (size_t v = 0; v < kPartials; ++v) {
      Vector x;
      std::memcpy(&x, p + i + kLanes * v, sizeof(x));
      partial[v] += x;
    }
  }
  float sum = 0;
  for (; i < end; ++i) sum += p[i];
  for (const Vector& v : partial) {
    for (size_t lane = 0; lane < kLanes; ++lane) sum += v[lane];
  }
  return sum;
}

float ReadSumBaseline(const float* p, size_t begin, size_t end) { return ReadSumIn<Floats16>(p, begin, end); }

#if defined(__x86_64__)
__attribute__((target("avx512f"))) float ReadSumAvx512(const float* p, size_t begin, size_t end) {
  return ReadSumIn<Floats64>(p, begin, end);
}
__attribute__((target("avx2"))) float ReadSumAvx2(const float* p, size_t begin, size_t end) {
  return ReadSumIn<Floats32>(p, begin, end);
}
#endif

using ReadSumFunction = float (*)(const float*, size_t, size_t);

ReadSumFunction WidestReadSum() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return ReadSumAvx512;
  if (__builtin_cpu_supports("avx2")) return ReadSumAvx2;
#endif
  return ReadSumBaseline;
}

}  // namespace

// In the widest vectors the CPU has: with this file's baseline SSE2 alone the loop was not
// bound by the read. On an Intel Xeon whose 300 MiB L3 holds the 64 MiB read, 16-byte
// loads read at about 0.6 of what 64-byte loads do (3.9-7.2 against 2.6-2.8 ms), so
// matrix-vector products looked faster than the memory allowed.
float ReadSum(const float* p, size_t begin, size_t end) {
  static const ReadSumFunction widest = WidestReadSum();
  return widest(p, begin, end);
}

void AddLoop(float* __restrict out, const float* __restrict a, const float* __restrict b, size_t begin,
             size_t end) {
  for (size_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
}

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

void PinThisThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

ScopedPin::ScopedPin(int cpu) : saved_(sizeof(cpu_set_t)) {
  pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), reinterpret_cast<cpu_set_t*>(saved_.data()));
  PinThisThread(cpu);
}

ScopedPin::~ScopedPin() {
  pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), reinterpret_cast<const cpu_set_t*>(saved_.data()));
}

TwoThreads::TwoThreads()
    : cpus_(AllowedCpus()), pin_(cpus_.front()), thread_([this] {
        PinThisThread(cpus_.size() > 1 ? cpus_[1] : cpus_[0]);
        Loop();
      }) {}

TwoThreads::~TwoThreads() {
  stop_.store(true, std::memory_order_release);
  thread_.join();
}

void TwoThreads::Run(const std::function<void(int)>& fn) {
  fn_ = &fn;
  uint64_t ticket = posted_.fetch_add(1, std::memory_order_acq_rel) + 1;
  fn(0);
  while (finished_.load(std::memory_order_acquire) != ticket) CpuRelax();
}

void TwoThreads::Loop() {
  uint64_t seen = 0;
  while (true) {
    uint64_t posted;
    while ((posted = posted_.load(std::memory_order_acquire)) == seen) {
      if (stop_.load(std::memory_order_acquire)) return;
      CpuRelax();
    }
    seen = posted;
    (*fn_)(1);
    finished_.store(seen, std::memory_order_release);
  }
}

}  // namespace kiln::bench
