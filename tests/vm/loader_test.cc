// The loader and verifier reject every malformed module with a precise error.
#include <fstream>
#include <random>

#include "tests/vm/vm_test_util.h"
#include "vm/module_generated.h"

namespace kiln::vm {
namespace {

using namespace testing;

// A function "f" of signature `sig` whose body is `emit` followed by nothing else.
template <typename Fn>
Status LoadWith(std::string sig, Fn emit, std::function<void(ModuleBuilder&)> extra = nullptr) {
  ModuleBuilder b("bad");
  if (extra) extra(b);
  FunctionBuilder& f = b.AddFunction("f", sig);
  emit(f);
  b.Export("f", f.ordinal());
  StatusOr<std::vector<uint8_t>> bytes = b.Finish();
  if (!bytes.ok()) return bytes.status();
  return Module::LoadFromMemory(*bytes, "bad").status();
}

std::vector<uint8_t> ValidModule() {
  ModuleBuilder b("valid");
  FunctionBuilder& f = b.AddFunction("id", "i:i");
  Reg r[] = {f.args()[0]};
  f.Return(r);
  b.Export("id", f.ordinal());
  b.AddRodata(std::vector<uint8_t>(100, 7), true);
  StatusOr<std::vector<uint8_t>> bytes = b.Finish();
  EXPECT_TRUE(bytes.ok());
  return *bytes;
}

TEST(Loader, LoadsAValidModuleFromMemoryAndFile) {
  std::vector<uint8_t> bytes = ValidModule();
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, Module::LoadFromMemory(bytes));
  EXPECT_EQ(m->name(), "valid");
  std::string path = ::testing::TempDir() + "/valid.kiln";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> mapped, Module::LoadFromFile(path));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Context> c, Context::Create(mapped, {}));
  Value args[] = {Value::I32(9)};
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<Value> r, c->Invoke("id", args));
  EXPECT_EQ(r[0].i32(), 9);
  ExpectError(Module::LoadFromFile(path + ".missing").status(), StatusCode::kNotFound, "cannot open");
}

TEST(Loader, ExportsKeepTheirAttributes) {
  ModuleBuilder b("attrs");
  FunctionBuilder& f = b.AddFunction("id", "i:i");
  Reg r[] = {f.args()[0]};
  f.Return(r);
  b.Export("id", f.ordinal(), {{std::string(kFunctionTypeAttr), "(i32) -> i32"}, {"other", "x"}});
  b.Export("bare", f.ordinal());
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildAndLoad(b));
  ASSERT_EQ(m->exports().size(), 2u);
  EXPECT_EQ(m->exports()[0].attr(kFunctionTypeAttr), "(i32) -> i32");
  EXPECT_EQ(m->exports()[0].attr("other"), "x");
  EXPECT_EQ(m->exports()[0].attr("missing"), "");
  EXPECT_TRUE(m->exports()[1].attrs.empty());
  EXPECT_EQ(m->exports()[1].attr(kFunctionTypeAttr), "");
}

TEST(Loader, SegmentsAre64ByteAligned) {
  ModuleBuilder b("aligned");
  for (size_t size : {1u, 3u, 100u, 4097u}) b.AddRodata(std::vector<uint8_t>(size, 1));
  std::vector<uint8_t> code(77, 0);
  b.AddExecutable("exe", "elf-x86_64", code, {});
  b.AddExecutable("exe2", "elf-x86_64", code, {});
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildAndLoad(b));
  for (uint32_t i = 0; i < 4; ++i) {
    KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> bytes, m->Rodata(i));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(bytes.data()) % 64, 0u) << "rodata " << i;
  }
  for (const fb::ExecutableDef* e : *m->def().executables()) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(e->data()->data()) % 64, 0u) << e->name()->str();
  }
}

TEST(Loader, RejectsWhatIsNotAModule) {
  ExpectError(Module::LoadFromMemory({}).status(), StatusCode::kInvalidArgument, "too small");
  std::vector<uint8_t> text(64, 'a');
  ExpectError(Module::LoadFromMemory(text).status(), StatusCode::kInvalidArgument, "'KILN'");
}

TEST(Loader, RejectsOtherAbiVersionsNamingBoth) {
  ModuleBuilder b("future");
  b.SetAbiVersion(kAbiVersion + 1);
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> bytes, b.Finish());
  ExpectError(Module::LoadFromMemory(bytes).status(), StatusCode::kInvalidArgument,
                      StrCat("module has ABI version ", kAbiVersion + 1, " (from 'kiln 0.1.0'); this runtime supports version ",
                             kAbiVersion));
}

