// VM microbenchmarks: interpreter dispatch, native calls, module loading.
//   build/bin/kiln-bench-vm
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

#include "vm/builder.h"
#include "vm/context.h"
#include "vm/module.h"

namespace kiln::vm {
namespace {

// loop(n): for (i = 0; i < n; ++i) acc += i [+ native(i, acc)]; 5 instructions per
// iteration without the call, 6 with it.
std::vector<uint8_t> LoopModule(bool with_call) {
  ModuleBuilder b("bench");
  uint32_t add = b.AddImport("bench.add64", "II:I");
  FunctionBuilder& f = b.AddFunction("loop", "i:I");
  Reg n = f.args()[0], i = f.NewI32(), one = f.NewI32(), c = f.NewI32();
  Reg acc = f.NewI64(), x = f.NewI64();
  auto loop = f.NewBlock(), body = f.NewBlock(), done = f.NewBlock();
  f.Emit(Opcode::kConstI32, {i.index(), 0});
  f.Emit(Opcode::kConstI32, {one.index(), 1});
  f.Emit(Opcode::kConstI64, {acc.index(), 0});
  f.Emit(Opcode::kConstI64, {x.index(), 3});
  f.Bind(loop);
  f.Emit(Opcode::kCmpLtI32S, {c.index(), i.index(), n.index()});
  f.CondBranch(c, body, done);
  f.Bind(body);
  if (with_call) {
    f.CallImport(add, std::vector<Reg>{acc, x}, std::vector<Reg>{acc});
  } else {
    f.Emit(Opcode::kAddI64, {acc.index(), acc.index(), x.index()});
  }
  f.Emit(Opcode::kAddI32, {i.index(), i.index(), one.index()});
  f.Branch(loop);
  f.Bind(done);
  f.Return(std::vector<Reg>{acc});
  b.Export("loop", f.ordinal());
  return *b.Finish();
}

class BenchNative final : public NativeModule {
 public:
  std::string_view name() const override { return "bench"; }
  std::span<const NativeFunction> functions() const override { return functions_; }
  std::vector<NativeFunction> functions_ = {{"add64", "II:I", [](void*, NativeCall& call) {
                                               call.results[0].bits = call.args[0].bits + call.args[1].bits;
                                               return OkStatus();
                                             }}};
};

void RunLoop(benchmark::State& state, bool with_call) {
  std::vector<uint8_t> bytes = LoopModule(with_call);
  Ref<Module> module = *Module::LoadFromMemory(bytes);
  BenchNative native;
  NativeModule* natives[] = {&native};
  Ref<Context> context = *Context::Create(module, natives);
  const int32_t n = static_cast<int32_t>(state.range(0));
  Value args[] = {Value::I32(n)};
  for (auto _ : state) {
    StatusOr<std::vector<Value>> r = context->Invoke("loop", args);
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    benchmark::DoNotOptimize(r);
  }
  const double per_iteration = with_call ? 5.0 : 5.0;  // the call replaces the add
  state.counters["ns_per_instruction"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * n * per_iteration,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["ns_per_iteration"] = benchmark::Counter(static_cast<double>(state.iterations()) * n,
                                                          benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Five instructions per iteration: cmp.lt, cond_br, add.i64, add.i32, br.
void BM_InterpretedLoop(benchmark::State& state) { RunLoop(state, false); }
BENCHMARK(BM_InterpretedLoop)->Arg(1 << 20);

// The same loop with add.i64 replaced by a native call taking two i64: the difference per
// iteration to BM_InterpretedLoop is the cost of a native call.
void BM_NativeCallLoop(benchmark::State& state) { RunLoop(state, true); }
BENCHMARK(BM_NativeCallLoop)->Arg(1 << 20);

// A ~1 MiB module: mostly bytecode (every instruction is verified) or mostly rodata.
std::vector<uint8_t> BigModule(bool bytecode_heavy) {
  ModuleBuilder b("big");
  if (bytecode_heavy) {
    for (int fn = 0; fn < 64; ++fn) {
      FunctionBuilder& f = b.AddFunction("f" + std::to_string(fn), "ii:i");
      Reg a = f.args()[0], c = f.args()[1], t = f.NewI32();
      for (int k = 0; k < 2300; ++k) f.Emit(Opcode::kAddI32, {t.index(), a.index(), c.index()});
      f.Return(std::vector<Reg>{t});
    }
  } else {
    std::vector<uint8_t> weights(1 << 20);
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<uint8_t>(i * 2654435761u >> 24);
    b.AddRodata(weights);
    FunctionBuilder& f = b.AddFunction("main", ":");
    f.Return({});
  }
  return *b.Finish();
}

void BM_LoadModuleFromMemory(benchmark::State& state) {
  std::vector<uint8_t> bytes = BigModule(state.range(0) != 0);
  for (auto _ : state) {
    StatusOr<Ref<Module>> m = Module::LoadFromMemory(bytes);
    if (!m.ok()) state.SkipWithError(m.status().ToString().c_str());
    benchmark::DoNotOptimize(m);
  }
  state.SetLabel(state.range(0) ? "1 MiB of bytecode" : "1 MiB of rodata");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_LoadModuleFromMemory)->Arg(1)->Arg(0)->Unit(benchmark::kMicrosecond);

void BM_LoadModuleFromFile(benchmark::State& state) {
  std::vector<uint8_t> bytes = BigModule(state.range(0) != 0);
  std::string path = "/tmp/kiln-bench-" + std::to_string(getpid()) + ".kiln";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  for (auto _ : state) {
    StatusOr<Ref<Module>> m = Module::LoadFromFile(path);
    if (!m.ok()) state.SkipWithError(m.status().ToString().c_str());
    benchmark::DoNotOptimize(m);
  }
  std::remove(path.c_str());
  state.SetLabel(state.range(0) ? "1 MiB of bytecode, mapped" : "1 MiB of rodata, mapped");
}
BENCHMARK(BM_LoadModuleFromFile)->Arg(1)->Arg(0)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kiln::vm

BENCHMARK_MAIN();
