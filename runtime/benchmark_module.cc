#include "runtime/benchmark_module.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <variant>

#include "base/time.h"
#include "hal/module/hal_module.h"
#include "runtime/file_io.h"

namespace kiln::runtime {

namespace {

bool IsFormat(std::string_view format) { return format == "console" || format == "json" || format == "csv"; }

}  // namespace

StatusOr<MinTime> ParseMinTime(std::string_view text) {
  MinTime min_time;
  if (text.empty()) return min_time;
  std::string number(text);
  bool iterations = text.ends_with("x");
  if (iterations || text.ends_with("s")) number.pop_back();
  char* end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !(value > 0) || std::isinf(value) ||
      (iterations && value != std::floor(value))) {
    return InvalidArgumentError("--benchmark_min_time='", text,
                                "': expected seconds (0.5 or 0.5s) or a number of iterations (100x)");
  }
  if (iterations) {
    min_time.iterations = static_cast<size_t>(value);
  } else {
    min_time.seconds = value;
  }
  return min_time;
}

Status ValidateBenchmarkOptions(const BenchmarkOptions& options) {
  if (!IsFormat(options.format)) {
    return InvalidArgumentError("--benchmark_format='", options.format, "': expected console, json or csv");
  }
  if (!IsFormat(options.out_format)) {
    return InvalidArgumentError("--benchmark_out_format='", options.out_format, "': expected console, json or csv");
  }
  if (options.batch_size == 0) return InvalidArgumentError("--batch_size=0: expected at least 1");
  if (options.repetitions == 0) return InvalidArgumentError("--benchmark_repetitions=0: expected at least 1");
  KILN_RETURN_IF_ERROR(ParseMinTime(options.min_time).status());
  if (!options.out.empty()) {
    // Google Benchmark would only print a warning; an unwritable file is an error here.
    KILN_RETURN_IF_ERROR(WriteFileBytes(options.out, "", /*append=*/false), "--benchmark_out='", options.out, "'");
  }
  return OkStatus();
}

Status BenchmarkFunction(Session& session, std::string_view function, std::span<const vm::Value> args,
                         const BenchmarkOptions& options) {
  KILN_RETURN_IF_ERROR(ValidateBenchmarkOptions(options));
  KILN_ASSIGN_OR_RETURN(MinTime min_time, ParseMinTime(options.min_time));
  std::string name(function);
  // One call first: a call that fails says so plainly, not inside a benchmark report.
  KILN_RETURN_IF_ERROR(session.Call(name, args).status(), "in the first call of '", name, "', before benchmarking");
  std::vector<std::string> flags = {"kiln-benchmark-module", StrCat("--benchmark_format=", options.format),
                                    StrCat("--benchmark_repetitions=", options.repetitions)};
  if (!min_time.iterations) flags.push_back(StrCat("--benchmark_min_time=", min_time.seconds));
  if (!options.out.empty()) {
    flags.push_back(StrCat("--benchmark_out=", options.out));
    flags.push_back(StrCat("--benchmark_out_format=", options.out_format));
  }
  std::vector<char*> argv;
  for (std::string& flag : flags) argv.push_back(flag.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());

  Status failure = OkStatus();
  auto run = [&](benchmark::State& state) {
    for (auto _ : state) {
      for (size_t i = 0; i < options.batch_size && failure.ok(); ++i) {
        StatusOr<std::vector<vm::Value>> results = session.Call(name, args);
        if (!results.ok()) failure = results.status();
      }
      if (!failure.ok()) {
        state.SkipWithError(failure.ToString().c_str());
        break;
      }
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * options.batch_size));
  };
  benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(StrCat("BM_", name).c_str(), run);
  b->MeasureProcessCPUTime()->UseRealTime()->Unit(benchmark::kMillisecond);
  if (min_time.iterations) b->Iterations(static_cast<benchmark::IterationCount>(min_time.iterations));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::ClearRegisteredBenchmarks();
  std::fflush(stdout);
  return failure.With("while benchmarking '", name, "'");
}

