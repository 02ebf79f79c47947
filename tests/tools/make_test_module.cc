// Writes a small module to argv[1] for the kiln-dump tests: a loop, a call, an import,
// a string, rodata, a global and an executable.
// With --values first, writes instead a module whose functions take and return the values
// the compiler never produces, for kiln-run's tests (tests/lit/tools/kiln-run-values.mlir):
//   make_list(i32 n, ref x) -> ref    the list [x, [n], null]
//   is_null(ref x) -> i32             1 when x is null
//   null_result() -> ref              a null reference
//   scalars(i32, i64, f32, f64) -> (i32, i64, f32, f64)   its arguments
//   bytes() -> ref                    a vm.buffer (a type kiln-run cannot print)
#include <cstdio>
#include <fstream>
#include <string_view>

#include "vm/builder.h"

using namespace kiln;
using namespace kiln::vm;

namespace {

StatusOr<std::vector<uint8_t>> Build() {
  ModuleBuilder b("dump_test");
  uint32_t message = b.AddString("n must not be negative");
  b.AddRodata(std::vector<uint8_t>(64, 1));
  b.AddRodata(std::vector<uint8_t>(4096, 2), /*compress=*/true);
  b.AddGlobalI32();
  b.AddImport("check.expect_true", "i:");
  std::vector<uint8_t> code(128, 0xc3);
  b.AddExecutable("kernels", "elf-x86_64", code, {{"add", 3, 0, {64, 1, 1}, 0}});

  // sum(n) = 0 + 1 + ... + n-1: a loop whose counter and accumulator are block arguments.
  FunctionBuilder& sum = b.AddFunction("sum", "i:i");
  {
    Reg n = sum.args()[0];
    Reg i = sum.NewI32(), acc = sum.NewI32(), one = sum.NewI32(), cond = sum.NewI32();
    Reg i_next = sum.NewI32(), acc_next = sum.NewI32();
    auto loop = sum.NewBlock(), body = sum.NewBlock(), done = sum.NewBlock();
    sum.Location("sum.mlir:2:3");
    sum.Emit(Opcode::kConstI32, {i.index(), 0});
    sum.Emit(Opcode::kConstI32, {acc.index(), 0});
    sum.Emit(Opcode::kConstI32, {one.index(), 1});
    sum.Emit(Opcode::kCmpLtI32S, {cond.index(), n.index(), i.index()});
    sum.Emit(Opcode::kFail, {cond.index(), message});
    sum.Branch(loop);
    sum.Bind(loop);
    sum.Location("sum.mlir:4:5");
    sum.Emit(Opcode::kCmpLtI32S, {cond.index(), i.index(), n.index()});
    sum.CondBranch(cond, body, done);
    sum.Bind(body);
    sum.Emit(Opcode::kAddI32, {acc_next.index(), acc.index(), i.index()});
    sum.Emit(Opcode::kAddI32, {i_next.index(), i.index(), one.index()});
    FunctionBuilder::Move moves[] = {{i_next, i}, {acc_next, acc}};
    sum.Branch(loop, moves);
    sum.Bind(done);
    Reg results[] = {acc};
    sum.Return(results);
  }
  FunctionBuilder& main = b.AddFunction("main", ":");
  {
    Reg n = main.NewI32(), total = main.NewI32();
    main.Emit(Opcode::kConstI32, {n.index(), 10});
    Reg args[] = {n};
    Reg results[] = {total};
    main.Call(sum.ordinal(), args, results);
    main.Emit(Opcode::kGlobalStoreI32, {0, total.index()});
    main.CallImport(0, results, {});
    main.Return({});
  }
  b.Export("main", main.ordinal());
  return b.Finish();
}

StatusOr<std::vector<uint8_t>> BuildValues() {
  ModuleBuilder b("values");
  {
    FunctionBuilder& f = b.AddFunction("make_list", "ir:r");
    Reg n = f.args()[0], x = f.args()[1];
    Reg outer = f.NewRef(), inner = f.NewRef(), null = f.NewRef();
    Reg zero = f.NewI32(), one = f.NewI32(), two = f.NewI32(), three = f.NewI32();
    f.Emit(Opcode::kConstI32, {zero.index(), 0});
    f.Emit(Opcode::kConstI32, {one.index(), 1});
    f.Emit(Opcode::kConstI32, {two.index(), 2});
    f.Emit(Opcode::kConstI32, {three.index(), 3});
    f.Emit(Opcode::kListAlloc, {inner.index(), static_cast<uint64_t>(ValueKind::kI32), one.index()});
    f.Emit(Opcode::kListResize, {inner.index(), one.index()});
    f.Emit(Opcode::kListSetI32, {inner.index(), zero.index(), n.index()});
    f.Emit(Opcode::kConstRefNull, {null.index()});
    f.Emit(Opcode::kListAlloc, {outer.index(), static_cast<uint64_t>(ValueKind::kRef), three.index()});
    f.Emit(Opcode::kListResize, {outer.index(), three.index()});
    f.Emit(Opcode::kListSetRef, {outer.index(), zero.index(), x.index()});
    f.Emit(Opcode::kListSetRef, {outer.index(), one.index(), inner.index()});
    f.Emit(Opcode::kListSetRef, {outer.index(), two.index(), null.index()});
    Reg results[] = {outer};
    f.Return(results);
    b.Export("make_list", f.ordinal());
  }
  {
    FunctionBuilder& f = b.AddFunction("is_null", "r:i");
    Reg nz = f.NewI32(), one = f.NewI32(), result = f.NewI32();
    f.Emit(Opcode::kCmpNzRef, {nz.index(), f.args()[0].index()});
    f.Emit(Opcode::kConstI32, {one.index(), 1});
    f.Emit(Opcode::kSubI32, {result.index(), one.index(), nz.index()});
    Reg results[] = {result};
    f.Return(results);
    b.Export("is_null", f.ordinal());
  }
  {
    FunctionBuilder& f = b.AddFunction("null_result", ":r");
    Reg null = f.NewRef();
    f.Emit(Opcode::kConstRefNull, {null.index()});
    Reg results[] = {null};
    f.Return(results);
    b.Export("null_result", f.ordinal());
  }
  {
    FunctionBuilder& f = b.AddFunction("scalars", "iIfF:iIfF");
    f.Return(f.args());
    b.Export("scalars", f.ordinal());
  }
  {
    uint32_t segment = b.AddRodata(std::vector<uint8_t>(8, 7));
    FunctionBuilder& f = b.AddFunction("bytes", ":r");
    Reg buffer = f.NewRef();
    f.Emit(Opcode::kRodataRef, {buffer.index(), segment});
    Reg results[] = {buffer};
    f.Return(results);
    b.Export("bytes", f.ordinal());
  }
  return b.Finish();
}

}  // namespace

int main(int argc, char** argv) {
  bool values = argc == 3 && std::string_view(argv[1]) == "--values";
  if (argc != 2 && !values) {
    std::fprintf(stderr, "usage: make_test_module [--values] OUT.kiln\n");
    return 1;
  }
  const char* path = argv[argc - 1];
  StatusOr<std::vector<uint8_t>> bytes = values ? BuildValues() : Build();
  if (!bytes.ok()) {
    std::fprintf(stderr, "make_test_module: %s\n", bytes.status().ToString().c_str());
    return 1;
  }
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "make_test_module: cannot write '%s'\n", path);
    return 1;
  }
  return 0;
}
