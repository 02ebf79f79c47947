// The CPU drivers' host blocks and their pool: alignment, capacity rounding and reuse of
// freed blocks.
#include "drivers/cpu/host_memory.h"

#include <gtest/gtest.h>

namespace kiln::cpu {
namespace {

TEST(HostBlockPool, CapacityIsWithinAnEighthAndPageGranular) {
  EXPECT_EQ(HostBlockPool::CapacityFor(1), 4096u);
  EXPECT_EQ(HostBlockPool::CapacityFor(4096), 4096u);
  EXPECT_EQ(HostBlockPool::CapacityFor(4097), 8192u);
  EXPECT_EQ(HostBlockPool::CapacityFor(8u << 20), 8u << 20);
  EXPECT_EQ(HostBlockPool::CapacityFor((8u << 20) + 1), (8u << 20) + (1u << 20));
  for (size_t size : {size_t{5000}, size_t{100000}, size_t{3} << 20, (size_t{5} << 20) + 17}) {
    size_t capacity = HostBlockPool::CapacityFor(size);
    EXPECT_GE(capacity, size);
    EXPECT_LE(capacity, size + size / 8 + 4096) << size;
    EXPECT_EQ(capacity % 4096, 0u);
  }
}

// Blocks of 2 MiB or more start on a huge-page boundary (so that transparent huge pages
// can back all of them); smaller ones on a cache line.
TEST(HostBlock, LargeBlocksStartOnAHugePage) {
  for (size_t size : {size_t{2} << 20, (size_t{4} << 20) + 4096, size_t{9} << 20}) {
    uint8_t* block = AllocateHostBlock(size);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % (size_t{2} << 20), 0u) << size;
    block[size - 1] = 1;  // the whole size is usable
    FreeHostBlock(block, size);
  }
  uint8_t* small = AllocateHostBlock(1000);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % 64, 0u);
  FreeHostBlock(small, 1000);
}

TEST(HostBlockPool, AReleasedBlockIsReusedForASimilarSize) {
  HostBlockPool pool(64 << 20);
  size_t capacity = 0;
  uint8_t* first = pool.Acquire(1000000, &capacity);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(pool.reserved_bytes(), capacity);
  pool.Release(first, capacity);
  EXPECT_EQ(pool.reserved_bytes(), 0u);
  size_t again = 0;
  uint8_t* second = pool.Acquire(1000100, &again);
  EXPECT_EQ(second, first);
  EXPECT_EQ(again, capacity);
  pool.Release(second, again);
}

TEST(HostBlockPool, RetainsNoMoreThanItsLimit) {
  HostBlockPool pool(1 << 20);
  size_t capacity = 0;
  uint8_t* large = pool.Acquire(2 << 20, &capacity);
  ASSERT_NE(large, nullptr);
  pool.Release(large, capacity);  // over the limit: freed, not kept
  size_t small_capacity = 0;
  uint8_t* small = pool.Acquire(512 << 10, &small_capacity);
  ASSERT_NE(small, nullptr);
  pool.Release(small, small_capacity);
  size_t again = 0;
  EXPECT_EQ(pool.Acquire(512 << 10, &again), small);
  pool.Release(small, again);
}

TEST(CpuAllocator, LargeBuffersReuseFreedMemory) {
  CpuAllocator allocator;
  hal::BufferParams params;
  uint8_t* address = nullptr;
  {
    auto buffer = allocator.Allocate(params, 4 << 20);
    ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
    address = (*buffer)->storage()->device_address();
    EXPECT_EQ(allocator.statistics().bytes_allocated, size_t{4} << 20);
  }
  EXPECT_EQ(allocator.statistics().bytes_allocated, 0u);
  auto buffer = allocator.Allocate(params, 4 << 20);
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  EXPECT_EQ((*buffer)->storage()->device_address(), address);
}

}  // namespace
}  // namespace kiln::cpu
