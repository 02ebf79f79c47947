#include "base/trace.h"

#include <cerrno>
#include <cstring>
#include <utility>

namespace kiln::trace {

namespace detail {
std::atomic<Recorder*> active_recorder{nullptr};
}  // namespace detail

namespace {

std::atomic<uint32_t> next_thread_id{1};

// Microseconds with nanosecond resolution, as the trace-event format wants them.
void AppendMicros(std::string& out, int64_t ns) {
  char text[48];
  std::snprintf(text, sizeof(text), "%lld.%03lld", static_cast<long long>(ns / 1000),
                static_cast<long long>(ns % 1000));
  out += text;
}

}  // namespace

uint32_t CurrentThreadId() {
  thread_local uint32_t id = next_thread_id.fetch_add(1, std::memory_order_relaxed);
  return id;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

Recorder::Recorder() : start_(Clock::now()) {}

Recorder::~Recorder() {
  Recorder* self = this;
  detail::active_recorder.compare_exchange_strong(self, nullptr);
}

void Recorder::SetActive(Recorder* recorder) { detail::active_recorder.store(recorder, std::memory_order_release); }

int64_t Recorder::NowNs() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count();
}

void Recorder::Add(Event event) {
  std::lock_guard lock(mutex_);
  events_.push_back(std::move(event));
}

void Recorder::NameThread(std::string_view name) {
  uint32_t tid = CurrentThreadId();
  std::lock_guard lock(mutex_);
  thread_names_.try_emplace(tid, name);
}

size_t Recorder::event_count() const {
  std::lock_guard lock(mutex_);
  return events_.size();
}

std::string Recorder::ToJson() const {
  std::lock_guard lock(mutex_);
  std::string out = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  bool first = true;
  auto separate = [&] {
    if (!first) out += ",\n";
    first = false;
  };
  separate();
  out += "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": \"kiln\"}}";
  for (const auto& [tid, name] : thread_names_) {
    separate();
    out += StrCat("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": ", tid,
                  ", \"args\": {\"name\": ", JsonString(name), "}}");
  }
  for (const Event& e : events_) {
    separate();
    out += "{\"ph\": \"X\", \"name\": ";
    out += JsonString(e.name);
    out += ", \"cat\": ";
    out += JsonString(e.category);
    out += ", \"ts\": ";
    AppendMicros(out, e.start_ns);
    out += ", \"dur\": ";
    AppendMicros(out, e.duration_ns);
    out += StrCat(", \"pid\": 1, \"tid\": ", e.tid, ", \"args\": {", e.args, "}}");
  }
  out += "\n]}\n";
  return out;
}

void Scope::Begin(const char* category, std::string_view name) {
  event_.emplace();
  event_->name = std::string(name);
  event_->category = category;
  event_->tid = CurrentThreadId();
  event_->start_ns = recorder_->NowNs();
}

void Scope::End() {
  event_->duration_ns = recorder_->NowNs() - event_->start_ns;
  recorder_->Add(std::move(*event_));
}

void Scope::Arg(std::string_view key, std::string_view json_value) {
  std::string& args = event_->args;
  if (!args.empty()) args += ", ";
  args += JsonString(key);
  args += ": ";
  args += json_value;
}

StatusOr<TraceFile> TraceFile::Open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) {
    return PermissionDeniedError("cannot open trace file '", path, "' for writing: ", std::strerror(errno));
  }
  return TraceFile(path, file);
}

TraceFile::TraceFile(TraceFile&& other) noexcept
    : path_(std::move(other.path_)), file_(std::exchange(other.file_, nullptr)) {}

TraceFile::~TraceFile() {
  if (file_) std::fclose(file_);
}

Status TraceFile::Write(const Recorder& recorder) {
  if (!file_) return FailedPreconditionError("trace file '", path_, "' was already written");
  std::string json = recorder.ToJson();
  bool ok = std::fwrite(json.data(), 1, json.size(), file_) == json.size();
  ok &= std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) return DataLossError("cannot write trace file '", path_, "': ", std::strerror(errno));
  return OkStatus();
}

}  // namespace kiln::trace
