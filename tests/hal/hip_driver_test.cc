// Tests of the hip driver that the conformance suite cannot express, run on hip-sim: the ring
// under back-pressure, barrier packets between queues, deadlines, fault attribution through
// the simulator's fault injection, code object and kernel ABI checks, pool exhaustion, and
// what the real runtime says on a machine without a GPU.
#include <gtest/gtest.h>

#include <regex>

#include "base/trace.h"
#include "drivers/builtin_drivers.h"
#include "hal/abi/gpu_kernel_abi.h"
#include "hal/hal.h"
#include "tests/util/sim_control.h"
#include "tests/util/status_testing.h"
#include "tests/util/test_kernels.h"

namespace kiln::hal {
namespace {

using ::kiln::testing::ExpectError;
using namespace std::chrono_literals;

class HipSimTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<testing::SimControl> sim = testing::SimControl::Open();
    ASSERT_TRUE(sim.ok()) << sim.status().ToString();
    sim_ = *sim;
  }
  void TearDown() override {
    if (!sim_.configure) return;
    sim_.clear_faults();
    // Back to the default agents for the next test (every device of this one is gone).
    EXPECT_EQ(sim_.configure(nullptr, 0), 0);
  }

  // Sets the simulated agents; call before creating a device.
  void Agents(std::vector<kiln_hsa_sim_agent_config_t> agents) {
    ASSERT_EQ(sim_.configure(agents.data(), static_cast<uint32_t>(agents.size())), 0)
        << "the simulator was still initialized: a device of an earlier test is alive";
  }

  Ref<Device> Create(std::string_view name = "hip-sim", DeviceOptions options = {}) {
    StatusOr<Ref<Device>> device = BuiltinDriverRegistry().CreateDevice(name, options);
    EXPECT_TRUE(device.ok()) << device.status().ToString();
    return device.ok() ? *device : Ref<Device>();
  }

