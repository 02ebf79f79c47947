#include "hal/device.h"

namespace kiln::hal {

Ref<CommandBuffer> Device::CreateCommandBuffer() {
  CommandBufferLimits limits;
  limits.device_tag = this;
  limits.max_workgroup_count = info().max_workgroup_count;
  return CommandBuffer::Create(limits);
}

Status Device::ValidateQueueLists(SemaphoreList wait, SemaphoreList signal) const {
  for (size_t i = 0; i < wait.size(); ++i) {
    if (!wait[i].semaphore) return InvalidArgumentError("wait semaphore ", i, " is null");
  }
  for (size_t i = 0; i < signal.size(); ++i) {
    if (!signal[i].semaphore) return InvalidArgumentError("signal semaphore ", i, " is null");
    StatusOr<uint64_t> current = signal[i].semaphore->Query();
    if (!current.ok()) return current.status().With("signal semaphore ", i, " has already failed");
    if (signal[i].value <= *current) {
      return InvalidArgumentError("signal semaphore ", i, " would be signaled to ", signal[i].value,
                                  " but is already at ", *current);
    }
  }
  return OkStatus();
}

Status Device::ValidateCommandBuffers(std::span<const Ref<CommandBuffer>> command_buffers) const {
  for (size_t i = 0; i < command_buffers.size(); ++i) {
    const Ref<CommandBuffer>& cb = command_buffers[i];
    if (!cb) return InvalidArgumentError("command buffer ", i, " is null");
    if (!cb->finalized()) return FailedPreconditionError("command buffer ", i, " is not finalized");
    if (cb->device_tag() != this) return InvalidArgumentError("command buffer ", i, " belongs to another device");
  }
  return OkStatus();
}

}  // namespace kiln::hal
