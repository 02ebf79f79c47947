// Every opcode, checked against values computed in C++.
#include <bit>
#include <cmath>
#include <limits>
#include <set>

#include "tests/vm/vm_test_util.h"
#include "vm/signature.h"

namespace kiln::vm {
namespace {

using namespace testing;

std::set<Opcode>& Covered() {
  static std::set<Opcode> covered;
  return covered;
}

// Builds f(args...) -> result = opcode(args...) and runs it.
StatusOr<Value> RunOp(Opcode op, ValueKind result, std::vector<Value> args) {
  Covered().insert(op);
  std::string sig;
  for (const Value& a : args) sig += ValueKindLetter(a.kind);
  sig += ':';
  sig += ValueKindLetter(result);
  ModuleBuilder b("ops");
  FunctionBuilder& f = b.AddFunction("f", sig);
  Reg out = result == ValueKind::kRef ? f.NewRef() : SlotCount(result) == 2 ? f.NewI64() : f.NewI32();
  std::vector<uint64_t> operands = {out.index()};
  for (const Reg& a : f.args()) operands.push_back(a.index());
  switch (operands.size()) {
    case 2: f.Emit(op, {operands[0], operands[1]}); break;
    case 3: f.Emit(op, {operands[0], operands[1], operands[2]}); break;
    case 4: f.Emit(op, {operands[0], operands[1], operands[2], operands[3]}); break;
    default: return InternalError("unsupported operand count");
  }
  Reg results[] = {out};
  f.Return(results);
  b.Export("f", f.ordinal());
  KILN_ASSIGN_OR_RETURN(std::vector<Value> values, BuildAndCall(b, "f", args));
  return values.at(0);
}

int32_t I32(Opcode op, int32_t a, int32_t b) {
  StatusOr<Value> v = RunOp(op, ValueKind::kI32, {Value::I32(a), Value::I32(b)});
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? v->i32() : 0;
}
int64_t I64(Opcode op, int64_t a, int64_t b) {
  StatusOr<Value> v = RunOp(op, ValueKind::kI64, {Value::I64(a), Value::I64(b)});
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? v->i64() : 0;
}
float F32(Opcode op, float a, float b) {
  StatusOr<Value> v = RunOp(op, ValueKind::kF32, {Value::F32(a), Value::F32(b)});
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? v->f32() : 0;
}
double F64(Opcode op, double a, double b) {
  StatusOr<Value> v = RunOp(op, ValueKind::kF64, {Value::F64(a), Value::F64(b)});
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? v->f64() : 0;
}
template <typename In>
Value Unary(Opcode op, ValueKind result, Value in) {
  StatusOr<Value> v = RunOp(op, result, {in});
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : Value();
}
int32_t Cmp(Opcode op, Value a, Value b) {
  StatusOr<Value> v = RunOp(op, ValueKind::kI32, {a, b});
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? v->i32() : -1;
}

constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const double kNaN64 = std::numeric_limits<double>::quiet_NaN();

void CheckInteger32() {
  EXPECT_EQ(I32(Opcode::kAddI32, 0x7fffffff, 1), kMin32);  // wraps
  EXPECT_EQ(I32(Opcode::kSubI32, 3, 5), -2);
  EXPECT_EQ(I32(Opcode::kMulI32, -7, 6), -42);
  EXPECT_EQ(I32(Opcode::kDivI32S, -7, 2), -3);
  EXPECT_EQ(I32(Opcode::kDivI32S, kMin32, -1), kMin32);
  EXPECT_EQ(I32(Opcode::kDivI32U, -2, 2), 0x7fffffff);
  EXPECT_EQ(I32(Opcode::kRemI32S, -7, 2), -1);
  EXPECT_EQ(I32(Opcode::kRemI32S, kMin32, -1), 0);
  EXPECT_EQ(I32(Opcode::kRemI32U, 7, 4), 3);
  EXPECT_EQ(I32(Opcode::kAndI32, 0b1100, 0b1010), 0b1000);
  EXPECT_EQ(I32(Opcode::kOrI32, 0b1100, 0b1010), 0b1110);
  EXPECT_EQ(I32(Opcode::kXorI32, 0b1100, 0b1010), 0b0110);
  EXPECT_EQ(I32(Opcode::kShlI32, 1, 33), 2);  // shift amounts are taken modulo 32
  EXPECT_EQ(I32(Opcode::kShrI32S, -8, 1), -4);
  EXPECT_EQ(I32(Opcode::kShrI32U, -8, 28), 15);
  EXPECT_EQ(I32(Opcode::kMinI32S, -1, 1), -1);
  EXPECT_EQ(I32(Opcode::kMinI32U, -1, 1), 1);
  EXPECT_EQ(I32(Opcode::kMaxI32S, -1, 1), 1);
  EXPECT_EQ(I32(Opcode::kMaxI32U, -1, 1), -1);
  EXPECT_EQ(Unary<int32_t>(Opcode::kNotI32, ValueKind::kI32, Value::I32(0)).i32(), -1);
}

void CheckInteger64() {
  EXPECT_EQ(I64(Opcode::kAddI64, INT64_MAX, 1), kMin64);
  EXPECT_EQ(I64(Opcode::kSubI64, 3, 5), -2);
  EXPECT_EQ(I64(Opcode::kMulI64, int64_t{1} << 40, 3), int64_t{3} << 40);
  EXPECT_EQ(I64(Opcode::kDivI64S, -9, 2), -4);
  EXPECT_EQ(I64(Opcode::kDivI64S, kMin64, -1), kMin64);
  EXPECT_EQ(I64(Opcode::kDivI64U, -2, 2), INT64_MAX);
  EXPECT_EQ(I64(Opcode::kRemI64S, -9, 2), -1);
  EXPECT_EQ(I64(Opcode::kRemI64S, kMin64, -1), 0);
  EXPECT_EQ(I64(Opcode::kRemI64U, 9, 4), 1);
  EXPECT_EQ(I64(Opcode::kAndI64, 6, 3), 2);
  EXPECT_EQ(I64(Opcode::kOrI64, 6, 3), 7);
  EXPECT_EQ(I64(Opcode::kXorI64, 6, 3), 5);
  EXPECT_EQ(I64(Opcode::kShlI64, 1, 65), 2);
  EXPECT_EQ(I64(Opcode::kShrI64S, -16, 2), -4);
  EXPECT_EQ(I64(Opcode::kShrI64U, -1, 60), 15);
  EXPECT_EQ(I64(Opcode::kMinI64S, -1, 1), -1);
  EXPECT_EQ(I64(Opcode::kMinI64U, -1, 1), 1);
  EXPECT_EQ(I64(Opcode::kMaxI64S, -1, 1), 1);
  EXPECT_EQ(I64(Opcode::kMaxI64U, -1, 1), -1);
}

void CheckDivisionByZeroFailsTheCall() {
  for (Opcode op : {Opcode::kDivI32S, Opcode::kDivI32U, Opcode::kRemI32S, Opcode::kRemI32U}) {
    StatusOr<Value> v = RunOp(op, ValueKind::kI32, {Value::I32(1), Value::I32(0)});
    ExpectError(v.status(), StatusCode::kInvalidArgument, "division by zero");
  }
  for (Opcode op : {Opcode::kDivI64S, Opcode::kDivI64U, Opcode::kRemI64S, Opcode::kRemI64U}) {
    StatusOr<Value> v = RunOp(op, ValueKind::kI64, {Value::I64(1), Value::I64(0)});
    ExpectError(v.status(), StatusCode::kInvalidArgument, "at ops.f+");
  }
}

void CheckFloat() {
  EXPECT_EQ(F32(Opcode::kAddF32, 1.5f, 2.25f), 3.75f);
  EXPECT_EQ(F32(Opcode::kSubF32, 1.5f, 2.25f), -0.75f);
  EXPECT_EQ(F32(Opcode::kMulF32, 1.5f, -2.0f), -3.0f);
  EXPECT_EQ(F32(Opcode::kDivF32, 1.0f, 4.0f), 0.25f);
  EXPECT_TRUE(std::isinf(F32(Opcode::kDivF32, 1.0f, 0.0f)));
  EXPECT_EQ(F32(Opcode::kMinF32, 1.0f, kNaN), 1.0f);
  EXPECT_EQ(F32(Opcode::kMaxF32, -1.0f, 2.0f), 2.0f);
  EXPECT_EQ(Unary<float>(Opcode::kNegF32, ValueKind::kF32, Value::F32(2.0f)).f32(), -2.0f);
  EXPECT_EQ(Unary<float>(Opcode::kAbsF32, ValueKind::kF32, Value::F32(-2.0f)).f32(), 2.0f);
  EXPECT_EQ(Unary<float>(Opcode::kSqrtF32, ValueKind::kF32, Value::F32(9.0f)).f32(), 3.0f);
  EXPECT_EQ(Unary<float>(Opcode::kFloorF32, ValueKind::kF32, Value::F32(-1.5f)).f32(), -2.0f);
  EXPECT_EQ(Unary<float>(Opcode::kCeilF32, ValueKind::kF32, Value::F32(-1.5f)).f32(), -1.0f);
  EXPECT_EQ(F64(Opcode::kAddF64, 0.1, 0.2), 0.1 + 0.2);
  EXPECT_EQ(F64(Opcode::kSubF64, 1.0, 0.25), 0.75);
  EXPECT_EQ(F64(Opcode::kMulF64, 1e200, 10.0), 1e200 * 10.0);
  EXPECT_EQ(F64(Opcode::kDivF64, 1.0, 8.0), 0.125);
  EXPECT_EQ(F64(Opcode::kMinF64, 3.0, 2.0), 2.0);
  EXPECT_EQ(F64(Opcode::kMaxF64, 3.0, kNaN64), 3.0);
  EXPECT_EQ(Unary<double>(Opcode::kNegF64, ValueKind::kF64, Value::F64(2.0)).f64(), -2.0);
  EXPECT_EQ(Unary<double>(Opcode::kAbsF64, ValueKind::kF64, Value::F64(-0.5)).f64(), 0.5);
  EXPECT_EQ(Unary<double>(Opcode::kSqrtF64, ValueKind::kF64, Value::F64(2.25)).f64(), 1.5);
  EXPECT_EQ(Unary<double>(Opcode::kFloorF64, ValueKind::kF64, Value::F64(2.5)).f64(), 2.0);
  EXPECT_EQ(Unary<double>(Opcode::kCeilF64, ValueKind::kF64, Value::F64(2.5)).f64(), 3.0);
}

void CheckComparisons() {
  EXPECT_EQ(Cmp(Opcode::kCmpEqI32, Value::I32(3), Value::I32(3)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpNeI32, Value::I32(3), Value::I32(3)), 0);
  EXPECT_EQ(Cmp(Opcode::kCmpLtI32S, Value::I32(-1), Value::I32(0)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpLtI32U, Value::I32(-1), Value::I32(0)), 0);
  EXPECT_EQ(Cmp(Opcode::kCmpLeI32S, Value::I32(0), Value::I32(0)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpLeI32U, Value::I32(-1), Value::I32(1)), 0);
  EXPECT_EQ(Unary<int32_t>(Opcode::kCmpNzI32, ValueKind::kI32, Value::I32(5)).i32(), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpEqI64, Value::I64(int64_t{1} << 40), Value::I64(int64_t{1} << 40)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpNeI64, Value::I64(1), Value::I64(2)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpLtI64S, Value::I64(-1), Value::I64(0)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpLtI64U, Value::I64(-1), Value::I64(0)), 0);
  EXPECT_EQ(Cmp(Opcode::kCmpLeI64S, Value::I64(-2), Value::I64(-2)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpLeI64U, Value::I64(-1), Value::I64(1)), 0);
  EXPECT_EQ(Unary<int64_t>(Opcode::kCmpNzI64, ValueKind::kI32, Value::I64(int64_t{1} << 40)).i32(), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpEqF32, Value::F32(kNaN), Value::F32(kNaN)), 0);
  EXPECT_EQ(Cmp(Opcode::kCmpNeF32, Value::F32(kNaN), Value::F32(kNaN)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpLtF32, Value::F32(1), Value::F32(2)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpLeF32, Value::F32(kNaN), Value::F32(2)), 0);
  EXPECT_EQ(Cmp(Opcode::kCmpEqF64, Value::F64(0.5), Value::F64(0.5)), 1);
  EXPECT_EQ(Cmp(Opcode::kCmpNeF64, Value::F64(0.5), Value::F64(0.5)), 0);
  EXPECT_EQ(Cmp(Opcode::kCmpLtF64, Value::F64(kNaN64), Value::F64(1)), 0);
  EXPECT_EQ(Cmp(Opcode::kCmpLeF64, Value::F64(1), Value::F64(1)), 1);
}

