// Comparing and parsing values (runtime/value_text.h, runtime/value_files.h).
#include "runtime/value_text.h"

#include <gtest/gtest.h>

#include "drivers/builtin_drivers.h"
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
  // f8E4M3FN 1.0 = 0x38, 2.0 = 0x40: different bit patterns never compare equal.
  auto a = View(hal::ElementType::kF8E4M3FN, {2}, {0x38, 0x40});
  auto b = View(hal::ElementType::kF8E4M3FN, {2}, {0x38, 0x44});
  auto c = View(hal::ElementType::kF8E4M3FN, {2}, {0x38, 0x40});
  Status differ = CompareBufferViews(*a, *b, 0, 0);
  EXPECT_FALSE(differ.ok());
  EXPECT_NE(differ.ToString().find("byte 1 of 2xf8E4M3FN differs"), std::string::npos) << differ.ToString();
  EXPECT_TRUE(CompareBufferViews(*a, *c, 0, 0).ok());
  EXPECT_EQ(CompareBufferViews(*a, *c, 0.1, 0).code(), StatusCode::kUnimplemented);
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

}  // namespace
}  // namespace kiln::runtime
