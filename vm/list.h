// vm.list: a growable list of one kind of value (i32, i64, f32, f64 or ref).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"
#include "vm/value.h"

namespace kiln::vm {

class List final : public RefCounted {
 public:
  static const RefType* vm_type();
  // Fails when `capacity` is larger than kMaxListSize.
  static StatusOr<Ref<List>> Create(ValueKind element_kind, uint32_t capacity);
  static constexpr uint32_t kMaxListSize = 1u << 24;

  ValueKind element_kind() const { return kind_; }
  uint32_t size() const { return static_cast<uint32_t>(kind_ == ValueKind::kRef ? refs_.size() : bits_.size()); }
  Status Resize(uint32_t size);

  // Element access; the index and kind are checked (a VM program can pass any value).
  StatusOr<uint64_t> GetBits(uint32_t index, ValueKind kind) const;
  Status SetBits(uint32_t index, ValueKind kind, uint64_t bits);
  StatusOr<VmRef> GetRef(uint32_t index) const;
  // Refuses to store a list that contains this one, directly or through other lists: the
  // cycle would keep every list in it alive forever (reference counting cannot free it).
  Status SetRef(uint32_t index, VmRef value);

 private:
  explicit List(ValueKind kind) : kind_(kind) {}
  Status Check(uint32_t index, ValueKind kind) const;
  // Whether `target` is this list or reachable from it through lists of refs.
  bool Reaches(const List* target) const;
  ValueKind kind_;
  std::vector<uint64_t> bits_;
  std::vector<VmRef> refs_;
};

// vm.buffer: read-only bytes (a rodata segment of a module) that the VM can pass around.
// Keeps its owner alive.
class ByteBuffer final : public RefCounted {
 public:
  static const RefType* vm_type();
  ByteBuffer(Ref<RefCounted> owner, std::span<const uint8_t> bytes) : owner_(std::move(owner)), bytes_(bytes) {}
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  Ref<RefCounted> owner_;
  std::span<const uint8_t> bytes_;
};

}  // namespace kiln::vm
