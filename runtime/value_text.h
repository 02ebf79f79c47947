// Function arguments and results as text, in iree-run-module's syntax:
//   tensors   "2x3xf32=1,2,3,4,5,6", "2x3xf32=[1 2 3][4 5 6]", "f32=2.5" (rank 0),
//             "4xi32=7" (one value fills every element)
//   scalars   "5", "2.5" for i32/i64/f32/f64 arguments
#pragma once

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

// Parses `text` as an argument of kind `kind`, allocating tensors from `allocator`.
// Errors say what was expected, quoting the text.
StatusOr<vm::Value> ParseValue(std::string_view text, vm::ValueKind kind, hal::Allocator& allocator);
StatusOr<Ref<hal::BufferView>> ParseBufferView(std::string_view text, hal::Allocator& allocator);

// "2x3xf32=[1 2 3][4 5 6]" for buffer views, "i32=5" style for scalars.
StatusOr<std::string> FormatValue(const vm::Value& value);
StatusOr<std::string> FormatBufferView(hal::BufferView& view);

// NumPy isclose semantics per element: |actual - expected| <= atol + rtol * |expected|;
// NaN matches NaN and infinities match only themselves. Shapes and element types must be
// equal. The error names the first mismatching element by its index.
Status CompareBufferViews(hal::BufferView& actual, hal::BufferView& expected, double atol, double rtol);
Status CompareValues(const vm::Value& actual, const vm::Value& expected, double atol, double rtol);

}  // namespace kiln::runtime
