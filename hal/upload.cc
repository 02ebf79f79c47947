#include "hal/upload.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "hal/command_buffer.h"
#include "hal/semaphore.h"

namespace kiln::hal {

namespace {

bool Mappable(const Buffer& buffer) {
  return AllSet(buffer.memory_type(), MemoryType::kHostVisible) && AllSet(buffer.usage(), BufferUsage::kMapping);
}

// Runs one command buffer that `record` fills, and waits for it.
template <typename Record>
Status RunAndWait(Device& device, Record record) {
  Ref<CommandBuffer> cb = device.CreateCommandBuffer();
  KILN_RETURN_IF_ERROR(record(*cb));
  KILN_RETURN_IF_ERROR(cb->Finalize());
  Ref<Semaphore> done = Semaphore::Create(0);
  SemaphoreValue signal[] = {{done, 1}};
  Ref<CommandBuffer> cbs[] = {cb};
  KILN_RETURN_IF_ERROR(device.QueueExecute({}, signal, cbs));
  return done->Wait(1, Deadline::Infinite());
}

}  // namespace

StatusOr<Ref<Buffer>> UploadToNewBuffer(Device& device, BufferParams params, std::span<const uint8_t> bytes) {
  params.usage |= BufferUsage::kTransferTarget;
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> buffer, device.allocator().Allocate(params, bytes.size()));
  if (Mappable(*buffer)) {
    KILN_RETURN_IF_ERROR(buffer->Write(0, bytes));
    return buffer;
  }
  KILN_ASSIGN_OR_RETURN(
      Ref<Buffer> staging,
      device.allocator().Allocate({MemoryType::kHostVisible, BufferUsage::kTransferSource | BufferUsage::kMapping},
                                  bytes.size()));
  KILN_RETURN_IF_ERROR(staging->Write(0, bytes));
  KILN_RETURN_IF_ERROR(RunAndWait(device, [&](CommandBuffer& cb) { return cb.Copy(staging, 0, buffer, 0, bytes.size()); }));
  return buffer;
}

StatusOr<Ref<Buffer>> FillNewBuffer(Device& device, BufferParams params, size_t length,
                                    std::span<const uint8_t> pattern) {
  if (pattern.empty() || pattern.size() > 16 || length % pattern.size() != 0) {
    return InvalidArgumentError("cannot fill ", length, " bytes with a pattern of ", pattern.size(),
                                " bytes; expected 1 to 16 bytes dividing the length");
  }
  params.usage |= BufferUsage::kTransferTarget;
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> buffer, device.allocator().Allocate(params, length));
  if (length == 0) return buffer;
  size_t width = pattern.size();
  bool queue_fill = width == 1 || width == 2 || width == 4 || width == 8;
  if (queue_fill) {
    uint64_t bits = 0;
    std::memcpy(&bits, pattern.data(), width);
    KILN_RETURN_IF_ERROR(
        RunAndWait(device, [&](CommandBuffer& cb) { return cb.Fill(buffer, 0, length, &bits, width); }));
    return buffer;
  }
  // 3, 5..7 and 9..16 byte patterns: written from the host a chunk at a time.
  if (!Mappable(*buffer)) {
    return UnimplementedError("a ", width, "-byte fill pattern needs a host-visible buffer on this device");
  }
  KILN_ASSIGN_OR_RETURN(MappedRange range, buffer->Map(MemoryAccess::kDiscard | MemoryAccess::kWrite));
  for (size_t offset = 0; offset < length; offset += width) std::memcpy(range.data() + offset, pattern.data(), width);
  return buffer;
}

}  // namespace kiln::hal
