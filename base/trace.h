// Chrome trace-event recording (kiln-run --trace=FILE.json; docs/tools.md "Traces").
//
// One process-wide recorder at most is active. Instrumented code asks trace::Active(): a
// load of one atomic pointer, null when tracing is off, which is all tracing costs then. While on, events ("X" complete events: a name, a category, start and duration on
// the steady clock, the recording thread and JSON args) are appended under a mutex and
// written once, at the end, as a JSON object that chrome://tracing and Perfetto open.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "base/time.h"
#include "base/trace_config.h"

namespace kiln::trace {

class Recorder;

namespace detail {
extern std::atomic<Recorder*> active_recorder;
}  // namespace detail

// The active recorder, or null when tracing is off (the fast check). Acquire pairs with
// SetActive's release so that the recorder's construction happens before its use (TSan
// checks this); on x86 it is the same plain load as a relaxed one.
// Built with -DKILN_TRACING=OFF it is a constant null, and every event compiles away (to
// measure what the check costs: docs/PERFORMANCE.md).
inline Recorder* Active() {
#if KILN_TRACING_ENABLED
  return detail::active_recorder.load(std::memory_order_acquire);
#else
  return nullptr;
#endif
}

// One complete event; times are nanoseconds since the recorder started.
struct Event {
  std::string name;
  const char* category = "";
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  uint32_t tid = 0;
  std::string args;  // the members of the "args" object, e.g. "\"bytes\": 64" (may be empty)
};

class Recorder {
 public:
  Recorder();
  // Deactivates the recorder if it is the active one.
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Makes this the process's active recorder (or none). The recorder must outlive every
  // event begun while it was active: deactivate, let the device go idle, then destroy.
  static void SetActive(Recorder* recorder);

  int64_t NowNs() const;
  void Add(Event event);
  // Names the calling thread in the trace, unless it already has a name.
  void NameThread(std::string_view name);
  size_t event_count() const;

  // The whole trace as Chrome trace-event JSON.
  std::string ToJson() const;

 private:
  Clock::time_point start_;
  mutable std::mutex mutex_;
  std::vector<Event> events_;
  std::unordered_map<uint32_t, std::string> thread_names_;
};

// A small, stable id for the calling thread (1, 2, ... in order of first use).
uint32_t CurrentThreadId();

// A JSON string literal (quotes included) for `text`.
std::string JsonString(std::string_view text);

// Records one complete event from construction to destruction when tracing is on at
// construction; otherwise does nothing (one pointer test). Args may be added meanwhile.
class Scope {
 public:
  explicit Scope(const char* category, std::string_view name = {}) : recorder_(Active()) {
    if (recorder_) Begin(category, name);
  }
  ~Scope() {
    if (recorder_) End();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

  bool enabled() const { return recorder_ != nullptr; }
  Recorder* recorder() const { return recorder_; }
  // Only call when enabled().
  void SetName(std::string name) { event_->name = std::move(name); }
  // Adds `"key": value` to the event's args; `json_value` is already JSON (a number, a
  // JsonString, an array). Only call when enabled().
  void Arg(std::string_view key, std::string_view json_value);

 private:
  void Begin(const char* category, std::string_view name);
  void End();
  Recorder* recorder_;
  std::optional<Event> event_;  // engaged only while tracing: off, nothing is constructed
};

// Opens `path` for the trace at once, so that an unwritable file fails before any work,
// and writes the recorder's JSON to it at the end.
class TraceFile {
 public:
  static StatusOr<TraceFile> Open(const std::string& path);
  TraceFile(TraceFile&& other) noexcept;
  TraceFile& operator=(TraceFile&&) = delete;
  ~TraceFile();
  Status Write(const Recorder& recorder);

 private:
  TraceFile(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  std::string path_;
  std::FILE* file_;
};

}  // namespace kiln::trace
