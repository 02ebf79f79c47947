// kiln-bench-compiled: whole functions compiled by kiln-compile (bench/programs/*.mlir),
// called through the runtime exactly as kiln-run calls them, beside same-run anchors.
// Devices: cpu-sync runs every workgroup on the calling thread (1 thread); cpu runs them on
// the device's workers (2 threads here).
//
// Anchors in the same run: OpenBLAS and oneDNN sgemm (1 and 2 threads, weights as B[K, N]
// and as a linear layer's W[N, K]), oneDNN's batch matmul, the STREAM triad and a streaming
// read of a decode layer's weights; bench/torch_anchors.py measures the PyTorch ones
// (softmax, exp((x+y)*z), attention). OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for the whole
// run (main re-executes without them; the context line `openblas_tuning` says what was
// unset): they would throttle the OpenBLAS anchor and mean nothing to kiln.
//
// A/B of a compiler change in one process: `--variant_dir=DIR` also runs every benchmark
// registered with KILN_BENCHMARK_ON_CPUS or KILN_LLAMA_BENCHMARKS on DIR/NAME.kiln (named
// .../variant; skipped, saying so, when DIR has no such module), so that with
// --benchmark_enable_random_interleaving both see the same machine (this shared 2-core VM
// drifts by 10-30% between processes).
//
// Accounting: matmul 2*M*N*K flop; decode-shaped products also bytes of weights read per
// call (4*N*K: the rest is under 0.2%); fused_exp 16 B per element (3 reads + 1 write);
// softmax reports time only. Inputs are created once; results are allocated per call, as
// a user's call would, after one untimed call (so from the allocator's pool, as a user's
// repeated calls get them).
#include <benchmark/benchmark.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench/anchors.h"
#include "bench/gemm_anchors.h"
#include "runtime/session.h"
#include "runtime/value_files.h"
#include "runtime/value_text.h"

#ifndef KILN_BENCH_MODULE_DIR
#error "KILN_BENCH_MODULE_DIR must name the directory of the compiled benchmark modules"
#endif

namespace kiln::bench {
namespace {

// The directory of --variant_dir (empty without it).
std::string& VariantDir() {
  static std::string dir;
  return dir;
}
constexpr std::string_view kVariantPrefix = "variant:";

struct Loaded {
  std::unique_ptr<runtime::Session> session;
  std::vector<std::vector<vm::Value>> arg_sets;  // calls take them in turn
};

// "random:SHAPExf32" (uniform in [0, 1)), "random:SHAPExi32:N" (uniform in [0, N)) or
// "random:SHAPExi4" / "xi8" (uniform bytes: every i4 or i8 value, i4 packed two a byte),
// from a fixed seed, so that every run and every device sees the same data.
StatusOr<Ref<hal::BufferView>> RandomView(std::string_view spec, hal::Allocator& allocator) {
  std::string_view type_text = spec.substr(0, spec.find(':'));
  int64_t bound = type_text.size() < spec.size() ? std::stoll(std::string(spec.substr(type_text.size() + 1))) : 1;
  std::vector<int64_t> dims;
  hal::ElementType type;
  KILN_RETURN_IF_ERROR(runtime::ParseTensorType(type_text, dims, type, spec));
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, runtime::AllocateHostBufferView(allocator, type, dims));
  KILN_ASSIGN_OR_RETURN(hal::MappedRange range, view->buffer()->Map(hal::MemoryAccess::kWrite));
  std::mt19937 random(42);
  auto fill = [&](auto values, auto distribution) {
    for (auto& v : values) v = distribution(random);
  };
  if (type == hal::ElementType::kF32) {
    fill(range.As<float>(), std::uniform_real_distribution<float>(0.0f, 1.0f));
  } else if (type == hal::ElementType::kI32) {
    fill(range.As<int32_t>(), std::uniform_int_distribution<int32_t>(0, static_cast<int32_t>(bound - 1)));
  } else if (type == hal::ElementType::kI4 || type == hal::ElementType::kI8) {
    fill(range.As<uint8_t>(), std::uniform_int_distribution<int>(0, 255));
  } else {
    return InvalidArgumentError("random inputs are f32, i32, i8 or i4, got '", spec, "'");
  }
  return view;
}

// Loads `name`.kiln (from the variant directory when `device` starts with kVariantPrefix)
// on `device` and creates the arguments of `function` from `inputs`: kiln-run's value
// text (a scalar such as an index is its number), or random data ("random:...", see
// RandomView); `copies` sets of them, each in buffers of its own.
StatusOr<Loaded> Load(const std::string& name, const std::string& function, std::string device,
                      const std::vector<std::string>& inputs, int copies) {
  std::string dir = KILN_BENCH_MODULE_DIR;
  if (device.starts_with(kVariantPrefix)) {
    device = device.substr(kVariantPrefix.size());
    dir = VariantDir();
  }
  KILN_ASSIGN_OR_RETURN(Ref<vm::Module> module, vm::Module::LoadFromFile(dir + "/" + name + ".kiln"));
  Loaded loaded;
  KILN_ASSIGN_OR_RETURN(loaded.session, runtime::Session::Create(device, module));
  KILN_ASSIGN_OR_RETURN(const vm::Signature* signature, loaded.session->FunctionSignature(function));
  if (signature->args.size() != inputs.size()) {
    return InvalidArgumentError(name, ".", function, " takes ", signature->args.size(), " inputs, ", inputs.size(),
                                " were given");
  }
  hal::Allocator& allocator = loaded.session->device().allocator();
  for (int copy = 0; copy < copies; ++copy) {
    std::vector<vm::Value>& args = loaded.arg_sets.emplace_back();
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string_view text = inputs[i], random_prefix = "random:";
      if (!text.starts_with(random_prefix)) {
        KILN_ASSIGN_OR_RETURN(vm::Value value, runtime::ParseValue(text, signature->args[i], allocator));
        args.push_back(std::move(value));
        continue;
      }
      KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, RandomView(text.substr(random_prefix.size()), allocator));
      args.push_back(vm::Value::Ref(vm::VmRef::Make(view)));
    }
  }
  return loaded;
}

