// A finalized command buffer as a hip device runs it, built once (on first submission) and
// kept with the command buffer: dispatch packet templates whose kernel arguments are already
// written to a kernarg-pool block, and copies (transfers run on the async copy engine; fills
// and updates copy from host staging made here).
//
// Kernel arguments hold device addresses of the bound buffers. Those addresses never change
// while a buffer's storage lives; a transient buffer deallocated since is caught at
// submission (Program::CheckCommitted).
//
// Dispatches of exports compiled with index checks (hal/abi/gpu_kernel_abi.h, section 3)
// also get their zeroed index check records, one per workgroup, in the same memory: a
// program with such dispatches is built again for each submission, which owns it and reads
// the records after it retires.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "drivers/hip/hip_executable.h"
#include "drivers/hip/host_arena.h"
#include "hal/abi/executable_abi.h"
#include "hal/command_buffer.h"

namespace kiln::hip {

struct DispatchStep {
  hsa_kernel_dispatch_packet_t packet;  // everything but the header
  uint16_t setup;
  const hal::DispatchCommand* command;  // owned by the command buffer; names the dispatch in faults
  // One record per workgroup (linear ids) when the export has index check sites, else null.
  const kiln_index_check_record_v2_t* index_checks;
};

// A filled index check record: the dispatch and the workgroup (linear id) that wrote it.
struct IndexCheckHit {
  const hal::DispatchCommand* command;
  uint64_t workgroup;
  kiln_index_check_record_v2_t record;
};

struct CopyStep {
  hal::Buffer* source;  // null: copy from `staging` (fills and updates)
  size_t source_offset;
  const uint8_t* staging;
  hal::Buffer* target;
  size_t target_offset;
  size_t length;
};

struct Step {
  bool barrier_before;  // an execution barrier was recorded before this command
  std::variant<DispatchStep, CopyStep> op;
};

class Program final : public RefCounted {
 public:
  // Kernel arguments and staging come from `arena` (GPU-accessible host memory).
  static StatusOr<Ref<Program>> Build(const hal::CommandBuffer& cb, HostArena& arena);
  // Whether it dispatches an export with index check sites: such a program is built for
  // each submission (the one kept with the command buffer only says so).
  bool has_index_checks() const { return !index_checks_.empty(); }
  // After the program ran: the filled record of its first dispatch (in command order) with
  // one, that of the workgroup of lowest linear id; nullopt when no check failed.
  std::optional<IndexCheckHit> FirstIndexCheck() const;
  const std::vector<Step>& steps() const { return steps_; }
  // FAILED_PRECONDITION naming the first buffer whose transient storage is not committed.
  Status CheckCommitted() const;

 private:
  Program() = default;
  std::vector<Step> steps_;
  HostBlock kernargs_;
  std::vector<HostBlock> staging_;
  std::vector<HostBlock> index_checks_;
  std::vector<hal::BufferStorage*> storages_;  // every storage the steps use, once
};

}  // namespace kiln::hip
