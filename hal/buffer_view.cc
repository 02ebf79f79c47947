#include "hal/buffer_view.h"

namespace kiln::hal {

StatusOr<uint64_t> ShapeElementCount(std::span<const int64_t> shape) {
  uint64_t count = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) return InvalidArgumentError("dimension ", i, " is negative (", shape[i], ")");
    uint64_t dim = static_cast<uint64_t>(shape[i]);
    if (dim != 0 && count > UINT64_MAX / dim) return OutOfRangeError("the element count overflows at dimension ", i);
    count *= dim;
  }
  return count;
}

std::string ShapeString(std::span<const int64_t> shape, ElementType element_type) {
  std::string out;
  for (int64_t dim : shape) {
    out += std::to_string(dim);
    out += 'x';
  }
  out += ElementTypeName(element_type);
  return out;
}

StatusOr<Ref<BufferView>> BufferView::Create(Ref<Buffer> buffer, std::span<const int64_t> shape,
                                             ElementType element_type) {
  if (!buffer) return InvalidArgumentError("buffer view needs a buffer");
  KILN_ASSIGN_OR_RETURN(uint64_t count, ShapeElementCount(shape), "in the shape of a buffer view");
  std::optional<size_t> bytes = ElementStorageBytes(element_type, count);
  if (!bytes) return OutOfRangeError("byte size of ", count, " elements of ", ElementTypeName(element_type), " overflows");
  auto view = Ref<BufferView>(new BufferView(buffer, {shape.begin(), shape.end()}, element_type, count, *bytes));
  if (*bytes > buffer->byte_length()) {
    return InvalidArgumentError("buffer view ", view->ShapeString(), " needs ", *bytes, " bytes but its buffer has ",
                                buffer->byte_length());
  }
  return view;
}

std::string BufferView::ShapeString() const { return hal::ShapeString(shape_, element_type_); }

}  // namespace kiln::hal
