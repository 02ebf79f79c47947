// Writes a small module to argv[1] for the kiln-dump tests: a loop, a call, an import,
// a string, rodata, a global and an executable.
#include <cstdio>
#include <fstream>

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

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_module OUT.kiln\n");
    return 1;
  }
  StatusOr<std::vector<uint8_t>> bytes = Build();
  if (!bytes.ok()) {
    std::fprintf(stderr, "make_test_module: %s\n", bytes.status().ToString().c_str());
    return 1;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "make_test_module: cannot write '%s'\n", argv[1]);
    return 1;
  }
  return 0;
}
