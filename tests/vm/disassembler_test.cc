// The disassembler and module listing behind tools/kiln-dump.
#include "vm/disassembler.h"

#include <sstream>

#include "tests/vm/vm_test_util.h"

namespace kiln::vm {
namespace {

using namespace testing;
using Move = FunctionBuilder::Move;

// Whether `text` has a line equal to `line`, with a readable failure message.
::testing::AssertionResult HasLine(const std::string& text, std::string_view line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l == line) return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no line '" << line << "' in:\n" << text;
}

// A module that uses every operand letter: i l r k q b c v s d g h x t.
StatusOr<Ref<Module>> BuildEveryOperandKind() {
  ModuleBuilder b("dis");
  uint32_t message = b.AddString("bad \"shape\"\n");
  std::vector<uint8_t> bytes(16, 1);
  uint32_t plain = b.AddRodata(bytes);
  b.AddRodata(std::vector<uint8_t>(1000, 7), /*compress=*/true);
  uint32_t g32 = b.AddGlobalI32();
  uint32_t g64 = b.AddGlobalI64();
  uint32_t gref = b.AddGlobalRef();
  uint32_t length = b.AddImport("native.length", "r:I");
  b.AddImport("native.print", "i[Ir]:");
  std::vector<uint8_t> code(77, 0xcc);
  ExecutableExportSpec add{"add", 3, 1, {64, 2, 1}, 1024};
  b.AddExecutable("kernels", "elf-x86_64", code, {add});

  // helper(i32, i64, ref) -> (i64, i32): args in %i0, %l2, %r0.
  FunctionBuilder& helper = b.AddFunction("helper", "iIr:Ii");
  {
    Reg results[] = {helper.args()[1], helper.args()[0]};
    helper.Return(results);
  }

  FunctionBuilder& f = b.AddFunction("main", "i:i");
  Reg x = f.args()[0];                      // %i0
  Reg a = f.NewI32();                       // %i1
  Reg w = f.NewI64();                       // %l2
  Reg ref = f.NewRef(), list = f.NewRef();  // %r0, %r1
  Reg len = f.NewI64();                     // %l4
  Reg c = f.NewI32();                       // %i6
  auto next = f.NewBlock(), done = f.NewBlock();
  f.Location("model.mlir:3:1");
  f.Emit(Opcode::kConstI32, {a.index(), static_cast<uint32_t>(-7)});
  f.Emit(Opcode::kConstI64, {w.index(), uint64_t{1} << 40});
  f.Emit(Opcode::kAddI32, {a.index(), a.index(), x.index()});
  f.Location("model.mlir:4:2");
  f.Emit(Opcode::kRodataRef, {ref.index(), plain});
  {
    Reg args[] = {ref};
    Reg results[] = {len};
    f.CallImport(length, args, results);
  }
  f.Emit(Opcode::kGlobalStoreI32, {g32, a.index()});
  f.Emit(Opcode::kGlobalStoreI64, {g64, w.index()});
  f.Emit(Opcode::kGlobalStoreRef, {gref, ref.index()});
  f.Emit(Opcode::kListAlloc, {list.index(), static_cast<uint64_t>(ValueKind::kI64), a.index()});
  {
    Reg args[] = {a, w, ref};
    Reg results[] = {len, c};
    f.Call(helper.ordinal(), args, results);
  }
  f.Emit(Opcode::kFail, {c.index(), message});
  {
    Move true_moves[] = {{a, x}};
    f.CondBranch(c, next, done, true_moves);
  }
  f.Bind(next);
  {
    Move moves[] = {{len, w}, {ref, list}, {x, a}};
    f.Branch(done, moves);
  }
  f.Bind(done);
  {
    Reg results[] = {x};
    f.Return(results);
  }
  b.Export("main", f.ordinal());
  b.Export("entry", f.ordinal());
  return BuildAndLoad(b);
}

TEST(Disassembler, PrintsEveryOperandKind) {
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildEveryOperandKind());
  std::string text = DisassembleFunction(*m, 1);
  EXPECT_TRUE(HasLine(text, "function 1 @main (i32) -> (i32)  \"i:i\""));
  EXPECT_TRUE(HasLine(text, "  registers: 7 32-bit slots, 2 refs"));
  EXPECT_TRUE(HasLine(text, "  exported as: main, entry"));
  EXPECT_TRUE(HasLine(text, "^bb0:"));
  // i, k and the first source location.
  EXPECT_TRUE(HasLine(text, "  0000: const.i32 %i1, -7  // model.mlir:3:1"));
  // l, q (large immediates also in hex); the location is not repeated.
  EXPECT_TRUE(HasLine(text, "  0007: const.i64 %l2, 1099511627776 (0x10000000000)"));
  EXPECT_TRUE(HasLine(text, "  0018: add.i32 %i1, %i1, %i0"));
  // r, d and a new location.
  EXPECT_TRUE(HasLine(text, "  0025: rodata.ref %r0, rodata[0]  // model.mlir:4:2"));
  // c: an import call, by name, with a 64-bit result.
  EXPECT_TRUE(HasLine(text, "  0032: call @native.length(%r0) -> (%l4)"));
  // g, h, x.
  EXPECT_TRUE(HasLine(text, "  0045: global.store.i32 global[0], %i1"));
  EXPECT_TRUE(HasLine(text, "  0052: global.store.i64 global[2], %l2"));
  EXPECT_TRUE(HasLine(text, "  0059: global.store.ref global.ref[0], %r0"));
  // t.
  EXPECT_TRUE(HasLine(text, "  0066: list.alloc %r1, i64, %i1"));
  // c: a function call with all three banks in its lists.
  EXPECT_TRUE(HasLine(text, "  0072: call @helper(%i1, %l2, %r0) -> (%l4, %i6)"));
  // s: the string, quoted and escaped.
  EXPECT_TRUE(HasLine(text, "  0091: fail %i6, \"bad \\\"shape\\\"\\n\""));
  // b: block arguments as moves; a branch without moves is just the label.
  EXPECT_TRUE(HasLine(text, "  0098: cond_br %i6, ^bb1(%i1 -> %i0), ^bb2"));
  EXPECT_TRUE(HasLine(text, "^bb1:"));
  EXPECT_TRUE(HasLine(text, "  0117: br ^bb2(%l4 -> %l2, %r0 -> %r1, %i0 -> %i1)"));
  EXPECT_TRUE(HasLine(text, "^bb2:"));
  // v.
  EXPECT_TRUE(HasLine(text, "  0136: return %i0"));
  EXPECT_TRUE(HasLine(text, "  blocks: ^bb0 at 0000, ^bb1 at 0117, ^bb2 at 0136"));