  static Ref<Buffer> HostBuffer(Device& device, std::vector<uint32_t> values) {
    StatusOr<Ref<Buffer>> buffer = device.allocator().Allocate(
        {MemoryType::kHostVisible, BufferUsage::kDefault | BufferUsage::kMapping}, values.size() * 4);
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    EXPECT_TRUE((*buffer)->Write(0, {reinterpret_cast<const uint8_t*>(values.data()), values.size() * 4}).ok());
    return *buffer;
  }
  static std::vector<uint32_t> Contents(const Ref<Buffer>& buffer) {
    std::vector<uint32_t> out(buffer->byte_length() / 4);
    EXPECT_TRUE(buffer->Read(0, {reinterpret_cast<uint8_t*>(out.data()), out.size() * 4}).ok());
    return out;
  }
  static Ref<Executable> Kernels(Device& device) {
    StatusOr<Ref<Executable>> exe = testing::LoadKernelLibrary(device);
    EXPECT_TRUE(exe.ok()) << exe.status().ToString();
    return exe.ok() ? *exe : Ref<Executable>();
  }
  static Status Run(Device& device, const Ref<CommandBuffer>& cb, SemaphoreList wait = {},
                    Deadline deadline = Deadline::After(30s)) {
    Ref<Semaphore> done = Semaphore::Create(0);
    SemaphoreValue signal[] = {{done, 1}};
    Ref<CommandBuffer> cbs[] = {cb};
    KILN_RETURN_IF_ERROR(device.QueueExecute(wait, signal, cbs));
    return done->Wait(1, deadline);
  }
  // `count` dispatches of `kernel` (one workgroup each) on `binding`, a barrier before each.
  static Ref<CommandBuffer> Steps(Device& device, const Ref<Executable>& exe, std::string_view kernel,
                                  const Ref<Buffer>& buffer, int count, std::vector<uint32_t> constants = {}) {
    Ref<CommandBuffer> cb = device.CreateCommandBuffer();
    BufferBinding binding{buffer};
    uint32_t ordinal = *exe->LookupExport(kernel);
    for (int i = 0; i < count; ++i) {
      EXPECT_TRUE(cb->ExecutionBarrier().ok());
      Status s = cb->Dispatch(exe, ordinal, {1, 1, 1}, constants, {&binding, 1});
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    EXPECT_TRUE(cb->Finalize().ok());
    return cb;
  }
  Status LoadContainer(Device& device, const testing::GpuContainerOptions& options) {
    return device.CreateExecutable({kExecutableFormatAmdgpu, testing::GpuTestContainer(options), "probe"}).status();
  }
  // A gfx942 wave64 container holding `twin` and `hsaco`.
  static testing::GpuContainerOptions Code(std::vector<uint8_t> twin, std::vector<uint8_t> hsaco = {}) {
    testing::GpuContainerOptions options;
    options.host_twin = std::move(twin);
    options.hsaco = std::move(hsaco);
    return options;
  }
  static testing::GpuContainerOptions For(std::string target, uint32_t wave, std::vector<uint8_t> twin) {
    testing::GpuContainerOptions options = Code(std::move(twin));
    options.target = std::move(target);
    options.wavefront_size = wave;
    return options;
  }

  testing::SimControl sim_;
};

TEST_F(HipSimTest, DevicesAreTheSimulatedAgents) {
  Agents({{"gfx942", 0, 0, 0, 0}, {"gfx1100", 48, 0, 0, 0}});
  StatusOr<Driver*> driver = BuiltinDriverRegistry().Find("hip-sim");
  KILN_ASSERT_OK(driver.status());
  StatusOr<std::vector<DeviceDescription>> devices = (*driver)->EnumerateDevices({});
  KILN_ASSERT_OK(devices.status());
  ASSERT_EQ(devices->size(), 2u);
  EXPECT_EQ((*devices)[0].name, "hip-sim:0");
  EXPECT_NE((*devices)[1].description.find("gfx1100, 48 compute units, wave32, 64 KiB LDS"), std::string::npos)
      << (*devices)[1].description;
  Ref<Device> rdna = Create("hip-sim:1");
  ASSERT_TRUE(rdna);
  EXPECT_EQ(rdna->info().architecture, "gfx1100");
  EXPECT_EQ(rdna->info().subgroup_size, 32u);
  EXPECT_EQ(rdna->info().max_local_memory_bytes, 64u * 1024);
  ExpectError(BuiltinDriverRegistry().CreateDevice("hip-sim:2").status(), StatusCode::kNotFound, "no device 2");
  ExpectError(BuiltinDriverRegistry().CreateDevice("hip-sim:x").status(), StatusCode::kInvalidArgument, "bad index");
  // The gfx1100 twin runs on its agent.
  Ref<Executable> exe = Kernels(*rdna);
  ASSERT_TRUE(exe);
  Ref<Buffer> out = HostBuffer(*rdna, {0});
  KILN_EXPECT_OK(Run(*rdna, Steps(*rdna, exe, "write_ids", out, 3)));
  EXPECT_EQ(Contents(out)[0], 3u);
}

TEST_F(HipSimTest, TenThousandDispatchesWrapASmallRing) {
  DeviceOptions small_ring;
  small_ring.queue_capacity = 64;
  Ref<Device> device = Create("hip-sim", small_ring);
  Ref<Executable> exe = Kernels(*device);
  ASSERT_TRUE(exe);
  Ref<Buffer> counter = HostBuffer(*device, {0});
  // write_ids adds 1 to out[0] without atomics: every dispatch must see the one before.
  Ref<CommandBuffer> cb = Steps(*device, exe, "write_ids", counter, 10000);
  KILN_ASSERT_OK(Run(*device, cb));
  EXPECT_EQ(Contents(counter)[0], 10000u);
  // The prepared packets are submitted again, twice at once.
  Ref<Semaphore> done = Semaphore::Create(0);
  SemaphoreValue first[] = {{done, 1}}, second[] = {{done, 2}};
  Ref<CommandBuffer> cbs[] = {cb};
  KILN_ASSERT_OK(device->QueueExecute({}, first, cbs));
  KILN_ASSERT_OK(device->QueueExecute(first, second, cbs));
  KILN_ASSERT_OK(done->Wait(2, Deadline::After(60s)));
  EXPECT_EQ(Contents(counter)[0], 30000u);
  EXPECT_EQ(device->queue_statistics().dispatches, 30000u);
}

TEST_F(HipSimTest, BarrierPacketsOrderWorkAcrossTwoQueues) {
  Agents({{"gfx942", 0, 0, 0, 0}, {"gfx942", 0, 0, 0, 0}});
  Ref<Device> a = Create("hip-sim:0"), b = Create("hip-sim:1");
  ASSERT_TRUE(a && b);
  Ref<Executable> on_a = Kernels(*a), on_b = Kernels(*b);
  Ref<Buffer> buf = HostBuffer(*a, std::vector<uint32_t>(64, 0));
  // a's dispatches are slow, so b's would overtake them if its wait were not kept.
  ASSERT_EQ(sim_.inject(KILN_HSA_SIM_FAULT_SLOW, 0, 0, 20000), 0);
  Ref<Semaphore> s = Semaphore::Create(0), t = Semaphore::Create(0);
  SemaphoreValue s1[] = {{s, 1}}, t1[] = {{t, 1}};
  Ref<CommandBuffer> three[] = {Steps(*a, on_a, "double_plus_one", buf, 3, {64})};
  Ref<CommandBuffer> one[] = {Steps(*b, on_b, "double_plus_one", buf, 1, {64})};
  KILN_ASSERT_OK(a->QueueExecute({}, s1, three));
  KILN_ASSERT_OK(b->QueueExecute(s1, t1, one));
  KILN_ASSERT_OK(t->Wait(1, Deadline::After(30s)));
  // b kept the wait itself (a barrier-AND packet on a's completion signal), not the host.
  EXPECT_EQ(b->queue_statistics().device_waits, 1u);
  // 0 -> 1 -> 3 -> 7 on a, then 15 on b; any other order gives another value.
  for (uint32_t v : Contents(buf)) ASSERT_EQ(v, 15u);
}

TEST_F(HipSimTest, HostWaitsHonourTheirDeadline) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  Ref<Buffer> buf = HostBuffer(*device, {0});
  ASSERT_EQ(sim_.inject(KILN_HSA_SIM_FAULT_SLOW, 0, 0, 300000), 0);
  Ref<Semaphore> done = Semaphore::Create(0);
  SemaphoreValue signal[] = {{done, 1}};
  Ref<CommandBuffer> cbs[] = {Steps(*device, exe, "write_ids", buf, 1)};
  KILN_ASSERT_OK(device->QueueExecute({}, signal, cbs));
  ExpectError(done->Wait(1, Deadline::After(20ms)), StatusCode::kDeadlineExceeded, "did not reach 1");
  KILN_EXPECT_OK(done->Wait(1, Deadline::After(30s)));
  EXPECT_EQ(Contents(buf)[0], 1u);
}

