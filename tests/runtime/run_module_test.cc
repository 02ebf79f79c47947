// iree-run-module's behaviours as a library (runtime/run_module.h): how values print, how
// results are written and compared, which function is called.
#include "runtime/run_module.h"

#include <gtest/gtest.h>

#include "drivers/builtin_drivers.h"
#include "runtime/value_files.h"
#include "vm/builder.h"
#include "vm/list.h"

namespace kiln::runtime {
namespace {

class RunModule : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<Ref<hal::Device>> device = BuiltinDriverRegistry().CreateDevice("local-sync");
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = *device;
  }
  vm::Value Tensor(std::string_view text) {
    StatusOr<vm::Value> value = ParseValue(text, vm::ValueKind::kRef, device_->allocator());
    EXPECT_TRUE(value.ok()) << value.status().ToString();
    return value.ok() ? *value : vm::Value();
  }
  std::string Print(const vm::Value& value, size_t max_elements = kDefaultMaxPrintedElements) {
    StatusOr<std::string> text = FormatValue(value, max_elements);
    EXPECT_TRUE(text.ok()) << text.status().ToString();
    return text.ok() ? *text : "";
  }
  Ref<hal::Device> device_;
};

TEST_F(RunModule, ValuesPrintAsIreeRunModulePrintsThem) {
  EXPECT_EQ(Print(Tensor("2x2xi32=[42 43][44 45]")), "hal.buffer_view\n2x2xi32=[42 43][44 45]");
  EXPECT_EQ(Print(Tensor("f32=2.5")), "hal.buffer_view\nf32=2.5");
  EXPECT_EQ(Print(Tensor("3xf32=1e-7,-0.125,123456789")), "hal.buffer_view\n3xf32=1E-07 -0.125 1.23457E+08");
  EXPECT_EQ(Print(Tensor("2xf64=nan,-inf")), "hal.buffer_view\n2xf64=NAN -INF");
  EXPECT_EQ(Print(vm::Value::I32(-3)), "i32=-3");
  EXPECT_EQ(Print(vm::Value::I64(int64_t{1} << 40)), "i64=1099511627776");
  EXPECT_EQ(Print(vm::Value::F32(0.1f)), "f32=0.1");
  EXPECT_EQ(Print(vm::Value::F64(2.5)), "f64=2.5");
  EXPECT_EQ(Print(vm::Value::Ref({})), "(null)");
}

TEST_F(RunModule, LongTensorsAreElided) {
  EXPECT_EQ(Print(Tensor("3x2xi32=1,2,3,4,5,6"), 3), "hal.buffer_view\n3x2xi32=[1 2][3...][...]");
  EXPECT_EQ(Print(Tensor("5xi32=1,2,3,4,5"), 5), "hal.buffer_view\n5xi32=1 2 3 4 5");
  EXPECT_EQ(Print(Tensor("i32=7"), 0), "hal.buffer_view\ni32=...");
}

TEST_F(RunModule, ListsPrintTheirElements) {
  StatusOr<Ref<vm::List>> ints = vm::List::Create(vm::ValueKind::kI32, 2);
  ASSERT_TRUE(ints.ok());
  ASSERT_TRUE((*ints)->Resize(2).ok());
  ASSERT_TRUE((*ints)->SetBits(1, vm::ValueKind::kI32, 7).ok());
  StatusOr<Ref<vm::List>> refs = vm::List::Create(vm::ValueKind::kRef, 3);
  ASSERT_TRUE(refs.ok());
  ASSERT_TRUE((*refs)->Resize(3).ok());
  ASSERT_TRUE((*refs)->SetRef(0, Tensor("2xf32=1,2").ref).ok());
  ASSERT_TRUE((*refs)->SetRef(1, vm::VmRef::Make(*ints)).ok());
  EXPECT_EQ(Print(vm::Value::Ref(vm::VmRef::Make(*refs))),
            "vm.list\n"
            "child_list[0]: hal.buffer_view\n2xf32=1 2\n"
            "child_list[1]: vm.list\nchild_list[0]: i32=0\nchild_list[1]: i32=7\n\n"
            "child_list[2]: (null)\n");
  // A reference kiln-run has no printer for says so under its type name.
  Ref<vm::ByteBuffer> bytes(new vm::ByteBuffer({}, {}));
  EXPECT_EQ(Print(vm::Value::Ref(vm::VmRef::Make(bytes))), "vm.buffer\n(no printer)");
}

