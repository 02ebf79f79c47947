#include "hal/buffer.h"

#include <cstring>
#include <initializer_list>
#include <utility>

namespace kiln::hal {
namespace {

template <typename E>
std::string FlagString(E value, std::initializer_list<std::pair<E, const char*>> names) {
  std::string out;
  for (const auto& [bit, name] : names) {
    if (AllSet(value, bit)) {
      if (!out.empty()) out += '|';
      out += name;
    }
  }
  return out.empty() ? "NONE" : out;
}

}  // namespace

std::string MemoryTypeString(MemoryType type) {
  return FlagString(type, {{MemoryType::kDeviceLocal, "DEVICE_LOCAL"},
                           {MemoryType::kHostVisible, "HOST_VISIBLE"},
                           {MemoryType::kHostCoherent, "HOST_COHERENT"},
                           {MemoryType::kHostCached, "HOST_CACHED"},
                           {MemoryType::kTransient, "TRANSIENT"}});
}

std::string BufferUsageString(BufferUsage usage) {
  return FlagString(usage, {{BufferUsage::kTransferSource, "TRANSFER_SOURCE"},
                            {BufferUsage::kTransferTarget, "TRANSFER_TARGET"},
                            {BufferUsage::kDispatchStorage, "DISPATCH_STORAGE"},
                            {BufferUsage::kMapping, "MAPPING"}});
}

std::string MemoryAccessString(MemoryAccess access) {
  return FlagString(access, {{MemoryAccess::kRead, "READ"},
                             {MemoryAccess::kWrite, "WRITE"},
                             {MemoryAccess::kDiscard, "DISCARD"}});
}

Ref<Buffer> Buffer::Create(Ref<BufferStorage> storage, MemoryType memory_type, BufferUsage usage,
                           MemoryAccess allowed_access) {
  size_t size = storage->size();
  return Ref<Buffer>(new Buffer(std::move(storage), 0, size, memory_type, usage, allowed_access));
}

StatusOr<size_t> Buffer::ResolveRange(size_t offset, size_t length, std::string_view what) const {
  if (offset > byte_length_) {
    return OutOfRangeError(what, " offset ", offset, " is past the end of a buffer of ", byte_length_,
                           " bytes");
  }
  if (length == kWholeBuffer) return byte_length_ - offset;
  if (length > byte_length_ - offset) {
    return OutOfRangeError(what, " [", offset, ", ", offset, "+", length, ") exceeds a buffer of ",
                           byte_length_, " bytes");
  }
  return length;
}

Status Buffer::ValidateUsage(BufferUsage required, std::string_view what) const {
  if (AllSet(usage_, required)) return OkStatus();
  return InvalidArgumentError(what, " needs usage ", BufferUsageString(required),
                              " but was allocated with ", BufferUsageString(usage_));
}

StatusOr<Ref<Buffer>> Buffer::Subspan(size_t offset, size_t length) const {
  KILN_ASSIGN_OR_RETURN(size_t resolved, ResolveRange(offset, length, "subspan"));
  return Ref<Buffer>(new Buffer(storage_, byte_offset_ + offset, resolved, memory_type_, usage_,
                                allowed_access_));
}

StatusOr<MappedRange> Buffer::Map(MemoryAccess access, size_t offset, size_t length) {
  if (!AllSet(memory_type_, MemoryType::kHostVisible)) {
    return FailedPreconditionError("cannot map a buffer in ", MemoryTypeString(memory_type_),
                                   " memory: it is not HOST_VISIBLE; allocate it host-visible or copy "
                                   "it into a host-visible staging buffer");
  }
  KILN_RETURN_IF_ERROR(ValidateUsage(BufferUsage::kMapping, "mapping"));
  if (access == MemoryAccess::kNone || !AllSet(allowed_access_, access)) {
    return PermissionDeniedError("mapping for ", MemoryAccessString(access), " access, but the buffer allows ",
                                 MemoryAccessString(allowed_access_));
  }
  KILN_ASSIGN_OR_RETURN(size_t resolved, ResolveRange(offset, length, "mapped range"));
  KILN_ASSIGN_OR_RETURN(uint8_t * base, storage_->host_address(), "while mapping a buffer");
  return MappedRange(Ref<Buffer>(this), {base + byte_offset_ + offset, resolved});
}

Status Buffer::Read(size_t offset, std::span<uint8_t> out) {
  KILN_ASSIGN_OR_RETURN(MappedRange range, Map(MemoryAccess::kRead, offset, out.size()));
  if (!out.empty()) std::memcpy(out.data(), range.data(), out.size());  // empty spans may be null
  return OkStatus();
}

Status Buffer::Write(size_t offset, std::span<const uint8_t> data) {
  KILN_ASSIGN_OR_RETURN(MappedRange range, Map(MemoryAccess::kWrite, offset, data.size()));
  if (!data.empty()) std::memcpy(range.data(), data.data(), data.size());
  return OkStatus();
}

bool Buffer::Overlap(const Buffer& a, size_t a_offset, const Buffer& b, size_t b_offset, size_t length) {
  if (a.storage_.get() != b.storage_.get() || length == 0) return false;
  size_t a_begin = a.byte_offset_ + a_offset;
  size_t b_begin = b.byte_offset_ + b_offset;
  return a_begin < b_begin + length && b_begin < a_begin + length;
}

}  // namespace kiln::hal