TEST_F(HipSimTest, MemoryFaultFailsTheDispatchItHitAndTheDevice) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  Ref<Buffer> in = HostBuffer(*device, std::vector<uint32_t>(1000, 1));
  Ref<Buffer> out = HostBuffer(*device, std::vector<uint32_t>(1000, 0));
  Ref<CommandBuffer> cb = device->CreateCommandBuffer();
  BufferBinding ids{out}, pair[] = {{in}, {out}};
  uint32_t n = 1000;
  KILN_ASSERT_OK(cb->Dispatch(exe, *exe->LookupExport("write_ids"), {2, 1, 1}, {}, {&ids, 1}));
  KILN_ASSERT_OK(cb->ExecutionBarrier());
  KILN_ASSERT_OK(cb->Dispatch(exe, *exe->LookupExport("lds_reverse"), {4, 1, 1}, {&n, 1}, pair));
  KILN_ASSERT_OK(cb->ExecutionBarrier());
  KILN_ASSERT_OK(cb->Dispatch(exe, *exe->LookupExport("noop"), {1, 1, 1}, {}, {}));
  KILN_ASSERT_OK(cb->Finalize());
  ASSERT_EQ(sim_.inject(KILN_HSA_SIM_FAULT_MEMORY, 0, 1, 0xdead000), 0);
  Status status = Run(*device, cb);
  ExpectError(status, StatusCode::kAborted, "GPU memory fault at address 0xdead000 (page not present) on hip-sim:0 (gfx942)");
  ExpectError(status, StatusCode::kAborted,
              "in dispatch 'lds_reverse' of executable 'test_kernels' (gpu_test_kernels.c:lds_reverse) with workgroup "
              "count (4, 1, 1)");
  // Later work on the device fails at once with the same cause; the process goes on, and a
  // new device works.
  ExpectError(Run(*device, cb), StatusCode::kAborted, "GPU memory fault at address 0xdead000");
  Ref<Device> fresh = Create();
  Ref<Executable> fresh_exe = Kernels(*fresh);
  Ref<Buffer> counter = HostBuffer(*fresh, {0});
  KILN_EXPECT_OK(Run(*fresh, Steps(*fresh, fresh_exe, "write_ids", counter, 2)));
  EXPECT_EQ(Contents(counter)[0], 2u);
}

