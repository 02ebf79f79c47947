// Intrusive reference counting for objects shared with the VM and across threads
// (buffers, buffer views, executables, command buffers, semaphores, devices, modules).
//
// A RefCounted object starts with count 0; the first Ref<T> that adopts it makes it 1.
// Create objects with MakeRef<T>(...). An object may hand out Ref(this) to keep itself
// alive (a subspan keeps its allocated buffer alive this way).
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace kiln {

class RefCounted {
 public:
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;

  void AddRef() const { count_.fetch_add(1, std::memory_order_relaxed); }
  void Release() const {
    if (count_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  // True when the caller's reference is the only one: no other thread can reach the object
  // (or take a new reference) except through the caller. Acquire: what the holders that
  // released theirs did to the object happens before.
  bool HasOneRef() const { return count_.load(std::memory_order_acquire) == 1; }
  int32_t ref_count_for_testing() const { return count_.load(std::memory_order_relaxed); }

 protected:
  RefCounted() = default;
  virtual ~RefCounted() = default;

 private:
  mutable std::atomic<int32_t> count_{0};
};

template <typename T>
class Ref {
 public:
  Ref() = default;
  Ref(std::nullptr_t) {}
  // Retains `ptr` (may be null).
  explicit Ref(T* ptr) : ptr_(ptr) {
    if (ptr_) ptr_->AddRef();
  }
  Ref(const Ref& other) : Ref(other.ptr_) {}
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  Ref(const Ref<U>& other) : Ref(other.get()) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  Ref(Ref<U>&& other) noexcept : ptr_(other.release()) {}
  ~Ref() { reset(); }

  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  void reset() {
    if (T* p = std::exchange(ptr_, nullptr)) p->Release();
  }
  // Gives up ownership without releasing; the caller now owns one reference.
  [[nodiscard]] T* release() { return std::exchange(ptr_, nullptr); }

  T* get() const { return ptr_; }
  T* operator->() const { return ptr_; }
  T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  friend bool operator==(const Ref& a, const Ref& b) { return a.ptr_ == b.ptr_; }

 private:
  T* ptr_ = nullptr;
};

template <typename T, typename... Args>
Ref<T> MakeRef(Args&&... args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

}  // namespace kiln
