// Comparing and parsing values (runtime/value_text.h, runtime/value_files.h).
#include "runtime/value_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "runtime/element_values.h"
#include "runtime/value_files.h"

namespace kiln::runtime {
namespace {

class Values : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<Ref<hal::Device>> device = BuiltinDriverRegistry().CreateDevice("cpu-sync");
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = *device;
  }
  Ref<hal::BufferView> View(hal::ElementType type, std::vector<int64_t> dims, std::vector<uint8_t> bytes) {
    StatusOr<Ref<hal::BufferView>> view = CreateHostBufferView(device_->allocator(), type, dims, bytes);
    EXPECT_TRUE(view.ok()) << view.status().ToString();
    return view.ok() ? *view : Ref<hal::BufferView>();
  }
  Ref<hal::Device> device_;
};

TEST_F(Values, ElementsWithoutTextFormAreComparedByBytes) {
  // f8E8M0FNU (a power-of-two scale) has no numeric form here: bytes compare, tolerances do not.
  auto a = View(hal::ElementType::kF8E8M0FNU, {2}, {0x7f, 0x80});
  auto b = View(hal::ElementType::kF8E8M0FNU, {2}, {0x7f, 0x81});
  auto c = View(hal::ElementType::kF8E8M0FNU, {2}, {0x7f, 0x80});
  Status differ = CompareBufferViews(*a, *b, 0, 0);
  EXPECT_FALSE(differ.ok());
  EXPECT_NE(differ.ToString().find("byte 1 of 2xf8E8M0FNU differs"), std::string::npos) << differ.ToString();
  EXPECT_TRUE(CompareBufferViews(*a, *c, 0, 0).ok());
  EXPECT_EQ(CompareBufferViews(*a, *c, 0.1, 0).code(), StatusCode::kUnimplemented);
}

TEST_F(Values, Float8ElementsCompareAsNumbers) {
  // f8E4M3FN 1.0 = 0x38, 2.0 = 0x40, 2.25 = 0x41, NaN = 0x7f.
  auto a = View(hal::ElementType::kF8E4M3FN, {3}, {0x38, 0x40, 0x7f});
  auto b = View(hal::ElementType::kF8E4M3FN, {3}, {0x38, 0x41, 0x7f});
  EXPECT_TRUE(CompareBufferViews(*a, *b, 0.3, 0).ok());
  Status differ = CompareBufferViews(*a, *b, 0, 0);
  EXPECT_NE(differ.ToString().find("element [1] is 2, expected 2.25"), std::string::npos) << differ.ToString();
  // f8E5M2FNUZ: 0x80 is its only NaN, not a negative zero.
  auto nan = View(hal::ElementType::kF8E5M2FNUZ, {1}, {0x80});
  auto zero = View(hal::ElementType::kF8E5M2FNUZ, {1}, {0x00});
  EXPECT_FALSE(CompareBufferViews(*nan, *zero, 1, 0).ok());
}

