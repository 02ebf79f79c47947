// Function arguments and results as text, in iree-run-module's syntax:
//   tensors   "2x3xf32=1,2,3,4,5,6", "2x3xf32=[1 2 3][4 5 6]", "f32=2.5" (rank 0),
//             "4xi32=7" (one value fills every element)
//   scalars   "5", "2.5" for i32/i64/f32/f64 arguments
//   "(null)"  a null reference (a list argument, say), or zero for a scalar
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "hal/allocator.h"
#include "hal/buffer_view.h"
#include "vm/value.h"

namespace kiln::runtime {

// Splits a tensor type "2x3xf32" into dims and an element type; errors quote `whole`.
Status ParseTensorType(std::string_view spec, std::vector<int64_t>& dims, hal::ElementType& type,
                       std::string_view whole);

// Parses `text` as an argument of kind `kind`, allocating tensors from `allocator`;
// "(null)" is a null reference (zero for a scalar), a file value (runtime/value_files.h)
// must hold one value. Errors say what was expected, quoting the text.
StatusOr<vm::Value> ParseValue(std::string_view text, vm::ValueKind kind, hal::Allocator& allocator);
StatusOr<Ref<hal::BufferView>> ParseBufferView(std::string_view text, hal::Allocator& allocator);

// How many elements of a buffer view are printed before the rest is elided
// (iree-run-module's --output_max_element_count).
inline constexpr size_t kDefaultMaxPrintedElements = 1024;

// "2x3xf32=[1 2 3][4 5 6]", "f32=2.5" for rank 0: integers exactly, floats as C's %G, as
// iree-run-module prints them. After `max_elements` elements a row cut short ends in "..."
// and the rows after it print as "[...]".
StatusOr<std::string> FormatBufferView(hal::BufferView& view, size_t max_elements = kDefaultMaxPrintedElements);
// A value as iree-run-module prints it: "i32=5", "f32=2.5" (%g), "(null)" for a null
// reference, a reference as its type name, a newline and its contents:
//   hal.buffer_view        the buffer view ("2x2xf32=[1 2][3 4]")
//   vm.list                its elements, one a line: "child_list[0]: i32=1" (FormatValues)
//   anything else          "(no printer)"
StatusOr<std::string> FormatValue(const vm::Value& value, size_t max_elements = kDefaultMaxPrintedElements);
// "NAME[0]: <value>\n" for each value ("result[0]: hal.buffer_view\n2xf32=1 2\n").
StatusOr<std::string> FormatValues(std::string_view name, std::span<const vm::Value> values,
                                   size_t max_elements = kDefaultMaxPrintedElements);

// NumPy isclose semantics per element: |actual - expected| <= atol + rtol * |expected|;
// NaN matches NaN and infinities match only themselves. Shapes and element types must be
// equal. The error names the first mismatching element by its index.
Status CompareBufferViews(hal::BufferView& actual, hal::BufferView& expected, double atol, double rtol);

// The first difference of `actual` from `expected` (by CompareBufferViews' rules), or
// nullopt when they match; an error when they cannot be compared.
struct BufferViewMismatch {
  enum class Kind { kMetadata, kElement, kByte } kind;
  uint64_t index = 0;             // the element's (or byte's) position in row-major order
  double actual = 0, expected = 0;  // kElement: the two values
};
// An element's value as iree-run-module prints it: integers exactly, floats as C's %G.
std::string PrintedNumber(hal::ElementType type, double v);
StatusOr<std::optional<BufferViewMismatch>> FindMismatch(hal::BufferView& actual, hal::BufferView& expected,
                                                         double atol, double rtol);
Status CompareValues(const vm::Value& actual, const vm::Value& expected, double atol, double rtol);

}  // namespace kiln::runtime
