#include "base/trace.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace kiln::trace {
namespace {

TEST(Trace, OffRecordsNothing) {
  ASSERT_EQ(Active(), nullptr);
  Scope scope("vm", "@main");
  EXPECT_FALSE(scope.enabled());
}

TEST(Trace, ScopesRecordCompleteEventsWithArgs) {
  if (!KILN_TRACING_ENABLED) GTEST_SKIP() << "built with -DKILN_TRACING=OFF";
  Recorder recorder;
  Recorder::SetActive(&recorder);
  {
    Scope outer("vm", "@main");
    ASSERT_TRUE(outer.enabled());
    Scope inner("dispatch");
    inner.SetName("main_dispatch_0");
    inner.Arg("source_location", JsonString("a \"b\".mlir:1:2"));
    inner.Arg("workgroup_count", "[1, 2, 3]");
  }
  Recorder::SetActive(nullptr);
  EXPECT_EQ(recorder.event_count(), 2u);
  std::string json = recorder.ToJson();
  EXPECT_NE(json.find("\"name\": \"main_dispatch_0\", \"cat\": \"dispatch\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"args\": {\"source_location\": \"a \\\"b\\\".mlir:1:2\", \"workgroup_count\": [1, 2, 3]}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"name\": \"@main\", \"cat\": \"vm\""), std::string::npos) << json;
}

TEST(Trace, ThreadsRecordConcurrently) {
  if (!KILN_TRACING_ENABLED) GTEST_SKIP() << "built with -DKILN_TRACING=OFF";
  Recorder recorder;
  Recorder::SetActive(&recorder);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      Active()->NameThread(StrCat("worker ", t));
      for (int i = 0; i < 100; ++i) Scope scope("workgroups", "x");
    });
  }
  for (std::thread& thread : threads) thread.join();
  Recorder::SetActive(nullptr);
  EXPECT_EQ(recorder.event_count(), 400u);
  EXPECT_NE(recorder.ToJson().find("\"thread_name\""), std::string::npos);
}

TEST(Trace, DestroyingTheActiveRecorderDeactivatesIt) {
  {
    Recorder recorder;
    Recorder::SetActive(&recorder);
  }
  EXPECT_EQ(Active(), nullptr);
}

TEST(Trace, UnwritableFileIsAnError) {
  StatusOr<TraceFile> file = TraceFile::Open("/nonexistent-dir/trace.json");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().ToString().find("cannot open trace file '/nonexistent-dir/trace.json' for writing"),
            std::string::npos)
      << file.status().ToString();
}

TEST(Trace, EscapesJsonStrings) {
  EXPECT_EQ(JsonString("a\\b\n\x01"), "\"a\\\\b\\n\\u0001\"");
}

}  // namespace
}  // namespace kiln::trace
