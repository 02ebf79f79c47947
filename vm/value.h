// Values the VM moves around: primitives in 32-bit register slots and typed references.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "base/ref.h"

namespace kiln::vm {

// A kind of reference the VM can hold. Each ref-able class owns one static descriptor;
// identity (the address) is the type. Native modules define their own (hal.buffer, ...).
struct RefType {
  std::string_view name;  // "vm.buffer", "hal.buffer_view"
};

// The RefType of a C++ class. Classes of the VM define a static vm_type(); classes of
// other layers (the HAL) get a specialization from the native module that exposes them,
// so they need not know the VM.
template <typename T>
const RefType* VmTypeOf() {
  return T::vm_type();
}

// A reference with its type. Null refs have no type.
class VmRef {
 public:
  VmRef() = default;
  VmRef(Ref<RefCounted> object, const RefType* type) : object_(std::move(object)), type_(object_ ? type : nullptr) {}
  template <typename T>
  static VmRef Make(Ref<T> object) {
    return VmRef(Ref<RefCounted>(std::move(object)), VmTypeOf<T>());
  }

  explicit operator bool() const { return static_cast<bool>(object_); }
  const RefType* type() const { return type_; }
  RefCounted* get() const { return object_.get(); }
  // The object as T when its type is T's, else null.
  template <typename T>
  T* As() const {
    return type_ == VmTypeOf<T>() ? static_cast<T*>(object_.get()) : nullptr;
  }
  template <typename T>
  Ref<T> AsRef() const {
    return Ref<T>(As<T>());
  }
  void reset() {
    object_.reset();
    type_ = nullptr;
  }
  friend bool operator==(const VmRef& a, const VmRef& b) { return a.object_.get() == b.object_.get(); }

 private:
  Ref<RefCounted> object_;
  const RefType* type_ = nullptr;
};

// The kinds of values in signatures, lists and native calls.
enum class ValueKind : uint8_t { kI32, kI64, kF32, kF64, kRef };
std::string_view ValueKindName(ValueKind kind);
// Slots of the 32-bit register bank a value of `kind` takes (refs take none).
inline int SlotCount(ValueKind kind) {
  return kind == ValueKind::kI64 || kind == ValueKind::kF64 ? 2 : kind == ValueKind::kRef ? 0 : 1;
}

// A primitive value as raw bits plus a ref; used to marshal native calls and results.
struct Value {
  ValueKind kind = ValueKind::kI32;
  uint64_t bits = 0;  // i32/f32 in the low 32 bits
  VmRef ref;

  static Value I32(int32_t v) { return {ValueKind::kI32, static_cast<uint32_t>(v), {}}; }
  static Value I64(int64_t v) { return {ValueKind::kI64, static_cast<uint64_t>(v), {}}; }
  static Value F32(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return {ValueKind::kF32, b, {}};
  }
  static Value F64(double v) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return {ValueKind::kF64, b, {}};
  }
  static Value Ref(VmRef r) { return {ValueKind::kRef, 0, std::move(r)}; }

  int32_t i32() const { return static_cast<int32_t>(static_cast<uint32_t>(bits)); }
  int64_t i64() const { return static_cast<int64_t>(bits); }
  float f32() const {
    float f;
    uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    return f;
  }
  double f64() const {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
};

}  // namespace kiln::vm