// Kernels of one submission order their memory with agent-scope fences (one L2): system
// scope only where the host's writes are acquired (the first packet) and where the results
// are released to it (the final fence).
TEST_F(HipSimTest, KernelsOfOneSubmissionShareAgentScopeFences) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  Ref<Buffer> counter = HostBuffer(*device, {0});
  Ref<CommandBuffer> cb = Steps(*device, exe, "write_ids", counter, 5);
  uint64_t acquires = 0, releases = 0;
  sim_.system_fences(0, &acquires, &releases);
  KILN_ASSERT_OK(Run(*device, cb));
  uint64_t acquires_after = 0, releases_after = 0;
  sim_.system_fences(0, &acquires_after, &releases_after);
  EXPECT_EQ(Contents(counter)[0], 5u);  // each dispatch still saw the one before
  EXPECT_EQ(acquires_after - acquires, 1u);
  EXPECT_EQ(releases_after - releases, 1u);
}

// A copy the runtime refuses fails its submission (naming the refusal) instead of leaving
// the completion signal above zero: the dispatches after it are never written, and the
// device is not left waiting for them. Host buffers on either side of a copy name the CPU
// agent (the simulator refuses a copy that names the wrong owner).
TEST_F(HipSimTest, RefusedCopyFailsTheSubmissionInsteadOfHanging) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  Ref<Buffer> counter = HostBuffer(*device, {0});
  Ref<Buffer> copy = HostBuffer(*device, {7});
  auto make = [&] {
    Ref<CommandBuffer> cb = device->CreateCommandBuffer();
    BufferBinding binding{counter};
    uint32_t write_ids = *exe->LookupExport("write_ids");
    EXPECT_TRUE(cb->Dispatch(exe, write_ids, {1, 1, 1}, {}, {&binding, 1}).ok());
    EXPECT_TRUE(cb->ExecutionBarrier().ok());
    EXPECT_TRUE(cb->Copy(counter, 0, copy, 0, 4).ok());
    EXPECT_TRUE(cb->ExecutionBarrier().ok());
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(cb->Dispatch(exe, write_ids, {1, 1, 1}, {}, {&binding, 1}).ok());
      EXPECT_TRUE(cb->ExecutionBarrier().ok());
    }
    EXPECT_TRUE(cb->Finalize().ok());
    return cb;
  };
  Ref<CommandBuffer> cb = make();
  KILN_ASSERT_OK(Run(*device, cb));
  EXPECT_EQ(Contents(counter)[0], 4u);
  EXPECT_EQ(Contents(copy)[0], 1u);

  ASSERT_EQ(sim_.inject(KILN_HSA_SIM_FAULT_COPY_REFUSED, 0, 0, 0), 0);
  Status status = Run(*device, cb, {}, Deadline::After(20s));
  ExpectError(status, StatusCode::kResourceExhausted, "hsa_amd_memory_async_copy of 4 bytes");
  EXPECT_EQ(Contents(counter)[0], 5u);  // the dispatch before the copy ran, none after it
}

// A complete event of a trace's JSON, as far as these tests read it.
struct TracedEvent {
  std::string name, category, args;
  double ts = 0, dur = 0;
  int tid = 0;
};
std::vector<TracedEvent> CompleteEvents(const std::string& json) {
  static const std::regex kEvent(
      R"re(\{"ph": "X", "name": "([^"]*)", "cat": "([^"]*)", "ts": ([-0-9.]+), "dur": ([-0-9.]+), "pid": 1, "tid": ([0-9]+), "args": \{(.*)\}\})re");
  std::vector<TracedEvent> out;
  for (auto it = std::sregex_iterator(json.begin(), json.end(), kEvent); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out.push_back({m[1], m[2], m[6], std::stod(m[3]), std::stod(m[4]), std::stoi(m[5])});
  }
  return out;
}

