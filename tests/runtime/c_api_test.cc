// The C API's contracts (include/kiln/kiln.h): handles, buffer views, calls, and errors as
// statuses with messages, never crashes. The module is the VM tests' hand-built one, so
// this test does not need the compiler.
#include "kiln/kiln.h"

#include <gtest/gtest.h>

#include <string>

#include "vm/builder.h"

namespace {

// A status's message, freeing it; "OK" for NULL.
std::string Take(kiln_status_t* status) {
  std::string message = kiln_status_message(status);
  kiln_status_free(status);
  return message;
}

// add_one(i32) -> i32 and twice(i64) -> (i64, i64), built with the VM's module builder.
std::vector<uint8_t> TestModule() {
  kiln::vm::ModuleBuilder b("c_api_test");
  kiln::vm::FunctionBuilder& add = b.AddFunction("add_one", "i:i");
  kiln::vm::Reg one = add.NewI32(), sum = add.NewI32();
  add.Emit(kiln::vm::Opcode::kConstI32, {one.index(), 1});
  add.Emit(kiln::vm::Opcode::kAddI32, {sum.index(), add.args()[0].index(), one.index()});
  kiln::vm::Reg add_results[] = {sum};
  add.Return(add_results);
  b.Export("add_one", add.ordinal());
  kiln::vm::FunctionBuilder& twice = b.AddFunction("twice", "I:II");
  kiln::vm::Reg twice_results[] = {twice.args()[0], twice.args()[0]};
  twice.Return(twice_results);
  b.Export("twice", twice.ordinal());
  return *b.Finish();
}

class CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(Take(kiln_instance_create(&instance_)), "OK");
    ASSERT_EQ(Take(kiln_device_create(instance_, "cpu-sync", &device_)), "OK");
    std::vector<uint8_t> bytes = TestModule();
    ASSERT_EQ(Take(kiln_module_load_memory(instance_, bytes.data(), bytes.size(), &module_)), "OK");
  }
  void TearDown() override {
    kiln_module_release(module_);
    kiln_device_release(device_);
    kiln_instance_release(instance_);
  }
  kiln_instance_t* instance_ = nullptr;
  kiln_device_t* device_ = nullptr;
  kiln_module_t* module_ = nullptr;
};

