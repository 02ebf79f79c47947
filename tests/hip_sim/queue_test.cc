// Queues and the packet processor: dispatches running the twin, ring wrap-around with
// back-pressure, barrier bits, barrier packets, queue errors.
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tests/hip_sim/sim_test_util.h"

namespace kiln::hsa_sim_test {
namespace {

using std::chrono::steady_clock;

// How long an overlap test waits for the later packet before calling it serialized (then it
// releases the earlier one, so a failure does not hang).
constexpr uint64_t kOverlapTimeoutNs = 10'000'000'000ull;

class HsaSimQueueTest : public SimTest {
 protected:
  void SetUpAgent(std::initializer_list<kiln_hsa_sim_agent_config_t> gpus = {}) {
    Init(gpus);
    gpu_ = gpus_[0];
    pools_ = PoolsOf(gpu_);
    executable_ = LoadTwin(gpu_);
    add_one_ = KernelObject(executable_, gpu_, "add_one.kd");
    kernargs_ = static_cast<uint8_t*>(Allocate(pools_.kernarg, 64 * 1024));
  }
  // A fresh 64-byte kernarg block from the kernarg pool.
  void* Kernarg() {
    void* block = kernargs_ + 64 * next_kernarg_++;
    EXPECT_LT(next_kernarg_, 1024u);
    return block;
  }
  // Kernarg and packet for add_one over n int32s (one 1-D workgroup of up to 64 per 64).
  hsa_kernel_dispatch_packet_t AddOne(const int32_t* in, int32_t* out, uint32_t n, hsa_signal_t completion,
                                      bool barrier = false) {
    void* kernarg = Kernarg();
    uint32_t grid[3] = {n, 1, 1};
    uint16_t workgroup[3] = {64, 1, 1};
    WriteKernarg(kernarg, {in, out}, {n}, grid, workgroup);
    return DispatchPacket(add_one_, kernarg, {n}, {64}, completion, barrier);
  }
  // wait_add_one: *out = *in + 1 once *release is non-zero.
  hsa_kernel_dispatch_packet_t WaitAddOne(const int32_t* in, int32_t* out, const int32_t* release,
                                          hsa_signal_t completion) {
    void* kernarg = Kernarg();
    uint32_t grid[3] = {1, 1, 1};
    uint16_t workgroup[3] = {1, 1, 1};
    WriteKernarg(kernarg, {in, out, release}, {1}, grid, workgroup);
    return DispatchPacket(KernelObject(executable_, gpu_, "wait_add_one.kd"), kernarg, {1}, {1}, completion);
  }
  int32_t* Buffer(size_t count, int32_t fill = 0) {
    auto* p = static_cast<int32_t*>(Allocate(pools_.coarse, count * sizeof(int32_t)));
    for (size_t i = 0; i < count; ++i) p[i] = fill;
    return p;
  }
  // Submits a held dispatch a (x[1] = x[0] + 1 = 41 once *release_a is set) and after it b
  // (x[2] = x[1] + 1), with or without the barrier bit.
  struct HeldThenAddOne {
    int32_t* x;
    int32_t* release_a;
    hsa_signal_t a_done, b_done;
  };
  HeldThenAddOne SubmitHeldThenAddOne(hsa_queue_t* queue, bool barrier) {
    int32_t* x = Buffer(4);
    x[0] = 40;
    HeldThenAddOne pair{x, &x[3], Signal(1), Signal(1)};
    hsa_kernel_dispatch_packet_t a = WaitAddOne(&x[0], &x[1], pair.release_a, pair.a_done);
    hsa_kernel_dispatch_packet_t b = AddOne(&x[1], &x[2], 1, pair.b_done, barrier);
    Submit(queue, &a);
    Submit(queue, &b);
    return pair;
  }