namespace {

using Clock = std::chrono::steady_clock;

// The median and 90th percentile of `samples` (milliseconds).
Timing Summarize(std::vector<double> samples) {
  Timing timing;
  timing.samples = samples.size();
  if (samples.empty()) return timing;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  timing.median_ms = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  timing.p90_ms = samples[std::min(n - 1, static_cast<size_t>(0.9 * n))];
  return timing;
}

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Status Submit(hal::Device& device, const Ref<hal::CommandBuffer>& cb) {
  Ref<hal::Semaphore> done = hal::Semaphore::Create(0);
  hal::SemaphoreValue signal[] = {{done, 1}};
  Ref<hal::CommandBuffer> cbs[] = {cb};
  KILN_RETURN_IF_ERROR(device.QueueExecute({}, signal, cbs));
  return done->Wait(1, Deadline::Infinite());
}

// Records `command` again into `cb`.
Status Rerecord(hal::CommandBuffer& cb, const hal::Command& command) {
  if (const auto* fill = std::get_if<hal::FillCommand>(&command)) {
    return cb.Fill(fill->target.buffer, fill->target.offset, fill->target.length, &fill->pattern,
                   fill->pattern_length);
  }
  if (const auto* copy = std::get_if<hal::CopyCommand>(&command)) {
    return cb.Copy(copy->source.buffer, copy->source.offset, copy->target.buffer, copy->target.offset,
                   copy->source.length);
  }
  if (const auto* update = std::get_if<hal::UpdateCommand>(&command)) {
    return cb.Update(update->data, update->target.buffer, update->target.offset);
  }
  if (const auto* dispatch = std::get_if<hal::DispatchCommand>(&command)) {
    return cb.Dispatch(dispatch->executable, dispatch->export_ordinal, dispatch->workgroup_count,
                       dispatch->constants, dispatch->bindings);
  }
  return cb.ExecutionBarrier();
}

// A cost formula of the module evaluated on a dispatch's push-constant words.
std::optional<uint64_t> Evaluate(const flatbuffers::Vector<flatbuffers::Offset<vm::fb::CostTerm>>* terms,
                                 std::span<const uint32_t> words) {
  if (!terms) return std::nullopt;
  uint64_t total = 0;
  for (const vm::fb::CostTerm* term : *terms) {
    uint64_t value = static_cast<uint64_t>(term->coefficient());
    if (term->words()) {
      for (uint32_t w : *term->words()) {
        if (w >= words.size()) return std::nullopt;
        value *= words[w];
      }
    }
    total += value;
  }
  return total;
}

struct Position {
  size_t submission, command;
};

}  // namespace

