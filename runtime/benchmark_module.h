// iree-benchmark-module's behaviour as a library (tools/kiln-benchmark-module is a thin main
// over it): the whole call timed with Google Benchmark, or every dispatch of one call timed
// alone (--dispatches). docs/tools.md shows the command line.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "hal/device.h"
#include "runtime/gpu_estimate.h"
#include "runtime/session.h"
#include "vm/value.h"

namespace kiln::runtime {

struct BenchmarkOptions {
  size_t batch_size = 1;             // --batch_size: calls (or dispatches) per timed iteration
  size_t repetitions = 1;            // --benchmark_repetitions
  std::string min_time;              // --benchmark_min_time: "0.5", "0.5s" (seconds) or "100x" (iterations)
  std::string format = "console";    // --benchmark_format: console, json or csv
  std::string out;                   // --benchmark_out: also write the results to this file
  std::string out_format = "json";   // --benchmark_out_format
};

// --benchmark_min_time: seconds, or a fixed number of iterations ("100x").
struct MinTime {
  double seconds = 0.5;  // Google Benchmark's default
  size_t iterations = 0;  // when non-zero, exactly this many
};
StatusOr<MinTime> ParseMinTime(std::string_view text);

// Checks the formats, the batch size and the minimum time; the error names the flag.
Status ValidateBenchmarkOptions(const BenchmarkOptions& options);

// Times calls of `function` with `args` with Google Benchmark ("BM_<function>/process_time/
// real_time", iree-benchmark-module's name), printing its report in options.format to
// stdout and, with options.out, writing it to that file. A failed call fails the benchmark.
Status BenchmarkFunction(Session& session, std::string_view function, std::span<const vm::Value> args,
                         const BenchmarkOptions& options);

// Median and 90th percentile of the samples of one thing timed, per call or dispatch.
struct Timing {
  double median_ms = 0, p90_ms = 0;
  size_t samples = 0;
};

// One dispatch of the recorded call and how long it takes alone.
struct DispatchReport {
  size_t index = 0;  // in submission order
  std::string executable, name, source_location;
  uint32_t export_ordinal = 0;
  std::array<uint32_t, 3> workgroup_count = {0, 0, 0};
  std::vector<uint32_t> constants;                       // push-constant words
  std::vector<std::pair<size_t, size_t>> bindings;       // (offset, length) of each binding
  std::optional<uint64_t> flops, bytes_read, bytes_written;  // from the module's cost formulas; none: unknown
  Timing time;
  // What the device counted while the dispatch ran alone (hal::Device::LastDispatchCounters:
  // hip-sim running the code object), and for a gfx942 dispatch the MI300X estimate from
  // them; none on devices that do not count (the report then has no such fields).
  std::optional<hal::DispatchCounters> counters;
  std::optional<Mi300xEstimate> estimate;
};

struct DispatchesReport {
  std::string function, device;
  size_t batch_size = 1;
  Timing call;  // the whole call, timed the same way
  std::vector<DispatchReport> dispatches;
};

// Calls `function` once with `args` while recording every dispatch it submits, then times
// the whole call and each dispatch alone, repeated on the bindings it had. Timing goes in
// rounds: one call (options.batch_size calls), then the recorded commands replayed in
// order with each dispatch submitted and timed on its own, so that it reads what it read
// in the call and the call and its dispatches see the same load. Rounds continue until
// there are options.repetitions (at least 5) and --benchmark_min_time has passed for each
// thing timed ("Nx": exactly N rounds). Fails when the call makes no dispatch. After each
// dispatch's first run alone, the device's counters of it are kept (DispatchReport::counters).
StatusOr<DispatchesReport> BenchmarkDispatches(Session& session, std::string_view function,
                                               std::span<const vm::Value> args, const BenchmarkOptions& options);

// The report as a console table, JSON (for scripts) or CSV.
std::string FormatDispatchesReport(const DispatchesReport& report, std::string_view format);

}  // namespace kiln::runtime
