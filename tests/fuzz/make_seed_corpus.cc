// Writes the loader fuzzer's seed corpus: valid modules that between them use every
// feature of the format (loops, calls, imports, rodata plain and zstd, globals, lists,
// strings, source locations, executables), into the directory argv[1].
//
// Seeds the fuzzer may run (no loops, no calls between bytecode functions) export
// functions that take no refs, and import only what tests/fuzz/fuzz_native_module.h
// provides, so mutations of them reach the interpreter.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_native_module.h"
#include "tests/util/sample_programs.h"
#include "vm/builder.h"

namespace kiln::vm::fuzz {
namespace {

using Move = FunctionBuilder::Move;

std::string Import(std::string_view function) { return StrCat(kNativeModuleName, ".", function); }

void Empty(ModuleBuilder&) {}

// Every opcode the generic Emit() takes except the list ops (see Lists), once, on in-range
// registers; straight-line, and it runs to the end: the first operand is the destination,
// later ones read registers that hold non-zero constants.
void EveryOpcode(ModuleBuilder& b) {
  b.AddString("every opcode");
  b.AddRodata(std::vector<uint8_t>(64, 3));
  b.AddGlobalI32();
  b.AddGlobalI64();
  b.AddGlobalRef();
  FunctionBuilder& f = b.AddFunction("every_opcode", "iF:i");
  Reg zero = f.NewI32();  // never written: the fail below passes
  Reg a = f.NewI32(), c = f.NewI32();
  Reg w = f.NewI64(), w2 = f.NewI64();
  f.NewRef();
  f.Location("every_opcode.mlir:1:1");
  f.Emit(Opcode::kConstI32, {a.index(), 7});
  f.Emit(Opcode::kConstI32, {c.index(), 2});
  f.Emit(Opcode::kConstI64, {w.index(), 9});
  f.Emit(Opcode::kConstI64, {w2.index(), 3});
  for (int op = 0; op < kOpcodeCount; ++op) {
    Opcode opcode = static_cast<Opcode>(op);
    std::string_view format = GetOpcodeInfo(opcode).operands;
    if (format.find_first_of("bcv") != std::string_view::npos) continue;
    if (GetOpcodeInfo(opcode).mnemonic.starts_with("list.")) continue;
    std::vector<uint64_t> v;
    for (char kind : format) {
      bool destination = v.empty();
      switch (kind) {
        case 'i': v.push_back(destination ? a.index() : c.index()); break;
        case 'l': v.push_back(destination ? w.index() : w2.index()); break;
        case 'k': case 'q': v.push_back(3); break;
        case 'h': v.push_back(2); break;
        default: v.push_back(0); break;  // r, s, d, g, x
      }
    }
    if (opcode == Opcode::kFail) v[0] = zero.index();
    if (op % 16 == 0) f.Location(StrCat("every_opcode.mlir:", op, ":1"));
    switch (v.size()) {
      case 1: f.Emit(opcode, {v[0]}); break;
      case 2: f.Emit(opcode, {v[0], v[1]}); break;
      case 3: f.Emit(opcode, {v[0], v[1], v[2]}); break;
      default: f.Emit(opcode, {v[0], v[1], v[2], v[3]}); break;
    }
  }
  Reg results[] = {a};
  f.Return(results);
  b.Export("every_opcode", f.ordinal());
}

// Forward branches only (the fuzzer runs it): max(a, b) through a diamond with block arguments.
void Diamond(ModuleBuilder& b) {
  FunctionBuilder& f = b.AddFunction("max", "ii:i");
  Reg x = f.args()[0], y = f.args()[1], cond = f.NewI32(), out = f.NewI32();
  auto take_x = f.NewBlock(), take_y = f.NewBlock(), done = f.NewBlock();
  f.Emit(Opcode::kCmpLtI32S, {cond.index(), x.index(), y.index()});
  f.CondBranch(cond, take_y, take_x);
  f.Bind(take_x);
  Move mx[] = {{x, out}};
  f.Branch(done, mx);
  f.Bind(take_y);
  Move my[] = {{y, out}};
  f.Branch(done, my);
  f.Bind(done);
  Reg results[] = {out};
  f.Return(results);
  b.Export("max", f.ordinal());
}

// Calls between bytecode functions mixing 32-bit, 64-bit and ref values, and recursion.
void Calls(ModuleBuilder& b) {
  FunctionBuilder& divmod = b.AddFunction("divmod", "Iir:IIir");
  {
    Reg a = divmod.args()[0], d = divmod.args()[1], pass = divmod.args()[2];
    Reg d64 = divmod.NewI64(), q = divmod.NewI64(), m = divmod.NewI64();
    divmod.Emit(Opcode::kExtI32I64S, {d64.index(), d.index()});
    divmod.Emit(Opcode::kDivI64S, {q.index(), a.index(), d64.index()});
    divmod.Emit(Opcode::kRemI64S, {m.index(), a.index(), d64.index()});
    Reg results[] = {q, m, d, pass};
    divmod.Return(results);
  }
  FunctionBuilder& main = b.AddFunction("main", "iI:IIi");
  {
    Reg x = main.args()[0], y = main.args()[1];
    Reg q = main.NewI64(), m = main.NewI64(), d = main.NewI32(), ref = main.NewRef(), back = main.NewRef();
    main.Emit(Opcode::kConstRefNull, {ref.index()});
    Reg args[] = {y, x, ref};
    Reg results[] = {q, m, d, back};
    main.Location("calls.mlir:4:1");
    main.Call(divmod.ordinal(), args, results);
    Reg out[] = {q, m, d};
    main.Return(out);
  }
  FunctionBuilder& rec = b.AddFunction("recurse", "i:i");
  {
    Reg x = rec.args()[0], out = rec.NewI32();
    Reg args[] = {x};
    Reg results[] = {out};
    rec.Call(rec.ordinal(), args, results);
    rec.Return(results);
  }
  b.Export("main", main.ordinal());
  b.Export("recurse", rec.ordinal());
}

// Every fuzz.* import, straight-line, with a failure message and source locations.
void Imports(ModuleBuilder& b) {
  uint32_t echo = b.AddImport(Import("echo"), "i:i");
  uint32_t echo64 = b.AddImport(Import("echo64"), "I:I");
  uint32_t ref = b.AddImport(Import("ref"), "r:r");
  uint32_t fail = b.AddImport(Import("fail"), "i:");
  uint32_t sum = b.AddImport(Import("sum"), "i[i]:i");
  uint32_t message = b.AddString("imports: the sum is not zero");
  FunctionBuilder& f = b.AddFunction("imports", "iI:iI");
  Reg x = f.args()[0], w = f.args()[1];
  Reg y = f.NewI32(), w2 = f.NewI64(), s = f.NewI32(), r = f.NewRef(), r2 = f.NewRef();
  f.Location("imports.mlir:1:1");
  {
    Reg a[] = {x}, out[] = {y};
    f.CallImport(echo, a, out);
  }
  f.Location("imports.mlir:2:1");
  {
    Reg a[] = {w}, out[] = {w2};
    f.CallImport(echo64, a, out);
  }
  {
    Reg a[] = {r}, out[] = {r2};
    f.CallImport(ref, a, out);
  }
  {
    Reg a[] = {x, y, x, y}, out[] = {s};
    f.CallImport(sum, a, out);
  }
  f.Location("imports.mlir:3:1");
  {
    Reg a[] = {s};
    f.CallImport(fail, a, {});
  }
  f.Emit(Opcode::kFail, {s.index(), message});
  Reg results[] = {s, w2};
  f.Return(results);
  b.Export("imports", f.ordinal());
}

// Rodata plain and zstd-compressed, read through buffers.
void Rodata(ModuleBuilder& b) {
  std::vector<uint8_t> words(256);
  for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<uint8_t>(i * 7);
  uint32_t plain = b.AddRodata(words);
  uint32_t packed = b.AddRodata(std::vector<uint8_t>(4096, 0x5a), /*compress=*/true);
  uint32_t tiny = b.AddRodata(std::vector<uint8_t>(3, 1), /*compress=*/true);
  FunctionBuilder& f = b.AddFunction("read", "i:Iii");
  Reg index = f.args()[0];
  Reg buf = f.NewRef(), buf2 = f.NewRef(), buf3 = f.NewRef(), len = f.NewI64(), v = f.NewI32(), v2 = f.NewI32();
  f.Emit(Opcode::kRodataRef, {buf.index(), plain});
  f.Emit(Opcode::kRodataRef, {buf2.index(), packed});
  f.Emit(Opcode::kRodataRef, {buf3.index(), tiny});
  f.Emit(Opcode::kBufferLength, {len.index(), buf2.index()});
  f.Emit(Opcode::kBufferLoadI32, {v.index(), buf.index(), index.index()});
  f.Emit(Opcode::kBufferLoadI32, {v2.index(), buf2.index(), index.index()});
  Reg results[] = {len, v, v2};
  f.Return(results);
  b.Export("read", f.ordinal());
}

// Globals of every bank, loaded and stored.
void Globals(ModuleBuilder& b) {
  uint32_t g32 = b.AddGlobalI32(), g64 = b.AddGlobalI64(), gref = b.AddGlobalRef();
  b.AddGlobalI32();
  uint32_t seg = b.AddRodata(std::vector<uint8_t>(16, 9));
  FunctionBuilder& f = b.AddFunction("bump", ":iI");
  Reg v32 = f.NewI32(), v64 = f.NewI64(), one = f.NewI32(), one64 = f.NewI64(), buf = f.NewRef(), old = f.NewRef();
  f.Emit(Opcode::kGlobalLoadI32, {v32.index(), g32});
  f.Emit(Opcode::kGlobalLoadI64, {v64.index(), g64});
  f.Emit(Opcode::kConstI32, {one.index(), 1});
  f.Emit(Opcode::kConstI64, {one64.index(), uint64_t{1} << 40});
  f.Emit(Opcode::kAddI32, {v32.index(), v32.index(), one.index()});
  f.Emit(Opcode::kAddI64, {v64.index(), v64.index(), one64.index()});
  f.Emit(Opcode::kGlobalStoreI32, {g32, v32.index()});
  f.Emit(Opcode::kGlobalStoreI64, {g64, v64.index()});
  f.Emit(Opcode::kGlobalLoadRef, {old.index(), gref});
  f.Emit(Opcode::kRodataRef, {buf.index(), seg});
  f.Emit(Opcode::kGlobalStoreRef, {gref, buf.index()});
  Reg results[] = {v32, v64};
  f.Return(results);
  b.Export("bump", f.ordinal());
}

// Lists of i32 and refs, a list of refs holding a list (kept in a global between the
// calls) and a buffer. Two list.alloc/list.resize each: together the fuzzer's per-input
// budget of four.
void Lists(ModuleBuilder& b) {
  uint32_t seg = b.AddRodata(std::vector<uint8_t>(8, 1));
  uint32_t saved = b.AddGlobalRef();
  FunctionBuilder& f = b.AddFunction("numbers", "i:i");
  {
    Reg n = f.NewI32();
    Reg ints = f.NewRef();
    Reg idx = f.NewI32(), v = f.NewI32();
    f.Emit(Opcode::kConstI32, {n.index(), 4});
    f.Emit(Opcode::kAddI32, {n.index(), n.index(), f.args()[0].index()});
    f.Emit(Opcode::kConstI32, {idx.index(), 1});
    f.Emit(Opcode::kListAlloc, {ints.index(), static_cast<uint64_t>(ValueKind::kI32), n.index()});
    f.Emit(Opcode::kListResize, {ints.index(), n.index()});
    f.Emit(Opcode::kConstI32, {v.index(), 42});
    f.Emit(Opcode::kListSetI32, {ints.index(), idx.index(), v.index()});
    f.Emit(Opcode::kListGetI32, {v.index(), ints.index(), idx.index()});
    f.Emit(Opcode::kGlobalStoreRef, {saved, ints.index()});
    Reg results[] = {v};
    f.Return(results);
    b.Export("numbers", f.ordinal());
  }
  FunctionBuilder& g = b.AddFunction("refs", "i:i");
  {
    Reg n = g.NewI32();
    Reg refs = g.NewRef(), got = g.NewRef(), buf = g.NewRef(), ints = g.NewRef();
    Reg idx = g.NewI32(), size = g.NewI32();
    g.Emit(Opcode::kConstI32, {n.index(), 4});
    g.Emit(Opcode::kAddI32, {n.index(), n.index(), g.args()[0].index()});
    g.Emit(Opcode::kListAlloc, {refs.index(), static_cast<uint64_t>(ValueKind::kRef), n.index()});
    g.Emit(Opcode::kListResize, {refs.index(), n.index()});
    g.Emit(Opcode::kGlobalLoadRef, {ints.index(), saved});
    g.Emit(Opcode::kConstI32, {idx.index(), 2});
    g.Emit(Opcode::kListSetRef, {refs.index(), idx.index(), ints.index()});
    g.Emit(Opcode::kRodataRef, {buf.index(), seg});
    g.Emit(Opcode::kConstI32, {idx.index(), 0});
    g.Emit(Opcode::kListSetRef, {refs.index(), idx.index(), buf.index()});
    g.Emit(Opcode::kListGetRef, {got.index(), refs.index(), idx.index()});
    g.Emit(Opcode::kListSize, {size.index(), refs.index()});
    Reg results[] = {size};
    g.Return(results);
    b.Export("refs", g.ordinal());
  }
}

// Lists of 64-bit and f32 elements (a separate seed: the fuzzer's list budget is per input).
void Lists64(ModuleBuilder& b) {
  FunctionBuilder& f = b.AddFunction("wides", "i:Ii");
  Reg n = f.NewI32();
  Reg wides = f.NewRef(), floats = f.NewRef();
  Reg idx = f.NewI32(), v = f.NewI32(), w = f.NewI64();
  f.Emit(Opcode::kConstI32, {n.index(), 4});
  f.Emit(Opcode::kAddI32, {n.index(), n.index(), f.args()[0].index()});
  f.Emit(Opcode::kConstI32, {idx.index(), 3});
  f.Emit(Opcode::kListAlloc, {wides.index(), static_cast<uint64_t>(ValueKind::kF64), n.index()});
  f.Emit(Opcode::kListResize, {wides.index(), n.index()});
  f.Emit(Opcode::kConstI64, {w.index(), uint64_t{7} << 40});
  f.Emit(Opcode::kListSetI64, {wides.index(), idx.index(), w.index()});
  f.Emit(Opcode::kListGetI64, {w.index(), wides.index(), idx.index()});
  f.Emit(Opcode::kListAlloc, {floats.index(), static_cast<uint64_t>(ValueKind::kF32), n.index()});
  f.Emit(Opcode::kListResize, {floats.index(), n.index()});
  f.Emit(Opcode::kConstI32, {v.index(), 0x3f800000});
  f.Emit(Opcode::kListSetI32, {floats.index(), idx.index(), v.index()});
  f.Emit(Opcode::kListGetI32, {v.index(), floats.index(), idx.index()});
  Reg results[] = {w, v};
  f.Return(results);
  b.Export("wides", f.ordinal());
}

// Executables of two formats with export metadata, and a function that does nothing.
void Executables(ModuleBuilder& b) {
  std::vector<uint8_t> elf(200, 0x90);
  std::vector<uint8_t> hsaco(130, 0x11);
  b.AddExecutable("add_kernels", "elf-x86_64", elf,
                  {{"add", 3, 0, {64, 1, 1}, 0}, {"mul", 3, 2, {8, 8, 1}, 4096}});
  b.AddExecutable("gpu_kernels", "hsaco-gfx942", hsaco, {{"reduce", 2, 1, {256, 1, 1}, 65536}});
  b.AddExecutable("no_exports", "elf-x86_64", std::vector<uint8_t>(1, 0), {});
  FunctionBuilder& f = b.AddFunction("noop", ":");
  f.Return({});
  b.Export("noop", f.ordinal());
}

// A bit of everything in one module: imports, strings, globals, rodata, a loop, calls.
void Mixed(ModuleBuilder& b) {
  Imports(b);
  kiln::testing::AddLoopSum(b);
  Globals(b);
  Executables(b);
}

struct Seed {
  const char* name;
  std::function<void(ModuleBuilder&)> build;
};

}  // namespace
}  // namespace kiln::vm::fuzz

