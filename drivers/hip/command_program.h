// A finalized command buffer as a hip device runs it, built once (on first submission) and
// kept with the command buffer: dispatch packet templates whose kernel arguments are already
// written to a kernarg-pool block, and copies (transfers run on the async copy engine; fills
// and updates copy from host staging made here).
//
// Kernel arguments hold device addresses of the bound buffers. Those addresses never change
// while a buffer's storage lives; a transient buffer deallocated since is caught at
// submission (Program::CheckCommitted).
#pragma once

#include <variant>
#include <vector>

#include "drivers/hip/hip_executable.h"
#include "drivers/hip/host_arena.h"
#include "hal/command_buffer.h"

namespace kiln::hip {

struct DispatchStep {
  hsa_kernel_dispatch_packet_t packet;  // everything but the header
  uint16_t setup;
  const hal::DispatchCommand* command;  // owned by the command buffer; names the dispatch in faults
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
  const std::vector<Step>& steps() const { return steps_; }
  // FAILED_PRECONDITION naming the first buffer whose transient storage is not committed.
  Status CheckCommitted() const;

 private:
  Program() = default;
  std::vector<Step> steps_;
  HostBlock kernargs_;
  std::vector<HostBlock> staging_;
  std::vector<hal::BufferStorage*> storages_;  // every storage the steps use, once
};

}  // namespace kiln::hip
