// Command buffers: a recorded sequence of transfers and dispatches, validated as each
// command is recorded so that execution needs no checks beyond transient-storage state.
//
// A call that fails validation returns the reason and records nothing; the command buffer
// stays usable. Finalize() ends recording; only finalized command buffers can be submitted,
// any number of times. Commands take effect in recording order on the CPU drivers; an
// execution barrier states the ordering that a driver running commands concurrently must
// keep (commands before it complete before any after it begins).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <variant>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/executable.h"

namespace kiln::hal {

// Limits a command buffer validates against; taken from the device that creates it.
struct CommandBufferLimits {
  const void* device_tag = nullptr;  // executables must come from this device
  std::array<uint32_t, 3> max_workgroup_count = {65535, 65535, 65535};
  size_t max_update_bytes = 64 * 1024;
};

// A range of a buffer bound to a command. kWholeBuffer lengths are resolved at record time.
struct BufferBinding {
  Ref<Buffer> buffer;
  size_t offset = 0;
  size_t length = kWholeBuffer;
};

struct FillCommand {
  BufferBinding target;
  uint64_t pattern;       // low pattern_length bytes repeat
  uint8_t pattern_length; // 1, 2, 4 or 8
};
struct CopyCommand {
  BufferBinding source;
  BufferBinding target;   // same length as source
};
struct UpdateCommand {
  std::vector<uint8_t> data;  // copied at record time
  BufferBinding target;
};
struct DispatchCommand {
  Ref<Executable> executable;
  uint32_t export_ordinal;
  std::array<uint32_t, 3> workgroup_count;
  std::vector<uint32_t> constants;
  std::vector<BufferBinding> bindings;
};
struct BarrierCommand {};

using Command = std::variant<FillCommand, CopyCommand, UpdateCommand, DispatchCommand, BarrierCommand>;

class CommandBuffer final : public RefCounted {
 public:
  static Ref<CommandBuffer> Create(const CommandBufferLimits& limits);

  // Fills [offset, offset+length) with a 1, 2, 4 or 8 byte pattern; offset and length must
  // be multiples of the pattern length. Target needs TRANSFER_TARGET usage.
  Status Fill(const Ref<Buffer>& target, size_t offset, size_t length, const void* pattern,
              size_t pattern_length);
  // Copies `length` bytes; ranges must not overlap. Needs TRANSFER_SOURCE / TRANSFER_TARGET.
  Status Copy(const Ref<Buffer>& source, size_t source_offset, const Ref<Buffer>& target, size_t target_offset,
              size_t length);
  // Copies `data` into the command buffer now and into the target when executed.
  Status Update(std::span<const uint8_t> data, const Ref<Buffer>& target, size_t target_offset);
  // Dispatches a grid of workgroups of an export. Constants and bindings must match the
  // export's counts; bindings need DISPATCH_STORAGE usage. A zero count is a no-op.
  Status Dispatch(const Ref<Executable>& executable, uint32_t export_ordinal,
                  std::array<uint32_t, 3> workgroup_count, std::span<const uint32_t> constants,
                  std::span<const BufferBinding> bindings);
  Status ExecutionBarrier();
  Status Finalize();

  bool finalized() const { return finalized_; }
  const void* device_tag() const { return limits_.device_tag; }
  std::span<const Command> commands() const { return commands_; }
  size_t dispatch_count() const { return dispatch_count_; }

  // A driver's prepared form of the finalized commands (packet templates, kernel argument
  // blocks), built on the first submission and kept for the later ones. `prepare` (callable
  // as StatusOr<Ref<RefCounted>>()) runs at most once; concurrent first submissions wait for
  // it. A failed preparation is not kept. A template, so that `prepare` is never copied into
  // a std::function (an allocation per submission); once prepared, a call costs one atomic
  // load and no lock (re-submission is hot).
  template <typename Prepare>
  StatusOr<RefCounted*> Prepared(Prepare&& prepare) {
    if (RefCounted* ready = prepared_ready_.load(std::memory_order_acquire)) return ready;
    if (!finalized_) return FailedPreconditionError("only a finalized command buffer can be prepared for execution");
    std::lock_guard lock(prepared_mutex_);
    if (!prepared_) {
      KILN_ASSIGN_OR_RETURN(prepared_, prepare());
      prepared_ready_.store(prepared_.get(), std::memory_order_release);
    }
    return prepared_.get();
  }

 private:
  explicit CommandBuffer(const CommandBufferLimits& limits) : limits_(limits) {}
  Status CheckRecording() const;
  // Validates a binding's range and usage, resolving kWholeBuffer.
  StatusOr<BufferBinding> Bind(const Ref<Buffer>& buffer, size_t offset, size_t length, BufferUsage usage,
                               std::string_view what) const;

  CommandBufferLimits limits_;
  bool finalized_ = false;
  size_t dispatch_count_ = 0;
  std::vector<Command> commands_;
  std::mutex prepared_mutex_;
  Ref<RefCounted> prepared_;                       // guarded by prepared_mutex_
  std::atomic<RefCounted*> prepared_ready_{nullptr};  // prepared_.get() once set; it never changes after
};

}  // namespace kiln::hal
