// kiln-run: calls one function of a module with iree-run-module's flags and prints, writes
// or checks its results the way iree-run-module does (runtime/run_module.h holds the
// logic; `kiln-run --help` and docs/tools.md list the flags). Exit code 0 on success, 1 on
// any error or when a result does not match its --expected_output.
// The device is created before the module is loaded, so a missing one fails at once.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "runtime/run_module.h"
#include "runtime/session.h"
#include "tools/flags.h"
#include "tools/load_module.h"
#include "tools/trace_call.h"

namespace {

struct Flags {
  kiln::tools::CallFlags call;
  kiln::runtime::ResultOptions results;
  bool print_statistics = false, list = false, check_indices = false, list_devices = false;
  std::string trace;
};

constexpr std::string_view kUsage =
    "kiln-run --module=FILE.kiln|FILE.mlir|- [--function=NAME] [--device=cpu] [--input=VALUE]...\n"
    "                [--output=SPEC]... [--expected_output=VALUE]... [other flags]\n"
    "       kiln-run --list_devices";
constexpr std::string_view kAbout =
    "Calls one exported function of a module with iree-run-module's flags, and prints its\n"
    "results in iree-run-module's format (\"result[0]: hal.buffer_view\" and the tensor on the\n"
    "next line), writes them to files, or compares them with expected values.\n"
    "\n"
    "Values (--input, --expected_output):\n"
    "  2x3xf32=1,2,3,4,5,6     a tensor: SHAPExTYPE=elements (commas, spaces or brackets)\n"
    "  2x3xf32=[1 2 3][4 5 6]  the same; one element fills the shape (4xi32=7)\n"
    "  f32=2.5                 a rank-0 tensor\n"
    "  5, 2.5, i32=5           a scalar argument (i32, i64, f32, f64)\n"
    "  (null)                  a null reference (a list argument), zero for a scalar\n"
    "  @x.npy                  the first array of a NumPy file; +x.npy the next one,\n"
    "                          *x.npy every remaining one\n"
    "  2x3xf32=@x.bin          raw little-endian bytes; 2x3xf32=+x.bin continues the file\n"
    "  (ignored)               (--expected_output only) do not check this result\n"
    "\n"
    "Results (--output, one per result): '-' prints it, '' (empty) ignores it, @y.npy and\n"
    "@y.bin write it, +y.npy and +y.bin append it. Without --output every result is printed;\n"
    "with --expected_output results are compared, not printed, and \"[SUCCESS] ...\" or\n"
    "\"[FAILED] result[i]: ...\" lines say how they compare.\n"
    "\n"
    "Exit code: 0 on success, 1 on any error (one line on stderr, \"kiln-run: CODE: ...\")\n"
    "or when a result does not match its expected value.\n";
constexpr std::string_view kExamples =
    "  kiln-run --module=model.mlir --input=2x2xf32=[1 2][3 4]\n"
    "  kiln-compile model.mlir | kiln-run --module=- --function=predict --input=@x.npy\n"
    "  kiln-run --module=model.kiln --device=local-task --input=@x.npy --output=@y.npy\n"
    "  kiln-run --module=model.kiln --input=4xf32=1,2,3,4 --expected_output=4xf32=2,4,6,8\n"
    "  kiln-run --module=model.mlir --device=hip-sim --list\n"
    "  kiln-run --module=model.mlir --input=@x.npy --trace=trace.json\n";

kiln::tools::FlagParser MakeParser(Flags& flags) {
  kiln::tools::FlagParser p("kiln-run", kUsage, kAbout, kExamples);
  kiln::tools::AddCallFlags(p, flags.call, "call");
  p.List("--output", "SPEC", &flags.results.outputs,
         "What to do with one result, in order: -, (empty), @FILE.npy, +FILE.npy, @FILE.bin,\n"
         "+FILE.bin. A scalar is written as a 0-d array, a null reference as an empty one.");
  p.List("--expected_output", "VALUE", &flags.results.expected_outputs,
         "The expected value of one result, in order, or (ignored).");
  p.Number("--atol", &flags.results.tolerance.atol,
           "Absolute tolerance: a float matches when |actual - expected| <= atol + rtol * |expected|.");
  p.Number("--rtol", &flags.results.tolerance.rtol, "Relative tolerance (see --atol). NaN matches only NaN.");
  p.Number("--expected_f16_threshold", &flags.results.tolerance.f16_threshold,
           "iree-run-module's tolerance for f16 and bf16: |actual - expected| <= X (instead of\n"
           "--atol and --rtol).");
  p.Number("--expected_f32_threshold", &flags.results.tolerance.f32_threshold, "The same for f32.");
  p.Number("--expected_f64_threshold", &flags.results.tolerance.f64_threshold, "The same for f64.");
  p.Number("--output_max_element_count", &flags.results.max_elements,
           "Elements of a tensor printed before the rest is elided with '...'.");
  p.Bool("--print_statistics", &flags.print_statistics,
         "Print dispatches, submissions, allocations and times to stderr after the call.");
  p.Bool("--list", &flags.list, "List the module's exported functions and their signatures; call nothing.");
  p.Bool("--check_indices", &flags.check_indices,
         "Compile a .mlir module in checked mode: the first out-of-range gather, scatter or\n"
         "tensor.extract index fails the call, naming the index, its range, the op and the dispatch.");
  p.Bool("--list_devices", &flags.list_devices, "List every driver and its devices, or why it has none.");
  kiln::tools::AddTraceFlag(p, &flags.trace);
  return p;
}

std::string KindList(const std::vector<kiln::vm::ValueKind>& kinds) {
  std::string out;
  for (kiln::vm::ValueKind kind : kinds) {
    if (!out.empty()) out += ", ";
    out += kind == kiln::vm::ValueKind::kRef ? "tensor" : std::string(kiln::vm::ValueKindName(kind));
  }
  return out;
}

// "@name(tensor, i32) -> (tensor)": references are buffer views at this level (or lists).
kiln::Status List(const kiln::vm::Module& module) {
  for (const kiln::vm::ExportInfo& e : module.exports()) {
    const kiln::vm::Signature& signature = module.functions()[e.function_ordinal].signature;
    std::printf("@%.*s(%s) -> (%s)\n", static_cast<int>(e.name.size()), e.name.data(),
                KindList(signature.args).c_str(), KindList(signature.results).c_str());
  }
  return kiln::OkStatus();
}

kiln::StatusOr<int> Run(const Flags& flags) {
  if (flags.list_devices) {
    std::fputs(kiln::DescribeDevices(kiln::BuiltinDriverRegistry()).c_str(), stdout);
    return 0;
  }
  if (flags.call.module.empty()) {
    return kiln::InvalidArgumentError("--module=FILE.kiln (or FILE.mlir, or - for stdin) is required; see kiln-run --help");
  }
  if (flags.list) {
    // A .mlir module is compiled for the CPU when only listing: no device is needed.
    KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::vm::Module> module,
                          kiln::tools::LoadModule(flags.call.module, flags.check_indices, "cpu"));
    KILN_RETURN_IF_ERROR(List(*module));
    return 0;
  }
  std::unique_ptr<kiln::tools::CallTrace> trace;
  if (!flags.trace.empty()) {
    KILN_ASSIGN_OR_RETURN(trace, kiln::tools::CallTrace::Open(flags.trace));
  }
  KILN_ASSIGN_OR_RETURN(kiln::tools::PreparedCall call, kiln::tools::PrepareCall(flags.call, flags.check_indices));
  kiln::runtime::Session& session = *call.session;
  std::printf("EXEC @%s\n", call.function.c_str());
  std::fflush(stdout);
  auto call_start = std::chrono::steady_clock::now();
  KILN_ASSIGN_OR_RETURN(std::vector<kiln::vm::Value> results,
                        trace ? trace->Call(session, call.function, call.args) : session.Call(call.function, call.args));
  double call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - call_start).count();
  std::string text;
  kiln::StatusOr<bool> processed =
      kiln::runtime::ProcessResults(results, flags.results, session.device().allocator(), text);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (flags.print_statistics) {
    kiln::hal::QueueStatistics queue = session.device().queue_statistics();
    kiln::hal::AllocatorStatistics memory = session.device().allocator().statistics();
    std::fprintf(stderr,
                 "[statistics] dispatches: %llu, submissions: %llu, allocations: %zu, bytes live: %zu, bytes peak: %zu, "
                 "load+link: %.3f ms, call: %.3f ms\n",
                 static_cast<unsigned long long>(queue.dispatches), static_cast<unsigned long long>(queue.submissions),
                 memory.allocation_count, memory.bytes_allocated, memory.peak_bytes_allocated, call.load_ms, call_ms);
  }
  if (!processed.ok()) return processed.status();
  return *processed ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  kiln::tools::FlagParser parser = MakeParser(flags);
  return kiln::tools::ToolMain(parser, argc, argv, [&] { return Run(flags); });
}
