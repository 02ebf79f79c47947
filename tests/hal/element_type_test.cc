#include "hal/element_type.h"

#include <gtest/gtest.h>

namespace kiln::hal {
namespace {

TEST(ElementType, NamesRoundTrip) {
  for (int i = 0; i < kElementTypeCount; ++i) {
    auto type = static_cast<ElementType>(i);
    std::optional<ElementType> parsed = ParseElementType(ElementTypeName(type));
    ASSERT_TRUE(parsed.has_value()) << ElementTypeName(type);
    EXPECT_EQ(*parsed, type);
  }
  EXPECT_FALSE(ParseElementType("f7").has_value());
  EXPECT_FALSE(ParseElementType("").has_value());
}

TEST(ElementType, StorageSizes) {
  EXPECT_EQ(ElementStorageBytes(ElementType::kF32, 6), 24u);
  EXPECT_EQ(ElementStorageBytes(ElementType::kBF16, 3), 6u);
  EXPECT_EQ(ElementStorageBytes(ElementType::kF8E4M3FNUZ, 5), 5u);
  EXPECT_EQ(ElementStorageBytes(ElementType::kI1, 5), 5u);         // unpacked bytes
  EXPECT_EQ(ElementStorageBytes(ElementType::kI4, 5), 3u);         // packed, rounded up
  EXPECT_EQ(ElementStorageBytes(ElementType::kI2, 4), 1u);
  EXPECT_EQ(ElementStorageBytes(ElementType::kF4E2M1FN, 3), 2u);
  EXPECT_EQ(ElementStorageBytes(ElementType::kComplexF64, 2), 32u);
  EXPECT_FALSE(ElementStorageBytes(ElementType::kF64, UINT64_MAX / 4).has_value());
}

TEST(ElementType, Classes) {
  EXPECT_TRUE(IsFloatElementType(ElementType::kF8E5M2));
  EXPECT_TRUE(IsFloatElementType(ElementType::kBF16));
  EXPECT_FALSE(IsFloatElementType(ElementType::kI8));
  EXPECT_TRUE(IsIntegerElementType(ElementType::kI1));
  EXPECT_FALSE(IsIntegerElementType(ElementType::kComplexF32));
}

}  // namespace
}  // namespace kiln::hal
