#include "tests/hal/cts/cts_fixture.h"

namespace kiln::hal::cts {
namespace {

class BufferTest : public DeviceTest {};

TEST_P(BufferTest, AllocateMapWriteRead) {
  Ref<Buffer> buffer = HostBuffer(256);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(buffer->byte_length(), 256u);
  EXPECT_TRUE(AllSet(buffer->memory_type(), MemoryType::kHostVisible));
  {
    StatusOr<MappedRange> range = buffer->Map(MemoryAccess::kWrite);
    KILN_ASSERT_OK(range.status());
    ASSERT_EQ(range->size(), 256u);
    for (size_t i = 0; i < 256; ++i) range->data()[i] = static_cast<uint8_t>(i);
  }
  std::vector<uint8_t> bytes = Contents<uint8_t>(buffer);
  for (size_t i = 0; i < 256; ++i) ASSERT_EQ(bytes[i], i);
}

TEST_P(BufferTest, ZeroSizedAllocationIsValid) {
  Ref<Buffer> buffer = HostBuffer(0);
  ASSERT_TRUE(buffer);
  EXPECT_EQ(buffer->byte_length(), 0u);
}

TEST_P(BufferTest, SubspanSharesStorageAndIsBoundsChecked) {
  Ref<Buffer> buffer = HostBufferWith<uint32_t>({0, 1, 2, 3, 4, 5, 6, 7});
  StatusOr<Ref<Buffer>> sub = buffer->Subspan(8, 16);
  KILN_ASSERT_OK(sub.status());
  EXPECT_EQ((*sub)->byte_length(), 16u);
  EXPECT_EQ(Contents<uint32_t>(*sub), (std::vector<uint32_t>{2, 3, 4, 5}));
  StatusOr<Ref<Buffer>> nested = (*sub)->Subspan(4, kWholeBuffer);
  KILN_ASSERT_OK(nested.status());
  EXPECT_EQ(Contents<uint32_t>(*nested), (std::vector<uint32_t>{3, 4, 5}));
  ExpectError(buffer->Subspan(30, 4).status(), StatusCode::kOutOfRange, "exceeds a buffer of 32 bytes");
  ExpectError(buffer->Subspan(33, 0).status(), StatusCode::kOutOfRange, "past the end");
  ExpectError((*sub)->Subspan(8, 16).status(), StatusCode::kOutOfRange, "exceeds a buffer of 16 bytes");
}

TEST_P(BufferTest, MapRangeIsBoundsChecked) {
  Ref<Buffer> buffer = HostBuffer(64);
  ExpectError(buffer->Map(MemoryAccess::kRead, 60, 8).status(), StatusCode::kOutOfRange, "mapped range");
  ExpectError(buffer->Map(MemoryAccess::kRead, SIZE_MAX - 2, 8).status(), StatusCode::kOutOfRange, "past the end");
  KILN_EXPECT_OK(buffer->Map(MemoryAccess::kRead, 60, 4).status());
  std::vector<uint8_t> out(8);
  ExpectError(buffer->Read(60, out), StatusCode::kOutOfRange, "mapped range");
}

TEST_P(BufferTest, MappingDeviceLocalBufferIsRefused) {
  StatusOr<Ref<Buffer>> buffer = device_->allocator().Allocate({MemoryType::kDeviceLocal, BufferUsage::kDefault}, 64);
  KILN_ASSERT_OK(buffer.status());
  ExpectError((*buffer)->Map(MemoryAccess::kRead).status(), StatusCode::kFailedPrecondition, "not HOST_VISIBLE");
}

TEST_P(BufferTest, MappingNeedsMappingUsageAndAllowedAccess) {
  StatusOr<Ref<Buffer>> no_mapping =
      device_->allocator().Allocate({MemoryType::kHostVisible, BufferUsage::kDefault}, 64);
  KILN_ASSERT_OK(no_mapping.status());
  ExpectError((*no_mapping)->Map(MemoryAccess::kRead).status(), StatusCode::kInvalidArgument, "MAPPING");

  StatusOr<Ref<Buffer>> read_only = device_->allocator().Allocate(
      {MemoryType::kHostVisible, BufferUsage::kDefault | BufferUsage::kMapping, MemoryAccess::kRead}, 64);
  KILN_ASSERT_OK(read_only.status());
  KILN_EXPECT_OK((*read_only)->Map(MemoryAccess::kRead).status());
  ExpectError((*read_only)->Map(MemoryAccess::kWrite).status(), StatusCode::kPermissionDenied, "allows READ");
}

TEST_P(BufferTest, AllocationRequestsAreValidated) {
  Allocator& allocator = device_->allocator();
  ExpectError(allocator.Allocate({MemoryType::kDeviceLocal, BufferUsage::kMapping}, 64).status(),
              StatusCode::kInvalidArgument, "HOST_VISIBLE");
  ExpectError(allocator.Allocate({MemoryType::kDeviceLocal, BufferUsage::kDefault, MemoryAccess::kNone}, 64).status(),
              StatusCode::kInvalidArgument, "access");
  ExpectError(allocator.Allocate({MemoryType::kDeviceLocal, BufferUsage::kDefault}, SIZE_MAX - 1).status(),
              StatusCode::kResourceExhausted, "exceeds");
}

TEST_P(BufferTest, StatisticsTrackLiveBytes) {
  AllocatorStatistics before = device_->allocator().statistics();
  {
    Ref<Buffer> a = HostBuffer(1000);
    AllocatorStatistics during = device_->allocator().statistics();
    EXPECT_EQ(during.bytes_allocated, before.bytes_allocated + 1000);
    EXPECT_GE(during.peak_bytes_allocated, during.bytes_allocated);
  }
  EXPECT_EQ(device_->allocator().statistics().bytes_allocated, before.bytes_allocated);
}

TEST_P(BufferTest, BufferViewChecksShapeAgainstBuffer) {
  Ref<Buffer> buffer = HostBuffer(24);
  int64_t shape[] = {2, 3};
  StatusOr<Ref<BufferView>> view = BufferView::Create(buffer, shape, ElementType::kF32);
  KILN_ASSERT_OK(view.status());
  EXPECT_EQ((*view)->ShapeString(), "2x3xf32");
  EXPECT_EQ((*view)->element_count(), 6u);
  EXPECT_EQ((*view)->byte_length(), 24u);
  int64_t too_big[] = {2, 4};
  ExpectError(BufferView::Create(buffer, too_big, ElementType::kF32).status(), StatusCode::kInvalidArgument,
              "needs 32 bytes");
  int64_t negative[] = {2, -1};
  ExpectError(BufferView::Create(buffer, negative, ElementType::kF32).status(), StatusCode::kInvalidArgument,
              "negative");
  int64_t overflow[] = {INT64_MAX, INT64_MAX, 4};
  ExpectError(BufferView::Create(buffer, overflow, ElementType::kI8).status(), StatusCode::kOutOfRange, "overflows");
  int64_t packed[] = {7};
  KILN_EXPECT_OK(BufferView::Create(buffer, packed, ElementType::kI4).status());
}

KILN_INSTANTIATE_CTS(BufferTest);

}  // namespace
}  // namespace kiln::hal::cts