TEST_F(CApi, CallsFunctionsWithScalars) {
  ASSERT_EQ(kiln_module_function_count(module_), 2u);
  EXPECT_STREQ(kiln_module_function_name(module_, 0), "add_one");
  EXPECT_EQ(kiln_module_function_name(module_, 2), nullptr);
  kiln_session_t* session = nullptr;
  ASSERT_EQ(Take(kiln_session_create(device_, module_, &session)), "OK");
  kiln_value_t arg = {};
  arg.kind = KILN_VALUE_I32;
  arg.i32 = 41;
  kiln_value_t result = {};
  size_t count = 0;
  ASSERT_EQ(Take(kiln_session_call(session, "add_one", &arg, 1, &result, 1, &count)), "OK");
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(result.kind, KILN_VALUE_I32);
  EXPECT_EQ(result.i32, 42);
  // Too little room for the results: an error naming the count, nothing written.
  arg.kind = KILN_VALUE_I64;
  arg.i64 = 7;
  kiln_status_t* status = kiln_session_call(session, "twice", &arg, 1, &result, 1, &count);
  EXPECT_EQ(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
  EXPECT_NE(Take(status).find("returns 2 results, result_capacity is 1"), std::string::npos);
  // Handles outlive each other in any order: the session keeps the module and device.
  kiln_module_release(module_);
  module_ = nullptr;
  kiln_value_t results[2];
  ASSERT_EQ(Take(kiln_session_call(session, "twice", &arg, 1, results, 2, &count)), "OK");
  EXPECT_EQ(results[1].i64, 7);
  kiln_session_release(session);
}

TEST_F(CApi, ErrorsAreStatusesWithMessages) {
  kiln_session_t* session = nullptr;
  ASSERT_EQ(Take(kiln_session_create(device_, module_, &session)), "OK");
  size_t count = 0;
  kiln_value_t result;
  std::string no_function = Take(kiln_session_call(session, "nope", nullptr, 0, &result, 1, &count));
  EXPECT_NE(no_function.find("has no exported function 'nope'"), std::string::npos) << no_function;
  std::string wrong_args = Take(kiln_session_call(session, "add_one", nullptr, 0, &result, 1, &count));
  EXPECT_NE(wrong_args.find("expected 1 arguments"), std::string::npos) << wrong_args;
  EXPECT_NE(Take(kiln_session_call(session, nullptr, nullptr, 0, &result, 1, &count)).find("'function' must not be NULL"),
            std::string::npos);
  kiln_session_release(session);

  kiln_device_t* device = nullptr;
  kiln_status_t* status = kiln_device_create(instance_, "warp", &device);
  EXPECT_NE(status, nullptr);
  EXPECT_EQ(device, nullptr) << "out-parameters are written only on success";
  EXPECT_NE(Take(status).find("warp"), std::string::npos);
  kiln_module_t* module = nullptr;
  const char garbage[] = "not a module";
  EXPECT_NE(Take(kiln_module_load_memory(instance_, garbage, sizeof(garbage), &module)), "OK");
  EXPECT_EQ(kiln_status_code(nullptr), KILN_STATUS_OK);
  kiln_status_free(nullptr);
}

TEST_F(CApi, SubByteBufferViewsArePacked) {
  // 5 i4 elements: 1, -2, 3, 7, -8, packed low bits first in 3 bytes.
  const uint8_t data[3] = {0xe1, 0x73, 0x08};
  const int64_t shape[1] = {5};
  kiln_buffer_view_t* view = nullptr;
  ASSERT_EQ(Take(kiln_buffer_view_create(device_, KILN_ELEMENT_TYPE_I4, shape, 1, data, sizeof(data), &view)), "OK");
  EXPECT_EQ(kiln_buffer_view_element_type(view), KILN_ELEMENT_TYPE_I4);
  EXPECT_EQ(kiln_buffer_view_byte_length(view), 3u);
  kiln_buffer_view_release(view);
  kiln_buffer_view_t* bad = nullptr;
  EXPECT_NE(Take(kiln_buffer_view_create(device_, KILN_ELEMENT_TYPE_F4E2M1FN, shape, 1, data, 5, &bad)), "OK");
}

TEST_F(CApi, BufferViewsCopyInAndOut) {
  const float data[2][3] = {{1, 2, 3}, {4, 5, 6}};
  const int64_t shape[2] = {2, 3};
  kiln_buffer_view_t* view = nullptr;
  ASSERT_EQ(Take(kiln_buffer_view_create(device_, KILN_ELEMENT_TYPE_F32, shape, 2, data, sizeof(data), &view)), "OK");
  EXPECT_EQ(kiln_buffer_view_element_type(view), KILN_ELEMENT_TYPE_F32);
  ASSERT_EQ(kiln_buffer_view_rank(view), 2u);
  EXPECT_EQ(kiln_buffer_view_shape(view)[1], 3);
  EXPECT_EQ(kiln_buffer_view_byte_length(view), sizeof(data));
  float back[6] = {};
  ASSERT_EQ(Take(kiln_buffer_view_read(view, back, sizeof(back))), "OK");
  EXPECT_EQ(back[5], 6.0f);
  kiln_status_t* short_read = kiln_buffer_view_read(view, back, 4);
  EXPECT_EQ(kiln_status_code(short_read), KILN_STATUS_OUT_OF_RANGE);
  kiln_status_free(short_read);
  kiln_buffer_view_retain(view);
  kiln_buffer_view_release(view);
  kiln_buffer_view_release(view);

  kiln_buffer_view_t* bad = nullptr;
  std::string size = Take(kiln_buffer_view_create(device_, KILN_ELEMENT_TYPE_F32, shape, 2, data, 8, &bad));
  EXPECT_NE(size.find("2x3xf32 holds 24 bytes, 8 were given"), std::string::npos) << size;
  EXPECT_NE(size.find("kiln_buffer_view_create"), std::string::npos) << size;
  std::string type =
      Take(kiln_buffer_view_create(device_, static_cast<kiln_element_type_t>(99), shape, 2, data, sizeof(data), &bad));
  EXPECT_NE(type.find("unknown element type 99"), std::string::npos) << type;
  const int64_t negative[1] = {-1};
  EXPECT_NE(Take(kiln_buffer_view_create(device_, KILN_ELEMENT_TYPE_I8, negative, 1, data, 0, &bad)), "OK");
  EXPECT_EQ(bad, nullptr);
}

}  // namespace