  hsa_agent_t gpu_{};
  Pools pools_;
  hsa_executable_t executable_{};
  uint64_t add_one_ = 0;
  uint8_t* kernargs_ = nullptr;
  uint32_t next_kernarg_ = 0;
};

TEST_F(HsaSimQueueTest, CreateChecksItsArguments) {
  SetUpAgent();
  hsa_queue_t* queue = nullptr;
  EXPECT_EQ(hsa_queue_create(cpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_queue_create(gpu_, 48, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_create(gpu_, 1u << 20, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_create(gpu_, 64, 7, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_create(gpu_, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, UINT32_MAX, UINT32_MAX, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_HSA_OK(hsa_queue_create(gpu_, 1, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue));
  EXPECT_EQ(queue->size, 4u);  // QUEUE_MIN_SIZE
  EXPECT_EQ(reinterpret_cast<uintptr_t>(queue->base_address) % 64, 0u);
  for (uint32_t i = 0; i < queue->size; ++i) {
    uint16_t header;
    std::memcpy(&header, static_cast<char*>(queue->base_address) + 64 * i, 2);
    EXPECT_EQ(header & 0xff, HSA_PACKET_TYPE_INVALID);
  }
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(queue), 0u);
  EXPECT_EQ(hsa_queue_load_write_index_relaxed(queue), 0u);
  EXPECT_EQ(hsa_queue_add_write_index_relaxed(queue, 2), 0u);
  EXPECT_EQ(hsa_queue_cas_write_index_scacq_screl(queue, 5, 9), 2u);  // no match
  EXPECT_EQ(hsa_queue_cas_write_index_screlease(queue, 2, 0), 2u);
  EXPECT_EQ(hsa_queue_load_write_index_scacquire(queue), 0u);
  // The doorbell is a signal, but not one the application may destroy.
  EXPECT_EQ(hsa_signal_destroy(queue->doorbell_signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
  EXPECT_EQ(hsa_queue_destroy(queue), HSA_STATUS_ERROR_INVALID_QUEUE);
  EXPECT_EQ(hsa_queue_destroy(nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_queue_load_read_index_relaxed(queue), 0u);
  EXPECT_NE(std::string(kiln_hsa_sim_last_error()).find("not a live queue"), std::string::npos);
}

TEST_F(HsaSimQueueTest, DispatchRunsEveryWorkgroupOfA3DGrid) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  constexpr uint32_t kX = 10, kY = 3, kZ = 2, kN = kX * kY * kZ;
  int32_t* in = Buffer(kN);
  int32_t* out = Buffer(kN, -100);
  for (uint32_t i = 0; i < kN; ++i) in[i] = static_cast<int32_t>(i * 3);
  void* kernarg = Kernarg();
  uint32_t grid[3] = {kX, kY, kZ};
  uint16_t workgroup[3] = {4, 2, 1};  // partial workgroups in x and y
  WriteKernarg(kernarg, {in, out}, {kN}, grid, workgroup);
  hsa_signal_t done = Signal(1);
  hsa_kernel_dispatch_packet_t p = DispatchPacket(add_one_, kernarg, {kX, kY, kZ}, {4, 2, 1}, done);
  Submit(queue, &p);
  ASSERT_EQ(WaitEq(done, 0), 0);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], in[i] + 1) << i;
  EXPECT_EQ(kiln_hsa_sim_dispatches_completed(0), 1u);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

TEST_F(HsaSimQueueTest, TwinSeesTheDispatchAndItsGroupSegment) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  uint64_t probe = KernelObject(executable_, gpu_, "probe.kd");
  auto* out = static_cast<uint32_t*>(Allocate(pools_.system_fine, 64));
  void* kernarg = Kernarg();
  uint32_t grid[3] = {100, 3, 1};
  uint16_t workgroup[3] = {32, 2, 1};
  WriteKernarg(kernarg, {out}, {}, grid, workgroup);
  hsa_signal_t done = Signal(1);
  hsa_kernel_dispatch_packet_t p = DispatchPacket(probe, kernarg, {100, 3}, {32, 2}, done, false, 256);
  p.private_segment_size = 16;  // the kernel's
  Submit(queue, &p);
  ASSERT_EQ(WaitEq(done, 0), 0);
  EXPECT_EQ(out[0], 32u);
  EXPECT_EQ(out[1], 2u);
  EXPECT_EQ(out[2], 1u);
  EXPECT_EQ(out[3], 100u);
  EXPECT_EQ(out[4], 3u);
  EXPECT_EQ(out[5], 1u);
  EXPECT_EQ(out[6], 64u);   // wavefront size
  EXPECT_EQ(out[7], 256u);  // group segment size of the packet
  EXPECT_EQ(out[8], 0u);    // 16-byte aligned
  EXPECT_NE(out[9], 0u);    // not zero-filled
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

TEST_F(HsaSimQueueTest, LdsKernelReversesEachWorkgroup) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  uint64_t reverse = KernelObject(executable_, gpu_, "lds_reverse.kd");
  constexpr uint32_t kN = 100, kWorkgroup = 32;
  int32_t* in = Buffer(kN);
  int32_t* out = Buffer(kN);
  for (uint32_t i = 0; i < kN; ++i) in[i] = static_cast<int32_t>(i);
  void* kernarg = Kernarg();
  uint32_t grid[3] = {kN, 1, 1};
  uint16_t workgroup[3] = {kWorkgroup, 1, 1};
  WriteKernarg(kernarg, {in, out}, {kN}, grid, workgroup);
  hsa_signal_t done = Signal(1);
  hsa_kernel_dispatch_packet_t p = DispatchPacket(reverse, kernarg, {kN}, {kWorkgroup}, done, false, 4096);
  Submit(queue, &p);
  ASSERT_EQ(WaitEq(done, 0), 0);
  for (uint32_t i = 0; i < kN; ++i) {
    uint32_t base = i / kWorkgroup * kWorkgroup, count = std::min(kWorkgroup, kN - base);
    ASSERT_EQ(out[i], static_cast<int32_t>(base + count - 1 - (i - base))) << i;
  }
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

// 10,000 dispatches through a 64-packet ring: the producer waits whenever the ring is full, so
// slots are reused ~156 times each and the indices wrap around the ring.
TEST_F(HsaSimQueueTest, TenThousandDispatchesThroughA64PacketRing) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  constexpr uint32_t kDispatches = 10000, kPerDispatch = 4;
  int32_t* data = Buffer(kDispatches * kPerDispatch);
  for (uint32_t i = 0; i < kDispatches * kPerDispatch; ++i) data[i] = static_cast<int32_t>(i);
  // Kernargs must stay untouched until their dispatch completes: one block per dispatch.
  auto* kernargs = static_cast<uint8_t*>(Allocate(pools_.kernarg, kDispatches * 64));
  hsa_signal_t remaining = Signal(kDispatches);
  for (uint32_t d = 0; d < kDispatches; ++d) {
    int32_t* slice = data + d * kPerDispatch;
    uint32_t grid[3] = {kPerDispatch, 1, 1};
    uint16_t workgroup[3] = {2, 1, 1};  // two workgroups per dispatch
    WriteKernarg(kernargs + 64 * d, {slice, slice}, {kPerDispatch}, grid, workgroup);
    hsa_kernel_dispatch_packet_t p =
        DispatchPacket(add_one_, kernargs + 64 * d, {kPerDispatch}, {2}, remaining, /*barrier=*/d % 100 == 0);
    ASSERT_EQ(Submit(queue, &p), d);
  }
  ASSERT_EQ(WaitEq(remaining, 0), 0);
  for (uint32_t i = 0; i < kDispatches * kPerDispatch; ++i) ASSERT_EQ(data[i], static_cast<int32_t>(i) + 1) << i;
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(queue), kDispatches);
  EXPECT_EQ(kiln_hsa_sim_dispatches_completed(0), kDispatches);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

// A packet with the barrier bit starts only after every earlier packet completed, even when the
// earlier one is slow.
TEST_F(HsaSimQueueTest, BarrierBitWaitsForTheSlowEarlierDispatch) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  int32_t* x = Buffer(3);
  x[0] = 40;
  constexpr uint64_t kSlowUs = 200'000;
  ASSERT_EQ(kiln_hsa_sim_inject(KILN_HSA_SIM_FAULT_SLOW, 0, 0, kSlowUs), 0);
  hsa_signal_t done = Signal(2);
  auto start = steady_clock::now();
  hsa_kernel_dispatch_packet_t a = AddOne(&x[0], &x[1], 1, done);
  hsa_kernel_dispatch_packet_t b = AddOne(&x[1], &x[2], 1, done, /*barrier=*/true);
  Submit(queue, &a);
  Submit(queue, &b);
  ASSERT_EQ(WaitEq(done, 0), 0);
  EXPECT_GE(steady_clock::now() - start, std::chrono::microseconds(kSlowUs));
  EXPECT_EQ(x[1], 41);
  EXPECT_EQ(x[2], 42);  // b read a's result
  kiln_hsa_sim_clear_faults();
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

// Without the barrier bit the next dispatch does not wait: it runs, and completes, while the
// earlier one is still running, and reads the value from before it (what a driver that forgets
// barrier bits sees).
TEST_F(HsaSimQueueTest, WithoutBarrierBitDispatchesOverlap) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  auto [x, release_a, a_done, b_done] = SubmitHeldThenAddOne(queue, /*barrier=*/false);
  // a cannot finish before release_a is set, so b completing first proves the overlap.
  EXPECT_EQ(WaitEq(b_done, 0, kOverlapTimeoutNs), 0) << "b did not overtake a: packets without the barrier bit "
                                                        "were serialized";
  EXPECT_EQ(hsa_signal_load_scacquire(a_done), 1);
  EXPECT_EQ(x[2], 1);  // b read x[1] before a wrote it
  __atomic_store_n(release_a, 1, __ATOMIC_RELEASE);
  ASSERT_EQ(WaitEq(a_done, 0), 0);
  EXPECT_EQ(x[1], 41);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

// A one-workgroup dispatch followed by a packet with the barrier bit (the driver's pattern:
// a dispatch, then its submission's fence) is run by the packet processor itself while the
// barrier packet waits. Order and results are as on the workers: the later packet waits for
// the earlier one even while that one blocks, and sees its writes.
TEST_F(HsaSimQueueTest, LoneDispatchBeforeABarrierPacketCompletesFirst) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  auto [x, release_a, a_done, b_done] = SubmitHeldThenAddOne(queue, /*barrier=*/true);
  // Neither may complete while a is held.
  EXPECT_EQ(hsa_signal_wait_scacquire(b_done, HSA_SIGNAL_CONDITION_EQ, 0, 20'000'000, HSA_WAIT_STATE_BLOCKED), 1);
  EXPECT_EQ(hsa_signal_load_scacquire(a_done), 1);
  __atomic_store_n(release_a, 1, __ATOMIC_RELEASE);
  ASSERT_EQ(WaitEq(b_done, 0), 0);
  EXPECT_EQ(hsa_signal_load_scacquire(a_done), 0);
  EXPECT_EQ(x[1], 41);
  EXPECT_EQ(x[2], 42);  // b read a's result
  EXPECT_EQ(kiln_hsa_sim_dispatches_completed(0), 2u);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

TEST_F(HsaSimQueueTest, BarrierAndWaitsForASignalOfAnotherQueue) {
  SetUpAgent();
  hsa_queue_t* first = CreateQueue(gpu_, 64);
  hsa_queue_t* second = CreateQueue(gpu_, 64);
  int32_t* x = Buffer(4);
  x[0] = 40;
  int32_t* release_a = &x[3];
  hsa_signal_t a_done = Signal(1), barrier_done = Signal(1), b_done = Signal(1);
  hsa_kernel_dispatch_packet_t a = WaitAddOne(&x[0], &x[1], release_a, a_done);
  Submit(first, &a);

  hsa_barrier_and_packet_t barrier{};
  barrier.header = Header(HSA_PACKET_TYPE_BARRIER_AND, true);
  barrier.dep_signal[2] = a_done;  // 0 handles around it are satisfied dependencies
  barrier.completion_signal = barrier_done;
  Submit(second, &barrier);
  hsa_kernel_dispatch_packet_t b = AddOne(&x[1], &x[2], 1, b_done, /*barrier=*/true);
  Submit(second, &b);
  // Nothing on the second queue can complete while a runs.
  EXPECT_EQ(hsa_signal_wait_scacquire(b_done, HSA_SIGNAL_CONDITION_EQ, 0, 20'000'000, HSA_WAIT_STATE_BLOCKED), 1);
  EXPECT_EQ(hsa_signal_load_scacquire(barrier_done), 1);
  __atomic_store_n(release_a, 1, __ATOMIC_RELEASE);
  ASSERT_EQ(WaitEq(b_done, 0), 0);
  EXPECT_EQ(hsa_signal_load_scacquire(barrier_done), 0);
  EXPECT_EQ(x[2], 42);

  // Barrier-OR: one satisfied dependency is enough; a 0 handle is never satisfied.
  hsa_signal_t never = Signal(1), now = Signal(0), or_done = Signal(1);
  hsa_barrier_or_packet_t any{};
  any.header = Header(HSA_PACKET_TYPE_BARRIER_OR, false);
  any.dep_signal[0] = never;
  any.dep_signal[3] = now;
  any.completion_signal = or_done;
  Submit(second, &any);
  EXPECT_EQ(WaitEq(or_done, 0), 0);
  // Barrier-AND without dependencies completes at once.
  hsa_signal_t and_done = Signal(1);
  hsa_barrier_and_packet_t none{};
  none.header = Header(HSA_PACKET_TYPE_BARRIER_AND, false);
  none.completion_signal = and_done;
  Submit(second, &none);
  EXPECT_EQ(WaitEq(and_done, 0), 0);
  ASSERT_HSA_OK(hsa_queue_destroy(first));
  ASSERT_HSA_OK(hsa_queue_destroy(second));
}

TEST_F(HsaSimQueueTest, BarrierTreatsANegativeDependencyAsPending) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  hsa_signal_t failed = Signal(-1), done = Signal(1);
  hsa_barrier_and_packet_t barrier{};
  barrier.header = Header(HSA_PACKET_TYPE_BARRIER_AND, false);
  barrier.dep_signal[0] = failed;
  barrier.completion_signal = done;
  Submit(queue, &barrier);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20'000'000, HSA_WAIT_STATE_BLOCKED), 1);
  hsa_signal_store_screlease(failed, 0);
  EXPECT_EQ(WaitEq(done, 0), 0);
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
}

// ---- Queue errors -------------------------------------------------------------------------

class HsaSimQueueErrorTest : public HsaSimQueueTest {
 protected:
  // Submits `bad`, then a good dispatch behind it; expects the callback with `status` and a
  // message containing `text`, and the good dispatch never to run.
  void ExpectQueueError(const void* bad, hsa_status_t status, const std::string& text) {
    QueueErrorCatcher errors;
    hsa_queue_t* queue = CreateQueue(gpu_, 64, &errors);
    Submit(queue, bad);
    int32_t* x = Buffer(2);
    hsa_signal_t after = Signal(1);
    // With the barrier bit: a bad dispatch that fails while running (a trap) must fail
    // before this one could start.
    hsa_kernel_dispatch_packet_t good = AddOne(&x[0], &x[1], 1, after, /*barrier=*/true);
    Submit(queue, &good);
    errors.Wait();
    EXPECT_EQ(errors.status, status);
    EXPECT_EQ(errors.source, queue);
    EXPECT_NE(errors.message.find(text), std::string::npos) << errors.message;
    EXPECT_EQ(hsa_signal_wait_scacquire(after, HSA_SIGNAL_CONDITION_EQ, 0, 20'000'000, HSA_WAIT_STATE_BLOCKED), 1);
    EXPECT_EQ(x[1], 0);
    EXPECT_EQ(errors.calls.load(), 1);
    ASSERT_HSA_OK(hsa_queue_destroy(queue));  // does not hang on a failed queue
  }
};

TEST_F(HsaSimQueueErrorTest, UnsupportedPacketType) {
  SetUpAgent();
  hsa_agent_dispatch_packet_t p{};
  p.header = Header(HSA_PACKET_TYPE_AGENT_DISPATCH, false);
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "type 4 (AGENT_DISPATCH)");
  p.header = Header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false);
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "VENDOR_SPECIFIC");
}

TEST_F(HsaSimQueueErrorTest, BadFenceScope) {
  SetUpAgent();
  int32_t* x = Buffer(2);
  hsa_kernel_dispatch_packet_t p = AddOne(&x[0], &x[1], 1, hsa_signal_t{0});
  p.header = Header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, 3, HSA_FENCE_SCOPE_SYSTEM);
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "acquire fence scope 3");
}