// Each 8-bit float format's rounding (to nearest even), overflow, NaN and zero rules, as
// MLIR's APFloat conversions have them.
TEST(ElementValues, Float8StoresRoundPerFormat) {
  auto stored = [](hal::ElementType type, double value) {
    uint8_t byte = 0xAA;
    StoreElement(type, std::span<uint8_t>(&byte, 1), 0, value);
    return static_cast<int>(byte);
  };
  using hal::ElementType;
  EXPECT_EQ(stored(ElementType::kF8E4M3FN, 1.0625), 0x38);         // tie to even: 1.0
  EXPECT_EQ(stored(ElementType::kF8E4M3FN, 1.1875), 0x3a);         // tie to even: 1.25
  EXPECT_EQ(stored(ElementType::kF8E4M3FN, 464), 0x7e);            // 448, the largest
  EXPECT_EQ(stored(ElementType::kF8E4M3FN, 480), 0x7f);            // overflow: NaN
  EXPECT_EQ(stored(ElementType::kF8E4M3FN, 0.001953125), 0x01);    // smallest subnormal
  EXPECT_EQ(stored(ElementType::kF8E4M3FN, -0.0009765625), 0x80);  // tie to -0
  EXPECT_EQ(stored(ElementType::kF8E4M3FNUZ, 240), 0x7f);
  EXPECT_EQ(stored(ElementType::kF8E4M3FNUZ, 250), 0x80);          // overflow: NaN
  EXPECT_EQ(stored(ElementType::kF8E4M3FNUZ, -1e-9), 0x00);        // no negative zero
  EXPECT_EQ(stored(ElementType::kF8E5M2, 57344), 0x7b);
  EXPECT_EQ(stored(ElementType::kF8E5M2, 61440), 0x7c);            // overflow: infinity
  EXPECT_EQ(stored(ElementType::kF8E5M2, -INFINITY), 0xfc);
  EXPECT_EQ(stored(ElementType::kF8E5M2FNUZ, 70000), 0x80);
  EXPECT_EQ(stored(ElementType::kF8E5M2FNUZ, -3), 0xc6);          // 3.0 is 0x46
  auto loaded = [](ElementType type, uint8_t byte) { return LoadElement(type, std::span<const uint8_t>(&byte, 1), 0); };
  EXPECT_EQ(loaded(ElementType::kF8E4M3FN, 0x7e), 448);
  EXPECT_TRUE(std::isnan(loaded(ElementType::kF8E4M3FN, 0xff)));
  EXPECT_EQ(loaded(ElementType::kF8E5M2, 0x7c), INFINITY);
  EXPECT_EQ(loaded(ElementType::kF8E5M2FNUZ, 0x01), std::ldexp(1.0, -17));
  EXPECT_TRUE(std::isnan(loaded(ElementType::kF8E4M3FNUZ, 0x80)));
}

// Packed sub-byte elements, the first in each byte's low bits; integers signed.
TEST(ElementValues, SubByteElementsArePacked) {
  using hal::ElementType;
  std::vector<uint8_t> bytes(2, 0xff);
  for (size_t i = 0; i < 4; ++i) StoreElement(ElementType::kI4, bytes, i, std::vector<double>{1, -2, 7, -8}[i]);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0xe1, 0x87}));
  EXPECT_EQ(LoadElement(ElementType::kI4, bytes, 1), -2);
  EXPECT_EQ(LoadElement(ElementType::kI4, bytes, 3), -8);
  StoreElement(ElementType::kI2, bytes, 5, 3);  // wraps to -1, bits 10..11 of the stream
  EXPECT_EQ(bytes[1], 0x8f);
  EXPECT_EQ(LoadElement(ElementType::kI2, bytes, 5), -1);
  // f4E2M1FN: 0.75 is a tie between 0.5 and 1 (to 1, the even encoding 0x2); 7 saturates.
  StoreElement(ElementType::kF4E2M1FN, bytes, 0, 0.75);
  StoreElement(ElementType::kF4E2M1FN, bytes, 1, -7);
  EXPECT_EQ(bytes[0], 0xf2);
  EXPECT_EQ(LoadElement(ElementType::kF4E2M1FN, bytes, 0), 1.0);
  EXPECT_EQ(LoadElement(ElementType::kF4E2M1FN, bytes, 1), -6.0);
}

TEST_F(Values, ShapesAndTypesMustMatchExactly) {
  auto f32 = View(hal::ElementType::kF32, {1}, {0, 0, 128, 63});
  auto i32 = View(hal::ElementType::kI32, {1}, {0, 0, 128, 63});
  EXPECT_NE(CompareBufferViews(*f32, *i32, 0, 0).ToString().find("result is 1xf32, expected 1xi32"),
            std::string::npos);
}

TEST_F(Values, ScalarsCompareWithoutText) {
  EXPECT_TRUE(CompareValues(vm::Value::I64(int64_t{1} << 60), vm::Value::I64(int64_t{1} << 60), 0, 0).ok());
  EXPECT_FALSE(CompareValues(vm::Value::I64((int64_t{1} << 60) + 1), vm::Value::I64(int64_t{1} << 60), 0, 0).ok());
  EXPECT_TRUE(CompareValues(vm::Value::F32(1.0f), vm::Value::F32(1.05f), 0.1, 0).ok());
  Status far = CompareValues(vm::Value::F32(1.0f), vm::Value::F32(2.0f), 0.1, 0);
  EXPECT_NE(far.ToString().find("result is f32=1, expected f32=2"), std::string::npos) << far.ToString();
}

