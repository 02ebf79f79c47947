#include "runtime/check_module.h"

#include "hal/buffer_view.h"
#include "hal/module/hal_module.h"
#include "runtime/element_values.h"
#include "runtime/value_text.h"
#include "vm/list.h"

namespace kiln::runtime {
namespace {

using vm::NativeCall;

CheckModule& Self(void* state) { return *static_cast<CheckModule*>(state); }

// The location text the compiler passes as the last argument of every check.
std::string Location(const NativeCall& call) {
  const vm::ByteBuffer* text = call.args.back().ref.As<vm::ByteBuffer>();
  if (!text) return "<unknown location>";
  std::span<const uint8_t> bytes = text->bytes();
  return std::string(bytes.begin(), bytes.end());
}

void Record(void* state, const NativeCall& call, std::string_view check, std::string_view what) {
  Self(state).Fail(StrCat(Location(call), ": check.", check, " failed: ", what));
}

Status ExpectTrue(void* state, NativeCall& call) {
  if (call.args[0].i32() == 0) Record(state, call, "expect_true", "the value is 0");
  return OkStatus();
}

Status ExpectFalse(void* state, NativeCall& call) {
  if (call.args[0].i32() != 0) Record(state, call, "expect_false", StrCat("the value is ", call.args[0].i32()));
  return OkStatus();
}

Status ExpectAllTrue(void* state, NativeCall& call) {
  KILN_ASSIGN_OR_RETURN(hal::BufferView * view, vm::RefArg<hal::BufferView>(call, 0));
  if (!SupportsElementType(view->element_type())) {
    return InvalidArgumentError("check.expect_all_true cannot read elements of ", view->ShapeString());
  }
  std::vector<uint8_t> bytes(view->byte_length());
  KILN_RETURN_IF_ERROR(view->buffer()->Read(0, bytes));
  for (uint64_t i = 0; i < view->element_count(); ++i) {
    if (LoadElement(view->element_type(), bytes, i) == 0) {
      Record(state, call, "expect_all_true", StrCat("element ", i, " (in row-major order) of ", view->ShapeString(),
                                                    " is 0"));
      break;
    }
  }
  return OkStatus();
}

Status Compare(void* state, NativeCall& call, std::string_view check, double atol, double rtol) {
  KILN_ASSIGN_OR_RETURN(hal::BufferView * lhs, vm::RefArg<hal::BufferView>(call, 0));
  KILN_ASSIGN_OR_RETURN(hal::BufferView * rhs, vm::RefArg<hal::BufferView>(call, 1));
  Status compared = CompareBufferViews(*lhs, *rhs, atol, rtol);
  if (!compared.ok()) Record(state, call, check, compared.message());
  return OkStatus();
}

Status ExpectEq(void* state, NativeCall& call) { return Compare(state, call, "expect_eq", 0, 0); }

Status ExpectAlmostEq(void* state, NativeCall& call) {
  return Compare(state, call, "expect_almost_eq", call.args[2].f32(), call.args[3].f32());
}

const vm::NativeFunction kFunctions[] = {
    {"expect_true", "ir:", ExpectTrue},
    {"expect_false", "ir:", ExpectFalse},
    {"expect_all_true", "rr:", ExpectAllTrue},
    {"expect_eq", "rrr:", ExpectEq},
    {"expect_almost_eq", "rrffr:", ExpectAlmostEq},
};

}  // namespace

std::span<const vm::NativeFunction> CheckModule::functions() const { return kFunctions; }

void CheckModule::Fail(std::string failure) {
  std::lock_guard lock(mutex_);
  failures_.push_back(std::move(failure));
}

std::vector<std::string> CheckModule::TakeFailures() {
  std::lock_guard lock(mutex_);
  return std::exchange(failures_, {});
}

}  // namespace kiln::runtime
