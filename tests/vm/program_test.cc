// Whole programs built with the builder: control flow, calls, globals, rodata, lists,
// native imports and error backtraces.
#include <numeric>

#include "tests/util/sample_programs.h"
#include "tests/vm/vm_test_util.h"

namespace kiln::vm {
namespace {

using namespace testing;
using Move = FunctionBuilder::Move;

TEST(Programs, LoopWithBlockArguments) {
  ModuleBuilder b("loops");
  kiln::testing::AddLoopSum(b);
  for (int32_t n : {0, 1, 10, 100000}) {
    Value args[] = {Value::I32(n)};
    StatusOr<std::vector<Value>> r = BuildAndCall(b, "sum", args);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->at(0).i64(), int64_t{n} * (n - 1) / 2);
  }
}

TEST(Programs, BranchMovesAreParallel) {
  // swap(a, b) through a branch whose moves exchange two registers.
  ModuleBuilder b("swap");
  FunctionBuilder& f = b.AddFunction("swap", "ii:ii");
  Reg a = f.args()[0], c = f.args()[1];
  auto next = f.NewBlock();
  Move moves[] = {{a, c}, {c, a}};
  f.Branch(next, moves);
  f.Bind(next);
  Reg results[] = {a, c};
  f.Return(results);
  b.Export("swap", f.ordinal());
  Value args[] = {Value::I32(1), Value::I32(2)};
  StatusOr<std::vector<Value>> r = BuildAndCall(b, "swap", args);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->at(0).i32(), 2);
  EXPECT_EQ(r->at(1).i32(), 1);
}

TEST(Programs, BlocksMayBeBoundInAnyOrder) {
  // pick(c, x, y) = c ? x + 1 : y: the blocks are created as (join, on_true, on_false) but
  // bound as (on_false, on_true, join), and on_true is bound at the same offset as an empty
  // block; the builder renumbers them in offset order for the module format.
  ModuleBuilder b("order");
  FunctionBuilder& f = b.AddFunction("pick", "iii:i");
  Reg c = f.args()[0], x = f.args()[1], y = f.args()[2];
  auto join = f.NewBlock(), on_true = f.NewBlock(), on_false = f.NewBlock(), empty = f.NewBlock();
  Reg result = f.NewI32(), one = f.NewI32();
  f.CondBranch(c, on_true, on_false, {}, {});
  f.Bind(on_false);
  Move take_y[] = {{y, result}};
  f.Branch(join, take_y);
  f.Bind(empty);
  f.Bind(on_true);
  f.Emit(Opcode::kConstI32, {one.index(), 1});
  f.Emit(Opcode::kAddI32, {result.index(), x.index(), one.index()});
  f.Branch(join, {});
  f.Bind(join);
  Reg results[] = {result};
  f.Return(results);
  b.Export("pick", f.ordinal());
  for (int32_t condition : {0, 1}) {
    Value args[] = {Value::I32(condition), Value::I32(10), Value::I32(20)};
    StatusOr<std::vector<Value>> r = BuildAndCall(b, "pick", args);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->at(0).i32(), condition ? 11 : 20);
  }
}

TEST(Programs, CallsPassArgumentsAndResults) {
  ModuleBuilder b("calls");
  // divmod(a: i64, b: i32) -> (a / b, a % b, b) mixing 64-bit and 32-bit values.
  FunctionBuilder& divmod = b.AddFunction("divmod", "Ii:IIi");
  {
    Reg a = divmod.args()[0], d = divmod.args()[1];
    Reg d64 = divmod.NewI64(), q = divmod.NewI64(), m = divmod.NewI64();
    divmod.Emit(Opcode::kExtI32I64S, {d64.index(), d.index()});
    divmod.Emit(Opcode::kDivI64S, {q.index(), a.index(), d64.index()});
    divmod.Emit(Opcode::kRemI64S, {m.index(), a.index(), d64.index()});
    Reg results[] = {q, m, d};
    divmod.Return(results);
  }
  FunctionBuilder& main = b.AddFunction("main", "iI:IIi");
  {
    Reg x = main.args()[0], y = main.args()[1];
    Reg q = main.NewI64(), m = main.NewI64(), d = main.NewI32(), copy = main.NewI64();
    main.Emit(Opcode::kMoveI64, {copy.index(), y.index()});
    Reg args[] = {copy, x};
    Reg results[] = {q, m, d};
    main.Call(divmod.ordinal(), args, results);
    main.Return(results);
  }
  b.Export("main", main.ordinal());
  Value args[] = {Value::I32(7), Value::I64(int64_t{100} << 32)};
  StatusOr<std::vector<Value>> r = BuildAndCall(b, "main", args);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->at(0).i64(), (int64_t{100} << 32) / 7);
  EXPECT_EQ(r->at(1).i64(), (int64_t{100} << 32) % 7);
  EXPECT_EQ(r->at(2).i32(), 7);
}

