// kiln-bench-hal: HAL microbenchmarks with same-run anchors (bench/README.md,
// docs/PERFORMANCE.md).
//
// Accounting (same for kiln and its anchors):
//   fill:     bytes written                         (memset anchor: bytes written)
//   copy:     bytes read + bytes written = 2 x size (memcpy anchor: the same)
//   add/triad: 12 bytes per float element (2 reads + 1 write; write-allocate not counted,
//              as in STREAM)
// Every buffer is written once before timing so page faults are not measured. Dispatch
// latencies use manual timing around QueueExecute -> semaphore wait only, and report the
// mean as the time plus p50/p90/max counters in microseconds.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/anchors.h"
#include "drivers/builtin_drivers.h"
#include "hal/device.h"
#include "tests/util/test_kernels.h"

namespace kiln::bench {
namespace {

constexpr size_t kTransferBytes = size_t{64} << 20;       // 64 MiB
constexpr size_t kElements = size_t{16} << 20;            // 16M floats = 64 MiB per array
constexpr uint32_t kAddWorkgroups = 256;                  // of 65536 elements each
constexpr int kIdleIterations = 60;

// Reports a failed Status on `state`; true when `status` is OK.
bool Ok(benchmark::State& state, const Status& status) {
  if (status.ok()) return true;
  state.SkipWithError(status.ToString().c_str());
  return false;
}
template <typename T>
bool Take(benchmark::State& state, StatusOr<T> in, T& out) {
  if (!Ok(state, in.status())) return false;
  out = std::move(in).value();
  return true;
}

// A device with one timeline semaphore: runs command buffers one at a time.
struct Queue {
  Ref<hal::Device> device;
  Ref<hal::Semaphore> semaphore = hal::Semaphore::Create(0);
  uint64_t value = 0;

  Status Submit(const Ref<hal::CommandBuffer>& cb) {
    hal::SemaphoreValue signal{semaphore, ++value};
    return device->QueueExecute({}, {&signal, 1}, {&cb, 1});
  }
  Status Wait() { return semaphore->Wait(value, Deadline::Infinite()); }
  Status Run(const Ref<hal::CommandBuffer>& cb) {
    KILN_RETURN_IF_ERROR(Submit(cb));
    return Wait();
  }
};

// The cpu driver pins oneTBB's worker threads and never unpins them (docs/runtime.md, CPU
// drivers; the unpinned runs in docs/performance-history.md), so an unpinned device is only unpinned if no pinned one ran before
// it in this process.
bool g_pinned_device_created = false;

bool MakeQueue(benchmark::State& state, const char* driver, uint32_t workers, bool pin, Queue& queue) {
  if (!pin && g_pinned_device_created) {
    state.SkipWithError("a pinned device ran earlier in this process and its workers stay pinned; run the "
                        "unpinned benchmarks alone (--benchmark_filter=unpinned)");
    return false;
  }
  g_pinned_device_created |= pin;
  hal::DeviceOptions options;
  options.worker_count = workers;
  options.pin_workers = pin;
  if (!Take(state, BuiltinDriverRegistry().CreateDevice(driver, options), queue.device)) return false;
  state.SetLabel(queue.device->info().name);
  return true;
}

bool Allocate(benchmark::State& state, Queue& queue, size_t bytes, Ref<hal::Buffer>& buffer) {
  hal::BufferParams params;  // device-local, default usage
  return Take(state, queue.device->allocator().Allocate(params, bytes), buffer);
}

// Fills `buffer` with a float through the HAL: touches every page before timing.
bool Touch(benchmark::State& state, Queue& queue, const Ref<hal::Buffer>& buffer, float value) {
  Ref<hal::CommandBuffer> cb = queue.device->CreateCommandBuffer();
  return Ok(state, cb->Fill(buffer, 0, buffer->byte_length(), &value, sizeof(value))) &&
         Ok(state, cb->Finalize()) && Ok(state, queue.Run(cb));
}

// Per-iteration latencies in seconds -> manual iteration time + percentile counters.
class Latencies {
 public:
  void Add(benchmark::State& state, Clock::duration d) {
    double seconds = std::chrono::duration<double>(d).count();
    state.SetIterationTime(seconds);
    samples_.push_back(seconds);
  }
  void Report(benchmark::State& state) {
    if (samples_.empty()) return;
    std::sort(samples_.begin(), samples_.end());
    auto at = [&](double q) { return samples_[std::min(samples_.size() - 1, size_t(q * samples_.size()))] * 1e6; };
    state.counters["p50_us"] = at(0.5);
    state.counters["p90_us"] = at(0.9);
    state.counters["max_us"] = samples_.back() * 1e6;
  }

