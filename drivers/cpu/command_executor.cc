#include "drivers/cpu/command_executor.h"

#include <atomic>
#include <emmintrin.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "base/trace.h"
#include "drivers/cpu/cpu_executable.h"
#include "drivers/cpu/host_memory.h"

namespace kiln::cpu {
namespace {

// Transfers below this size run on one thread: splitting costs more than it gains.
constexpr size_t kParallelTransferBytes = 1u << 20;
// Fills at least this large bypass the cache (they would only evict useful data).
constexpr size_t kStreamingFillBytes = 4u << 20;

StatusOr<uint8_t*> BindingAddress(const hal::BufferBinding& binding, std::string_view what) {
  uint8_t* base = binding.buffer->storage()->device_address();
  if (!base) {
    return FailedPreconditionError(what, " uses a transient buffer that is not allocated (its queue_alloca has not "
                                         "completed or its queue_dealloca has)");
  }
  return base + binding.buffer->byte_offset() + binding.offset;
}

// Fills `length` bytes with the 1/2/4/8-byte pattern, whose phase starts at dst.
void FillBytes(uint8_t* dst, size_t length, uint64_t pattern, uint8_t pattern_length) {
  uint8_t bytes[16];
  for (int i = 0; i < 16; ++i) bytes[i] = static_cast<uint8_t>(pattern >> (8 * (i % pattern_length)));
  bool uniform = true;
  for (int i = 1; i < pattern_length; ++i) uniform &= bytes[i] == bytes[0];
  if (uniform) {
    // glibc's memset is the fastest store loop there is (rep stosb / non-temporal).
    std::memset(dst, bytes[0], length);
    return;
  }
  // Scalar head up to 16-byte alignment; 16 is a multiple of every pattern length, so the
  // vector below keeps the phase.
  size_t head = std::min(length, static_cast<size_t>((16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16));
  for (size_t i = 0; i < head; ++i) dst[i] = bytes[i % pattern_length];
  uint8_t phased[16];
  for (int i = 0; i < 16; ++i) phased[i] = bytes[(head + i) % pattern_length];
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(phased));
  uint8_t* p = dst + head;
  size_t body = (length - head) / 16 * 16;
  uint8_t* end = p + body;
  if (length >= kStreamingFillBytes) {
    for (; p < end; p += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
    _mm_sfence();
  } else {
    for (; p < end; p += 16) _mm_store_si128(reinterpret_cast<__m128i*>(p), v);
  }
  for (size_t i = 0; i < length - head - body; ++i) p[i] = phased[i % 16];
}

// Splits [0, length) into one contiguous piece per worker (multiples of `align`): glibc's
// memset and memcpy are fastest on one large range, so pieces are as large as possible.
template <typename Fn>
void ChunkedTransfer(CpuExecutor& executor, size_t length, size_t align, Fn fn) {
  size_t workers = executor.worker_count();
  if (workers <= 1 || length < kParallelTransferBytes) {
    fn(0, length);
    return;
  }
  size_t piece = (length / workers + 63) / 64 * 64;
  piece = (piece + align - 1) / align * align;
  size_t pieces = (length + piece - 1) / piece;
  executor.ParallelFor(pieces, 1, [&](size_t begin, size_t end, uint32_t) {
    size_t from = begin * piece;
    size_t to = std::min(length, end * piece);
    fn(from, to - from);
  });
}

Status Fill(const hal::FillCommand& cmd, CpuExecutor& executor) {
  KILN_ASSIGN_OR_RETURN(uint8_t * dst, BindingAddress(cmd.target, "fill target"));
  ChunkedTransfer(executor, cmd.target.length, cmd.pattern_length,
                  [&](size_t offset, size_t length) { FillBytes(dst + offset, length, cmd.pattern, cmd.pattern_length); });
  return OkStatus();
}

Status Copy(const hal::CopyCommand& cmd, CpuExecutor& executor) {
  KILN_ASSIGN_OR_RETURN(uint8_t * src, BindingAddress(cmd.source, "copy source"));
  KILN_ASSIGN_OR_RETURN(uint8_t * dst, BindingAddress(cmd.target, "copy target"));
  ChunkedTransfer(executor, cmd.source.length, 64,
                  [&](size_t offset, size_t length) { std::memcpy(dst + offset, src + offset, length); });
  return OkStatus();
}

Status Update(const hal::UpdateCommand& cmd) {
  KILN_ASSIGN_OR_RETURN(uint8_t * dst, BindingAddress(cmd.target, "update target"));
  std::memcpy(dst, cmd.data.data(), cmd.data.size());
  return OkStatus();
}

Status Dispatch(const hal::DispatchCommand& cmd, CpuExecutor& executor, WorkerLocalMemory& local_memory) {
  const auto& executable = static_cast<const CpuExecutable&>(*cmd.executable);
  const kiln_export_v2_t& entry = executable.entry(cmd.export_ordinal);

  std::vector<void*> binding_ptrs(cmd.bindings.size());
  std::vector<size_t> binding_lengths(cmd.bindings.size());
  for (size_t i = 0; i < cmd.bindings.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(uint8_t * address, BindingAddress(cmd.bindings[i], StrCat("binding ", i)));
    binding_ptrs[i] = address;
    binding_lengths[i] = cmd.bindings[i].length;
  }
  kiln_dispatch_state_v2_t state = {};
  for (int d = 0; d < 3; ++d) {
    state.workgroup_count[d] = cmd.workgroup_count[d];
    state.workgroup_size[d] = entry.workgroup_size[d];
  }
  state.constant_count = static_cast<uint32_t>(cmd.constants.size());
  state.binding_count = static_cast<uint32_t>(cmd.bindings.size());
  state.constants = cmd.constants.data();
  state.binding_ptrs = binding_ptrs.data();
  state.binding_lengths = binding_lengths.data();

  const uint64_t count_x = cmd.workgroup_count[0], count_xy = count_x * cmd.workgroup_count[1];
  const uint64_t total = count_xy * cmd.workgroup_count[2];
  if (total == 0) return OkStatus();

  // The failing workgroup with the lowest linear id, whatever the scheduling: a worker
  // stops at the first id at or above the lowest failure so far, so every lower id runs.
  struct Failure {
    std::mutex mutex;
    uint64_t id = UINT64_MAX;
    int code = 0;
    kiln_index_check_record_v2_t index_check = {};
    bool out_of_memory = false;
  } failure;
  std::atomic<uint64_t> lowest_failed{UINT64_MAX};
  auto record_failure = [&](uint64_t id, int code, const kiln_index_check_record_v2_t* index_check,
                            bool out_of_memory) {
    std::lock_guard lock(failure.mutex);
    failure.out_of_memory |= out_of_memory;
    if (id < failure.id) {
      failure.id = id;
      failure.code = code;
      if (index_check) failure.index_check = *index_check;
      lowest_failed.store(id, std::memory_order_relaxed);
    }
  };
  const size_t local_bytes = entry.local_memory_bytes;
  executor.ParallelFor(total, 1, [&](size_t begin, size_t end, uint32_t worker_id) {
    // Traced: each worker's share of the dispatch, one event per range of workgroups it ran.
    trace::Scope scope("workgroups");
    if (scope.enabled()) {
      scope.SetName(std::string(cmd.executable->exports()[cmd.export_ordinal].name));
      scope.Arg("worker", StrCat(worker_id));
      scope.Arg("first_workgroup", StrCat(begin));  // linear ids: x fastest, then y, then z
      scope.Arg("workgroups", StrCat(end - begin));
      scope.recorder()->NameThread(StrCat("cpu worker ", worker_id));
    }
    kiln_index_check_record_v2_t index_check;
    kiln_workgroup_state_v2_t workgroup = {};
    workgroup.worker_id = worker_id;
    workgroup.local_memory_size = local_bytes;
    workgroup.index_check = &index_check;
    if (local_bytes) {
      workgroup.local_memory = local_memory.Get(worker_id, local_bytes);
      if (!workgroup.local_memory) return record_failure(begin, 0, nullptr, /*out_of_memory=*/true);
    }
    for (size_t id = begin; id < end && id < lowest_failed.load(std::memory_order_relaxed); ++id) {
      workgroup.workgroup_id[0] = static_cast<uint32_t>(id % count_x);
      workgroup.workgroup_id[1] = static_cast<uint32_t>((id / count_x) % cmd.workgroup_count[1]);
      workgroup.workgroup_id[2] = static_cast<uint32_t>(id / count_xy);
      index_check = {};
      if (int rc = entry.entry(&state, &workgroup); rc != 0) return record_failure(id, rc, &index_check, false);
    }
  });
  if (lowest_failed.load() == UINT64_MAX) return OkStatus();
  if (failure.out_of_memory) {
    return ResourceExhaustedError("out of memory for ", local_bytes, " bytes of workgroup-local memory");
  }
  std::string workgroup = hal::DescribeWorkgroup(failure.id, cmd.workgroup_count);
  if (failure.code == KILN_DISPATCH_INDEX_OUT_OF_RANGE) {
    const kiln_index_check_record_v2_t& check = failure.index_check;
    if (std::optional<Status> out_of_range = hal::IndexCheckFailure(cmd.executable->exports()[cmd.export_ordinal],
                                                                     check.site, check.index, check.bound, workgroup)) {
      return *out_of_range;
    }
  }
  return AbortedError(workgroup, " returned device error ", failure.code);
}

// Names a dispatch's trace event and gives its executable, source location and workgroups.
void TraceDispatch(trace::Scope& scope, const hal::DispatchCommand& cmd) {
  const hal::ExportInfo& info = cmd.executable->exports()[cmd.export_ordinal];
  scope.SetName(std::string(info.name));
  scope.Arg("executable", trace::JsonString(cmd.executable->debug_name()));
  scope.Arg("export", StrCat(cmd.export_ordinal));
  scope.Arg("source_location", trace::JsonString(info.source_location));
  scope.Arg("workgroup_count", StrCat("[", cmd.workgroup_count[0], ", ", cmd.workgroup_count[1], ", ",
                                      cmd.workgroup_count[2], "]"));
}

std::string DispatchContext(const hal::DispatchCommand& cmd) {
  const hal::ExportInfo& info = cmd.executable->exports()[cmd.export_ordinal];
  std::string out = StrCat("in dispatch '", info.name, "' of executable '", cmd.executable->debug_name(), "'");
  if (!info.source_location.empty()) out += StrCat(" (", info.source_location, ")");
  return out;
}

}  // namespace

WorkerLocalMemory::~WorkerLocalMemory() {
  for (Block& block : blocks_) FreeHostBlock(block.data, block.size);
}

void* WorkerLocalMemory::Get(uint32_t worker_id, size_t bytes) {
  if (worker_id >= blocks_.size()) return nullptr;
  Block& block = blocks_[worker_id];
  if (block.size < bytes) {
    FreeHostBlock(block.data, block.size);
    block.data = AllocateHostBlock(bytes);
    block.size = block.data ? bytes : 0;
  }
  return block.data;
}

Status ExecuteCommandBuffer(const hal::CommandBuffer& command_buffer, CpuExecutor& executor,
                            WorkerLocalMemory& local_memory, ExecutionCounters& counters) {
  const auto commands = command_buffer.commands();
  for (size_t i = 0; i < commands.size(); ++i) {
    const hal::Command& command = commands[i];
    Status status;
    if (auto* fill = std::get_if<hal::FillCommand>(&command)) {
      status = Fill(*fill, executor).With("in fill (command ", i, ")");
    } else if (auto* copy = std::get_if<hal::CopyCommand>(&command)) {
      status = Copy(*copy, executor).With("in copy (command ", i, ")");
    } else if (auto* update = std::get_if<hal::UpdateCommand>(&command)) {
      status = Update(*update).With("in update (command ", i, ")");
    } else if (auto* dispatch = std::get_if<hal::DispatchCommand>(&command)) {
      ++counters.dispatches;
      trace::Scope scope("dispatch");
      if (scope.enabled()) TraceDispatch(scope, *dispatch);
      status = Dispatch(*dispatch, executor, local_memory);
      if (!status.ok()) status = status.WithContext(DispatchContext(*dispatch));
    }
    // Barriers need no work: commands already complete in order.
    KILN_RETURN_IF_ERROR(status);
  }
  return OkStatus();
}

}  // namespace kiln::cpu