  std::string helper = DisassembleFunction(*m, 0);
  EXPECT_TRUE(HasLine(helper, "function 0 @helper (i32, i64, ref) -> (i64, i32)  \"iIr:Ii\""));
  EXPECT_TRUE(HasLine(helper, "  0000: return %l2, %i0"));
  EXPECT_EQ(helper.find("exported as"), std::string::npos) << helper;
}

TEST(Disassembler, DumpsTheModule) {
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildEveryOperandKind());
  std::string text = DumpModule(*m);
  EXPECT_TRUE(HasLine(text, "module \"dis\""));
  EXPECT_TRUE(HasLine(text, StrCat("  abi version: ", kAbiVersion)));
  EXPECT_TRUE(HasLine(text, StrCat("  producer: \"", kProducerName, "\"")));
  EXPECT_NE(text.find("  contents: 2 imports, 2 exports, 2 functions ("), std::string::npos) << text;
  EXPECT_NE(text.find("bytecode bytes), 2 rodata segments, 1 string, 1 executable\n"), std::string::npos) << text;
  EXPECT_TRUE(HasLine(text, "  globals: 4 32-bit slots, 1 ref"));
  EXPECT_TRUE(HasLine(text, "imports:"));
  EXPECT_TRUE(HasLine(text, "  [0] native.length (ref) -> (i64)  \"r:I\""));
  EXPECT_TRUE(HasLine(text, "  [1] native.print (i32, [i64, ref]...) -> ()  \"i[Ir]:\""));
  EXPECT_TRUE(HasLine(text, "exports:"));
  EXPECT_TRUE(HasLine(text, "  main -> function 1 @main"));
  EXPECT_TRUE(HasLine(text, "  entry -> function 1 @main"));
  EXPECT_TRUE(HasLine(text, "  [0] \"bad \\\"shape\\\"\\n\""));
  EXPECT_TRUE(HasLine(text, "  rodata[0]: 16 bytes"));
  EXPECT_NE(text.find("  rodata[1]: 1000 bytes, zstd-compressed to "), std::string::npos) << text;
  EXPECT_TRUE(HasLine(text, "  [0] \"kernels\": format elf-x86_64, 77 bytes, 1 export"));
  EXPECT_TRUE(HasLine(text, "      add: 3 bindings, 1 constant, workgroup 64x2x1, local memory 1024 bytes"));
  // Both functions, in order, with their bytecode.
  size_t helper = text.find("\nfunction 0 @helper");
  size_t main = text.find("\nfunction 1 @main");
  ASSERT_NE(helper, std::string::npos) << text;
  ASSERT_NE(main, std::string::npos) << text;
  EXPECT_LT(helper, main);
  EXPECT_TRUE(HasLine(text, "  0136: return %i0"));
}

TEST(Disassembler, OptionsLeaveOutBytecodeOrLocations) {
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildEveryOperandKind());
  DumpOptions no_code;
  no_code.disassemble = false;
  std::string headers = DumpModule(*m, no_code);
  EXPECT_TRUE(HasLine(headers, "function 1 @main (i32) -> (i32)  \"i:i\""));
  EXPECT_EQ(headers.find("^bb0:"), std::string::npos) << headers;
  EXPECT_EQ(headers.find("const.i32"), std::string::npos) << headers;

  DumpOptions no_locations;
  no_locations.source_locations = false;
  std::string text = DisassembleFunction(*m, 1, no_locations);
  EXPECT_TRUE(HasLine(text, "  0000: const.i32 %i1, -7"));
  EXPECT_EQ(text.find("model.mlir"), std::string::npos) << text;
}

