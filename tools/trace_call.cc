#include "tools/trace_call.h"

namespace kiln::tools {

void AddTraceFlag(FlagParser& parser, std::string* path) {
  parser.String("--trace", "FILE.json", path,
                "Write a Chrome trace-event file of the call (chrome://tracing, Perfetto): the VM call\n"
                "and its imports, queue submissions, each dispatch and each worker's workgroups,\n"
                "waits and allocations.");
}

StatusOr<std::unique_ptr<CallTrace>> CallTrace::Open(const std::string& path) {
  if (!KILN_TRACING_ENABLED) {
    return UnimplementedError("--trace: this kiln was built without trace support (cmake -DKILN_TRACING=OFF)");
  }
  KILN_ASSIGN_OR_RETURN(trace::TraceFile file, trace::TraceFile::Open(path), "in --trace");
  return std::unique_ptr<CallTrace>(new CallTrace(std::move(file)));
}

StatusOr<std::vector<vm::Value>> CallTrace::Call(runtime::Session& session, std::string_view function,
                                                 std::span<const vm::Value> args) {
  recorder_ = std::make_unique<trace::Recorder>();
  recorder_->NameThread("main");
  trace::Recorder::SetActive(recorder_.get());
  StatusOr<std::vector<vm::Value>> results = session.Call(function, args);
  Status idle = session.device().WaitIdle(Deadline::Infinite());
  trace::Recorder::SetActive(nullptr);
  Status written = file_.Write(*recorder_).With("in --trace");
  if (!results.ok()) return results;
  KILN_RETURN_IF_ERROR(idle, "waiting for the traced call's queue operations");
  KILN_RETURN_IF_ERROR(written);
  return results;
}

}  // namespace kiln::tools