TEST(Programs, UnboundedRecursionFailsCleanly) {
  ModuleBuilder b("rec");
  FunctionBuilder& f = b.AddFunction("forever", "i:i");
  Reg x = f.args()[0], out = f.NewI32();
  Reg args[] = {x};
  Reg results[] = {out};
  f.Call(f.ordinal(), args, results);
  f.Return(results);
  b.Export("forever", f.ordinal());
  Value in[] = {Value::I32(1)};
  ExpectError(BuildAndCall(b, "forever", in).status(), StatusCode::kResourceExhausted, "call depth");
}

TEST(Programs, FailCarriesCodeMessageAndBacktrace) {
  ModuleBuilder b("failing");
  uint32_t message = b.AddString("shape mismatch in input 0");
  FunctionBuilder& inner = b.AddFunction("inner", "i:");
  {
    inner.Location("model.mlir:7:3");
    inner.Emit(Opcode::kFail, {inner.args()[0].index(), message});
    inner.Return({});
  }
  FunctionBuilder& outer = b.AddFunction("outer", "i:");
  {
    Reg args[] = {outer.args()[0]};
    outer.Location("model.mlir:12:5");
    outer.Call(inner.ordinal(), args, {});
    outer.Return({});
  }
  b.Export("outer", outer.ordinal());
  Value ok_code[] = {Value::I32(0)};
  EXPECT_TRUE(BuildAndCall(b, "outer", ok_code).ok());  // fail with 0 is a no-op
  Value bad[] = {Value::I32(static_cast<int32_t>(StatusCode::kInvalidArgument))};
  Status s = BuildAndCall(b, "outer", bad).status();
  ExpectError(s, StatusCode::kInvalidArgument,
                      "shape mismatch in input 0; at failing.inner+");
  ExpectError(s, StatusCode::kInvalidArgument, "(model.mlir:7:3); at failing.outer+");
  ExpectError(s, StatusCode::kInvalidArgument, "(model.mlir:12:5); while calling failing.outer");
}

TEST(Programs, GlobalsPersistAcrossCalls) {
  ModuleBuilder b("globals");
  uint32_t g32 = b.AddGlobalI32(), g64 = b.AddGlobalI64(), gref = b.AddGlobalRef();
  FunctionBuilder& bump = b.AddFunction("bump", "r:iIi");
  Reg v32 = bump.NewI32(), v64 = bump.NewI64(), one = bump.NewI32(), one64 = bump.NewI64(), same = bump.NewI32();
  Reg old = bump.NewRef();
  bump.Emit(Opcode::kGlobalLoadI32, {v32.index(), g32});
  bump.Emit(Opcode::kGlobalLoadI64, {v64.index(), g64});
  bump.Emit(Opcode::kConstI32, {one.index(), 1});
  bump.Emit(Opcode::kConstI64, {one64.index(), uint64_t{1} << 40});
  bump.Emit(Opcode::kAddI32, {v32.index(), v32.index(), one.index()});
  bump.Emit(Opcode::kAddI64, {v64.index(), v64.index(), one64.index()});
  bump.Emit(Opcode::kGlobalStoreI32, {g32, v32.index()});
  bump.Emit(Opcode::kGlobalStoreI64, {g64, v64.index()});
  // Returns whether the ref passed now equals the one stored by the previous call.
  bump.Emit(Opcode::kGlobalLoadRef, {old.index(), gref});
  bump.Emit(Opcode::kCmpEqRef, {same.index(), old.index(), bump.args()[0].index()});
  bump.Emit(Opcode::kGlobalStoreRef, {gref, bump.args()[0].index()});
  Reg results[] = {v32, v64, same};
  bump.Return(results);
  b.Export("bump", bump.ordinal());
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> module, BuildAndLoad(b));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Context> context, Context::Create(module, {}));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<List> token, List::Create(ValueKind::kI32, 0));
  for (int call = 1; call <= 3; ++call) {
    Value args[] = {Value::Ref(VmRef::Make(token))};
    KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, context->Invoke("bump", args));
    EXPECT_EQ(r[0].i32(), call);
    EXPECT_EQ(r[1].i64(), int64_t{call} << 40);
    EXPECT_EQ(r[2].i32(), call > 1 ? 1 : 0);
  }
}