TEST(Disassembler, EmptyReturnAndVoidCall) {
  ModuleBuilder b("void");
  FunctionBuilder& callee = b.AddFunction("nothing", ":");
  callee.Return({});
  FunctionBuilder& f = b.AddFunction("caller", ":");
  f.Call(callee.ordinal(), {}, {});
  f.Return({});
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildAndLoad(b));
  std::string text = DisassembleFunction(*m, 1);
  EXPECT_TRUE(HasLine(text, "function 1 @caller () -> ()  \":\""));
  EXPECT_TRUE(HasLine(text, "  0000: call @nothing()"));
  EXPECT_TRUE(HasLine(text, "  0009: return"));
  EXPECT_TRUE(HasLine(text, "  registers: 0 32-bit slots, 0 refs"));
  // No imports, exports, rodata or executables: no such sections.
  std::string dump = DumpModule(*m);
  EXPECT_EQ(dump.find("imports:"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("executables:"), std::string::npos) << dump;
  EXPECT_TRUE(HasLine(dump, "  producer: \"kiln 0.1.0\""));
}

TEST(Disassembler, EveryOpcodeDisassembles) {
  // One instruction of every opcode whose operands the generic Emit() takes, all with
  // in-range operands so the module verifies; each line names its mnemonic.
  ModuleBuilder b("all");
  b.AddString("s");
  b.AddRodata(std::vector<uint8_t>(8, 0));
  b.AddGlobalI32();
  b.AddGlobalI64();
  b.AddGlobalRef();
  FunctionBuilder& f = b.AddFunction("all", ":");
  f.NewI32();
  f.NewI32();
  f.NewI64();  // %l2
  f.NewRef();
  std::vector<std::string> expected;
  for (int op = 0; op < kOpcodeCount; ++op) {
    const OpcodeInfo& info = GetOpcodeInfo(static_cast<Opcode>(op));
    if (info.operands.find_first_of("bcv") != std::string_view::npos) continue;
    std::vector<uint64_t> operands;
    std::string line = std::string(info.mnemonic);
    for (char kind : info.operands) {
      line += operands.empty() ? " " : ", ";
      switch (kind) {
        case 'i': operands.push_back(1); line += "%i1"; break;
        case 'l': operands.push_back(2); line += "%l2"; break;
        case 'r': operands.push_back(0); line += "%r0"; break;
        case 'k': case 'q': operands.push_back(5); line += "5"; break;
        case 's': operands.push_back(0); line += "\"s\""; break;
        case 'd': operands.push_back(0); line += "rodata[0]"; break;
        case 'g': operands.push_back(0); line += "global[0]"; break;
        case 'h': operands.push_back(2); line += "global[2]"; break;
        case 'x': operands.push_back(0); line += "global.ref[0]"; break;
        case 't': operands.push_back(3); line += "f64"; break;
        default: FAIL() << "operand letter " << kind;
      }
    }
    // Emit takes an initializer_list; spell out the arities the table uses.
    switch (operands.size()) {
      case 1: f.Emit(static_cast<Opcode>(op), {operands[0]}); break;
      case 2: f.Emit(static_cast<Opcode>(op), {operands[0], operands[1]}); break;
      case 3: f.Emit(static_cast<Opcode>(op), {operands[0], operands[1], operands[2]}); break;
      case 4: f.Emit(static_cast<Opcode>(op), {operands[0], operands[1], operands[2], operands[3]}); break;
      default: FAIL() << info.mnemonic << " has " << operands.size() << " operands";
    }
    expected.push_back(line);
  }
  f.Return({});
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildAndLoad(b));
  std::string text = DisassembleFunction(*m, 0);
  EXPECT_EQ(text.find("<"), std::string::npos) << text;
  for (const std::string& line : expected) {
    EXPECT_NE(text.find(": " + line + "\n"), std::string::npos) << "no '" << line << "' in\n" << text;
  }
}

TEST(Disassembler, UnknownFunctionsAreReported) {
  KILN_ASSERT_OK_AND_ASSIGN(Ref<Module> m, BuildEveryOperandKind());
  KILN_ASSERT_OK_AND_ASSIGN(uint32_t ordinal, FindFunction(*m, "main"));
  EXPECT_EQ(ordinal, 1u);
  ExpectError(FindFunction(*m, "mian").status(), StatusCode::kNotFound,
                      "module 'dis' has no function 'mian'; it has: helper, main");
  EXPECT_EQ(DisassembleFunction(*m, 7), "; module 'dis' has no function 7 (it has 2)\n");
}

}  // namespace
}  // namespace kiln::vm
