#include "hal/command_buffer.h"

#include <cstring>

namespace kiln::hal {

Ref<CommandBuffer> CommandBuffer::Create(const CommandBufferLimits& limits) {
  return Ref<CommandBuffer>(new CommandBuffer(limits));
}

Status CommandBuffer::CheckRecording() const {
  if (finalized_) return FailedPreconditionError("command buffer is finalized; no more commands can be recorded");
  return OkStatus();
}

StatusOr<BufferBinding> CommandBuffer::Bind(const Ref<Buffer>& buffer, size_t offset, size_t length,
                                            BufferUsage usage, std::string_view what) const {
  if (!buffer) return InvalidArgumentError(what, " is null");
  KILN_RETURN_IF_ERROR(buffer->ValidateUsage(usage, what));
  KILN_ASSIGN_OR_RETURN(size_t resolved, buffer->ResolveRange(offset, length, what));
  return BufferBinding{buffer, offset, resolved};
}

Status CommandBuffer::Fill(const Ref<Buffer>& target, size_t offset, size_t length, const void* pattern,
                           size_t pattern_length) {
  KILN_RETURN_IF_ERROR(CheckRecording(), "while recording a fill");
  if (pattern_length != 1 && pattern_length != 2 && pattern_length != 4 && pattern_length != 8) {
    return InvalidArgumentError("fill pattern length must be 1, 2, 4 or 8 bytes, got ", pattern_length);
  }
  KILN_ASSIGN_OR_RETURN(BufferBinding binding,
                        Bind(target, offset, length, BufferUsage::kTransferTarget, "fill target"));
  if (offset % pattern_length != 0 || binding.length % pattern_length != 0) {
    return InvalidArgumentError("fill offset ", offset, " and length ", binding.length,
                                " must be multiples of the pattern length ", pattern_length);
  }
  uint64_t value = 0;
  std::memcpy(&value, pattern, pattern_length);
  commands_.push_back(FillCommand{std::move(binding), value, static_cast<uint8_t>(pattern_length)});
  return OkStatus();
}

Status CommandBuffer::Copy(const Ref<Buffer>& source, size_t source_offset, const Ref<Buffer>& target,
                           size_t target_offset, size_t length) {
  KILN_RETURN_IF_ERROR(CheckRecording(), "while recording a copy");
  KILN_ASSIGN_OR_RETURN(BufferBinding src,
                        Bind(source, source_offset, length, BufferUsage::kTransferSource, "copy source"));
  KILN_ASSIGN_OR_RETURN(BufferBinding dst,
                        Bind(target, target_offset, src.length, BufferUsage::kTransferTarget, "copy target"));
  if (Buffer::Overlap(*source, source_offset, *target, target_offset, src.length)) {
    return InvalidArgumentError("copy source [", source_offset, ", +", src.length, ") and target [", target_offset,
                                ", +", src.length, ") overlap in the same allocation");
  }
  commands_.push_back(CopyCommand{std::move(src), std::move(dst)});
  return OkStatus();
}

Status CommandBuffer::Update(std::span<const uint8_t> data, const Ref<Buffer>& target, size_t target_offset) {
  KILN_RETURN_IF_ERROR(CheckRecording(), "while recording an update");
  if (data.size() > limits_.max_update_bytes) {
    return InvalidArgumentError("update of ", data.size(), " bytes exceeds the limit of ", limits_.max_update_bytes,
                                "; use a staging buffer and a copy");
  }
  KILN_ASSIGN_OR_RETURN(BufferBinding dst,
                        Bind(target, target_offset, data.size(), BufferUsage::kTransferTarget, "update target"));
  commands_.push_back(UpdateCommand{{data.begin(), data.end()}, std::move(dst)});
  return OkStatus();
}

Status CommandBuffer::Dispatch(const Ref<Executable>& executable, uint32_t export_ordinal,
                               std::array<uint32_t, 3> workgroup_count, std::span<const uint32_t> constants,
                               std::span<const BufferBinding> bindings) {
  KILN_RETURN_IF_ERROR(CheckRecording(), "while recording a dispatch");
  if (!executable) return InvalidArgumentError("dispatch executable is null");
  if (executable->device_tag() != limits_.device_tag) {
    return InvalidArgumentError("executable '", executable->debug_name(),
                                "' was created by another device than this command buffer's");
  }
  if (export_ordinal >= executable->exports().size()) {
    return OutOfRangeError("export ordinal ", export_ordinal, " is out of range: executable '",
                           executable->debug_name(), "' has ", executable->exports().size(), " exports");
  }
  const ExportInfo& info = executable->exports()[export_ordinal];
  auto where = [&] { return StrCat("in dispatch of '", info.name, "'"); };
  for (int d = 0; d < 3; ++d) {
    if (workgroup_count[d] > limits_.max_workgroup_count[d]) {
      return InvalidArgumentError("workgroup count ", workgroup_count[d], " in dimension ", d,
                                  " exceeds the device limit ", limits_.max_workgroup_count[d])
          .With(where());
    }
  }
  if (constants.size() != info.constant_count) {
    return InvalidArgumentError("expected ", info.constant_count, " constants, got ", constants.size()).With(where());
  }
  if (bindings.size() != info.binding_count) {
    return InvalidArgumentError("expected ", info.binding_count, " bindings, got ", bindings.size()).With(where());
  }
  DispatchCommand command{executable, export_ordinal, workgroup_count, {constants.begin(), constants.end()}, {}};
  command.bindings.reserve(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(BufferBinding binding,
                          Bind(bindings[i].buffer, bindings[i].offset, bindings[i].length,
                               BufferUsage::kDispatchStorage, StrCat("binding ", i)),
                          where());
    command.bindings.push_back(std::move(binding));
  }
  commands_.push_back(std::move(command));
  ++dispatch_count_;
  return OkStatus();
}

Status CommandBuffer::ExecutionBarrier() {
  KILN_RETURN_IF_ERROR(CheckRecording(), "while recording a barrier");
  commands_.push_back(BarrierCommand{});
  return OkStatus();
}

Status CommandBuffer::Finalize() {
  KILN_RETURN_IF_ERROR(CheckRecording());
  finalized_ = true;
  return OkStatus();
}

}  // namespace kiln::hal
