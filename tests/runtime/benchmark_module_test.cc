// kiln-benchmark-module's library (runtime/benchmark_module.h): flag values and the
// --dispatches report in each format. The tool itself is pinned by
// tests/lit/tools/kiln-benchmark-module*.mlir.
#include "runtime/benchmark_module.h"

#include <gtest/gtest.h>

#include "tests/util/status_testing.h"

namespace kiln::runtime {
namespace {

using testing::ExpectError;

TEST(BenchmarkModule, MinTimeIsSecondsOrIterations) {
  KILN_ASSERT_OK_AND_ASSIGN(MinTime t, ParseMinTime(""));
  EXPECT_EQ(t.seconds, 0.5);
  EXPECT_EQ(t.iterations, 0u);
  KILN_ASSERT_OK_AND_ASSIGN(t, ParseMinTime("0.25"));
  EXPECT_EQ(t.seconds, 0.25);
  KILN_ASSERT_OK_AND_ASSIGN(t, ParseMinTime("2s"));
  EXPECT_EQ(t.seconds, 2);
  KILN_ASSERT_OK_AND_ASSIGN(t, ParseMinTime("100x"));
  EXPECT_EQ(t.iterations, 100u);
  for (const char* bad : {"soon", "1.5x", "0", "-1", "x", "s", "inf"}) {
    ExpectError(ParseMinTime(bad).status(), StatusCode::kInvalidArgument, "--benchmark_min_time=");
  }
}

TEST(BenchmarkModule, OptionsAreCheckedBeforeAnythingRuns) {
  BenchmarkOptions options;
  KILN_EXPECT_OK(ValidateBenchmarkOptions(options));
  options.format = "xml";
  ExpectError(ValidateBenchmarkOptions(options), StatusCode::kInvalidArgument,
              "--benchmark_format='xml': expected console, json or csv");
  options = {};
  options.batch_size = 0;
  ExpectError(ValidateBenchmarkOptions(options), StatusCode::kInvalidArgument, "--batch_size=0");
  options = {};
  options.repetitions = 0;
  ExpectError(ValidateBenchmarkOptions(options), StatusCode::kInvalidArgument, "--benchmark_repetitions=0");
}

DispatchesReport Report() {
  DispatchesReport report;
  report.function = "main";
  report.device = "cpu";
  report.call = {2.0, 3.0, 10};
  DispatchReport known;
  known.name = "main_dispatch_0_matmul";
  known.executable = "kiln_executable";
  known.source_location = "m.mlir:3:8";
  known.workgroup_count = {4, 1, 1};
  known.constants = {7};
  known.bindings = {{0, 1000}, {64, 1000}};
  known.flops = 2000000;
  known.bytes_read = 1000000;
  known.bytes_written = 1000000;
  known.time = {1.0, 1.5, 10};
  DispatchReport unknown;
  unknown.index = 1;
  unknown.name = "main_dispatch_1_sort, \"odd\"";
  unknown.bytes_read = 4;
  unknown.bytes_written = 4;
  unknown.time = {0.5, 0.5, 10};
  report.dispatches = {known, unknown};
  return report;
}

TEST(BenchmarkModule, JsonHasEveryFieldAndNullForUnknown) {
  std::string json = FormatDispatchesReport(Report(), "json");
  for (const char* field :
       {"\"function\": \"main\"", "\"call\": {\"median_ms\": 2, \"p90_ms\": 3, \"samples\": 10}",
        "\"sum_of_dispatch_medians_ms\": 1.5", "\"workgroup_count\": [4, 1, 1]", "\"push_constants\": [7]",
        "\"bindings\": [{\"offset\": 0, \"length\": 1000}, {\"offset\": 64, \"length\": 1000}]",
        "\"source_location\": \"m.mlir:3:8\"", "\"flops\": 2000000", "\"gb_per_s\": 2,", "\"gflop_per_s\": 2,",
        "\"share_of_call\": 0.5}", "\"name\": \"main_dispatch_1_sort, \\\"odd\\\"\"", "\"flops\": null",
        "\"gflop_per_s\": null"}) {
    EXPECT_NE(json.find(field), std::string::npos) << field << " in\n" << json;
  }
}

TEST(BenchmarkModule, CsvAndConsole) {
  std::string csv = FormatDispatchesReport(Report(), "csv");
  EXPECT_NE(csv.find("0,main_dispatch_0_matmul,m.mlir:3:8,4x1x1,1,1.5,10,1000000,1000000,2000000,2,2,0.5000\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("1,\"main_dispatch_1_sort, \"\"odd\"\"\",,0x0x0,0.5,0.5,10,4,4,,"), std::string::npos) << csv;
  std::string console = FormatDispatchesReport(Report(), "console");
  EXPECT_NE(console.find("@main on cpu: the call takes 2 ms (median; p90 3 ms; 10 samples) and makes 2 dispatches"),
            std::string::npos)
      << console;
  EXPECT_NE(console.find("sum of the dispatch medians: 1.5 ms (75.0% of the call)"), std::string::npos) << console;
}

}  // namespace
}  // namespace kiln::runtime
