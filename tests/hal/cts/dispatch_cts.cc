#include <numeric>

#include "hal/abi/executable_abi.h"
#include "tests/hal/cts/cts_fixture.h"

namespace kiln::hal::cts {
namespace {

class DispatchTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    kernels_ = Kernels();
    ASSERT_TRUE(kernels_);
  }
  Ref<Executable> kernels_;
};

TEST_P(DispatchTest, ElementwiseOverManyWorkgroups) {
  constexpr uint32_t kN = 100000, kChunk = 1000;
  std::vector<float> a(kN), b(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i % 7);
  }
  Ref<Buffer> ba = HostBufferWith(a), bb = HostBufferWith(b), out = HostBuffer(kN * 4);
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  BufferBinding bindings[] = {{ba}, {bb}, {out}};
  uint32_t constants[] = {kN, kChunk};
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "add_f32"), {kN / kChunk, 1, 1}, constants, bindings));
  KILN_ASSERT_OK(cb->Finalize());
  EXPECT_EQ(cb->dispatch_count(), 1u);
  KILN_ASSERT_OK(SubmitAndWait(cb));
  std::vector<float> got = Contents<float>(out);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(got[i], a[i] + b[i]) << i;
  EXPECT_GE(device_->queue_statistics().dispatches, 1u);
}

TEST_P(DispatchTest, EveryWorkgroupOfA3DGridRunsOnce) {
  constexpr uint32_t kX = 7, kY = 5, kZ = 3, kTotal = kX * kY * kZ;
  Ref<Buffer> out = HostBufferWith(std::vector<uint32_t>(kTotal, 0));
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  BufferBinding binding{out};
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "write_ids"), {kX, kY, kZ}, {}, {&binding, 1}));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  std::vector<uint32_t> got = Contents<uint32_t>(out);
  for (uint32_t i = 0; i < kTotal; ++i) ASSERT_EQ(got[i], i + 1) << "workgroup " << i;
}

TEST_P(DispatchTest, EightBindingsWithOffsets) {
  constexpr uint32_t kN = 16;
  std::vector<Ref<Buffer>> inputs;
  std::vector<BufferBinding> bindings;
  // Each input lives at a 64-byte offset inside a larger buffer to check binding offsets.
  for (uint32_t k = 0; k < 7; ++k) {
    std::vector<uint32_t> values(16 + kN, 0xFFFFFFFF);
    for (uint32_t i = 0; i < kN; ++i) values[16 + i] = i + k;
    inputs.push_back(HostBufferWith(values));
    bindings.push_back({inputs.back(), 64, kN * 4});
  }
  Ref<Buffer> out = HostBuffer(kN * 4);
  bindings.push_back({out});
  uint32_t n = kN;
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "weighted_sum8"), {1, 1, 1}, {&n, 1}, bindings));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  std::vector<uint32_t> got = Contents<uint32_t>(out);
  for (uint32_t i = 0; i < kN; ++i) {
    uint32_t want = 0;
    for (uint32_t k = 0; k < 7; ++k) want += (i + k) * (k + 1);
    ASSERT_EQ(got[i], want) << i;
  }
}

TEST_P(DispatchTest, WorkgroupLocalMemoryIsPerWorker) {
  constexpr uint32_t kGroups = 512;
  Ref<Buffer> out = HostBuffer(kGroups * 4);
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  BufferBinding binding{out};
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "local_sum"), {kGroups, 1, 1}, {}, {&binding, 1}));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  std::vector<uint32_t> got = Contents<uint32_t>(out);
  // A worker sharing its scratch with another would corrupt some sums.
  for (uint32_t i = 0; i < kGroups; ++i) ASSERT_EQ(got[i], i * 1024u) << i;
}

TEST_P(DispatchTest, BarriersOrderDependentDispatches) {
  constexpr uint32_t kN = 64;
  Ref<Buffer> buf = HostBuffer(kN * 4);
  Ref<Buffer> copy = HostBuffer(kN * 4);
  uint32_t zero = 0, n = kN;
  BufferBinding binding{buf};
  uint32_t step = Export(kernels_, "double_plus_one");
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  KILN_ASSERT_OK(cb->Fill(buf, 0, kWholeBuffer, &zero, 4));
  for (int i = 0; i < 5; ++i) {
    KILN_ASSERT_OK(cb->ExecutionBarrier());
    KILN_ASSERT_OK(cb->Dispatch(kernels_, step, {1, 1, 1}, {&n, 1}, {&binding, 1}));
  }
  KILN_ASSERT_OK(cb->ExecutionBarrier());
  KILN_ASSERT_OK(cb->Copy(buf, 0, copy, 0, kN * 4));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  // 0 -> 1 -> 3 -> 7 -> 15 -> 31: any reordering gives another value.
  for (uint32_t v : Contents<uint32_t>(copy)) ASSERT_EQ(v, 31u);
}