TEST_F(HsaSimQueueErrorTest, MisalignedKernarg) {
  SetUpAgent();
  int32_t* x = Buffer(2);
  hsa_kernel_dispatch_packet_t p = AddOne(&x[0], &x[1], 1, hsa_signal_t{0});
  p.kernarg_address = static_cast<char*>(p.kernarg_address) + 8;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_ARGUMENT, "not aligned to the kernel's 16-byte");
}

TEST_F(HsaSimQueueErrorTest, KernargOutsideTheKernargPool) {
  SetUpAgent();
  int32_t* x = Buffer(2);
  hsa_kernel_dispatch_packet_t p = AddOne(&x[0], &x[1], 1, hsa_signal_t{0});
  void* coarse = Allocate(pools_.coarse, 64);
  std::memcpy(coarse, p.kernarg_address, 32);
  p.kernarg_address = coarse;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_ARGUMENT, "coarse-grained");
  alignas(16) uint8_t stack[64] = {};
  p.kernarg_address = stack;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_ARGUMENT, "is not inside one pool allocation");
  p.kernarg_address = kernargs_ + 64 * 1024 - 16;  // runs past the end of the allocation
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_ARGUMENT, "past its end");
}

TEST_F(HsaSimQueueErrorTest, BadGeometry) {
  SetUpAgent();
  int32_t* x = Buffer(2);
  hsa_kernel_dispatch_packet_t p = AddOne(&x[0], &x[1], 1, hsa_signal_t{0});
  p.setup = 0;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "setup dimensions are 0");
  p.setup = 1;
  p.workgroup_size_y = 2;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "unused dimensions must be 1");
  p.setup = 2;
  p.workgroup_size_x = 1024;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "2048 work-items");
  p.workgroup_size_x = 64;
  p.workgroup_size_y = 1;
  p.grid_size_x = 0;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "grid_size_x is 0");
}