// While tracing, each dispatch gets an event from the GPU's own timestamps: named after its
// export, with the cpu driver's args, inside its submission's event, in order, and as long
// as the simulator held it (a slowed dispatch lasts at least its delay).
TEST_F(HipSimTest, TracedDispatchesGetEventsFromTheGpuTimestamps) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  Ref<Buffer> counter = HostBuffer(*device, {0});
  Ref<CommandBuffer> cb = Steps(*device, exe, "write_ids", counter, 3);
  KILN_ASSERT_OK(Run(*device, cb));  // untraced first: no profiling, no dispatch events
  constexpr uint64_t kSlowUs = 20'000;
  ASSERT_EQ(sim_.inject(KILN_HSA_SIM_FAULT_SLOW, 0, 1, kSlowUs), 0);  // the 2nd dispatch on
  trace::Recorder recorder;
  trace::Recorder::SetActive(&recorder);
  Status traced = Run(*device, cb);
  trace::Recorder::SetActive(nullptr);
  KILN_ASSERT_OK(traced);
  KILN_ASSERT_OK(device->WaitIdle(Deadline::After(30s)));
  sim_.clear_faults();
  EXPECT_EQ(Contents(counter)[0], 6u);
  KILN_EXPECT_OK(Run(*device, cb));  // untraced again (profiling off) still runs

  std::vector<TracedEvent> events = CompleteEvents(recorder.ToJson());
  std::vector<TracedEvent> submissions, dispatches;
  for (const TracedEvent& e : events) {
    if (e.name == "queue_execute on device") submissions.push_back(e);
    if (e.category == "dispatch") dispatches.push_back(e);
  }
  ASSERT_EQ(submissions.size(), 1u) << recorder.ToJson();
  ASSERT_EQ(dispatches.size(), 3u) << recorder.ToJson();
  const TracedEvent& sub = submissions[0];
  for (size_t k = 0; k < dispatches.size(); ++k) {
    const TracedEvent& d = dispatches[k];
    EXPECT_EQ(d.name, "write_ids");
    EXPECT_EQ(d.tid, sub.tid);
    EXPECT_NE(d.args.find(R"("executable": "test_kernels")"), std::string::npos) << d.args;
    EXPECT_NE(d.args.find(StrCat(R"("export": )", *exe->LookupExport("write_ids"), R"(, "source_location": )")),
              std::string::npos)
        << d.args;
    EXPECT_NE(d.args.find(R"("workgroup_count": [1, 1, 1])"), std::string::npos) << d.args;
    EXPECT_GE(d.dur, 0);
    EXPECT_GE(d.ts, sub.ts) << "dispatch " << k << " starts before its submission";
    EXPECT_LE(d.ts + d.dur, sub.ts + sub.dur) << "dispatch " << k << " ends after its submission retired";
    if (k > 0) {
      EXPECT_GE(d.ts, dispatches[k - 1].ts + dispatches[k - 1].dur) << "barriers order the dispatches";
    }
  }
  EXPECT_GE(dispatches[1].dur, kSlowUs) << "the slowed dispatch's event does not cover its delay";
  EXPECT_LT(dispatches[0].dur, kSlowUs);
}

