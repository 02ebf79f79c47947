// A buffer view: a buffer with a shape and an element type (dense, row-major). This is
// what functions take and return.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/ref.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/element_type.h"

namespace kiln::hal {

// The number of elements of `shape`; fails on a negative dimension or overflow.
StatusOr<uint64_t> ShapeElementCount(std::span<const int64_t> shape);
// "2x3xf32" (rank 0: "f32").
std::string ShapeString(std::span<const int64_t> shape, ElementType element_type);

class BufferView final : public RefCounted {
 public:
  // Fails if a dimension is negative, the element count overflows, or the buffer is
  // smaller than the shape needs.
  static StatusOr<Ref<BufferView>> Create(Ref<Buffer> buffer, std::span<const int64_t> shape,
                                          ElementType element_type);

  const Ref<Buffer>& buffer() const { return buffer_; }
  std::span<const int64_t> shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  ElementType element_type() const { return element_type_; }
  uint64_t element_count() const { return element_count_; }
  size_t byte_length() const { return byte_length_; }  // bytes the shape occupies

  // "2x3xf32"
  std::string ShapeString() const;

 private:
  BufferView(Ref<Buffer> buffer, std::vector<int64_t> shape, ElementType type, uint64_t count, size_t bytes)
      : buffer_(std::move(buffer)), shape_(std::move(shape)), element_type_(type), element_count_(count),
        byte_length_(bytes) {}

  Ref<Buffer> buffer_;
  std::vector<int64_t> shape_;
  ElementType element_type_;
  uint64_t element_count_;
  size_t byte_length_;
};

}  // namespace kiln::hal
