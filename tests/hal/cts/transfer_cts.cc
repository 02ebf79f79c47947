#include "tests/hal/cts/cts_fixture.h"

namespace kiln::hal::cts {
namespace {

class TransferTest : public DeviceTest {};

TEST_P(TransferTest, FillWithEachPatternLength) {
  Ref<Buffer> buffer = HostBuffer(64);
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  uint8_t p1 = 0xAB;
  uint16_t p2 = 0x1234;
  uint32_t p4 = 0xDEADBEEF;
  uint64_t p8 = 0x0102030405060708ull;
  KILN_ASSERT_OK(cb->Fill(buffer, 0, 16, &p1, 1));
  KILN_ASSERT_OK(cb->Fill(buffer, 16, 16, &p2, 2));
  KILN_ASSERT_OK(cb->Fill(buffer, 32, 16, &p4, 4));
  KILN_ASSERT_OK(cb->Fill(buffer, 48, kWholeBuffer, &p8, 8));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  std::vector<uint8_t> bytes = Contents<uint8_t>(buffer);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(bytes[i], 0xAB);
  uint16_t h[8];
  uint32_t w[4];
  uint64_t d[2];
  std::memcpy(h, &bytes[16], 16);
  std::memcpy(w, &bytes[32], 16);
  std::memcpy(d, &bytes[48], 16);
  for (uint16_t v : h) EXPECT_EQ(v, p2);
  for (uint32_t v : w) EXPECT_EQ(v, p4);
  for (uint64_t v : d) EXPECT_EQ(v, p8);
}

TEST_P(TransferTest, FillPhaseHeadAndTailMatchAReference) {
  // Every pattern length at offsets that misalign the vector path, with lengths that leave
  // tails, including one large enough for the streaming path and the split across workers.
  const uint64_t pattern = 0x8877665544332211ull;
  for (size_t pattern_length : {size_t{1}, size_t{2}, size_t{4}, size_t{8}}) {
    for (size_t offset : {size_t{0}, pattern_length, 3 * pattern_length, size_t{24}}) {
      for (size_t length : {size_t{0}, 8 * pattern_length, 1000 * pattern_length, (size_t{5} << 20) + 8 * 5}) {
        length = length / pattern_length * pattern_length;
        const size_t total = offset + length + 64;
        Ref<Buffer> buffer = HostBufferWith(std::vector<uint8_t>(total, 0xEE));
        Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
        KILN_ASSERT_OK(cb->Fill(buffer, offset, length, &pattern, pattern_length));
        KILN_ASSERT_OK(cb->Finalize());
        KILN_ASSERT_OK(SubmitAndWait(cb));
        std::vector<uint8_t> got = Contents<uint8_t>(buffer);
        for (size_t i = 0; i < total; ++i) {
          uint8_t want = (i >= offset && i < offset + length)
                             ? static_cast<uint8_t>(pattern >> (8 * ((i - offset) % pattern_length)))
                             : 0xEE;
          ASSERT_EQ(got[i], want) << "pattern " << pattern_length << " offset " << offset << " length " << length
                                  << " byte " << i;
        }
      }
    }
  }
}

TEST_P(TransferTest, CopyAndUpdate) {
  Ref<Buffer> src = HostBufferWith<uint32_t>({1, 2, 3, 4, 5, 6, 7, 8});
  Ref<Buffer> dst = HostBufferWith<uint32_t>(std::vector<uint32_t>(8, 0));
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  KILN_ASSERT_OK(cb->Copy(src, 4, dst, 8, 12));  // src[1..3] -> dst[2..4]
  uint32_t patch[] = {90, 91};
  KILN_ASSERT_OK(cb->Update({reinterpret_cast<uint8_t*>(patch), sizeof(patch)}, dst, 24));  // dst[6..7]
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  EXPECT_EQ(Contents<uint32_t>(dst), (std::vector<uint32_t>{0, 0, 2, 3, 4, 0, 90, 91}));
}

TEST_P(TransferTest, UpdateDataIsCapturedAtRecordTime) {
  Ref<Buffer> dst = HostBuffer(8);
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  uint32_t data[] = {5, 6};
  KILN_ASSERT_OK(cb->Update({reinterpret_cast<uint8_t*>(data), sizeof(data)}, dst, 0));
  data[0] = 99;  // changing the host copy afterwards must not matter
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  EXPECT_EQ(Contents<uint32_t>(dst), (std::vector<uint32_t>{5, 6}));
}

TEST_P(TransferTest, LargeFillAndCopyAreExact) {
  // Larger than a transfer chunk so the parallel path is used on the cpu driver.
  constexpr size_t kBytes = (5u << 20) + 36;
  Ref<Buffer> a = HostBuffer(kBytes), b = HostBuffer(kBytes);
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  uint32_t pattern = 0x01020304;
  KILN_ASSERT_OK(cb->Fill(a, 0, kBytes, &pattern, 4));
  KILN_ASSERT_OK(cb->ExecutionBarrier());
  KILN_ASSERT_OK(cb->Copy(a, 4, b, 0, kBytes - 4));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  std::vector<uint32_t> words = Contents<uint32_t>(b);
  for (size_t i = 0; i + 1 < words.size(); ++i) ASSERT_EQ(words[i], pattern) << i;
}

TEST_P(TransferTest, RecordingValidatesRangesUsageAndAlignment) {
  Ref<Buffer> buffer = HostBuffer(64);
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  uint32_t pattern = 0;
  ExpectError(cb->Fill(buffer, 0, 128, &pattern, 4), StatusCode::kOutOfRange, "fill target");
  ExpectError(cb->Fill(buffer, 2, 8, &pattern, 4), StatusCode::kInvalidArgument, "multiples of the pattern length");
  ExpectError(cb->Fill(buffer, 0, 8, &pattern, 3), StatusCode::kInvalidArgument, "1, 2, 4 or 8");
  ExpectError(cb->Fill(nullptr, 0, 8, &pattern, 4), StatusCode::kInvalidArgument, "null");
  ExpectError(cb->Copy(buffer, 0, buffer, 16, 32), StatusCode::kInvalidArgument, "overlap");
  ExpectError(cb->Copy(buffer, 48, buffer, 0, 32), StatusCode::kOutOfRange, "copy source");
  StatusOr<Ref<Buffer>> sub = buffer->Subspan(16, 16);
  KILN_ASSERT_OK(sub.status());
  ExpectError(cb->Copy(buffer, 16, *sub, 4, 8), StatusCode::kInvalidArgument, "overlap");
  std::vector<uint8_t> big(128 * 1024);
  Ref<Buffer> large = HostBuffer(big.size());
  ExpectError(cb->Update(big, large, 0), StatusCode::kInvalidArgument, "staging buffer");

  StatusOr<Ref<Buffer>> no_transfer = device_->allocator().Allocate(
      {MemoryType::kDeviceLocal, BufferUsage::kDispatchStorage}, 64);
  KILN_ASSERT_OK(no_transfer.status());
  ExpectError(cb->Fill(*no_transfer, 0, 8, &pattern, 4), StatusCode::kInvalidArgument, "TRANSFER_TARGET");
  ExpectError(cb->Copy(*no_transfer, 0, buffer, 0, 8), StatusCode::kInvalidArgument, "TRANSFER_SOURCE");
  // Nothing invalid was recorded.
  EXPECT_TRUE(cb->commands().empty());
}

TEST_P(TransferTest, FinalizedCommandBuffersAreClosedAndReusable) {
  Ref<Buffer> buffer = HostBufferWith<uint32_t>({0, 0});
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  uint32_t pattern = 7;
  KILN_ASSERT_OK(cb->Fill(buffer, 0, 8, &pattern, 4));
  KILN_ASSERT_OK(cb->Finalize());
  ExpectError(cb->Fill(buffer, 0, 8, &pattern, 4), StatusCode::kFailedPrecondition, "finalized");
  ExpectError(cb->Finalize(), StatusCode::kFailedPrecondition, "finalized");
  KILN_ASSERT_OK(SubmitAndWait(cb));
  KILN_ASSERT_OK(SubmitAndWait(cb));
  EXPECT_EQ(Contents<uint32_t>(buffer), (std::vector<uint32_t>{7, 7}));
}

TEST_P(TransferTest, SubmittingUnfinalizedOrForeignCommandBuffersFails) {
  Ref<CommandBuffer> open = device_->CreateCommandBuffer();
  ExpectError(SubmitAndWait(open), StatusCode::kFailedPrecondition, "not finalized");
  StatusOr<Ref<Device>> other = BuiltinDriverRegistry().CreateDevice(GetParam());
  KILN_ASSERT_OK(other.status());
  Ref<CommandBuffer> foreign = (*other)->CreateCommandBuffer();
  KILN_ASSERT_OK(foreign->Finalize());
  ExpectError(SubmitAndWait(foreign), StatusCode::kInvalidArgument, "another device");
}

KILN_INSTANTIATE_CTS(TransferTest);

}  // namespace
}  // namespace kiln::hal::cts
