#include "tests/util/sample_programs.h"

namespace kiln::testing {

using vm::FunctionBuilder;
using vm::Opcode;
using vm::Reg;

void AddLoopSum(vm::ModuleBuilder& b) {
  FunctionBuilder& f = b.AddFunction("sum", "i:I");
  Reg n = f.args()[0];
  Reg i = f.NewI32(), acc = f.NewI64(), one = f.NewI32(), i64 = f.NewI64(), cond = f.NewI32();
  Reg i_next = f.NewI32(), acc_next = f.NewI64();
  auto loop = f.NewBlock(), body = f.NewBlock(), done = f.NewBlock();
  f.Location("loop.mlir:1:1");
  f.Emit(Opcode::kConstI32, {i.index(), 0});
  f.Emit(Opcode::kConstI64, {acc.index(), 0});
  f.Emit(Opcode::kConstI32, {one.index(), 1});
  f.Branch(loop);
  f.Bind(loop);
  f.Location("loop.mlir:2:3");
  f.Emit(Opcode::kCmpLtI32S, {cond.index(), i.index(), n.index()});
  f.CondBranch(cond, body, done);
  f.Bind(body);
  f.Emit(Opcode::kExtI32I64S, {i64.index(), i.index()});
  f.Emit(Opcode::kAddI64, {acc_next.index(), acc.index(), i64.index()});
  f.Emit(Opcode::kAddI32, {i_next.index(), i.index(), one.index()});
  FunctionBuilder::Move moves[] = {{i_next, i}, {acc_next, acc}};
  f.Branch(loop, moves);
  f.Bind(done);
  Reg results[] = {acc};
  f.Return(results);
  b.Export("sum", f.ordinal());
}

}  // namespace kiln::testing