TEST(Programs, RodataPlainAndCompressed) {
  std::vector<uint32_t> words(4096);
  std::iota(words.begin(), words.end(), 100);
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4);
  for (bool compress : {false, true}) {
    ModuleBuilder b("rodata");
    uint32_t seg = b.AddRodata(bytes, compress);
    FunctionBuilder& f = b.AddFunction("read", "i:Ii");
    Reg buf = f.NewRef(), len = f.NewI64(), v = f.NewI32();
    f.Emit(Opcode::kRodataRef, {buf.index(), seg});
    f.Emit(Opcode::kBufferLength, {len.index(), buf.index()});
    f.Emit(Opcode::kBufferLoadI32, {v.index(), buf.index(), f.args()[0].index()});
    Reg results[] = {len, v};
    f.Return(results);
    b.Export("read", f.ordinal());
    KILN_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> module_bytes, b.Finish());
    if (compress) {
      EXPECT_LT(module_bytes.size(), bytes.size());
    }
    Value args[] = {Value::I32(4000)};
    KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, BuildAndCall(b, "read", args));
    EXPECT_EQ(r[0].i64(), static_cast<int64_t>(bytes.size()));
    EXPECT_EQ(r[1].i32(), 4100);
    Value past[] = {Value::I32(4096)};
    ExpectError(BuildAndCall(b, "read", past).status(), StatusCode::kOutOfRange, "element 4096");
  }
}

TEST(Programs, ListsOfEveryKind) {
  ModuleBuilder b("lists");
  FunctionBuilder& f = b.AddFunction("lists", "i:iIiii");
  Reg n = f.args()[0];
  Reg ints = f.NewRef(), wides = f.NewRef(), refs = f.NewRef(), got = f.NewRef(), null = f.NewRef(), pick = f.NewRef();
  Reg idx = f.NewI32(), v = f.NewI32(), w = f.NewI64(), size = f.NewI32(), same = f.NewI32(), nz = f.NewI32();
  Reg zero = f.NewI32();
  f.Emit(Opcode::kListAlloc, {ints.index(), static_cast<uint64_t>(ValueKind::kI32), n.index()});
  f.Emit(Opcode::kListResize, {ints.index(), n.index()});
  f.Emit(Opcode::kConstI32, {idx.index(), 2});
  f.Emit(Opcode::kConstI32, {v.index(), 42});
  f.Emit(Opcode::kListSetI32, {ints.index(), idx.index(), v.index()});
  f.Emit(Opcode::kListGetI32, {v.index(), ints.index(), idx.index()});
  f.Emit(Opcode::kListAlloc, {wides.index(), static_cast<uint64_t>(ValueKind::kI64), n.index()});
  f.Emit(Opcode::kListResize, {wides.index(), n.index()});
  f.Emit(Opcode::kConstI64, {w.index(), uint64_t{7} << 40});
  f.Emit(Opcode::kListSetI64, {wides.index(), idx.index(), w.index()});
  f.Emit(Opcode::kListGetI64, {w.index(), wides.index(), idx.index()});
  f.Emit(Opcode::kListAlloc, {refs.index(), static_cast<uint64_t>(ValueKind::kRef), n.index()});
  f.Emit(Opcode::kListResize, {refs.index(), n.index()});
  f.Emit(Opcode::kListSetRef, {refs.index(), idx.index(), ints.index()});
  f.Emit(Opcode::kListGetRef, {got.index(), refs.index(), idx.index()});
  f.Emit(Opcode::kListSize, {size.index(), refs.index()});
  f.Emit(Opcode::kCmpEqRef, {same.index(), got.index(), ints.index()});
  f.Emit(Opcode::kConstRefNull, {null.index()});
  f.Emit(Opcode::kConstI32, {zero.index(), 0});
  f.Emit(Opcode::kSelectRef, {pick.index(), zero.index(), got.index(), null.index()});
  f.Emit(Opcode::kMoveRef, {got.index(), pick.index()});
  f.Emit(Opcode::kCmpNzRef, {nz.index(), got.index()});
  Reg results[] = {v, w, size, same, nz};
  f.Return(results);
  b.Export("lists", f.ordinal());
  Value args[] = {Value::I32(5)};
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, BuildAndCall(b, "lists", args));
  EXPECT_EQ(r[0].i32(), 42);
  EXPECT_EQ(r[1].i64(), int64_t{7} << 40);
  EXPECT_EQ(r[2].i32(), 5);
  EXPECT_EQ(r[3].i32(), 1);
  EXPECT_EQ(r[4].i32(), 0);  // select picked the null ref
  Value small[] = {Value::I32(2)};
  ExpectError(BuildAndCall(b, "lists", small).status(), StatusCode::kOutOfRange,
                      "list index 2 is out of range for a list of 2");
}