TEST_P(DispatchTest, ZeroWorkgroupsIsANoOp) {
  Ref<Buffer> out = HostBufferWith<uint32_t>({0});
  BufferBinding binding{out};
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "write_ids"), {0, 4, 1}, {}, {&binding, 1}));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  EXPECT_EQ(Contents<uint32_t>(out)[0], 0u);
}

TEST_P(DispatchTest, KernelErrorFailsTheSignalWithWhereAndWhy) {
  uint32_t fail_id = 77;
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "fail_at"), {10, 10, 1}, {&fail_id, 1}, {}));
  KILN_ASSERT_OK(cb->Finalize());
  Status status = SubmitAndWait(cb);
  ExpectError(status, StatusCode::kAborted, KernelFailureText(42));
  if (!gpu()) ExpectError(status, StatusCode::kAborted, "workgroup (7, 7, 0) returned device error 42");
  ExpectError(status, StatusCode::kAborted, "in dispatch 'fail_at' of executable 'test_kernels' (test_kernels.c:fail_at)");
}

// On the GPU every work-item of a failing workgroup races for its record (one wins), and the
// driver reports the record of the lowest failing workgroup as the CPU does.
TEST_P(DispatchTest, IndexCheckRecordOfTheFirstFailingWorkgroupIsReported) {
  uint32_t constants[] = {5, 2};  // workgroups 5.. record site 2
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "check_index"), {4, 3, 1}, constants, {}));
  KILN_ASSERT_OK(cb->Finalize());
  Status status = SubmitAndWait(cb);
  ExpectError(status, StatusCode::kOutOfRange,
              "index 105 is out of range [0, 10) for dimension 1 of the original of a scatter, in workgroup (1, 1, 0)");
  ExpectError(status, StatusCode::kOutOfRange, "in dispatch 'check_index' of executable 'test_kernels'");
}

TEST_P(DispatchTest, IndexCheckRecordNamingNoSiteIsADeviceError) {
  for (uint32_t site : {0u, 3u}) {
    uint32_t constants[] = {0, site};
    Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
    KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "check_index"), {1, 1, 1}, constants, {}));
    KILN_ASSERT_OK(cb->Finalize());
    Status status = SubmitAndWait(cb);
    if (!gpu()) {
      ExpectError(status, StatusCode::kAborted,
                  StrCat("workgroup (0, 0, 0) returned device error ", KILN_DISPATCH_INDEX_OUT_OF_RANGE));
    } else if (site == 0) {
      KILN_EXPECT_OK(status);  // a GPU record's site word 0 means nothing was recorded
    } else {
      ExpectError(status, StatusCode::kDataLoss,
                  "workgroup (0, 0, 0) filled its index check record with site 3; the export has 2 check sites");
    }
  }
}

// Each submission reports its own records: a failing command buffer fails again when
// resubmitted (naming the same workgroup), and one without failures submitted after it passes.
TEST_P(DispatchTest, IndexCheckRecordsBelongToTheirSubmission) {
  Ref<CommandBuffer> failing = device_->CreateCommandBuffer();
  uint32_t fail[] = {2, 1};
  KILN_ASSERT_OK(failing->Dispatch(kernels_, Export(kernels_, "check_index"), {4, 1, 1}, fail, {}));
  KILN_ASSERT_OK(failing->Finalize());
  Ref<CommandBuffer> passing = device_->CreateCommandBuffer();
  uint32_t pass[] = {4, 1};
  KILN_ASSERT_OK(passing->Dispatch(kernels_, Export(kernels_, "check_index"), {4, 1, 1}, pass, {}));
  KILN_ASSERT_OK(passing->Finalize());
  for (int run = 0; run < 2; ++run) {
    ExpectError(SubmitAndWait(failing), StatusCode::kOutOfRange,
                "index 102 is out of range [0, 10) for dimension 0 of the source of a gather, in workgroup (2, 0, 0)");
    KILN_EXPECT_OK(SubmitAndWait(passing));
  }
  // The same command buffer twice in one submission: the first failure is reported.
  ExpectError(SubmitAndWait({passing, failing, failing}), StatusCode::kOutOfRange,
              "index 102 is out of range [0, 10) for dimension 0 of the source of a gather, in workgroup (2, 0, 0)");
}