StatusOr<DispatchesReport> BenchmarkDispatches(Session& session, std::string_view function,
                                               std::span<const vm::Value> args, const BenchmarkOptions& options) {
  KILN_RETURN_IF_ERROR(ValidateBenchmarkOptions(options));
  KILN_ASSIGN_OR_RETURN(MinTime min_time, ParseMinTime(options.min_time));
  std::string name(function);
  hal::Device& device = session.device();
  DispatchesReport report;
  report.function = name;
  report.device = device.info().name;
  report.batch_size = options.batch_size;

  hal::Recording recording;
  session.hal_module().set_recording(&recording);
  StatusOr<std::vector<vm::Value>> recorded = session.Call(name, args);
  session.hal_module().set_recording(nullptr);
  // Whatever happens next, the held transient buffers go back.
  struct Releaser {
    hal::Recording& recording;
    hal::Device& device;
    ~Releaser() { (void)recording.Release(device); }
  } releaser{recording, device};
  KILN_RETURN_IF_ERROR(recorded.status(), "while recording the dispatches of '", name, "'");
  KILN_RETURN_IF_ERROR(device.WaitIdle(Deadline::Infinite()));

  std::vector<Position> positions;
  for (size_t s = 0; s < recording.submissions.size(); ++s) {
    std::span<const hal::Command> commands = recording.submissions[s]->commands();
    for (size_t c = 0; c < commands.size(); ++c) {
      const auto* dispatch = std::get_if<hal::DispatchCommand>(&commands[c]);
      if (!dispatch) continue;
      DispatchReport d;
      d.index = report.dispatches.size();
      d.executable = std::string(dispatch->executable->debug_name());
      d.export_ordinal = dispatch->export_ordinal;
      const hal::ExportInfo& info = dispatch->executable->exports()[dispatch->export_ordinal];
      d.name = info.name;
      d.source_location = info.source_location;
      d.workgroup_count = dispatch->workgroup_count;
      d.constants = dispatch->constants;
      for (const hal::BufferBinding& b : dispatch->bindings) d.bindings.emplace_back(b.offset, b.length);
      const vm::fb::ExecutableExportDef* def =
          session.hal_module().ExportDef(*dispatch->executable, dispatch->export_ordinal);
      if (def && def->cost()) {
        d.flops = Evaluate(def->cost()->flops(), d.constants);
        d.bytes_read = Evaluate(def->cost()->bytes_read(), d.constants);
        d.bytes_written = Evaluate(def->cost()->bytes_written(), d.constants);
      }
      report.dispatches.push_back(std::move(d));
      positions.push_back({s, c});
    }
  }
  if (report.dispatches.empty()) {
    return FailedPreconditionError("--dispatches: '", name,
                                   "' makes no dispatch (it runs on the host alone); "
                                   "benchmark it without --dispatches");
  }

  // Each dispatch gets its own command buffer of `batch_size` copies, and the commands
  // between it and the dispatch before it (fills, copies, updates) one of their own.
  struct Step {
    Ref<hal::CommandBuffer> before, batch;
    std::vector<double> samples;
  };
  std::vector<Step> steps(report.dispatches.size());
  Ref<hal::CommandBuffer> pending;
  for (size_t i = 0, s = 0; s < recording.submissions.size() && i < steps.size(); ++s) {
    std::span<const hal::Command> commands = recording.submissions[s]->commands();
    for (size_t c = 0; c < commands.size() && i < steps.size(); ++c) {
      auto context = [&] { return StrCat("in dispatch ", i, " (", report.dispatches[i].name, ")"); };
      if (s != positions[i].submission || c != positions[i].command) {
        if (!pending) pending = device.CreateCommandBuffer();
        KILN_RETURN_IF_ERROR(Rerecord(*pending, commands[c]), "before ", context());
        continue;
      }
      if (pending) {
        KILN_RETURN_IF_ERROR(pending->ExecutionBarrier(), context());
        KILN_RETURN_IF_ERROR(pending->Finalize(), context());
        steps[i].before = std::move(pending);
        pending = nullptr;
      }
      steps[i].batch = device.CreateCommandBuffer();
      for (size_t b = 0; b < options.batch_size; ++b) {
        if (b) KILN_RETURN_IF_ERROR(steps[i].batch->ExecutionBarrier(), context());
        KILN_RETURN_IF_ERROR(Rerecord(*steps[i].batch, commands[c]), context());
      }
      KILN_RETURN_IF_ERROR(steps[i].batch->Finalize(), context());
      ++i;
    }
    if (pending) KILN_RETURN_IF_ERROR(pending->ExecutionBarrier());
  }

  // A round times the whole call, then replays the recorded commands in order, timing each
  // dispatch alone: every dispatch reads what it read in the call, and the call and its
  // dispatches see the same load on a busy machine (their medians compare).
  std::vector<double> call_samples;
  // The warm-up round also collects what the device counted of each dispatch, right after it
  // ran alone (and so was the last to complete).
  auto collect = [&](DispatchReport& d) {
    std::optional<hal::DispatchCounters> counters = device.LastDispatchCounters();
    // The counts must be this dispatch's: the kernel's name, possibly truncated by the device.
    if (!counters || counters->kernel.empty() || !std::string_view(d.name).starts_with(counters->kernel)) return;
    d.counters = std::move(counters);
    if (device.info().architecture == "gfx942") {
      std::optional<uint64_t> footprint;
      if (d.bytes_read && d.bytes_written) footprint = *d.bytes_read + *d.bytes_written;
      d.estimate = EstimateMi300x(*d.counters, footprint);
    }
  };
  auto round = [&](bool keep) -> Status {
    Clock::time_point start = Clock::now();
    for (size_t b = 0; b < options.batch_size; ++b) {
      KILN_RETURN_IF_ERROR(session.Call(name, args).status(), "while timing the call of '", name, "'");
    }
    if (keep) call_samples.push_back(MillisecondsSince(start) / options.batch_size);
    for (size_t i = 0; i < steps.size(); ++i) {
      auto context = [&] { return StrCat("in dispatch ", i, " (", report.dispatches[i].name, ")"); };
      if (steps[i].before) KILN_RETURN_IF_ERROR(Submit(device, steps[i].before), "before ", context());
      start = Clock::now();
      KILN_RETURN_IF_ERROR(Submit(device, steps[i].batch), context());
      if (keep) steps[i].samples.push_back(MillisecondsSince(start) / options.batch_size);
      if (!keep) collect(report.dispatches[i]);
    }
    return OkStatus();
  };
  KILN_RETURN_IF_ERROR(round(false));  // warm-up
  const size_t min_rounds = min_time.iterations ? min_time.iterations : std::max<size_t>(options.repetitions, 5);
  // The minimum time is per thing timed: the call and each dispatch.
  const double min_ms = 1e3 * min_time.seconds * static_cast<double>(1 + steps.size());
  const Clock::time_point start = Clock::now();
  for (size_t rounds = 0; rounds < 1000000; ++rounds) {
    if (rounds >= min_rounds && (min_time.iterations || MillisecondsSince(start) >= min_ms)) break;
    KILN_RETURN_IF_ERROR(round(true));
  }
  report.call = Summarize(std::move(call_samples));
  for (size_t i = 0; i < steps.size(); ++i) report.dispatches[i].time = Summarize(std::move(steps[i].samples));
  return report;
}