TEST(Programs, ListMisuseIsAnError) {
  ModuleBuilder b("badlist");
  FunctionBuilder& f = b.AddFunction("f", "r:i");
  Reg out = f.NewI32(), idx = f.NewI32();
  f.Emit(Opcode::kConstI32, {idx.index(), 0});
  f.Emit(Opcode::kListGetI32, {out.index(), f.args()[0].index(), idx.index()});
  Reg results[] = {out};
  f.Return(results);
  b.Export("f", f.ordinal());
  Value null_arg[] = {Value::Ref({})};
  ExpectError(BuildAndCall(b, "f", null_arg).status(), StatusCode::kInvalidArgument, "not a vm.list");
  KILN_ASSERT_OK_AND_ASSIGN(Ref<List> refs, List::Create(ValueKind::kRef, 1));
  ASSERT_TRUE(refs->Resize(1).ok());
  Value wrong_kind[] = {Value::Ref(VmRef::Make(refs))};
  ExpectError(BuildAndCall(b, "f", wrong_kind).status(), StatusCode::kInvalidArgument,
                      "list of ref accessed as i32");
}

TEST(Programs, ListsCannotContainThemselves) {
  KILN_ASSERT_OK_AND_ASSIGN(Ref<List> a, List::Create(ValueKind::kRef, 1));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<List> b, List::Create(ValueKind::kRef, 1));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<List> leaf, List::Create(ValueKind::kI32, 0));
  ASSERT_TRUE(a->Resize(2).ok() && b->Resize(2).ok());
  ExpectError(a->SetRef(0, VmRef::Make(a)), StatusCode::kInvalidArgument, "reference cycle");
  ASSERT_TRUE(b->SetRef(0, VmRef::Make(a)).ok());  // b -> a
  ExpectError(a->SetRef(0, VmRef::Make(b)), StatusCode::kInvalidArgument, "reference cycle");
  // Sharing without a cycle is fine: a and b both hold leaf, b holds a.
  EXPECT_TRUE(a->SetRef(1, VmRef::Make(leaf)).ok());
  EXPECT_TRUE(b->SetRef(1, VmRef::Make(leaf)).ok());
  // From bytecode: list.set.ref of a list into itself fails the call (and leaks nothing).
  ModuleBuilder mb("cycle");
  FunctionBuilder& f = mb.AddFunction("f", ":");
  Reg l = f.NewRef(), n = f.NewI32(), zero = f.NewI32();
  f.Emit(Opcode::kConstI32, {n.index(), 1});
  f.Emit(Opcode::kConstI32, {zero.index(), 0});
  f.Emit(Opcode::kListAlloc, {l.index(), static_cast<uint64_t>(ValueKind::kRef), n.index()});
  f.Emit(Opcode::kListResize, {l.index(), n.index()});
  f.Emit(Opcode::kListSetRef, {l.index(), zero.index(), l.index()});
  f.Return({});
  mb.Export("f", f.ordinal());
  ExpectError(BuildAndCall(mb, "f", {}).status(), StatusCode::kInvalidArgument, "reference cycle");
}

TEST(Programs, HostArgumentsAreChecked) {
  ModuleBuilder b("args");
  kiln::testing::AddLoopSum(b);
  Value wrong_kind[] = {Value::I64(3)};
  ExpectError(BuildAndCall(b, "sum", wrong_kind).status(), StatusCode::kInvalidArgument,
                      "argument 0 is i64 but the signature wants i32");
  ExpectError(BuildAndCall(b, "sum", {}).status(), StatusCode::kInvalidArgument, "expected 1 arguments");
  ExpectError(BuildAndCall(b, "nope", {}).status(), StatusCode::kNotFound, "it exports: sum");
}