// A fault in a traced submission (whose dispatches complete signals of their own) still
// names the dispatch it hit.
TEST_F(HipSimTest, TracedMemoryFaultNamesTheDispatch) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  Ref<Buffer> buf = HostBuffer(*device, {0});
  Ref<CommandBuffer> cb = device->CreateCommandBuffer();
  BufferBinding ids{buf};
  KILN_ASSERT_OK(cb->Dispatch(exe, *exe->LookupExport("write_ids"), {1, 1, 1}, {}, {&ids, 1}));
  KILN_ASSERT_OK(cb->ExecutionBarrier());
  KILN_ASSERT_OK(cb->Dispatch(exe, *exe->LookupExport("noop"), {1, 1, 1}, {}, {}));
  KILN_ASSERT_OK(cb->Finalize());
  ASSERT_EQ(sim_.inject(KILN_HSA_SIM_FAULT_MEMORY, 0, 1, 0xdead000), 0);
  trace::Recorder recorder;
  trace::Recorder::SetActive(&recorder);
  Status status = Run(*device, cb);
  trace::Recorder::SetActive(nullptr);
  ExpectError(status, StatusCode::kAborted, "in dispatch 'noop' of executable 'test_kernels'");
  (void)device->WaitIdle(Deadline::After(30s));
}

TEST_F(HipSimTest, QueueErrorNamesTheDispatch) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  Ref<Buffer> buf = HostBuffer(*device, {0});
  ASSERT_EQ(sim_.inject(KILN_HSA_SIM_FAULT_QUEUE_ERROR, 0, 0, 0), 0);
  Status status = Run(*device, Steps(*device, exe, "double_plus_one", buf, 1, {1}));
  ExpectError(status, StatusCode::kAborted, "the AQL queue of hip-sim:0 (gfx942) failed: HSA status 0x1016");
  ExpectError(status, StatusCode::kAborted, "in dispatch 'double_plus_one' of executable 'test_kernels'");
}

TEST_F(HipSimTest, LdsIsPerWorkgroupAndBarriersSplitTheKernel) {
  Ref<Device> device = Create();
  Ref<Executable> exe = Kernels(*device);
  constexpr uint32_t kN = 1000;  // the last of 4 workgroups of 256 is partial
  std::vector<uint32_t> values(kN);
  for (uint32_t i = 0; i < kN; ++i) values[i] = i;
  Ref<Buffer> in = HostBuffer(*device, values), out = HostBuffer(*device, std::vector<uint32_t>(kN, 0));
  Ref<CommandBuffer> cb = device->CreateCommandBuffer();
  BufferBinding pair[] = {{in}, {out}};
  uint32_t n = kN;
  KILN_ASSERT_OK(cb->Dispatch(exe, *exe->LookupExport("lds_reverse"), {4, 1, 1}, {&n, 1}, pair));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(Run(*device, cb));
  std::vector<uint32_t> got = Contents(out);
  for (uint32_t i = 0; i < kN; ++i) {
    uint32_t group = i / 256, lane = i % 256, source = group * 256 + 255 - lane;
    ASSERT_EQ(got[i], source < kN ? source : 0u) << i;
  }
}

TEST_F(HipSimTest, CodeForAnotherChipIsRefusedNamingBoth) {
  Ref<Device> device = Create();
  StatusOr<std::vector<uint8_t>> rdna = testing::ReadKernelFile("gpu_test_kernels_gfx1100");
  KILN_ASSERT_OK(rdna.status());
  ExpectError(LoadContainer(*device, For("gfx1100", 32, *rdna)),
              StatusCode::kInvalidArgument, "its code object is for gfx1100 but the device is gfx942");
  // A container that claims gfx942 around a twin for gfx1100: the simulator's own check.
  ExpectError(LoadContainer(*device, For("gfx942", 64, *rdna)),
              StatusCode::kInvalidArgument, "gfx1100");
}

TEST_F(HipSimTest, SimulatorRefusesAPlainHsaco) {
  Ref<Device> device = Create();
  // An ELF header for EM_AMDGPU (224): what a code object without a host twin starts with.
  std::vector<uint8_t> hsaco(64, 0);
  const uint8_t ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64};
  std::copy(std::begin(ident), std::end(ident), hsaco.begin());
  hsaco[16] = 3;    // ET_DYN
  hsaco[18] = 224;  // EM_AMDGPU
  hsaco[20] = 1;    // EV_CURRENT
  ExpectError(LoadContainer(*device, Code({}, hsaco)), StatusCode::kInvalidArgument, "AMDGPU code object");
  ExpectError(LoadContainer(*device, Code({})), StatusCode::kInvalidArgument, "it has no HSACO and no host twin");
}