void CheckConversions() {
  EXPECT_EQ(Unary<int32_t>(Opcode::kExtI32I64S, ValueKind::kI64, Value::I32(-3)).i64(), -3);
  EXPECT_EQ(Unary<int32_t>(Opcode::kExtI32I64U, ValueKind::kI64, Value::I32(-1)).i64(), 0xffffffffll);
  EXPECT_EQ(Unary<int64_t>(Opcode::kTruncI64I32, ValueKind::kI32, Value::I64(0x100000005ll)).i32(), 5);
  EXPECT_EQ(Unary<int32_t>(Opcode::kSiToFpI32F32, ValueKind::kF32, Value::I32(-3)).f32(), -3.0f);
  EXPECT_EQ(Unary<int32_t>(Opcode::kUiToFpI32F32, ValueKind::kF32, Value::I32(-1)).f32(), 4294967296.0f);
  EXPECT_EQ(Unary<float>(Opcode::kFpToSiF32I32, ValueKind::kI32, Value::F32(-2.9f)).i32(), -2);
  EXPECT_EQ(Unary<float>(Opcode::kFpToSiF32I32, ValueKind::kI32, Value::F32(1e20f)).i32(), INT32_MAX);  // saturates
  EXPECT_EQ(Unary<float>(Opcode::kFpToSiF32I32, ValueKind::kI32, Value::F32(kNaN)).i32(), 0);
  EXPECT_EQ(Unary<float>(Opcode::kFpToUiF32I32, ValueKind::kI32, Value::F32(-5.0f)).i32(), 0);
  EXPECT_EQ(Unary<int64_t>(Opcode::kSiToFpI64F64, ValueKind::kF64, Value::I64(-(int64_t{1} << 40))).f64(),
            -1099511627776.0);
  EXPECT_EQ(Unary<double>(Opcode::kFpToSiF64I64, ValueKind::kI64, Value::F64(-1e300)).i64(), kMin64);
  EXPECT_EQ(Unary<float>(Opcode::kExtF32F64, ValueKind::kF64, Value::F32(0.1f)).f64(), static_cast<double>(0.1f));
  EXPECT_EQ(Unary<double>(Opcode::kTruncF64F32, ValueKind::kF32, Value::F64(0.1)).f32(), 0.1f);
}