int main(int argc, char** argv) {
  using namespace kiln::vm::fuzz;
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seed_corpus DIR\n");
    return 1;
  }
  std::string dir = argv[1];
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "make_seed_corpus: cannot create '%s': %s\n", dir.c_str(), std::strerror(errno));
    return 1;
  }
  const Seed seeds[] = {
      {"empty", Empty},       {"every_opcode", EveryOpcode}, {"loop", kiln::testing::AddLoopSum},       {"diamond", Diamond},
      {"calls", Calls},       {"imports", Imports},          {"rodata", Rodata},   {"globals", Globals},
      {"lists", Lists},       {"lists64", Lists64},          {"executables", Executables},  {"mixed", Mixed},
  };
  for (const Seed& seed : seeds) {
    kiln::vm::ModuleBuilder builder(seed.name);
    seed.build(builder);
    kiln::StatusOr<std::vector<uint8_t>> bytes = builder.Finish();
    if (!bytes.ok()) {
      std::fprintf(stderr, "make_seed_corpus: seed '%s': %s\n", seed.name, bytes.status().ToString().c_str());
      return 1;
    }
    std::string path = dir + "/" + seed.name + ".kiln";
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
    out.close();
    if (!out) {
      std::fprintf(stderr, "make_seed_corpus: cannot write '%s'\n", path.c_str());
      return 1;
    }
  }
  std::printf("make_seed_corpus: wrote %zu modules to %s\n", std::size(seeds), dir.c_str());
  return 0;
}
