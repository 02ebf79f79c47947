// Buffers: a byte range of one allocation, with the memory type it lives in, the usages it
// was allocated for and the access it permits. Subspans share the allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "base/ref.h"
#include "base/status.h"
#include "hal/bitflags.h"

namespace kiln::hal {

enum class MemoryType : uint32_t {
  kNone = 0,
  kDeviceLocal = 1u << 0,   // fast for the device
  kHostVisible = 1u << 1,   // can be mapped by the host
  kHostCoherent = 1u << 2,  // host writes are visible without flushes
  kHostCached = 1u << 3,
  kTransient = 1u << 4,     // from queue_alloca; valid between alloca and dealloca
};
KILN_BITFLAGS(MemoryType)

enum class BufferUsage : uint32_t {
  kNone = 0,
  kTransferSource = 1u << 0,
  kTransferTarget = 1u << 1,
  kDispatchStorage = 1u << 2,
  kMapping = 1u << 3,
  kTransfer = kTransferSource | kTransferTarget,
  // What an allocation gets unless it asks otherwise: everything but host mapping.
  kDefault = kTransfer | kDispatchStorage,
};
KILN_BITFLAGS(BufferUsage)

enum class MemoryAccess : uint32_t {
  kNone = 0,
  kRead = 1u << 0,
  kWrite = 1u << 1,
  kDiscard = 1u << 2,  // prior contents need not be preserved (implies write)
  kAll = kRead | kWrite | kDiscard,
};
KILN_BITFLAGS(MemoryAccess)

std::string MemoryTypeString(MemoryType type);    // "DEVICE_LOCAL|HOST_VISIBLE"
std::string BufferUsageString(BufferUsage usage); // "TRANSFER_SOURCE|DISPATCH_STORAGE"
std::string MemoryAccessString(MemoryAccess access);

// Passed as a length to mean "to the end of the buffer".
inline constexpr size_t kWholeBuffer = SIZE_MAX;

// The driver's backing memory of one allocation. Buffers and subspans share it.
class BufferStorage : public RefCounted {
 public:
  size_t size() const { return size_; }
  // Base address of the allocation as the device's kernels see it; null while the storage
  // is not committed (a transient buffer before its alloca completes or after its dealloca).
  virtual uint8_t* device_address() = 0;
  // Base address for host access. Only called for host-visible memory; may fail like
  // device_address when not committed.
  virtual StatusOr<uint8_t*> host_address() = 0;

 protected:
  explicit BufferStorage(size_t size) : size_(size) {}

 private:
  size_t size_;
};

class Buffer;

// A host view of a mapped buffer range; unmaps when destroyed. Keeps the buffer alive.
class MappedRange {
 public:
  MappedRange() = default;
  MappedRange(MappedRange&&) = default;
  MappedRange& operator=(MappedRange&&) = default;

  std::span<uint8_t> bytes() const { return bytes_; }
  uint8_t* data() const { return bytes_.data(); }
  size_t size() const { return bytes_.size(); }
  // The range as elements of T; the size must be a multiple of sizeof(T).
  template <typename T>
  std::span<T> As() const {
    return {reinterpret_cast<T*>(bytes_.data()), bytes_.size() / sizeof(T)};
  }

 private:
  friend class Buffer;
  MappedRange(Ref<Buffer> buffer, std::span<uint8_t> bytes) : buffer_(std::move(buffer)), bytes_(bytes) {}
  Ref<Buffer> buffer_;
  std::span<uint8_t> bytes_;
};

class Buffer final : public RefCounted {
 public:
  // For drivers: wraps `storage` as a whole-allocation buffer.
  static Ref<Buffer> Create(Ref<BufferStorage> storage, MemoryType memory_type, BufferUsage usage,
                            MemoryAccess allowed_access);

  MemoryType memory_type() const { return memory_type_; }
  BufferUsage usage() const { return usage_; }
  MemoryAccess allowed_access() const { return allowed_access_; }
  size_t byte_offset() const { return byte_offset_; }  // within the allocation
  size_t byte_length() const { return byte_length_; }
  BufferStorage* storage() const { return storage_.get(); }

  // A buffer for [offset, offset+length) of this one (kWholeBuffer: to the end).
  StatusOr<Ref<Buffer>> Subspan(size_t offset, size_t length) const;

  // Resolves a range of this buffer: fails if it does not fit; kWholeBuffer means "to the
  // end". Returns the resolved length. `what` names the range in the error ("binding 2").
  StatusOr<size_t> ResolveRange(size_t offset, size_t length, std::string_view what = "range") const;
  // Fails unless this buffer was allocated with every usage bit in `required`.
  Status ValidateUsage(BufferUsage required, std::string_view what = "buffer") const;

  // Maps [offset, offset+length) for host access. Fails for memory that is not host
  // visible, buffers without kMapping usage, access the buffer does not allow, out-of-range
  // ranges and uncommitted transient storage.
  StatusOr<MappedRange> Map(MemoryAccess access, size_t offset = 0, size_t length = kWholeBuffer);

  // Convenience for tests and tools: copies between host memory and a mappable buffer.
  Status Read(size_t offset, std::span<uint8_t> out);
  Status Write(size_t offset, std::span<const uint8_t> data);

  // True when both buffers share an allocation and their byte ranges overlap.
  static bool Overlap(const Buffer& a, size_t a_offset, const Buffer& b, size_t b_offset, size_t length);

 private:
  Buffer(Ref<BufferStorage> storage, size_t offset, size_t length, MemoryType type, BufferUsage usage,
         MemoryAccess access)
      : storage_(std::move(storage)), byte_offset_(offset), byte_length_(length), memory_type_(type),
        usage_(usage), allowed_access_(access) {}

  Ref<BufferStorage> storage_;
  size_t byte_offset_;
  size_t byte_length_;
  MemoryType memory_type_;
  BufferUsage usage_;
  MemoryAccess allowed_access_;
};

}  // namespace kiln::hal
