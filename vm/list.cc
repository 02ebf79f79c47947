#include "vm/list.h"

#include <unordered_set>

namespace kiln::vm {

const RefType* List::vm_type() {
  static const RefType type{"vm.list"};
  return &type;
}

const RefType* ByteBuffer::vm_type() {
  static const RefType type{"vm.buffer"};
  return &type;
}

StatusOr<Ref<List>> List::Create(ValueKind element_kind, uint32_t capacity) {
  if (capacity > kMaxListSize) return ResourceExhaustedError("list capacity ", capacity, " exceeds ", kMaxListSize);
  Ref<List> list(new List(element_kind));
  if (element_kind == ValueKind::kRef) {
    list->refs_.reserve(capacity);
  } else {
    list->bits_.reserve(capacity);
  }
  return list;
}

Status List::Resize(uint32_t size) {
  if (size > kMaxListSize) return ResourceExhaustedError("list size ", size, " exceeds ", kMaxListSize);
  if (kind_ == ValueKind::kRef) {
    refs_.resize(size);
  } else {
    bits_.resize(size, 0);
  }
  return OkStatus();
}

Status List::Check(uint32_t index, ValueKind kind) const {
  // i32/f32 and i64/f64 share storage: reading a list of i32 as f32 is a bitcast, as in
  // registers.
  bool compatible = kind == kind_ || (kind != ValueKind::kRef && kind_ != ValueKind::kRef &&
                                      SlotCount(kind) == SlotCount(kind_));
  if (!compatible) {
    return InvalidArgumentError("list of ", ValueKindName(kind_), " accessed as ", ValueKindName(kind));
  }
  if (index >= size()) return OutOfRangeError("list index ", index, " is out of range for a list of ", size());
  return OkStatus();
}

StatusOr<uint64_t> List::GetBits(uint32_t index, ValueKind kind) const {
  KILN_RETURN_IF_ERROR(Check(index, kind));
  return bits_[index];
}

Status List::SetBits(uint32_t index, ValueKind kind, uint64_t bits) {
  KILN_RETURN_IF_ERROR(Check(index, kind));
  bits_[index] = bits;
  return OkStatus();
}

StatusOr<VmRef> List::GetRef(uint32_t index) const {
  KILN_RETURN_IF_ERROR(Check(index, ValueKind::kRef));
  return refs_[index];
}

bool List::Reaches(const List* target) const {
  std::vector<const List*> pending = {this};
  std::unordered_set<const List*> seen = {this};
  while (!pending.empty()) {
    const List* list = pending.back();
    pending.pop_back();
    if (list == target) return true;
    for (const VmRef& ref : list->refs_) {
      const List* inner = ref.As<List>();
      if (inner && seen.insert(inner).second) pending.push_back(inner);
    }
  }
  return false;
}

Status List::SetRef(uint32_t index, VmRef value) {
  KILN_RETURN_IF_ERROR(Check(index, ValueKind::kRef));
  if (const List* inner = value.As<List>(); inner && inner->Reaches(this)) {
    return InvalidArgumentError("storing a list into a list it contains (directly or through other lists) would "
                                "make a reference cycle, which reference counting cannot free");
  }
  refs_[index] = std::move(value);
  return OkStatus();
}

}  // namespace kiln::vm