TEST(Loader, RejectsTruncationAtEveryLength) {
  std::vector<uint8_t> bytes = ValidModule();
  for (size_t n = 0; n < bytes.size(); n += 3) {
    std::span<const uint8_t> prefix(bytes.data(), n);
    EXPECT_FALSE(Module::LoadFromMemory(prefix).ok()) << "a " << n << "-byte prefix loaded";
  }
}

TEST(Loader, SurvivesRandomCorruption) {
  // Not every flip is detectable (it may hit a constant), but none may crash or hang.
  std::vector<uint8_t> original = ValidModule();
  std::mt19937 rng(1234);
  int rejected = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint8_t> bytes = original;
    for (int flips = 0; flips < 3; ++flips) bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    StatusOr<Ref<Module>> m = Module::LoadFromMemory(bytes);
    if (!m.ok()) {
      ++rejected;
      continue;
    }
    StatusOr<Ref<Context>> c = Context::Create(*m, {});
    if (c.ok() && !(*m)->exports().empty()) {
      Value args[] = {Value::I32(1)};
      (void)(*c)->Call((*m)->exports()[0].function_ordinal, args);
    }
  }
  EXPECT_GT(rejected, 100);
}

TEST(Verifier, RejectsRegistersOutOfRange) {
  ExpectError(LoadWith("i:i",
                               [](FunctionBuilder& f) {
                                 f.Emit(Opcode::kAddI32, {0, 0, 9});
                                 Reg r[] = {f.args()[0]};
                                 f.Return(r);
                               }),
                      StatusCode::kOutOfRange, "32-bit register 9 is out of range (1 registers); in 'add.i32' at offset 0");
  ExpectError(LoadWith("I:",
                               [](FunctionBuilder& f) {
                                 f.Emit(Opcode::kAddI64, {1, 0, 0});
                                 f.Return({});
                               }),
                      StatusCode::kInvalidArgument, "64-bit register 1 is not an even slot");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 f.Emit(Opcode::kConstRefNull, {0});
                                 f.Return({});
                               }),
                      StatusCode::kOutOfRange, "ref register 0 is out of range");
}

TEST(Verifier, RejectsBadControlFlow) {
  ExpectError(LoadWith(":", [](FunctionBuilder& f) { f.Emit(Opcode::kConstI32, {0, 1}); }),
                      StatusCode::kOutOfRange, "32-bit register 0");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 Reg r = f.NewI32();
                                 f.Emit(Opcode::kConstI32, {r.index(), 1});
                               }),
                      StatusCode::kInvalidArgument, "the last instruction must be return or a branch");
  ExpectError(LoadWith(":", [](FunctionBuilder& f) { f.Branch({7}); }), StatusCode::kOutOfRange,
                      "branch to block 7 of 1");
  ExpectError(LoadWith(":", [](FunctionBuilder&) {}), StatusCode::kInvalidArgument, "no bytecode");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 uint8_t junk[] = {250};
                                 f.EmitRaw(junk);
                               }),
                      StatusCode::kInvalidArgument, "unknown opcode 250 at offset 0");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 uint8_t truncated[] = {static_cast<uint8_t>(Opcode::kConstI32), 0};
                                 f.EmitRaw(truncated);
                               }),
                      StatusCode::kOutOfRange, "runs past the end");
  // A block that starts inside an instruction.
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 Reg r = f.NewI32();
                                 auto b = f.NewBlock();
                                 uint8_t head[] = {static_cast<uint8_t>(Opcode::kConstI32), 0, 0};
                                 uint8_t tail[] = {1, 0, 0, 0, static_cast<uint8_t>(Opcode::kReturn), 0, 0};
                                 (void)r;
                                 f.EmitRaw(head);
                                 f.Bind(b);
                                 f.EmitRaw(tail);
                               }),
                      StatusCode::kInvalidArgument, "block at offset 3 does not start on an instruction");
}

TEST(Verifier, RejectsCallsThatDoNotMatchSignatures) {
  auto extra = [](ModuleBuilder& b) {
    b.AddImport("test.take", "ri:I");
    b.AddImport("test.var", "i[rI]:");
  };
  ExpectError(LoadWith(
                          "i:",
                          [](FunctionBuilder& f) {
                            Reg r = f.NewI64();
                            Reg args[] = {f.args()[0], f.args()[0]};
                            Reg res[] = {r};
                            f.CallImport(0, args, res);
                            f.Return({});
                          },
                          extra),
                      StatusCode::kInvalidArgument,
                      "argument list value 0 is a 32-bit register but the signature wants ref");
  ExpectError(LoadWith(
                          "i:",
                          [](FunctionBuilder& f) {
                            Reg ref = f.NewRef();
                            Reg args[] = {f.args()[0], ref};
                            f.CallImport(1, args, {});
                            f.Return({});
                          },
                          extra),
                      StatusCode::kInvalidArgument, "not its fixed arguments plus whole variadic groups");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 f.CallImport(5, {}, {});
                                 f.Return({});
                               }),
                      StatusCode::kOutOfRange, "call to import 5 of 0");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 f.Call(3, {}, {});
                                 f.Return({});
                               }),
                      StatusCode::kOutOfRange, "call to function 3 of 1");
  ExpectError(LoadWith("i:i",
                               [](FunctionBuilder& f) { f.Return({}); }),
                      StatusCode::kInvalidArgument, "return list has 0 values but the signature has 1");
}