// A native module with a plain, a variadic and a failing function.
class TestNative final : public NativeModule {
 public:
  std::string_view name() const override { return "test"; }
  std::span<const NativeFunction> functions() const override { return functions_; }

  std::vector<NativeFunction> functions_ = {
      {"mul_add", "IIi:I",
       [](void*, NativeCall& call) {
         call.results[0].bits = static_cast<uint64_t>(call.args[0].i64() * call.args[1].i64() + call.args[2].i32());
         return OkStatus();
       }},
      {"sum_pairs", "i[iI]:I",
       [](void*, NativeCall& call) {
         int64_t total = call.args[0].i32();
         for (size_t i = 1; i < call.args.size(); i += 2) total += call.args[i].i32() * call.args[i + 1].i64();
         call.results[0].bits = static_cast<uint64_t>(total);
         return OkStatus();
       }},
      {"refuse", "r:",
       [](void*, NativeCall& call) -> Status {
         KILN_ASSIGN_OR_RETURN(List * list, RefArg<List>(call, 0));
         return FailedPreconditionError("refusing a list of ", list->size());
       }},
  };
};

TEST(Programs, NativeImportsAreCalledWithMarshalledValues) {
  ModuleBuilder b("natives");
  uint32_t mul_add = b.AddImport("test.mul_add", "IIi:I");
  uint32_t sum_pairs = b.AddImport("test.sum_pairs", "i[iI]:I");
  FunctionBuilder& f = b.AddFunction("f", "IIi:II");
  Reg x = f.args()[0], y = f.args()[1], z = f.args()[2], r1 = f.NewI64(), r2 = f.NewI64();
  Reg args1[] = {x, y, z};
  Reg res1[] = {r1};
  f.CallImport(mul_add, args1, res1);
  Reg args2[] = {z, z, x, z, y};  // z + z*x + z*y
  Reg res2[] = {r2};
  f.CallImport(sum_pairs, args2, res2);
  Reg results[] = {r1, r2};
  f.Return(results);
  b.Export("f", f.ordinal());
  TestNative native;
  NativeModule* natives[] = {&native};
  Value args[] = {Value::I64(int64_t{3} << 33), Value::I64(5), Value::I32(2)};
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, BuildAndCall(b, "f", args, natives));
  EXPECT_EQ(r[0].i64(), (int64_t{3} << 33) * 5 + 2);
  EXPECT_EQ(r[1].i64(), 2 + 2 * (int64_t{3} << 33) + 2 * 5);
}

TEST(Programs, NativeErrorsCarryTheImportAndBacktrace) {
  ModuleBuilder b("natives");
  uint32_t refuse = b.AddImport("test.refuse", "r:");
  FunctionBuilder& f = b.AddFunction("f", "r:");
  Reg args[] = {f.args()[0]};
  f.Location("x.mlir:1:1");
  f.CallImport(refuse, args, {});
  f.Return({});
  b.Export("f", f.ordinal());
  TestNative native;
  NativeModule* natives[] = {&native};
  KILN_ASSERT_OK_AND_ASSIGN(Ref<List> list, List::Create(ValueKind::kI32, 3));
  ASSERT_TRUE(list->Resize(3).ok());
  Value in[] = {Value::Ref(VmRef::Make(list))};
  ExpectError(BuildAndCall(b, "f", in, natives).status(), StatusCode::kFailedPrecondition,
                      "refusing a list of 3; in call to 'test.refuse'; at natives.f+");
  Value null_in[] = {Value::Ref({})};
  ExpectError(BuildAndCall(b, "f", null_in, natives).status(), StatusCode::kInvalidArgument,
                      "argument 0 must be a vm.list, got null");
}

TEST(Programs, ImportsMustResolveWithTheSameSignature) {
  TestNative native;
  NativeModule* natives[] = {&native};
  {
    ModuleBuilder b("missing");
    b.AddImport("test.nope", "i:i");
    KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> module, BuildAndLoad(b));
    ExpectError(Context::Create(module, natives).status(), StatusCode::kNotFound,
                        "imports 'test.nope', which no registered native module provides");
  }
  {
    ModuleBuilder b("mismatch");
    b.AddImport("test.mul_add", "II:I");
    KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> module, BuildAndLoad(b));
    ExpectError(Context::Create(module, natives).status(), StatusCode::kInvalidArgument,
                        "with signature 'II:I' but the runtime provides 'IIi:I'");
  }
}

}  // namespace
}  // namespace kiln::vm