 private:
  std::vector<double> samples_;
};

// ---------------------------------------------------------------------------------------
// Dispatch latency.

enum class Kernel { kNoop, kRendezvous };

struct DispatchSetup {
  Queue queue;
  Ref<hal::Buffer> counters;  // rendezvous only
  Ref<hal::CommandBuffer> cb;
};

// A finalized command buffer with one dispatch of `workgroups` workgroups.
bool MakeDispatch(benchmark::State& state, const char* driver, uint32_t workers, bool pin, Kernel kernel,
                  uint32_t workgroups, DispatchSetup& setup) {
  if (!MakeQueue(state, driver, workers, pin, setup.queue)) return false;
  hal::Device& device = *setup.queue.device;
  Ref<hal::Executable> executable;
  const char* library = kernel == Kernel::kNoop ? "test_kernels" : "bench_kernels";
  const char* name = kernel == Kernel::kNoop ? "noop" : "rendezvous";
  if (!Take(state, testing::LoadKernelLibrary(device, library), executable)) return false;
  uint32_t ordinal = 0;
  if (!Take(state, executable->LookupExport(name), ordinal)) return false;
  std::vector<hal::BufferBinding> bindings;
  if (kernel == Kernel::kRendezvous) {
    if (!Allocate(state, setup.queue, 64, setup.counters)) return false;
    uint32_t zero = 0;
    Ref<hal::CommandBuffer> init = device.CreateCommandBuffer();
    if (!Ok(state, init->Fill(setup.counters, 0, 64, &zero, 4)) || !Ok(state, init->Finalize()) ||
        !Ok(state, setup.queue.Run(init))) {
      return false;
    }
    bindings.push_back({setup.counters, 0, hal::kWholeBuffer});
  }
  setup.cb = device.CreateCommandBuffer();
  if (!Ok(state, setup.cb->Dispatch(executable, ordinal, {workgroups, 1, 1}, {}, bindings)) ||
      !Ok(state, setup.cb->Finalize())) {
    return false;
  }
  for (int i = 0; i < 20; ++i) {  // warm up: threads started, code and data cached
    if (!Ok(state, setup.queue.Run(setup.cb))) return false;
  }
  return true;
}

// Reads the rendezvous timeout count back (a copy into a mappable buffer).
void ReportTimeouts(benchmark::State& state, DispatchSetup& setup) {
  if (!setup.counters) return;
  hal::BufferParams params;
  params.memory_type = hal::MemoryType::kHostVisible;
  params.usage = hal::BufferUsage::kDefault | hal::BufferUsage::kMapping;
  Ref<hal::Buffer> host;
  if (!Take(state, setup.queue.device->allocator().Allocate(params, 64), host)) return;
  Ref<hal::CommandBuffer> cb = setup.queue.device->CreateCommandBuffer();
  if (!Ok(state, cb->Copy(setup.counters, 0, host, 0, 64)) || !Ok(state, cb->Finalize()) ||
      !Ok(state, setup.queue.Run(cb))) {
    return;
  }
  uint32_t values[2] = {0, 0};
  if (!Ok(state, host->Read(0, {reinterpret_cast<uint8_t*>(values), sizeof(values)}))) return;
  state.counters["timeouts"] = values[1];
}

// Times submit + wait of the pre-recorded dispatch, each after `idle` of the application
// thread sleeping (not timed; zero: back to back).
void TimeDispatches(benchmark::State& state, DispatchSetup& setup, std::chrono::milliseconds idle) {
  Latencies latencies;
  for (auto _ : state) {
    if (idle.count() > 0) std::this_thread::sleep_for(idle);
    Clock::time_point start = Clock::now();
    Status status = setup.queue.Run(setup.cb);
    Clock::time_point end = Clock::now();
    if (!Ok(state, status)) return;
    latencies.Add(state, end - start);
  }
  latencies.Report(state);
  ReportTimeouts(state, setup);
}

void BM_DispatchHot(benchmark::State& state, const char* driver, Kernel kernel, uint32_t workgroups) {
  DispatchSetup setup;
  if (!MakeDispatch(state, driver, 0, true, kernel, workgroups, setup)) return;
  TimeDispatches(state, setup, std::chrono::milliseconds(0));
}

void BM_DispatchAfterIdle(benchmark::State& state, const char* driver, Kernel kernel, uint32_t workgroups,
                          bool pin) {
  DispatchSetup setup;
  if (!MakeDispatch(state, driver, 0, pin, kernel, workgroups, setup)) return;
  TimeDispatches(state, setup, std::chrono::milliseconds(state.range(0)));
}

#define DISPATCH_HOT(name, ...) \
  BENCHMARK_CAPTURE(BM_DispatchHot, name, __VA_ARGS__)->UseManualTime()->Unit(benchmark::kMicrosecond)
DISPATCH_HOT(cpu/noop_1wg, "cpu", Kernel::kNoop, 1);
DISPATCH_HOT(cpu-sync/noop_1wg, "cpu-sync", Kernel::kNoop, 1);
DISPATCH_HOT(cpu/noop_2wg, "cpu", Kernel::kNoop, 2);
DISPATCH_HOT(cpu/rendezvous_2wg, "cpu", Kernel::kRendezvous, 2);

DISPATCH_HOT(hip-sim/noop_1wg, "hip-sim", Kernel::kNoop, 1);

// Host cost of putting one dispatch on a queue, without its execution: the submission of a
// recorded command buffer (on hip-sim: one dispatch packet, the final fence and the doorbell),
// and recording a new one plus that submission (on hip-sim this includes preparing its
// packets and kernel arguments). Each of 64 submissions in flight signals its own semaphore
// (queue operations are ordered only by semaphores); all 64 are waited for outside the timed
// region, so the queue never fills.
void BM_SubmitOneDispatch(benchmark::State& state, const char* driver, bool record) {
  constexpr int kInFlight = 64;
  DispatchSetup setup;
  if (!MakeDispatch(state, driver, 0, true, Kernel::kNoop, 1, setup)) return;
  hal::Device& device = *setup.queue.device;
  Ref<hal::Executable> executable;
  if (!Take(state, testing::LoadKernelLibrary(device, "test_kernels"), executable)) return;
  uint32_t noop = *executable->LookupExport("noop");
  std::vector<hal::SemaphoreValue> done;
  for (int i = 0; i < kInFlight; ++i) done.push_back({hal::Semaphore::Create(0), 0});
  Latencies latencies;
  int pending = 0;
  for (auto _ : state) {
    Clock::time_point start = Clock::now();
    Ref<hal::CommandBuffer> cb = setup.cb;
    if (record) {
      cb = device.CreateCommandBuffer();
      if (!Ok(state, cb->Dispatch(executable, noop, {1, 1, 1}, {}, {})) || !Ok(state, cb->Finalize())) return;
    }
    hal::SemaphoreValue& signal = done[pending];
    ++signal.value;
    if (!Ok(state, device.QueueExecute({}, {&signal, 1}, {&cb, 1}))) return;
    Clock::time_point end = Clock::now();
    latencies.Add(state, end - start);
    if (++pending == kInFlight) {
      if (!Ok(state, hal::WaitAll(done, Deadline::Infinite()))) return;
      pending = 0;
    }
  }
  Ok(state, hal::WaitAll(done, Deadline::Infinite()));
  latencies.Report(state);
}
#define SUBMIT(name, ...) \
  BENCHMARK_CAPTURE(BM_SubmitOneDispatch, name, __VA_ARGS__)->UseManualTime()->Unit(benchmark::kMicrosecond)
SUBMIT(cpu/recorded, "cpu", false);
SUBMIT(cpu/record_and_submit, "cpu", true);
SUBMIT(hip-sim/recorded, "hip-sim", false);
SUBMIT(hip-sim/record_and_submit, "hip-sim", true);

#define DISPATCH_IDLE(name, ...)                                                                    \
  BENCHMARK_CAPTURE(BM_DispatchAfterIdle, name, __VA_ARGS__)                                        \
      ->ArgName("idle_ms")->Arg(1)->Arg(10)->Iterations(kIdleIterations)->UseManualTime()           \
      ->Unit(benchmark::kMicrosecond)
DISPATCH_IDLE(cpu/noop_1wg, "cpu", Kernel::kNoop, 1, true);
DISPATCH_IDLE(cpu/noop_2wg, "cpu", Kernel::kNoop, 2, true);
DISPATCH_IDLE(cpu/rendezvous_2wg, "cpu", Kernel::kRendezvous, 2, true);
DISPATCH_IDLE(cpu_unpinned/noop_1wg, "cpu", Kernel::kNoop, 1, false);
DISPATCH_IDLE(cpu_unpinned/rendezvous_2wg, "cpu", Kernel::kRendezvous, 2, false);

// Anchor for the dispatch-after-idle numbers: the cost of waking a thread blocked on a
// condition variable on the other CPU after the same idle time, with the waker spinning for
// its reply. No work, no queue: the floor any wake-up based runtime pays on this machine.
void BM_WakeAnchor(benchmark::State& state) {
  const auto idle = std::chrono::milliseconds(state.range(0));
  std::vector<int> cpus = AllowedCpus();
  ScopedPin pin(cpus.front());
  std::mutex mutex;
  std::condition_variable cv;
  uint64_t posted = 0;
  bool stop = false;
  std::atomic<uint64_t> acked{0};
  std::thread wakee([&] {
    PinThisThread(cpus.size() > 1 ? cpus[1] : cpus[0]);
    uint64_t seen = 0;
    std::unique_lock lock(mutex);
    while (true) {
      cv.wait(lock, [&] { return posted != seen || stop; });
      if (stop) return;
      seen = posted;
      acked.store(seen, std::memory_order_release);
    }
  });
  Latencies latencies;
  uint64_t ticket = 0;
  for (auto _ : state) {
    std::this_thread::sleep_for(idle);
    Clock::time_point start = Clock::now();
    {
      std::lock_guard lock(mutex);
      posted = ++ticket;
    }
    cv.notify_one();
    while (acked.load(std::memory_order_acquire) != ticket) {
    }
    latencies.Add(state, Clock::now() - start);
  }
  {
    std::lock_guard lock(mutex);
    stop = true;
  }
  cv.notify_one();
  wakee.join();
  latencies.Report(state);
}
BENCHMARK(BM_WakeAnchor)->ArgName("idle_ms")->Arg(1)->Arg(10)->Iterations(kIdleIterations)->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

// ---------------------------------------------------------------------------------------
// Fill / copy bandwidth through the HAL, 64 MiB device-local buffers.

// Fills with `pattern_length` bytes of `pattern`. Zero and non-zero data are measured
// apart: on this machine a large zero memset is much faster than any non-zero fill.
void BM_HalFill(benchmark::State& state, const char* driver, uint32_t workers, uint64_t pattern,
                size_t pattern_length) {
  Queue queue;
  Ref<hal::Buffer> target;
  if (!MakeQueue(state, driver, workers, true, queue) || !Allocate(state, queue, kTransferBytes, target) ||
      !Touch(state, queue, target, 2.0f)) {
    return;
  }
  Ref<hal::CommandBuffer> cb = queue.device->CreateCommandBuffer();
  if (!Ok(state, cb->Fill(target, 0, kTransferBytes, &pattern, pattern_length)) || !Ok(state, cb->Finalize())) return;
  for (auto _ : state) {
    if (!Ok(state, queue.Run(cb))) return;
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kTransferBytes));
}

void BM_HalCopy(benchmark::State& state, const char* driver, uint32_t workers) {
  Queue queue;
  Ref<hal::Buffer> source, target;
  if (!MakeQueue(state, driver, workers, true, queue) || !Allocate(state, queue, kTransferBytes, source) ||
      !Allocate(state, queue, kTransferBytes, target) || !Touch(state, queue, source, 1.0f) ||
      !Touch(state, queue, target, 0.0f)) {
    return;
  }
  Ref<hal::CommandBuffer> cb = queue.device->CreateCommandBuffer();
  if (!Ok(state, cb->Copy(source, 0, target, 0, kTransferBytes)) || !Ok(state, cb->Finalize())) return;
  for (auto _ : state) {
    if (!Ok(state, queue.Run(cb))) return;
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 2 * int64_t(kTransferBytes));
}

#define BANDWIDTH(fn, name, ...) \
  BENCHMARK_CAPTURE(fn, name, __VA_ARGS__)->UseRealTime()->Unit(benchmark::kMillisecond)
BANDWIDTH(BM_HalFill, cpu/f32_1.0, "cpu", 0, 0x3f800000, 4);
BANDWIDTH(BM_HalFill, cpu_1worker/f32_1.0, "cpu", 1, 0x3f800000, 4);
BANDWIDTH(BM_HalFill, cpu-sync/f32_1.0, "cpu-sync", 0, 0x3f800000, 4);
BANDWIDTH(BM_HalFill, cpu/f32_0.0, "cpu", 0, 0, 4);
BANDWIDTH(BM_HalFill, cpu_1worker/f32_0.0, "cpu", 1, 0, 4);
BANDWIDTH(BM_HalFill, cpu-sync/f32_0.0, "cpu-sync", 0, 0, 4);
BANDWIDTH(BM_HalFill, cpu/u8_0x3f, "cpu", 0, 0x3f, 1);
BANDWIDTH(BM_HalFill, cpu_1worker/u8_0x3f, "cpu", 1, 0x3f, 1);
BANDWIDTH(BM_HalFill, cpu-sync/u8_0x3f, "cpu-sync", 0, 0x3f, 1);
BANDWIDTH(BM_HalFill, cpu/u8_0x00, "cpu", 0, 0, 1);
BANDWIDTH(BM_HalFill, cpu_1worker/u8_0x00, "cpu", 1, 0, 1);
BANDWIDTH(BM_HalFill, cpu-sync/u8_0x00, "cpu-sync", 0, 0, 1);
BANDWIDTH(BM_HalCopy, cpu, "cpu", 0);
BANDWIDTH(BM_HalCopy, cpu_1worker, "cpu", 1);
BANDWIDTH(BM_HalCopy, cpu-sync, "cpu-sync", 0);

// Anchors: memset / memcpy of the same sizes on host memory allocated the same way.
void BM_Memset(benchmark::State& state) {
  const int threads = int(state.range(0));
  const int value = int(state.range(1));
  HostBlock target = AllocateTouched(kTransferBytes);
  std::unique_ptr<TwoThreads> pool = threads == 2 ? std::make_unique<TwoThreads>() : nullptr;
  std::function<void(int)> part = [&](int p) {
    size_t begin, end;
    SplitRange(kTransferBytes, p, threads, &begin, &end);
    std::memset(target.get() + begin, value, end - begin);
  };
  for (auto _ : state) {
    if (pool) pool->Run(part); else part(0);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kTransferBytes));
}