TEST(Verifier, RejectsOrdinalsOutOfRange) {
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 Reg r = f.NewRef();
                                 f.Emit(Opcode::kRodataRef, {r.index(), 3});
                                 f.Return({});
                               }),
                      StatusCode::kOutOfRange, "rodata ordinal 3");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 Reg r = f.NewI32();
                                 f.Emit(Opcode::kGlobalLoadI32, {r.index(), 0});
                                 f.Return({});
                               }),
                      StatusCode::kOutOfRange, "global slot 0");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 Reg r = f.NewI32();
                                 f.Emit(Opcode::kFail, {r.index(), 0});
                                 f.Return({});
                               }),
                      StatusCode::kOutOfRange, "string ordinal 0");
  ExpectError(LoadWith(":",
                               [](FunctionBuilder& f) {
                                 Reg l = f.NewRef(), c = f.NewI32();
                                 f.Emit(Opcode::kListAlloc, {l.index(), 9, c.index()});
                                 f.Return({});
                               }),
                      StatusCode::kInvalidArgument, "list element kind 9");
}

TEST(Verifier, RejectsImplausibleRodata) {
  // 8 MiB of zeros compresses far below 1/1000 and is still accepted.
  ModuleBuilder b("bomb");
  b.AddRodata(std::vector<uint8_t>(8 << 20, 0), true);
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> bytes, b.Finish());
  StatusOr<Ref<Module>> m = Module::LoadFromMemory(bytes);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  // A segment claiming to expand beyond what zstd can produce is refused before decompression.
  auto* segment = fb::GetMutableModule(bytes.data())->mutable_rodata()->GetMutableObject(0);
  ASSERT_TRUE(segment->mutate_uncompressed_size(uint64_t{1} << 40));
  ExpectError(Module::LoadFromMemory(bytes).status(), StatusCode::kInvalidArgument,
                      "implausible decompressed size");
  // So is one whose declared size disagrees with its zstd frame.
  ASSERT_TRUE(segment->mutate_uncompressed_size((8 << 20) - 1));
  ExpectError(Module::LoadFromMemory(bytes).status(), StatusCode::kInvalidArgument,
                      "but its zstd frame holds 8388608");
}

// Found by tests/fuzz/module_loader_fuzzer: a module declaring ~2^32 global slots made
// Context::Create allocate 16 GiB, and exactly 2^32 - 1 slots wrapped the size computation
// ((slots + 1) / 2 in 32 bits) to an empty store that global.store.i32 then wrote far past.
TEST(Verifier, RejectsImplausibleGlobalCounts) {
  ModuleBuilder b("globals");
  uint32_t g = b.AddGlobalI32();
  b.AddGlobalRef();
  FunctionBuilder& f = b.AddFunction("f", ":");
  Reg v = f.NewI32();
  f.Emit(Opcode::kConstI32, {v.index(), 0x41414141});
  f.Emit(Opcode::kGlobalStoreI32, {g, v.index()});
  f.Return({});
  b.Export("f", f.ordinal());
  KILN_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> bytes, b.Finish());
  fb::Module* def = fb::GetMutableModule(bytes.data());
  ASSERT_TRUE(def->mutate_global_i32_slots(0xFFFFFFFFu));
  ExpectError(Module::LoadFromMemory(bytes).status(), StatusCode::kInvalidArgument,
                      "module declares 4294967295 32-bit global slots and 1 global refs; the limits are 1048576 "
                      "and 1048576");
  ASSERT_TRUE(def->mutate_global_i32_slots(1));
  ASSERT_TRUE(def->mutate_global_ref_count(0x80000000u));
  ExpectError(Module::LoadFromMemory(bytes).status(), StatusCode::kInvalidArgument,
                      "2147483648 global refs");
  // At the limits, a context is created and its globals work.
  ASSERT_TRUE(def->mutate_global_i32_slots(1u << 20));
  ASSERT_TRUE(def->mutate_global_ref_count(1u << 20));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, Module::LoadFromMemory(bytes));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Context> c, Context::Create(m, {}));
  EXPECT_TRUE(c->Invoke("f", {}).ok());
}

}  // namespace
}  // namespace kiln::vm
