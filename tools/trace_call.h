// --trace=FILE.json on kiln-run and kiln-benchmark-module: Chrome trace-event JSON of one
// call (base/trace.h records it; docs/tools.md "Traces" describes the events).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/trace.h"
#include "runtime/session.h"
#include "tools/flags.h"
#include "vm/value.h"

namespace kiln::tools {

// Declares --trace=FILE.json in `parser`.
void AddTraceFlag(FlagParser& parser, std::string* path);

class CallTrace {
 public:
  // Opens `path` at once, so that an unwritable file fails before any work.
  static StatusOr<std::unique_ptr<CallTrace>> Open(const std::string& path);

  // Calls `function` once with tracing on, waits until the device is idle (queue operations
  // the call left behind are in the trace too), stops tracing and writes the file.
  StatusOr<std::vector<vm::Value>> Call(runtime::Session& session, std::string_view function,
                                        std::span<const vm::Value> args);

 private:
  explicit CallTrace(trace::TraceFile file) : file_(std::move(file)) {}
  trace::TraceFile file_;
  std::unique_ptr<trace::Recorder> recorder_;  // made by Call: times start at the call
};

}  // namespace kiln::tools
