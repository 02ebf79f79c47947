// kiln-benchmark-module: times one function of a module with iree-benchmark-module's flags
// (Google Benchmark's --benchmark_* flags, --batch_size), or with --dispatches every
// dispatch of one call alone. runtime/benchmark_module.h holds the logic; `--help` and
// docs/tools.md list the flags. Exit code 0, or 1 on any error.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "runtime/benchmark_module.h"
#include "runtime/file_io.h"
#include "tools/dispatch_dumps.h"
#include "tools/flags.h"
#include "tools/load_module.h"
#include "tools/trace_call.h"

namespace {

struct Flags {
  kiln::tools::CallFlags call;
  kiln::runtime::BenchmarkOptions options;
  bool dispatches = false;
  std::string trace, dump_dispatch_benchmarks;
};

constexpr std::string_view kUsage =
    "kiln-benchmark-module --module=FILE.kiln|FILE.mlir|- [--function=NAME] [--device=cpu] [--input=VALUE]...\n"
    "                             [--dispatches] [--batch_size=N] [--benchmark_*=...]";
constexpr std::string_view kAbout =
    "Times one exported function of a module the way iree-benchmark-module does: Google\n"
    "Benchmark runs the whole call (\"BM_<function>/process_time/real_time\") and prints its report.\n"
    "\n"
    "Values (--input) take kiln-run's (and iree-run-module's) syntax: 2x3xf32=1,2,3,4,5,6,\n"
    "2x3xf32=[1 2 3][4 5 6], f32=2.5, 5, (null), @x.npy, 2x3xf32=@x.bin; see kiln-run --help.\n"
    "\n"
    "With --dispatches it calls the function once, recording every dispatch (executable, export,\n"
    "source location, workgroup count, push constants, binding ranges), then times the whole call\n"
    "and each dispatch alone, repeated on the bindings it had, and reports per dispatch: median\n"
    "and p90 time, bytes read and written and FLOPs (from the cost formulas the compiler writes\n"
    "per export; '?' or null when unknown), GB/s, GFLOP/s and its share of the whole call.\n"
    "On hip-sim running code objects (KILN_HSA_SIM_MODE=code-object) also what the executor counted\n"
    "(instructions by class, global and LDS bytes, occupancy) and an ESTIMATE of the time on an MI300X\n"
    "(docs/hip-sim-executor.md, \"Counts\"); devices that do not count have no such columns.\n"
    "Timing goes in rounds: a call, then each dispatch alone in the call's order (so each reads\n"
    "what it read in the call), at least --benchmark_repetitions (at least 5) rounds and\n"
    "--benchmark_min_time per thing timed; a sample is --batch_size calls or dispatches.\n"
    "With --dump_dispatch_benchmarks=DIR as well (and a .mlir module), each dispatch of that call\n"
    "is also written to DIR/NAME.mlir as a program of its own with the shapes it ran with (the\n"
    "values of its push constants), which kiln-benchmark-module runs directly.\n"
    "\n"
    "Exit code: 0 on success, 1 on any error (one line on stderr, \"kiln-benchmark-module: CODE: ...\").\n";
constexpr std::string_view kExamples =
    "  kiln-benchmark-module --module=model.mlir --input=4x8xf32=1\n"
    "  kiln-compile model.mlir | kiln-benchmark-module --module=- --function=predict --input=@x.npy\n"
    "  kiln-benchmark-module --module=model.kiln --benchmark_format=json --benchmark_repetitions=5\n"
    "  kiln-benchmark-module --module=model.kiln --input=@x.npy --dispatches --benchmark_format=json\n"
    "  kiln-benchmark-module --module=model.mlir --device=hip-sim --dispatches --benchmark_min_time=20x\n"
    "  kiln-benchmark-module --module=model.mlir --input=@x.npy --dispatches --dump_dispatch_benchmarks=dir\n"
    "  kiln-benchmark-module --module=model.mlir --input=4x8xf32=1 --trace=trace.json\n";

kiln::tools::FlagParser MakeParser(Flags& flags) {
  kiln::tools::FlagParser p("kiln-benchmark-module", kUsage, kAbout, kExamples);
  kiln::tools::AddCallFlags(p, flags.call, "time");
  p.Bool("--dispatches", &flags.dispatches,
         "Time each dispatch of one call alone instead of the whole call (see above).");
  p.String("--dump_dispatch_benchmarks", "DIR", &flags.dump_dispatch_benchmarks,
           "With --dispatches and a .mlir module: write each dispatch of the call to DIR as a\n"
           "program of its own with the shapes it ran with (see above).");
  p.Number("--batch_size", &flags.options.batch_size,
           "Calls per benchmark iteration (with --dispatches: dispatches per sample, back to back);\n"
           "times are per iteration, and items_per_second counts calls.");
  p.String("--benchmark_format", "console|json|csv", &flags.options.format, "The report's format on stdout.");
  p.Number("--benchmark_repetitions", &flags.options.repetitions,
           "Runs of the benchmark (Google Benchmark adds mean, median, stddev and cv rows).");
  p.String("--benchmark_min_time", "SECONDS|Nx", &flags.options.min_time,
           "Minimum time per benchmark, in seconds (0.5 or 0.5s, the default), or a number of\n"
           "iterations (100x).");
  p.String("--benchmark_out", "FILE", &flags.options.out, "Also write the report to FILE.");
  p.String("--benchmark_out_format", "console|json|csv", &flags.options.out_format, "The format of --benchmark_out.");
  kiln::tools::AddTraceFlag(p, &flags.trace);
  return p;
}

kiln::StatusOr<int> Run(const Flags& flags) {
  if (flags.call.module.empty()) {
    return kiln::InvalidArgumentError(
        "--module=FILE.kiln (or FILE.mlir, or - for stdin) is required; see kiln-benchmark-module --help");
  }
  KILN_RETURN_IF_ERROR(kiln::runtime::ValidateBenchmarkOptions(flags.options));
  if (!flags.dump_dispatch_benchmarks.empty() && !flags.dispatches) {
    return kiln::InvalidArgumentError("--dump_dispatch_benchmarks writes the dispatches of the call --dispatches "
                                      "records; add --dispatches");
  }
  if (!flags.dump_dispatch_benchmarks.empty()) {
    KILN_RETURN_IF_ERROR(kiln::tools::CheckDispatchDumpSource(flags.call.module));
  }
  std::unique_ptr<kiln::tools::CallTrace> trace;
  if (!flags.trace.empty()) {
    KILN_ASSIGN_OR_RETURN(trace, kiln::tools::CallTrace::Open(flags.trace));
  }
  KILN_ASSIGN_OR_RETURN(kiln::tools::PreparedCall call, kiln::tools::PrepareCall(flags.call));
  if (trace) {
    // One traced call before any timing: benchmarks run with tracing off.
    KILN_RETURN_IF_ERROR(trace->Call(*call.session, call.function, call.args).status(), "in the traced call of '",
                         call.function, "'");
  }
  if (!flags.dispatches) {
    KILN_RETURN_IF_ERROR(kiln::runtime::BenchmarkFunction(*call.session, call.function, call.args, flags.options));
    return 0;
  }
  KILN_ASSIGN_OR_RETURN(kiln::runtime::DispatchesReport report,
                        kiln::runtime::BenchmarkDispatches(*call.session, call.function, call.args, flags.options));
  if (!flags.dump_dispatch_benchmarks.empty()) {
    std::vector<kiln::tools::RecordedDispatch> recorded;
    for (const kiln::runtime::DispatchReport& dispatch : report.dispatches) {
      recorded.push_back({dispatch.name, dispatch.constants});
    }
    KILN_RETURN_IF_ERROR(kiln::tools::DumpRecordedDispatches(flags.call.module,
                                                             kiln::tools::CompileTargetFor(call.session->device().info()),
                                                             recorded, flags.dump_dispatch_benchmarks),
                         "--dump_dispatch_benchmarks='", flags.dump_dispatch_benchmarks, "'");
  }
  std::fputs(kiln::runtime::FormatDispatchesReport(report, flags.options.format).c_str(), stdout);
  std::fflush(stdout);
  if (!flags.options.out.empty()) {
    KILN_RETURN_IF_ERROR(kiln::runtime::WriteFileBytes(
        flags.options.out, kiln::runtime::FormatDispatchesReport(report, flags.options.out_format), false));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  kiln::tools::FlagParser parser = MakeParser(flags);
  return kiln::tools::ToolMain(parser, argc, argv, [&] { return Run(flags); });
}