// Calls `function` once per iteration. With `copies` > 1 the calls take that many sets of
// the inputs in turn (a decode layer's weights are read from memory, not from the last
// level cache, when the copies together exceed it, as a model's layers do).
void RunFunction(benchmark::State& state, const std::string& module, const std::string& function,
                 const std::string& device, const std::vector<std::string>& inputs, int copies = 1) {
  StatusOr<Loaded> loaded = Load(module, function, device, inputs, copies);
  if (!loaded.ok()) return state.SkipWithError(loaded.status().ToString().c_str());
  // One untimed call per set first: the timed calls then see what a user's repeated calls
  // see, the result buffers coming from the allocator's pool. Otherwise the first call of
  // each timing run (Google Benchmark starts a new one per repetition and estimate) also
  // faulted in fresh pages: for a 64 MiB result, 5-8% of a 4 iteration run.
  for (const std::vector<vm::Value>& args : loaded->arg_sets) {
    if (StatusOr<std::vector<vm::Value>> warm_up = loaded->session->Call(function, args); !warm_up.ok()) {
      return state.SkipWithError(warm_up.status().ToString().c_str());
    }
  }
  size_t next = 0;
  for (auto _ : state) {
    StatusOr<std::vector<vm::Value>> results = loaded->session->Call(function, loaded->arg_sets[next]);
    if (!results.ok()) return state.SkipWithError(results.status().ToString().c_str());
    benchmark::DoNotOptimize(results->data());
    next = next + 1 == loaded->arg_sets.size() ? 0 : next + 1;
  }
}

// Copies of an input of `bytes` that together exceed the largest last-level cache the
// machines here have (48 MiB), with the margin the 64 MiB streaming read has.
int CopiesBeyondCache(int64_t bytes) { return static_cast<int>((int64_t{64} * 1024 * 1024 + bytes - 1) / bytes); }