TEST_F(HsaSimQueueErrorTest, SegmentSizes) {
  SetUpAgent();
  uint64_t reverse = KernelObject(executable_, gpu_, "lds_reverse.kd");
  int32_t* x = Buffer(2);
  hsa_kernel_dispatch_packet_t p = AddOne(&x[0], &x[1], 1, hsa_signal_t{0});
  p.kernel_object = reverse;
  p.group_segment_size = 64;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_ARGUMENT, "less than the kernel's static group segment of 4096");
  p.group_segment_size = 128 * 1024;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_ARGUMENT, "exceeds the 65536 bytes of LDS");
  p.kernel_object = KernelObject(executable_, gpu_, "probe.kd");
  p.group_segment_size = 0;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_ARGUMENT, "private_segment_size 0 is less than the kernel's 16");
}

TEST_F(HsaSimQueueErrorTest, UnknownKernelObjectAndSignals) {
  SetUpAgent();
  int32_t* x = Buffer(2);
  hsa_kernel_dispatch_packet_t p = AddOne(&x[0], &x[1], 1, hsa_signal_t{0});
  p.kernel_object = 0x1000;
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "kernel_object 0x1000");
  p = AddOne(&x[0], &x[1], 1, hsa_signal_t{0x5555});
  ExpectQueueError(&p, HSA_STATUS_ERROR_INVALID_SIGNAL, "completion_signal 0x5555");
  hsa_barrier_and_packet_t barrier{};
  barrier.header = Header(HSA_PACKET_TYPE_BARRIER_AND, false);
  barrier.dep_signal[1] = hsa_signal_t{0x6666};
  ExpectQueueError(&barrier, HSA_STATUS_ERROR_INVALID_SIGNAL, "dep_signal[1] 0x6666");
}