TEST_P(DispatchTest, RecordingValidatesAgainstTheExport) {
  Ref<Buffer> buf = HostBuffer(64);
  uint32_t add = Export(kernels_, "add_f32");
  uint32_t constants[] = {16, 16};
  BufferBinding three[] = {{buf}, {buf}, {buf}};
  BufferBinding two[] = {{buf}, {buf}};
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  ExpectError(cb->Dispatch(kernels_, add, {1, 1, 1}, constants, two), StatusCode::kInvalidArgument,
              "expected 3 bindings, got 2; in dispatch of 'add_f32'");
  ExpectError(cb->Dispatch(kernels_, add, {1, 1, 1}, {constants, 1}, three), StatusCode::kInvalidArgument,
              "expected 2 constants, got 1");
  ExpectError(cb->Dispatch(kernels_, 99, {1, 1, 1}, constants, three), StatusCode::kOutOfRange,
              "export ordinal 99");
  ExpectError(cb->Dispatch(nullptr, 0, {1, 1, 1}, constants, three), StatusCode::kInvalidArgument, "null");
  ExpectError(cb->Dispatch(kernels_, add, {device_->info().max_workgroup_count[0] + 1, 1, 1}, constants, three),
              StatusCode::kInvalidArgument,
              "exceeds the device limit");
  BufferBinding out_of_range[] = {{buf}, {buf, 32, 64}, {buf}};
  ExpectError(cb->Dispatch(kernels_, add, {1, 1, 1}, constants, out_of_range), StatusCode::kOutOfRange,
              "binding 1 [32, 32+64) exceeds a buffer of 64 bytes");
  BufferBinding with_null[] = {{buf}, {nullptr}, {buf}};
  ExpectError(cb->Dispatch(kernels_, add, {1, 1, 1}, constants, with_null), StatusCode::kInvalidArgument,
              "binding 1 is null");
  StatusOr<Ref<Buffer>> transfer_only =
      device_->allocator().Allocate({MemoryType::kDeviceLocal, BufferUsage::kTransfer}, 64);
  KILN_ASSERT_OK(transfer_only.status());
  BufferBinding wrong_usage[] = {{buf}, {buf}, {*transfer_only}};
  ExpectError(cb->Dispatch(kernels_, add, {1, 1, 1}, constants, wrong_usage), StatusCode::kInvalidArgument,
              "binding 2 needs usage DISPATCH_STORAGE");

  StatusOr<Ref<Device>> other = BuiltinDriverRegistry().CreateDevice(GetParam());
  KILN_ASSERT_OK(other.status());
  StatusOr<Ref<Executable>> foreign = testing::LoadKernelLibrary(**other);
  KILN_ASSERT_OK(foreign.status());
  ExpectError(cb->Dispatch(*foreign, add, {1, 1, 1}, constants, three), StatusCode::kInvalidArgument,
              "created by another device");
  EXPECT_TRUE(cb->commands().empty());
}

TEST_P(DispatchTest, KernelSeesBindingLengths) {
  KILN_SKIP_ON_GPU("the GPU kernel ABI passes binding pointers only");
  // add_f32 returns 3 when a binding is shorter than n floats: lengths must be the bound ranges.
  Ref<Buffer> buf = HostBuffer(64);
  uint32_t constants[] = {16, 16};  // 16 floats = 64 bytes
  BufferBinding short_binding[] = {{buf}, {buf, 0, 32}, {buf}};
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  KILN_ASSERT_OK(cb->Dispatch(kernels_, Export(kernels_, "add_f32"), {1, 1, 1}, constants, short_binding));
  KILN_ASSERT_OK(cb->Finalize());
  ExpectError(SubmitAndWait(cb), StatusCode::kAborted, "returned device error 3");
}

KILN_INSTANTIATE_CTS(DispatchTest);

}  // namespace
}  // namespace kiln::hal::cts