namespace {

std::string Optional(const std::optional<uint64_t>& value, std::string_view unknown) {
  return value ? std::to_string(*value) : std::string(unknown);
}

std::optional<uint64_t> BytesMoved(const DispatchReport& d) {
  if (!d.bytes_read || !d.bytes_written) return std::nullopt;
  return *d.bytes_read + *d.bytes_written;
}

// Per second in units of 1e9 (GB/s, GFLOP/s), from an amount per `ms` milliseconds.
std::optional<double> Giga(const std::optional<uint64_t>& amount, double ms) {
  if (!amount || ms <= 0) return std::nullopt;
  return static_cast<double>(*amount) / (ms * 1e6);
}

std::string Number(const std::optional<double>& value, std::string_view unknown, const char* format = "%.4g") {
  if (!value) return std::string(unknown);
  char text[64];
  std::snprintf(text, sizeof(text), format, *value);
  return text;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Workgroups(const std::array<uint32_t, 3>& count) {
  return StrCat(count[0], "x", count[1], "x", count[2]);
}

// The share of the call a time is, when the call took any time.
std::optional<double> Share(double ms, const DispatchesReport& report) {
  if (!(report.call.median_ms > 0)) return std::nullopt;
  return ms / report.call.median_ms;
}

double SumOfMedians(const DispatchesReport& report) {
  double sum = 0;
  for (const DispatchReport& d : report.dispatches) sum += d.time.median_ms;
  return sum;
}

// The device's counters of a dispatch as named numbers, in the order every format shows them.
std::vector<std::pair<const char*, uint64_t>> CounterFields(const hal::DispatchCounters& c) {
  return {{"workgroups_executed", c.workgroups},
          {"waves_executed", c.waves},
          {"salu", c.salu},
          {"smem", c.smem},
          {"valu", c.valu},
          {"mfma", c.mfma},
          {"vmem", c.vmem},
          {"lds", c.lds},
          {"branch", c.branch},
          {"wait", c.wait},
          {"global_read_bytes", c.global_read_bytes},
          {"global_written_bytes", c.global_written_bytes},
          {"lds_read_bytes", c.lds_read_bytes},
          {"lds_written_bytes", c.lds_written_bytes},
          {"occupancy_waves_per_simd", c.occupancy_waves_per_simd},
          {"occupancy_workgroups_per_cu", c.occupancy_workgroups_per_cu},
          {"occupancy_waves_per_cu", c.occupancy_waves_per_cu}};
}

bool AnyCounters(const DispatchesReport& report) {
  return std::any_of(report.dispatches.begin(), report.dispatches.end(),
                     [](const DispatchReport& d) { return d.counters.has_value(); });
}

// ", \"counters\": {...}, ..." for a dispatch the device counted; "" otherwise (absent, not 0).
std::string CountersJson(const DispatchReport& d) {
  if (!d.counters) return "";
  std::string fields, mfma;
  for (const auto& [name, value] : CounterFields(*d.counters)) {
    fields += StrCat(fields.empty() ? "" : ", ", "\"", name, "\": ", value);
  }
  for (const auto& [mnemonic, count] : d.counters->mfma_by_mnemonic) {
    mfma += StrCat(mfma.empty() ? "" : ", ", JsonString(mnemonic), ": ", count);
  }
  std::string out = StrCat(",\n     \"counters\": {", fields, "},\n     \"occupancy_limit\": ",
                           JsonString(d.counters->occupancy_limit), ", \"mfma_by_mnemonic\": {", mfma, "}");
  if (d.estimate) {
    const Mi300xEstimate& e = *d.estimate;
    out += StrCat(",\n     \"mi300x_estimate\": {\"time_us\": ", Number(e.time_us, "", "%.6g"),
                  ", \"compute_us\": ", Number(e.compute_us, "", "%.6g"), ", \"memory_us\": ",
                  Number(e.memory_us, "", "%.6g"), ", \"bound\": ", JsonString(e.bound),
                  ", \"mfma_rates_known\": ", e.mfma_rates_known ? "true" : "false",
                  ", \"model\": \"estimate: docs/hip-sim-executor.md, Counts\"}");
  }
  return out;
}

std::string Json(const DispatchesReport& report) {
  auto timing = [](const Timing& t) {
    return StrCat("\"median_ms\": ", Number(t.median_ms, "", "%.6g"), ", \"p90_ms\": ", Number(t.p90_ms, "", "%.6g"),
                  ", \"samples\": ", t.samples);
  };
  std::string out = StrCat("{\n  \"function\": ", JsonString(report.function), ",\n  \"device\": ",
                           JsonString(report.device), ",\n  \"batch_size\": ", report.batch_size,
                           ",\n  \"call\": {", timing(report.call), "},\n  \"sum_of_dispatch_medians_ms\": ",
                           Number(SumOfMedians(report), "", "%.6g"), ",\n  \"dispatches\": [");
  for (const DispatchReport& d : report.dispatches) {
    std::string constants, bindings;
    for (uint32_t c : d.constants) constants += StrCat(constants.empty() ? "" : ", ", c);
    for (auto [offset, length] : d.bindings) {
      bindings += StrCat(bindings.empty() ? "" : ", ", "{\"offset\": ", offset, ", \"length\": ", length, "}");
    }
    out += StrCat(d.index ? "," : "", "\n    {\"index\": ", d.index, ", \"name\": ", JsonString(d.name),
                  ", \"executable\": ", JsonString(d.executable), ", \"export\": ", d.export_ordinal,
                  ", \"source_location\": ", JsonString(d.source_location), ",\n     \"workgroup_count\": [",
                  d.workgroup_count[0], ", ", d.workgroup_count[1], ", ", d.workgroup_count[2],
                  "], \"push_constants\": [", constants, "], \"bindings\": [", bindings, "],\n     ",
                  timing(d.time), ", \"bytes_read\": ", Optional(d.bytes_read, "null"), ", \"bytes_written\": ",
                  Optional(d.bytes_written, "null"), ", \"flops\": ", Optional(d.flops, "null"),
                  ",\n     \"gb_per_s\": ", Number(Giga(BytesMoved(d), d.time.median_ms), "null"),
                  ", \"gflop_per_s\": ", Number(Giga(d.flops, d.time.median_ms), "null"),
                  ", \"share_of_call\": ", Number(Share(d.time.median_ms, report), "null"), CountersJson(d), "}");
  }
  return out + "\n  ]\n}\n";
}

std::string Csv(const DispatchesReport& report) {
  std::string out =
      "index,name,source_location,workgroups,median_ms,p90_ms,samples,bytes_read,bytes_written,flops,gb_per_s,"
      "gflop_per_s,share_of_call";
  // The device's counters, when it counted any dispatch: empty fields for those it did not.
  const bool counted = AnyCounters(report);
  if (counted) {
    for (const auto& field : CounterFields({})) out += StrCat(",", field.first);
    out += ",occupancy_limit,mi300x_estimate_us,mi300x_bound";
  }
  out += "\n";
  for (const DispatchReport& d : report.dispatches) {
    out += StrCat(d.index, ",", CsvField(d.name), ",", CsvField(d.source_location), ",", Workgroups(d.workgroup_count),
                  ",", Number(d.time.median_ms, "", "%.6g"), ",", Number(d.time.p90_ms, "", "%.6g"), ",",
                  d.time.samples, ",", Optional(d.bytes_read, ""), ",", Optional(d.bytes_written, ""), ",",
                  Optional(d.flops, ""), ",", Number(Giga(BytesMoved(d), d.time.median_ms), ""), ",",
                  Number(Giga(d.flops, d.time.median_ms), ""), ",",
                  Number(Share(d.time.median_ms, report), "", "%.4f"));
    if (counted) {
      for (const auto& [name, value] : CounterFields(d.counters.value_or(hal::DispatchCounters{}))) {
        out += d.counters ? StrCat(",", value) : std::string(",");
      }
      out += StrCat(",", d.counters ? CsvField(d.counters->occupancy_limit) : "", ",",
                    d.estimate ? Number(d.estimate->time_us, "", "%.6g") : "", ",", d.estimate ? d.estimate->bound : "");
    }
    out += "\n";
  }
  return out;
}

// The console's second table: what the device counted of each dispatch it counted.
std::string ConsoleCounters(const DispatchesReport& report) {
  std::string out =
      "counted by the device in each dispatch's first run alone (instructions: issued, once per wave; bytes: by "
      "active lanes; occupancy: estimated from the kernel's resources), and an ESTIMATE of its time on an MI300X "
      "(a roofline, docs/hip-sim-executor.md \"Counts\"; not a measurement):\n";
  char line[512];
  std::snprintf(line, sizeof(line), "%3s  %-36s %9s %9s %9s %9s %9s %9s %9s %9s %12s %12s %10s  %-24s %s\n", "#",
                "dispatch", "SALU", "SMEM", "VALU", "MFMA", "VMEM", "LDS", "branch", "wait", "global rd B",
                "global wr B", "LDS B", "occupancy (bound)", "MI300X estimate (bound)");
  out += line;
  for (const DispatchReport& d : report.dispatches) {
    if (!d.counters) continue;
    const hal::DispatchCounters& c = *d.counters;
    std::string occupancy = StrCat(c.occupancy_waves_per_simd, "/SIMD ", c.occupancy_workgroups_per_cu, " wg/CU (",
                                   c.occupancy_limit, ")");
    std::string estimate = "-";
    if (d.estimate) {
      estimate = StrCat(Number(d.estimate->time_us, "", "%.4g"), " us (", d.estimate->bound, ")",
                        d.estimate->mfma_rates_known ? "" : " without MFMAs of unknown rate");
    }
    std::snprintf(line, sizeof(line),
                  "%3zu  %-36s %9llu %9llu %9llu %9llu %9llu %9llu %9llu %9llu %12llu %12llu %10llu  %-24s %s\n", d.index,
                  d.name.c_str(), static_cast<unsigned long long>(c.salu), static_cast<unsigned long long>(c.smem),
                  static_cast<unsigned long long>(c.valu), static_cast<unsigned long long>(c.mfma),
                  static_cast<unsigned long long>(c.vmem), static_cast<unsigned long long>(c.lds),
                  static_cast<unsigned long long>(c.branch), static_cast<unsigned long long>(c.wait),
                  static_cast<unsigned long long>(c.global_read_bytes),
                  static_cast<unsigned long long>(c.global_written_bytes),
                  static_cast<unsigned long long>(c.lds_read_bytes + c.lds_written_bytes), occupancy.c_str(),
                  estimate.c_str());
    out += line;
  }
  return out;
}

std::string Console(const DispatchesReport& report) {
  std::string out = StrCat("@", report.function, " on ", report.device, ": the call takes ",
                           Number(report.call.median_ms, "", "%.4g"), " ms (median; p90 ",
                           Number(report.call.p90_ms, "", "%.4g"), " ms; ", report.call.samples, " samples) and makes ",
                           report.dispatches.size(), " dispatches, each timed alone:\n");
  char line[512];
  std::snprintf(line, sizeof(line), "%3s  %-36s %-20s %-11s %10s %10s %6s %10s %10s %10s %8s %8s\n", "#", "dispatch",
                "location", "workgroups", "median ms", "p90 ms", "share", "MB read", "MB written", "MFLOP", "GB/s",
                "GFLOP/s");
  out += line;
  auto mega = [](const std::optional<uint64_t>& v) {
    return v ? std::optional<double>(static_cast<double>(*v) / 1e6) : std::nullopt;
  };
  for (const DispatchReport& d : report.dispatches) {
    std::snprintf(line, sizeof(line), "%3zu  %-36s %-20s %-11s %10.4g %10.4g %5.1f%% %10s %10s %10s %8s %8s\n", d.index,
                  d.name.c_str(), d.source_location.empty() ? "-" : d.source_location.c_str(),
                  Workgroups(d.workgroup_count).c_str(), d.time.median_ms, d.time.p90_ms,
                  100 * d.time.median_ms / report.call.median_ms, Number(mega(d.bytes_read), "?").c_str(),
                  Number(mega(d.bytes_written), "?").c_str(), Number(mega(d.flops), "?").c_str(),
                  Number(Giga(BytesMoved(d), d.time.median_ms), "?").c_str(),
                  Number(Giga(d.flops, d.time.median_ms), "?").c_str());
    out += line;
  }
  double sum = SumOfMedians(report);
  out += StrCat("sum of the dispatch medians: ", Number(sum, "", "%.4g"), " ms (",
                Number(100 * sum / report.call.median_ms, "", "%.1f"), "% of the call); ? = unknown\n");
  if (AnyCounters(report)) out += ConsoleCounters(report);
  return out;
}

}  // namespace

std::string FormatDispatchesReport(const DispatchesReport& report, std::string_view format) {
  if (format == "json") return Json(report);
  if (format == "csv") return Csv(report);
  return Console(report);
}

}  // namespace kiln::runtime