void SetFlops(benchmark::State& state, double flop_per_iteration) {
  state.counters["flop/s"] =
      benchmark::Counter(flop_per_iteration * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void BM_Matmul1024(benchmark::State& state, const char* device) {
  RunFunction(state, "matmul_1024", "matmul", device, {"1024x1024xf32=0.5", "1024x1024xf32=0.25"});
  SetFlops(state, 2.0 * 1024 * 1024 * 1024);
}
// 4096^3 on random operands in [0, 1) (64 MiB each: none fits a cache).
void BM_Matmul4096(benchmark::State& state, const char* device) {
  RunFunction(state, "matmul_4096", "matmul", device, {"random:4096x4096xf32", "random:4096x4096xf32"});
  SetFlops(state, 2.0 * 4096 * 4096 * 4096);
}
// y = x W^T with W[N, K] (a linear layer's weights), 1024^3.
void BM_MatmulTransposeB1024(benchmark::State& state, const char* device) {
  RunFunction(state, "matmul_transpose_b_1024", "matmul_transpose_b", device,
              {"1024x1024xf32=0.5", "1024x1024xf32=0.25"});
  SetFlops(state, 2.0 * 1024 * 1024 * 1024);
}
// Low-precision matmuls, 1024^3: bf16 or f16 x the same -> f32 and i8 x i8 -> i32
// (matmul_bf16_1024, matmul_f16_1024 and matmul_i8_1024), B[K, N] (@matmul) and W[N, K]
// (@matmul_transpose_b); f16 -> f16 as well (@matmul_into_f16, @matmul_transpose_b_into_f16).
void BM_MatmulLowPrecision1024(benchmark::State& state, const char* device, const char* program, const char* function) {
  const std::string_view name(program);
  const bool i8 = name == "matmul_i8_1024";
  const std::string input = i8 ? "1024x1024xi8=" : name == "matmul_f16_1024" ? "1024x1024xf16=" : "1024x1024xbf16=";
  RunFunction(state, program, function, device, {input + (i8 ? "3" : "0.5"), input + (i8 ? "-2" : "0.25")});
  SetFlops(state, 2.0 * 1024 * 1024 * 1024);
}
// Decode: M = 1, 2, 4 or 8 rows times W[4096, 4096]^T in f32 (@linear_mM) or 1, 4 or 8 in f16
// into f32 (@linear_f16_mM); bytes are the weights read per call.
void RunLinearDecode4096(benchmark::State& state, const char* device, bool f16) {
  const int64_t m = state.range(0), n = 4096, k = 4096;
  const std::string rows = std::to_string(m);
  if (f16) {
    RunFunction(state, "linear_decode_4096", "linear_f16_m" + rows, device, {rows + "x4096xf16=0.5", "4096x4096xf16=0.25"});
  } else {
    RunFunction(state, "linear_decode_4096", "linear_m" + rows, device, {rows + "x4096xf32=0.5", "random:4096x4096xf32"});
  }
  SetFlops(state, 2.0 * m * n * k);
  state.SetBytesProcessed((f16 ? 2 : 4) * n * k * state.iterations());
}
void BM_LinearDecode4096(benchmark::State& state, const char* device) { RunLinearDecode4096(state, device, false); }
void BM_LinearDecode4096F16(benchmark::State& state, const char* device) { RunLinearDecode4096(state, device, true); }
// The ceiling of M = 8 decode: the same register tiles on W[512, 4096] (8 MiB, in L3 from
// the second call on), so that no call waits on memory. flop/s here over 4 flop per byte
// (8 rows x 2 flop per 4-byte weight) is the fastest W could stream through these FMAs:
// M = 8 reaches a fraction f of a streaming read only if this rate >= f * 4 * its B/s.
void BM_LinearDecodeM8CacheCeiling(benchmark::State& state, const char* device) {
  RunFunction(state, "linear_decode_4096", "linear_m8_w512", device, {"8x4096xf32=0.5", "random:512x4096xf32"});
  SetFlops(state, 2.0 * 8 * 512 * 4096);
  state.SetBytesProcessed(int64_t{4} * 512 * 4096 * state.iterations());
}
// Weight-only int4 decode (linear_i4_decode_4096): M = 1 or 8 rows times W[4096, 4096] of
// i4 (8 MiB packed) with an f32 scale per 128 k (512 KiB); bytes are the quantized weights
// and scales read per call, what BM_StreamReadAnchor bounds. Calls take 8 copies of W in
// turn (64 MiB, as the streaming read): one W would stay in a 48 MiB L3.
void BM_LinearI4Decode4096(benchmark::State& state, const char* device) {
  const int64_t m = state.range(0), n = 4096, k = 4096;
  const std::string rows = std::to_string(m);
  const int64_t bytes = n * k / 2 + n * (k / 128) * 4;
  RunFunction(state, "linear_i4_decode_4096", "linear_i4_m" + rows, device,
              {rows + "x4096xf32=0.5", "random:4096x4096xi4", "4096x32xf32=0.25"}, CopiesBeyondCache(bytes));
  SetFlops(state, 2.0 * m * n * k);
  state.SetBytesProcessed(bytes * state.iterations());
}
// GGUF Q8_0 / Q4_0 decode (linear_gguf_decode_4096): M = 1 or 8 rows times W[4096, 4096]
// as the file's blocks of 32 (34 or 18 bytes each, random bytes: random f16 scales); bytes
// are the blocks read per call, what BM_StreamReadAnchor bounds; copies of W in turn, as
// BM_LinearI4Decode4096.
void RunLinearGgufDecode4096(benchmark::State& state, const char* device, bool q4) {
  const int64_t m = state.range(0), n = 4096, k = 4096, block_bytes = q4 ? 18 : 34;
  const int64_t row_bytes = k / 32 * block_bytes;
  RunFunction(state, "linear_gguf_decode_4096", (q4 ? "q4_m" : "q8_m") + std::to_string(m), device,
              {std::to_string(m) + "x4096xf32=0.5", "random:4096x" + std::to_string(row_bytes) + "xi8"},
              CopiesBeyondCache(n * row_bytes));
  SetFlops(state, 2.0 * m * n * k);
  state.SetBytesProcessed(n * row_bytes * state.iterations());
}
void BM_LinearQ8_0Decode4096(benchmark::State& state, const char* device) { RunLinearGgufDecode4096(state, device, false); }
void BM_LinearQ4_0Decode4096(benchmark::State& state, const char* device) { RunLinearGgufDecode4096(state, device, true); }
// Weight-only int4 prefill: M = 128 rows times the same W (@linear_i4_m128), beside the
// same product on f32 weights (@linear_f32_m128, random in [0, 1)); flop 2*M*N*K.
void BM_LinearI4Prefill4096(benchmark::State& state, const char* device, bool int4) {
  if (int4) {
    RunFunction(state, "linear_i4_decode_4096", "linear_i4_m128", device,
                {"128x4096xf32=0.5", "random:4096x4096xi4", "4096x32xf32=0.25"});
  } else {
    RunFunction(state, "linear_i4_decode_4096", "linear_f32_m128", device, {"128x4096xf32=0.5", "random:4096x4096xf32"});
  }
  SetFlops(state, 2.0 * 128 * 4096 * 4096);
}
void BM_BatchMatmul16x256(benchmark::State& state, const char* device) {
  RunFunction(state, "batch_matmul_16x256", "batch_matmul", device,
              {"16x256x256xf32=0.5", "16x256x256xf32=0.25"});
  SetFlops(state, 2.0 * 16 * 256 * 256 * 256);
}
void BM_FusedExp16M(benchmark::State& state, const char* device) {
  const std::string n = "16777216xf32=";
  RunFunction(state, "fused_exp_16m", "fused_exp", device, {n + "0.5", n + "0.25", n + "1.5"});
  state.SetBytesProcessed(int64_t{16} * 16777216 * state.iterations());
}
void BM_Softmax512x4096(benchmark::State& state, const char* device) {
  RunFunction(state, "softmax_512x4096", "softmax", device, {"512x4096xf32=1"});
}

// Self-attention [1, 32 heads, 2048, 128] f32 (attention_32x2048x128.mlir) on random
// inputs in [0, 1); flop 4 * B * H * S^2 * D (Q K^T and P V), the softmax not counted.
// PyTorch anchors (eager softmax(Q K^T * scale) V, scaled_dot_product_attention):
// bench/torch_anchors.py.
void BM_Attention32x2048x128(benchmark::State& state, const char* device) {
  const std::string shape = "random:1x32x2048x128xf32";
  RunFunction(state, "attention_32x2048x128", "attention", device, {shape, shape, shape});
  SetFlops(state, 4.0 * 32 * 2048 * 2048 * 128);
}

// A Llama-style decoder layer (llama_decoder_layer.mlir: hidden 2048, 16 heads of 128,
// SwiGLU 5632, KV cache [16, 1024, 128]) on random inputs in [0, 1): prefill of 128 tokens
// and one decode step at position 128 (attending over 129 positions). items/s are tokens/s;
// flop count the seven linear layers (2 * tokens * 2048 * (4 * 2048 + 3 * 5632)).
std::vector<std::string> LlamaLayerInputs(int64_t tokens) {
  const std::string d = "2048", f = "5632", cache = "random:16x1024x128xf32";
  std::vector<std::string> inputs = {"random:" + std::to_string(tokens) + "x" + d + "xf32", "random:" + d + "xf32"};
  for (int i = 0; i < 4; ++i) inputs.push_back("random:" + d + "x" + d + "xf32");
  inputs.insert(inputs.end(), {"random:" + d + "xf32", "random:" + f + "x" + d + "xf32", "random:" + f + "x" + d + "xf32",
                               "random:" + d + "x" + f + "xf32", "random:1024x64xf32", "random:1024x64xf32", cache, cache});
  return inputs;
}
void BM_LlamaLayer(benchmark::State& state, const char* device, const char* function) {
  const int64_t tokens = std::string_view(function) == "prefill" ? 128 : 1;
  std::vector<std::string> inputs = LlamaLayerInputs(tokens);
  if (tokens == 1) inputs.push_back("128");
  RunFunction(state, "llama_decoder_layer", function, device, inputs);
  SetFlops(state, 2.0 * tokens * 2048 * (4 * 2048 + 3 * 5632));
  state.SetItemsProcessed(tokens * state.iterations());
}

// f32 sums of 16M random elements (64 MiB read per call): the whole tensor, 1024 rows of
// 16384 and 1024 columns of 16384, blocked (kiln-cpu-block-reductions) and unblocked (the
// same program compiled with --block-reductions=false), in the same run.
void BM_Sum16M(benchmark::State& state, const char* device, const char* function, bool blocked) {
  const char* shape = std::string_view(function) == "sum"        ? "random:16777216xf32"
                      : std::string_view(function) == "row_sums" ? "random:1024x16384xf32"
                                                                 : "random:16384x1024xf32";
  RunFunction(state, blocked ? "reductions" : "reductions_unblocked", function, device, {shape});
  state.SetBytesProcessed(int64_t{4} * 16777216 * state.iterations());
}

// iree_linalg_ext ops on random data (PyTorch anchors: bench/torch_anchors.py). The
// gather moves 32 MiB (rows read and written) per call: compare its bytes/s with the triad.
void BM_Topk4096x1024K8(benchmark::State& state, const char* device) {
  RunFunction(state, "topk_4096x1024_k8", "topk", device, {"random:4096x1024xf32"});
}
void BM_Topk16384x64K2(benchmark::State& state, const char* device) {
  RunFunction(state, "topk_16384x64_k2", "topk", device, {"random:16384x64xf32"});
}
void BM_Sort1M(benchmark::State& state, const char* device) {
  RunFunction(state, "sort_1m", "sort", device, {"random:1048576xf32"});
}
// The same keys sorted by a comparator of two keys: the merge sort, not the radix sort.
void BM_Sort1MByTwoKeys(benchmark::State& state, const char* device) {
  RunFunction(state, "sort_1m", "sort_by_two_keys", device, {"random:1048576xf32"});
}
void BM_Gather4096Rows(benchmark::State& state, const char* device) {
  RunFunction(state, "gather_4096_rows", "gather", device, {"random:4096x1024xf32", "random:4096xi32:4096"});
  state.SetBytesProcessed(int64_t{2} * 4096 * 1024 * 4 * state.iterations());
}
// The same gather compiled with --check-indices (every row index checked).
void BM_Gather4096RowsChecked(benchmark::State& state, const char* device) {
  RunFunction(state, "gather_4096_rows_checked", "gather", device, {"random:4096x1024xf32", "random:4096xi32:4096"});
  state.SetBytesProcessed(int64_t{2} * 4096 * 1024 * 4 * state.iterations());
}

// A KV cache of 32 layers x `positions` x 1024 f16 appended at one position per call
// (kv_cache_append_*.mlir): in place the time does not grow with the cache; the copy
// variant (the cache escapes) moves the whole cache. Bytes: the 64 KiB row written.
void BM_KvCacheAppend(benchmark::State& state, const char* device, const char* program) {
  RunFunction(state, program, "append", device, {"32x1x1024xf16=0.5", "7"});
  state.SetBytesProcessed(int64_t{32} * 1024 * 2 * state.iterations());
}

// Registrations of the variants, run by main once --variant_dir is known.
std::vector<std::function<void()>>& VariantRegistrations() {
  static std::vector<std::function<void()>> registrations;
  return registrations;
}
bool AddVariant(std::function<void()> registration) {
  VariantRegistrations().push_back(std::move(registration));
  return true;
}

// Every compiled benchmark on `cpu-sync` (1 thread) and `cpu` (the device's workers), and
// with --variant_dir on both again with the variant's module.
#define KILN_BENCHMARK_ON_CPUS(fn, ...)                                                              \
  BENCHMARK_CAPTURE(fn, cpu_sync, "cpu-sync")->Unit(benchmark::kMillisecond)->UseRealTime() __VA_ARGS__; \
  BENCHMARK_CAPTURE(fn, cpu, "cpu")->Unit(benchmark::kMillisecond)->UseRealTime() __VA_ARGS__;           \
  [[maybe_unused]] const bool fn##_variants = AddVariant([] {                                          \
    benchmark::RegisterBenchmark(#fn "/cpu_sync/variant", fn, "variant:cpu-sync")                       \
        ->Unit(benchmark::kMillisecond)->UseRealTime() __VA_ARGS__;                                    \
    benchmark::RegisterBenchmark(#fn "/cpu/variant", fn, "variant:cpu")                                 \
        ->Unit(benchmark::kMillisecond)->UseRealTime() __VA_ARGS__;                                    \
  })
KILN_BENCHMARK_ON_CPUS(BM_Matmul1024, ->MinTime(2));
BENCHMARK_CAPTURE(BM_KvCacheAppend, positions_512_cpu, "cpu", "kv_cache_append_512")->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_KvCacheAppend, positions_4096_cpu, "cpu", "kv_cache_append_4096")->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_KvCacheAppend, positions_4096_copy_cpu, "cpu", "kv_cache_append_copy_4096")
    ->Unit(benchmark::kMicrosecond)->UseRealTime();