void BM_Memcpy(benchmark::State& state) {
  const int threads = int(state.range(0));
  const size_t chunk = size_t(state.range(1));  // 0: one call per thread
  HostBlock source = AllocateTouched(kTransferBytes), target = AllocateTouched(kTransferBytes);
  std::unique_ptr<TwoThreads> pool = threads == 2 ? std::make_unique<TwoThreads>() : nullptr;
  std::function<void(int)> part = [&](int p) {
    size_t begin, end;
    SplitRange(kTransferBytes, p, threads, &begin, &end);
    size_t step = chunk ? chunk : end - begin;
    for (size_t at = begin; at < end; at += step) {
      std::memcpy(target.get() + at, source.get() + at, std::min(step, end - at));
    }
  };
  for (auto _ : state) {
    if (pool) pool->Run(part); else part(0);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 2 * int64_t(kTransferBytes));
}

BENCHMARK(BM_Memset)
    ->ArgNames({"threads", "value"})
    ->ArgsProduct({{1, 2}, {0x3f, 0}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Memcpy)
    ->ArgNames({"threads", "chunk"})
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({1, 1 << 20})  // the cpu driver's transfer chunk (drivers/cpu/command_executor.cc)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------------------
// Elementwise: out = a + b over 16M floats through the add_f32 kernel.

void BM_HalAddF32(benchmark::State& state, const char* driver, uint32_t workers) {
  Queue queue;
  Ref<hal::Buffer> a, b, out;
  if (!MakeQueue(state, driver, workers, true, queue)) return;
  const size_t bytes = kElements * sizeof(float);
  if (!Allocate(state, queue, bytes, a) || !Allocate(state, queue, bytes, b) || !Allocate(state, queue, bytes, out) ||
      !Touch(state, queue, a, 1.0f) || !Touch(state, queue, b, 2.0f) || !Touch(state, queue, out, 0.0f)) {
    return;
  }
  Ref<hal::Executable> executable;
  uint32_t ordinal = 0;
  if (!Take(state, testing::LoadKernelLibrary(*queue.device), executable) ||
      !Take(state, executable->LookupExport("add_f32"), ordinal)) {
    return;
  }
  const uint32_t per_workgroup = uint32_t(kElements / kAddWorkgroups);
  const uint32_t constants[] = {uint32_t(kElements), per_workgroup};
  const hal::BufferBinding bindings[] = {{a}, {b}, {out}};
  Ref<hal::CommandBuffer> cb = queue.device->CreateCommandBuffer();
  if (!Ok(state, cb->Dispatch(executable, ordinal, {kAddWorkgroups, 1, 1}, constants, bindings)) ||
      !Ok(state, cb->Finalize()) || !Ok(state, queue.Run(cb))) {
    return;
  }
  for (auto _ : state) {
    if (!Ok(state, queue.Run(cb))) return;
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 12 * int64_t(kElements));
}

BANDWIDTH(BM_HalAddF32, cpu, "cpu", 0);
BANDWIDTH(BM_HalAddF32, cpu_1worker, "cpu", 1);
BANDWIDTH(BM_HalAddF32, cpu-sync, "cpu-sync", 0);

// Anchors: STREAM triad, and the add loop itself without the HAL, on 1 and 2 threads.
template <bool kTriad>
void BM_Stream(benchmark::State& state) {
  const int threads = int(state.range(0));
  const size_t bytes = kElements * sizeof(float);
  HostBlock a = AllocateTouched(bytes), b = AllocateTouched(bytes), c = AllocateTouched(bytes);
  float* pa = reinterpret_cast<float*>(a.get());
  const float* pb = reinterpret_cast<const float*>(b.get());
  const float* pc = reinterpret_cast<const float*>(c.get());
  std::unique_ptr<TwoThreads> pool = threads == 2 ? std::make_unique<TwoThreads>() : nullptr;
  std::function<void(int)> part = [&](int p) {
    size_t begin, end;
    SplitRange(kElements, p, threads, &begin, &end);
    if constexpr (kTriad) {
      Triad(pa, pb, pc, 3.0f, begin, end);
    } else {
      AddLoop(pa, pb, pc, begin, end);
    }
  };
  for (auto _ : state) {
    if (pool) pool->Run(part); else part(0);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * 12 * int64_t(kElements));
}

BENCHMARK(BM_Stream<true>)->Name("BM_StreamTriad")->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Stream<false>)->Name("BM_AddLoop")->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kiln::bench

BENCHMARK_MAIN();