TEST_F(HipSimTest, KernelArgumentLayoutIsChecked) {
  Ref<Device> device = Create();
  StatusOr<std::vector<uint8_t>> hidden = testing::ReadKernelFile("gpu_test_kernels_hidden_args");
  StatusOr<std::vector<uint8_t>> align64 = testing::ReadKernelFile("gpu_test_kernels_align64");
  KILN_ASSERT_OK(hidden.status());
  KILN_ASSERT_OK(align64.status());
  ExpectError(LoadContainer(*device, Code(*hidden)), StatusCode::kInvalidArgument,
              "the kernel takes 268 bytes of arguments but kiln's GPU kernel ABI v2 passes 12 for 0 bindings and 0 "
              "constants");
  ExpectError(LoadContainer(*device, Code(*align64)), StatusCode::kInvalidArgument,
              "wants its arguments aligned to 64 bytes; kiln aligns them to 16; in export 0 'noop'");
}

TEST_F(HipSimTest, ContainerIsValidated) {
  Ref<Device> device = Create();
  std::vector<uint8_t> junk(256, 0x5A);
  ExpectError(device->CreateExecutable({kExecutableFormatAmdgpu, junk, "junk"}).status(), StatusCode::kInvalidArgument,
              "no 'KGPU' container identifier); while loading executable 'junk' for gfx942");
  std::vector<uint8_t> good = testing::GpuTestContainer(Code({}));
  std::vector<uint8_t> truncated(good.begin(), good.begin() + good.size() / 2);
  ExpectError(device->CreateExecutable({kExecutableFormatAmdgpu, truncated, "cut"}).status(),
              StatusCode::kInvalidArgument, "corrupt");
  testing::GpuContainerOptions future = Code({});
  future.abi_version = 9;
  ExpectError(LoadContainer(*device, future), StatusCode::kInvalidArgument,
              "GPU kernel ABI version 9; this runtime supports version 2");
  ExpectError(LoadContainer(*device, For("gfx942", 32, {})), StatusCode::kInvalidArgument, "assumes wave32");
  ExpectError(device->CreateExecutable({kExecutableFormatElfX86_64, good, "elf"}).status(), StatusCode::kInvalidArgument,
              "format 'elf-x86_64' is not supported by the hip driver");
}

TEST_F(HipSimTest, PoolExhaustionNamesThePoolAndSize) {
  Agents({{"gfx942", 0, 0, 0, 64ull << 20}});
  Ref<Device> device = Create();
  ExpectError(device->allocator().Allocate({MemoryType::kDeviceLocal, BufferUsage::kDefault}, 128u << 20).status(),
              StatusCode::kResourceExhausted, "allocating 134217728 bytes from the 'device' pool");
  // What fits is handed out until the pool is used up.
  StatusOr<Ref<Buffer>> first = device->allocator().Allocate({MemoryType::kDeviceLocal, BufferUsage::kDefault}, 48u << 20);
  KILN_ASSERT_OK(first.status());
  ExpectError(device->allocator().Allocate({MemoryType::kDeviceLocal, BufferUsage::kDefault}, 48u << 20).status(),
              StatusCode::kResourceExhausted, "allocating 50331648 bytes from the 'device' pool");
  first->reset();
  KILN_EXPECT_OK(device->allocator().Allocate({MemoryType::kDeviceLocal, BufferUsage::kDefault}, 48u << 20).status());
}

TEST(HipDriver, WithoutAGpuTheRealRuntimeSaysWhy) {
  Status status = BuiltinDriverRegistry().CreateDevice("hip").status();
  if (status.ok()) GTEST_SKIP() << "this machine has an AMD GPU";
  EXPECT_EQ(status.code(), StatusCode::kUnavailable) << status.ToString();
  EXPECT_TRUE(status.ToString().find("hsa_init") != std::string::npos ||
              status.ToString().find("cannot load the HSA runtime") != std::string::npos)
      << status.ToString();
  DeviceOptions missing;
  missing.runtime_library = "/nonexistent/libhsa.so";
  ExpectError(BuiltinDriverRegistry().CreateDevice("hip", missing).status(),
              StatusCode::kUnavailable, "cannot load the HSA runtime '/nonexistent/libhsa.so'");
}

}  // namespace
}  // namespace kiln::hal