TEST_F(HsaSimQueueErrorTest, TrapInAWorkgroup) {
  SetUpAgent();
  uint64_t trap = KernelObject(executable_, gpu_, "trap.kd");
  hsa_signal_t done = Signal(1);
  void* kernarg = Kernarg();
  uint32_t grid[3] = {8 * 64, 1, 1};
  uint16_t workgroup[3] = {64, 1, 1};
  WriteKernarg(kernarg, {}, {5}, grid, workgroup);  // workgroup 5 of 8 traps
  hsa_kernel_dispatch_packet_t p = DispatchPacket(trap, kernarg, {8 * 64}, {64}, done);
  ExpectQueueError(&p, HSA_STATUS_ERROR_EXCEPTION, "workgroup (5, 0, 0) trapped (the twin returned 1)");
  EXPECT_EQ(hsa_signal_load_scacquire(done), 1);  // a trapped dispatch never completes
}

TEST_F(HsaSimQueueTest, DestroyWithPacketsPendingDoesNotHang) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  uint64_t sleepy = KernelObject(executable_, gpu_, "sleep_add_one.kd");
  int32_t* x = Buffer(2);
  void* kernarg = Kernarg();
  uint32_t grid[3] = {1, 1, 1};
  uint16_t workgroup[3] = {1, 1, 1};
  WriteKernarg(kernarg, {&x[0], &x[1]}, {1, 20'000}, grid, workgroup);
  hsa_signal_t never = Signal(1), done = Signal(100);
  hsa_barrier_and_packet_t blocked{};
  blocked.header = Header(HSA_PACKET_TYPE_BARRIER_AND, false);
  blocked.dep_signal[0] = never;
  hsa_kernel_dispatch_packet_t a = DispatchPacket(sleepy, kernarg, {1}, {1}, done);
  Submit(queue, &a);
  Submit(queue, &blocked);
  for (int i = 0; i < 20; ++i) {
    hsa_kernel_dispatch_packet_t p = DispatchPacket(sleepy, kernarg, {1}, {1}, done);
    Submit(queue, &p);
  }
  ASSERT_HSA_OK(hsa_queue_destroy(queue));
  EXPECT_GE(hsa_signal_load_scacquire(done), 99);  // none of those behind the barrier ran
}

TEST_F(HsaSimQueueTest, ShutdownWithLiveQueuesAndAllocations) {
  SetUpAgent();
  hsa_queue_t* queue = CreateQueue(gpu_, 64);
  int32_t* x = Buffer(2);
  hsa_signal_t never = Signal(1);
  hsa_barrier_and_packet_t blocked{};
  blocked.header = Header(HSA_PACKET_TYPE_BARRIER_AND, false);
  blocked.dep_signal[0] = never;
  Submit(queue, &blocked);
  hsa_kernel_dispatch_packet_t p = AddOne(&x[0], &x[1], 1, never);
  Submit(queue, &p);
  ASSERT_HSA_OK(hsa_shut_down());  // joins the queue's threads, frees everything
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(queue), 0u);
}

}  // namespace
}  // namespace kiln::hsa_sim_test