TEST_F(RunModule, ResultsArePrintedWrittenOrCompared) {
  std::vector<vm::Value> results = {Tensor("2xf32=1,2"), vm::Value::I32(5)};
  std::string out;
  StatusOr<bool> printed = ProcessResults(results, {}, device_->allocator(), out);
  ASSERT_TRUE(printed.ok()) << printed.status().ToString();
  EXPECT_TRUE(*printed);
  EXPECT_EQ(out, "result[0]: hal.buffer_view\n2xf32=1 2\nresult[1]: i32=5\n");

  // "-" prints without the prefix, "" ignores the result.
  ResultOptions some;
  some.outputs = {"", "-"};
  out.clear();
  ASSERT_TRUE(ProcessResults(results, some, device_->allocator(), out).ok());
  EXPECT_EQ(out, "i32=5\n");

  // Every mismatch is reported; (ignored) skips a result.
  ResultOptions expect;
  expect.expected_outputs = {"2xf32=1,3", "6"};
  out.clear();
  StatusOr<bool> compared = ProcessResults(results, expect, device_->allocator(), out);
  ASSERT_TRUE(compared.ok()) << compared.status().ToString();
  EXPECT_FALSE(*compared);
  EXPECT_EQ(out,
            "[FAILED] result[0]: element at index 1 (2) does not match the expected (3); expected that the view is equal to "
            "contents of a view of 2xf32\n"
            "  expected:\n2xf32=1 3\n  actual:\n2xf32=1 2\n"
            "[FAILED] result[1]: i32 values differ\n  expected: 6\n  actual: 5\n");
  expect.expected_outputs = {"(ignored)", "5"};
  out.clear();
  compared = ProcessResults(results, expect, device_->allocator(), out);
  ASSERT_TRUE(compared.ok());
  EXPECT_TRUE(*compared);
  EXPECT_EQ(out, "[SUCCESS] all function outputs matched their expected values.\n");

  expect.expected_outputs = {"1"};
  EXPECT_EQ(ProcessResults(results, expect, device_->allocator(), out).status().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(RunModule, KindsMustMatchAndThresholdsApplyPerWidth) {
  StatusOr<std::string> report = CompareResult(0, vm::Value::I32(1), Tensor("f32=1"), Tolerance());
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(*report, "[FAILED] result[0]: variant types mismatch; expected hal.buffer_view but got i32\n");
  report = CompareResult(2, vm::Value::Ref({}), Tensor("f32=1"), Tolerance());
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(*report, "[FAILED] result[2]: variant types mismatch; expected hal.buffer_view but got (null)\n");
  Tolerance loose;
  loose.f32_threshold = 0.5;
  EXPECT_EQ(*CompareResult(0, Tensor("f32=1.4"), Tensor("f32=1"), loose), "");
  EXPECT_NE(*CompareResult(0, Tensor("f64=1.4"), Tensor("f64=1"), loose), "");  // only f32 is loose
  EXPECT_EQ(*CompareResult(0, vm::Value::F32(1.4f), vm::Value::F32(1), loose), "");
}

TEST_F(RunModule, TheOnlyExportedFunctionNeedNotBeNamed) {
  vm::ModuleBuilder one("one");
  vm::FunctionBuilder& f = one.AddFunction("f", ":");
  f.Return({});
  one.Export("f", f.ordinal());
  one.Export("__init", f.ordinal());  // internal names are not candidates
  StatusOr<std::vector<uint8_t>> bytes = one.Finish();
  ASSERT_TRUE(bytes.ok());
  StatusOr<Ref<vm::Module>> module = vm::Module::LoadFromMemory(*bytes);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ(*SelectFunction(**module, ""), "f");
  EXPECT_EQ(*SelectFunction(**module, "g"), "g");  // looked up, and refused, by the caller

  vm::ModuleBuilder two("two");
  vm::FunctionBuilder& g = two.AddFunction("g", ":");
  g.Return({});
  two.Export("a", g.ordinal());
  two.Export("b", g.ordinal());
  bytes = two.Finish();
  ASSERT_TRUE(bytes.ok());
  module = vm::Module::LoadFromMemory(*bytes);
  ASSERT_TRUE(module.ok());
  Status several = SelectFunction(**module, "").status();
  EXPECT_NE(several.ToString().find("exports 2 functions (a, b); choose one with --function=NAME"),
            std::string::npos)
      << several.ToString();
}

TEST_F(RunModule, NullInputsAndNpyStreams) {
  vm::Signature signature;
  signature.args = {vm::ValueKind::kRef, vm::ValueKind::kI32};
  std::vector<std::string> specs = {"(null)", "(null)"};
  StatusOr<std::vector<vm::Value>> values = ParseInputs(specs, signature, device_->allocator());
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_FALSE((*values)[0].ref);
  EXPECT_EQ((*values)[1].i32(), 0);
  specs = {"(null)"};
  EXPECT_NE(ParseInputs(specs, signature, device_->allocator()).status().ToString().find("takes 2 inputs (ref, i32), 1 were given"),
            std::string::npos);

  // Two arrays in one file: @ reads the first, + the next, * all that remain.
  std::string path = ::testing::TempDir() + "/run_module_two.npy";
  ASSERT_TRUE(WriteOutput("@" + path, Tensor("2xf32=1,2")).ok());
  ASSERT_TRUE(WriteOutput("+" + path, Tensor("2xf32=3,4")).ok());
  signature.args = {vm::ValueKind::kRef, vm::ValueKind::kRef};
  specs = {"@" + path, "+" + path};
  values = ParseInputs(specs, signature, device_->allocator());
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ(Print((*values)[1]), "hal.buffer_view\n2xf32=3 4");
  specs = {"*" + path};
  values = ParseInputs(specs, signature, device_->allocator());
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ(Print((*values)[0]), "hal.buffer_view\n2xf32=1 2");
  specs = {"@" + path, "+" + path, "+" + path};
  signature.args.push_back(vm::ValueKind::kRef);
  EXPECT_NE(ParseInputs(specs, signature, device_->allocator()).status().ToString().find("all read by earlier inputs"),
            std::string::npos);
}

}  // namespace
}  // namespace kiln::runtime