KILN_BENCHMARK_ON_CPUS(BM_Matmul4096, ->MinTime(2));
KILN_BENCHMARK_ON_CPUS(BM_MatmulTransposeB1024, ->MinTime(2));
#define KILN_LOW_PRECISION_BENCHMARKS(types, function)                                                       \
  BENCHMARK_CAPTURE(BM_MatmulLowPrecision1024, types##_##function##_cpu_sync, "cpu-sync", "matmul_" #types "_1024", \
                    #function)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2);                       \
  BENCHMARK_CAPTURE(BM_MatmulLowPrecision1024, types##_##function##_cpu, "cpu", "matmul_" #types "_1024", #function) \
      ->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2)
KILN_LOW_PRECISION_BENCHMARKS(bf16, matmul);
KILN_LOW_PRECISION_BENCHMARKS(bf16, matmul_transpose_b);
KILN_LOW_PRECISION_BENCHMARKS(f16, matmul);
KILN_LOW_PRECISION_BENCHMARKS(f16, matmul_transpose_b);
KILN_LOW_PRECISION_BENCHMARKS(f16, matmul_into_f16);
KILN_LOW_PRECISION_BENCHMARKS(f16, matmul_transpose_b_into_f16);
KILN_LOW_PRECISION_BENCHMARKS(i8, matmul);
KILN_LOW_PRECISION_BENCHMARKS(i8, matmul_transpose_b);
KILN_BENCHMARK_ON_CPUS(BM_LinearDecode4096, ->ArgName("m")->Arg(1)->Arg(2)->Arg(4)->Arg(8));
KILN_BENCHMARK_ON_CPUS(BM_LinearDecodeM8CacheCeiling);
KILN_BENCHMARK_ON_CPUS(BM_LinearDecode4096F16, ->ArgName("m")->Arg(1)->Arg(4)->Arg(8));
KILN_BENCHMARK_ON_CPUS(BM_LinearI4Decode4096, ->ArgName("m")->Arg(1)->Arg(8));
KILN_BENCHMARK_ON_CPUS(BM_LinearQ8_0Decode4096, ->ArgName("m")->Arg(1)->Arg(8));
KILN_BENCHMARK_ON_CPUS(BM_LinearQ4_0Decode4096, ->ArgName("m")->Arg(1)->Arg(8));
BENCHMARK_CAPTURE(BM_LinearI4Prefill4096, i4_cpu_sync, "cpu-sync", true)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LinearI4Prefill4096, f32_cpu_sync, "cpu-sync", false)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LinearI4Prefill4096, i4_cpu, "cpu", true)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_LinearI4Prefill4096, f32_cpu, "cpu", false)->Unit(benchmark::kMillisecond)->UseRealTime();
KILN_BENCHMARK_ON_CPUS(BM_BatchMatmul16x256);
KILN_BENCHMARK_ON_CPUS(BM_FusedExp16M);
KILN_BENCHMARK_ON_CPUS(BM_Softmax512x4096);
KILN_BENCHMARK_ON_CPUS(BM_Attention32x2048x128);
#define KILN_LLAMA_BENCHMARKS(function)                                                                 \
  BENCHMARK_CAPTURE(BM_LlamaLayer, function##_cpu_sync, "cpu-sync", #function)->Unit(benchmark::kMillisecond) \
      ->UseRealTime();                                                                                  \
  BENCHMARK_CAPTURE(BM_LlamaLayer, function##_cpu, "cpu", #function)->Unit(benchmark::kMillisecond)->UseRealTime(); \
  [[maybe_unused]] const bool function##_llama_variants = AddVariant([] {                                \
    benchmark::RegisterBenchmark("BM_LlamaLayer/" #function "_cpu_sync/variant", BM_LlamaLayer, "variant:cpu-sync", \
                                 #function)->Unit(benchmark::kMillisecond)->UseRealTime();              \
    benchmark::RegisterBenchmark("BM_LlamaLayer/" #function "_cpu/variant", BM_LlamaLayer, "variant:cpu", #function) \
        ->Unit(benchmark::kMillisecond)->UseRealTime();                                                 \
  })
KILN_LLAMA_BENCHMARKS(prefill);
KILN_LLAMA_BENCHMARKS(decode);
#define KILN_SUM_BENCHMARKS(function)                                                              \
  BENCHMARK_CAPTURE(BM_Sum16M, function##_blocked_cpu_sync, "cpu-sync", #function, true)                 \
      ->Unit(benchmark::kMillisecond)->UseRealTime();                                                    \
  BENCHMARK_CAPTURE(BM_Sum16M, function##_unblocked_cpu_sync, "cpu-sync", #function, false)              \
      ->Unit(benchmark::kMillisecond)->UseRealTime();                                                    \
  BENCHMARK_CAPTURE(BM_Sum16M, function##_blocked_cpu, "cpu", #function, true)                           \
      ->Unit(benchmark::kMillisecond)->UseRealTime();                                                    \
  BENCHMARK_CAPTURE(BM_Sum16M, function##_unblocked_cpu, "cpu", #function, false)                        \
      ->Unit(benchmark::kMillisecond)->UseRealTime()
KILN_SUM_BENCHMARKS(sum);
KILN_SUM_BENCHMARKS(row_sums);
KILN_SUM_BENCHMARKS(column_sums);
KILN_BENCHMARK_ON_CPUS(BM_Topk4096x1024K8);
KILN_BENCHMARK_ON_CPUS(BM_Topk16384x64K2);
KILN_BENCHMARK_ON_CPUS(BM_Sort1M);
KILN_BENCHMARK_ON_CPUS(BM_Sort1MByTwoKeys);
KILN_BENCHMARK_ON_CPUS(BM_Gather4096Rows);
KILN_BENCHMARK_ON_CPUS(BM_Gather4096RowsChecked);

// Anchors: OpenBLAS and oneDNN sgemm 1024^3, B[K, N] (NN) and W[N, K] (NT), on 1 and 2
// threads (what a user would otherwise call), and oneDNN's NN sgemm at 4096^3.
using SgemmFn = void (*)(GemmLayout, int64_t, int64_t, int64_t, const float*, const float*, float*, int);
void SquareSgemm(benchmark::State& state, SgemmFn sgemm, GemmLayout layout, int64_t n) {
  std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
  for (auto _ : state) {
    sgemm(layout, n, n, n, a.data(), b.data(), c.data(), static_cast<int>(state.range(0)));
    benchmark::DoNotOptimize(c.data());
  }
  SetFlops(state, 2.0 * n * n * n);
}
void BM_OpenBlasSgemm1024Anchor(benchmark::State& state, GemmLayout layout) {
  SquareSgemm(state, OpenBlasSgemm, layout, 1024);
}
void BM_OneDnnSgemm1024Anchor(benchmark::State& state, GemmLayout layout) { SquareSgemm(state, OneDnnSgemm, layout, 1024); }
void BM_OneDnnSgemm4096Anchor(benchmark::State& state, GemmLayout layout) { SquareSgemm(state, OneDnnSgemm, layout, 4096); }
#define KILN_SGEMM_ANCHOR(fn, layout)                                                                     \
  BENCHMARK_CAPTURE(fn, layout, GemmLayout::k##layout)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond) \
      ->UseRealTime()
KILN_SGEMM_ANCHOR(BM_OpenBlasSgemm1024Anchor, NN);
KILN_SGEMM_ANCHOR(BM_OpenBlasSgemm1024Anchor, NT);
KILN_SGEMM_ANCHOR(BM_OneDnnSgemm1024Anchor, NN);
KILN_SGEMM_ANCHOR(BM_OneDnnSgemm1024Anchor, NT);
KILN_SGEMM_ANCHOR(BM_OneDnnSgemm4096Anchor, NN)->MinTime(2);

// Anchor: oneDNN sgemm for the decode shapes, x[M, 4096] times W[4096, 4096]^T.
void BM_OneDnnLinearDecode4096Anchor(benchmark::State& state) {
  const int64_t m = state.range(0), n = 4096, k = 4096;
  std::vector<float> x(m * k, 0.5f), w(n * k, 0.25f), y(m * n);
  for (auto _ : state) {
    OneDnnSgemm(GemmLayout::kNT, m, n, k, x.data(), w.data(), y.data(), static_cast<int>(state.range(1)));
    benchmark::DoNotOptimize(y.data());
  }
  SetFlops(state, 2.0 * m * n * k);
  state.SetBytesProcessed(4 * n * k * state.iterations());
}
BENCHMARK(BM_OneDnnLinearDecode4096Anchor)->ArgNames({"m", "threads"})->ArgsProduct({{1, 4, 8}, {1, 2}})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

// Anchor: oneDNN's matmul primitive, 16 x 256^3.
void BM_OneDnnBatchMatmul16x256Anchor(benchmark::State& state) {
  OneDnnBatchMatmul matmul(16, 256, 256, 256);
  for (auto _ : state) matmul.Run(static_cast<int>(state.range(0)));
  SetFlops(state, 2.0 * 16 * 256 * 256 * 256);
}
BENCHMARK(BM_OneDnnBatchMatmul16x256Anchor)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Anchors: oneDNN's matmul primitive for 1024^3 in bf16 -> f32, f16 -> f32 and s8 -> s32,
// B[K, N] (NN) and W[N, K] (NT), on 1 and 2 threads; the label names oneDNN's kernel.
void BM_OneDnnMatmul1024Anchor(benchmark::State& state, MatmulTypes types, GemmLayout layout) {
  std::unique_ptr<OneDnnBatchMatmul> matmul;
  try {
    matmul = std::make_unique<OneDnnBatchMatmul>(1, 1024, 1024, 1024, types, layout);
  } catch (const std::exception& e) {
    return state.SkipWithError((std::string("oneDNN has no such matmul here: ") + e.what()).c_str());
  }
  for (auto _ : state) matmul->Run(static_cast<int>(state.range(0)));
  SetFlops(state, 2.0 * 1024 * 1024 * 1024);
  state.SetLabel(matmul->implementation());
}
#define KILN_ONEDNN_MATMUL_ANCHOR(types, layout)                                                          \
  BENCHMARK_CAPTURE(BM_OneDnnMatmul1024Anchor, types##_##layout, MatmulTypes::k##types, GemmLayout::k##layout) \
      ->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()
KILN_ONEDNN_MATMUL_ANCHOR(BF16ToF32, NN);
KILN_ONEDNN_MATMUL_ANCHOR(BF16ToF32, NT);
KILN_ONEDNN_MATMUL_ANCHOR(F16ToF32, NN);
KILN_ONEDNN_MATMUL_ANCHOR(S8ToS32, NN);
KILN_ONEDNN_MATMUL_ANCHOR(S8ToS32, NT);

// Anchor: a streaming read of 64 MiB (a decode layer's W[4096, 4096] f32), 1 and 2 threads.
void BM_StreamReadAnchor(benchmark::State& state) {
  const size_t n = size_t{4096} * 4096;
  HostBlock block = AllocateTouched(n * 4);
  auto* p = reinterpret_cast<const float*>(block.get());
  if (state.range(0) == 1) {
    for (auto _ : state) benchmark::DoNotOptimize(ReadSum(p, 0, n));
  } else {
    TwoThreads threads;
    float sums[2];
    for (auto _ : state) {
      threads.Run([&](int part) { sums[part] = ReadSum(p, part * n / 2, (part + 1) * n / 2); });
      benchmark::DoNotOptimize(sums);
    }
  }
  state.SetBytesProcessed(int64_t{4} * n * state.iterations());
}
BENCHMARK(BM_StreamReadAnchor)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Anchor: the STREAM triad on 16M floats, 12 B per element, 1 and 2 threads.
void BM_StreamTriadAnchor(benchmark::State& state) {
  const size_t n = size_t{16} << 20;
  HostBlock a = AllocateTouched(n * 4), b = AllocateTouched(n * 4), c = AllocateTouched(n * 4);
  auto* pa = reinterpret_cast<float*>(a.get());
  auto* pb = reinterpret_cast<float*>(b.get());
  auto* pc = reinterpret_cast<float*>(c.get());
  if (state.range(0) == 1) {
    for (auto _ : state) Triad(pa, pb, pc, 3.0f, 0, n);
  } else {
    TwoThreads threads;
    for (auto _ : state) threads.Run([&](int part) { Triad(pa, pb, pc, 3.0f, part * n / 2, (part + 1) * n / 2); });
  }
  state.SetBytesProcessed(int64_t{12} * n * state.iterations());
}
BENCHMARK(BM_StreamTriadAnchor)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace kiln::bench

int main(int argc, char** argv) {
  std::string openblas_tuning = kiln::bench::UnsetOpenBlasTuning(argv);
  benchmark::AddCustomContext("openblas_tuning", openblas_tuning);
  // --variant_dir=DIR is kiln's flag, taken out before Google Benchmark sees the rest.
  constexpr std::string_view kVariantFlag = "--variant_dir=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument.starts_with(kVariantFlag)) {
      kiln::bench::VariantDir() = argument.substr(kVariantFlag.size());
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  if (!kiln::bench::VariantDir().empty()) {
    for (const auto& registration : kiln::bench::VariantRegistrations()) registration();
    benchmark::AddCustomContext("variant_dir", kiln::bench::VariantDir());
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