void CheckSelects() {
  StatusOr<Value> v = RunOp(Opcode::kSelectI32, ValueKind::kI32, {Value::I32(1), Value::I32(10), Value::I32(20)});
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->i32(), 10);
  v = RunOp(Opcode::kSelectI64, ValueKind::kI64, {Value::I32(0), Value::I64(10), Value::I64(int64_t{1} << 33)});
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->i64(), int64_t{1} << 33);
}

TEST(Opcodes, Integer32) { CheckInteger32(); }
TEST(Opcodes, Integer64) { CheckInteger64(); }
TEST(Opcodes, DivisionByZeroFailsTheCall) { CheckDivisionByZeroFailsTheCall(); }
TEST(Opcodes, Float) { CheckFloat(); }
TEST(Opcodes, Comparisons) { CheckComparisons(); }
TEST(Opcodes, Conversions) { CheckConversions(); }
TEST(Opcodes, Selects) { CheckSelects(); }

TEST(Opcodes, EveryOpcodeIsCovered) {
  // Runs the checks above in this process to record which opcodes they use.
  CheckInteger32();
  CheckInteger64();
  CheckDivisionByZeroFailsTheCall();
  CheckFloat();
  CheckComparisons();
  CheckConversions();
  CheckSelects();

  // Opcodes exercised by the other test files of this binary, each with its own test.
  std::set<Opcode> elsewhere = {
      Opcode::kConstI32,      Opcode::kConstI64,       Opcode::kConstRefNull,   Opcode::kMoveI32,
      Opcode::kMoveI64,       Opcode::kMoveRef,        Opcode::kCmpEqRef,       Opcode::kCmpNzRef,
      Opcode::kSelectRef,     Opcode::kBranch,         Opcode::kCondBranch,     Opcode::kCall,
      Opcode::kReturn,        Opcode::kFail,           Opcode::kGlobalLoadI32,  Opcode::kGlobalStoreI32,
      Opcode::kGlobalLoadI64, Opcode::kGlobalStoreI64, Opcode::kGlobalLoadRef,  Opcode::kGlobalStoreRef,
      Opcode::kRodataRef,     Opcode::kBufferLength,   Opcode::kBufferLoadI32,  Opcode::kListAlloc,
      Opcode::kListSize,      Opcode::kListResize,     Opcode::kListGetI32,     Opcode::kListSetI32,
      Opcode::kListGetI64,    Opcode::kListSetI64,     Opcode::kListGetRef,     Opcode::kListSetRef,
  };
  for (int i = 0; i < kOpcodeCount; ++i) {
    auto op = static_cast<Opcode>(i);
    EXPECT_TRUE(Covered().count(op) || elsewhere.count(op))
        << "opcode '" << GetOpcodeInfo(op).mnemonic << "' has no test";
  }
}

}  // namespace
}  // namespace kiln::vm