TEST_F(Values, HugeShapesAreErrorsNotAborts) {
  StatusOr<vm::Value> huge = ParseValue("1000000000000xf32=1", vm::ValueKind::kRef, device_->allocator());
  EXPECT_FALSE(huge.ok());
  StatusOr<vm::Value> overflow =
      ParseValue("4611686018427387905x4xf32=1", vm::ValueKind::kRef, device_->allocator());
  EXPECT_NE(overflow.status().ToString().find("overflows"), std::string::npos) << overflow.status().ToString();
  StatusOr<vm::Value> long_digits =
      ParseValue("99999999999999999999xf32=@x.bin", vm::ValueKind::kRef, device_->allocator());
  EXPECT_NE(long_digits.status().ToString().find("expected a non-negative dimension"), std::string::npos)
      << long_digits.status().ToString();
}

TEST_F(Values, OmittedValuesAreZeros) {
  for (const char* text : {"2x3xi32", "2x3xi32=", "0xf32"}) {
    StatusOr<Ref<hal::BufferView>> view = ParseBufferView(text, device_->allocator());
    ASSERT_TRUE(view.ok()) << text << ": " << view.status().ToString();
    std::vector<uint8_t> bytes((*view)->byte_length(), 0xff);
    ASSERT_TRUE((*view)->buffer()->Read(0, bytes).ok());
    EXPECT_TRUE(std::ranges::all_of(bytes, [](uint8_t b) { return b == 0; })) << text;
  }
  StatusOr<Ref<hal::BufferView>> bad = ParseBufferView("2xq32", device_->allocator());
  EXPECT_NE(bad.status().ToString().find("expected SHAPExTYPE=VALUES"), std::string::npos) << bad.status().ToString();
}

TEST_F(Values, IntegersTakeEitherRangeAndNothingElse) {
  StatusOr<Ref<hal::BufferView>> both = ParseBufferView("3xi8=255,-1,-128", device_->allocator());
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  std::vector<uint8_t> bytes(3);
  ASSERT_TRUE((*both)->buffer()->Read(0, bytes).ok());
  EXPECT_EQ(bytes, (std::vector<uint8_t>{255, 255, 128}));
  for (const char* text : {"3xi8=256,0,0", "3xi8=0,-129,0", "2xi4=16,0", "1xi16=65536"}) {
    StatusOr<Ref<hal::BufferView>> wide = ParseBufferView(text, device_->allocator());
    EXPECT_NE(wide.status().ToString().find("does not fit in"), std::string::npos) << text;
  }
  StatusOr<Ref<hal::BufferView>> fraction = ParseBufferView("2xi32=1.5,2", device_->allocator());
  EXPECT_NE(fraction.status().ToString().find("1.5 is not an integer"), std::string::npos)
      << fraction.status().ToString();
}

TEST_F(Values, FirstMismatchIsFoundByRowMajorIndex) {
  auto a = View(hal::ElementType::kI8, {2, 2}, {1, 2, 3, 4});
  auto b = View(hal::ElementType::kI8, {2, 2}, {1, 2, 3, 5});
  StatusOr<std::optional<BufferViewMismatch>> found = FindMismatch(*a, *b, 0, 0);
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->kind, BufferViewMismatch::Kind::kElement);
  EXPECT_EQ((*found)->index, 3u);
  EXPECT_EQ((*found)->actual, 4);
  EXPECT_EQ((*found)->expected, 5);
  auto c = View(hal::ElementType::kI8, {4}, {1, 2, 3, 4});
  found = FindMismatch(*a, *c, 0, 0);
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->kind, BufferViewMismatch::Kind::kMetadata);
  EXPECT_EQ(PrintedNumber(hal::ElementType::kF32, 2.23669e8), "2.23669E+08");
}

}  // namespace
}  // namespace kiln::runtime
