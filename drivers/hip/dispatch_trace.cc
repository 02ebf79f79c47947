#include "drivers/hip/dispatch_trace.h"

namespace kiln::hip {

void DispatchTracer::Emit(trace::Recorder& recorder, const InFlight& sub, uint32_t tid) {
  Anchor(recorder);
  for (size_t k = 0; k < sub.dispatch_signals.size() && k < sub.dispatches.size(); ++k) {
    hsa_amd_profiling_dispatch_time_t time{};
    if (hsa_.hsa_amd_profiling_get_dispatch_time(gpu_, sub.dispatch_signals[k]->handle(), &time) !=
        HSA_STATUS_SUCCESS) {
      continue;
    }
    const hal::DispatchCommand& d = *sub.dispatches[k].second;
    const hal::ExportInfo& info = d.executable->exports()[d.export_ordinal];
    trace::Event event;
    event.name = info.name;
    event.category = "dispatch";
    event.start_ns = ToRecorderNs(time.start);
    event.duration_ns = ToRecorderNs(time.end) - event.start_ns;
    event.tid = tid;
    event.args = StrCat("\"executable\": ", trace::JsonString(d.executable->debug_name()), ", \"export\": ",
                        d.export_ordinal, ", \"source_location\": ", trace::JsonString(info.source_location),
                        ", \"workgroup_count\": [", d.workgroup_count[0], ", ", d.workgroup_count[1], ", ",
                        d.workgroup_count[2], "]");
    recorder.Add(std::move(event));
  }
}

void DispatchTracer::Anchor(const trace::Recorder& recorder) {
  int64_t before = recorder.NowNs();
  uint64_t now = 0;
  (void)hsa_.hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &now);
  int64_t after = recorder.NowNs();
  clock_ticks_ = now;
  clock_ns_ = before + (after - before) / 2;
}

int64_t DispatchTracer::ToRecorderNs(uint64_t ticks) const {
  const __int128 delta = static_cast<__int128>(static_cast<int64_t>(ticks - clock_ticks_)) * 1'000'000'000;
  return clock_ns_ + static_cast<int64_t>(delta / static_cast<__int128>(frequency_));
}

}  // namespace kiln::hip
