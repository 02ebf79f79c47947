#include "runtime/value_text.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <span>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <vector>

#include "hal/module/hal_module.h"
#include "vm/list.h"
#include "runtime/element_values.h"
#include "runtime/value_files.h"

namespace kiln::runtime {

namespace {

// The width of a signless integer element type (i1 .. i64), or nullopt: its storage
// width, but for i1 (stored one byte per element).
std::optional<int> IntegerBits(hal::ElementType type) {
  if (!hal::IsIntegerElementType(type)) return std::nullopt;
  return type == hal::ElementType::kI1 ? 1 : hal::ElementStorageBits(type);
}

// Each of `values` is an integer a signless `type` holds: either range, as iree-run-module
// (-128 to 255 for i8); anything else would wrap or truncate silently.
Status CheckIntegerValues(hal::ElementType type, std::span<const double> values, std::string_view whole) {
  std::optional<int> bits = IntegerBits(type);
  if (!bits) return OkStatus();
  double low = -std::ldexp(1.0, *bits - 1), high = std::ldexp(1.0, *bits) - 1;
  for (double v : values) {
    if (v != std::floor(v) || std::isinf(v)) {
      return InvalidArgumentError("'", whole, "': ", v, " is not an integer (element type ", hal::ElementTypeName(type),
                                  ")");
    }
    if (*bits < 64 && (v < low || v > high)) {
      return InvalidArgumentError("'", whole, "': ", static_cast<int64_t>(v), " does not fit in ",
                                  hal::ElementTypeName(type), " (", static_cast<int64_t>(low), " to ",
                                  static_cast<int64_t>(high), ")");
    }
  }
  return OkStatus();
}

StatusOr<std::vector<double>> ParseNumbers(std::string_view text, std::string_view whole) {
  std::vector<double> values;
  std::string token;
  auto flush = [&]() -> Status {
    if (token.empty()) return OkStatus();
    double v;
    if (token == "true") {
      v = 1;
    } else if (token == "false") {
      v = 0;
    } else {
      char* end = nullptr;
      v = std::strtod(token.c_str(), &end);
      if (*end != '\0') return InvalidArgumentError("'", whole, "': '", token, "' is not a number");
    }
    values.push_back(v);
    token.clear();
    return OkStatus();
  };
  for (char c : text) {
    if (c == ',' || c == ' ' || c == '[' || c == ']' || c == '\n' || c == '\t') {
      KILN_RETURN_IF_ERROR(flush());
    } else {
      token += c;
    }
  }
  KILN_RETURN_IF_ERROR(flush());
  return values;
}

std::string FormatNumber(hal::ElementType type, double v) {
  if (hal::IsIntegerElementType(type)) return std::to_string(static_cast<int64_t>(v));
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os.precision(type == hal::ElementType::kF64 ? 17 : 9);
  os << v;
  return os.str();
}

bool IsClose(double a, double e, double atol, double rtol) {
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
  if (std::isinf(a) || std::isinf(e)) return a == e;
  return std::fabs(a - e) <= atol + rtol * std::fabs(e);
}

std::string IndexString(std::span<const int64_t> shape, size_t linear) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? static_cast<int64_t>(linear % shape[d]) : 0;
    if (shape[d]) linear /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
  return s + "]";
}

}  // namespace

Status ParseTensorType(std::string_view spec, std::vector<int64_t>& dims, hal::ElementType& type,
                       std::string_view whole) {
  dims.clear();
  size_t x;
  // The element type is the last part; "bf16" and "f8E4M3FN" contain no 'x'.
  while ((x = spec.find('x')) != std::string_view::npos) {
    std::string_view part = spec.substr(0, x);
    int64_t d = -1;
    auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), d);
    if (part.empty() || error != std::errc() || end != part.data() + part.size() || d < 0) {
      return InvalidArgumentError("'", whole, "': expected a non-negative dimension, got '", part,
                                  "' (format: 2x3xf32=1,2,3,4,5,6)");
    }
    dims.push_back(d);
    spec.remove_prefix(x + 1);
  }
  std::optional<hal::ElementType> parsed = hal::ParseElementType(spec);
  if (!parsed) return InvalidArgumentError("'", whole, "': unknown element type '", spec, "'");
  type = *parsed;
  return OkStatus();
}

StatusOr<Ref<hal::BufferView>> ParseBufferView(std::string_view text, hal::Allocator& allocator) {
  size_t eq = text.find('=');
  std::vector<int64_t> dims;
  hal::ElementType type;
  // Values omitted ("2xi32" or "2xi32=") are zeros, as in iree-run-module.
  std::string_view shape = text.substr(0, eq);
  if (Status parsed = ParseTensorType(shape, dims, type, text); !parsed.ok()) {
    if (eq != std::string_view::npos) return parsed;
    return InvalidArgumentError("'", text, "': expected SHAPExTYPE=VALUES, e.g. 2x3xf32=1,2,3,4,5,6");
  }
  if (!SupportsElementType(type)) {
    return UnimplementedError("'", text, "': element type '", hal::ElementTypeName(type),
                              "' cannot be read or written as text yet");
  }
  KILN_ASSIGN_OR_RETURN(uint64_t count, hal::ShapeElementCount(dims), "in '", text, "'");
  std::vector<double> values;
  std::string_view numbers = eq == std::string_view::npos ? std::string_view() : text.substr(eq + 1);
  if (numbers.find_first_not_of(" \t") == std::string_view::npos) {
    values.assign(count > 0 ? 1 : 0, 0.0);  // one zero for every element
  } else {
    KILN_ASSIGN_OR_RETURN(values, ParseNumbers(numbers, text));
    KILN_RETURN_IF_ERROR(CheckIntegerValues(type, values, text));
  }
  if (values.size() != count && !(values.size() == 1 && count > 0)) {
    return InvalidArgumentError("'", text, "': shape ", shape, " has ", count, " elements but ",
                                values.size(), " values were given");
  }
  // Allocated first, so that a huge shape is the allocator's error, then filled in place.
  KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, AllocateHostBufferView(allocator, type, dims), "for '", text, "'");
  KILN_ASSIGN_OR_RETURN(hal::MappedRange mapped, view->buffer()->Map(hal::MemoryAccess::kWrite));
  for (uint64_t i = 0; i < count; ++i) {
    StoreElement(type, mapped.bytes(), i, values.size() == 1 ? values[0] : values[i]);
  }
  return view;
}

StatusOr<vm::Value> ParseValue(std::string_view text, vm::ValueKind kind, hal::Allocator& allocator) {
  if (text == "(null)") {
    // iree-run-module's null: a null reference, or zero for a scalar.
    return kind == vm::ValueKind::kRef ? vm::Value::Ref({}) : vm::Value{kind, 0, {}};
  }
  if (kind == vm::ValueKind::kRef) {
    if (IsFileValue(text)) {
      FileValueReader reader;
      KILN_ASSIGN_OR_RETURN(std::vector<Ref<hal::BufferView>> views, reader.Read(text, allocator));
      if (views.size() != 1) return InvalidArgumentError("'", text, "' holds ", views.size(), " values, not one");
      return vm::Value::Ref(vm::VmRef::Make(views.front()));
    }
    KILN_ASSIGN_OR_RETURN(Ref<hal::BufferView> view, ParseBufferView(text, allocator));
    return vm::Value::Ref(vm::VmRef::Make(view));
  }
  // A scalar may be written bare ("5") or with its type ("i32=5").
  std::string_view number = text.substr(text.find('=') == std::string_view::npos ? 0 : text.find('=') + 1);
  std::string s(number);
  char* end = nullptr;
  errno = 0;
  if (kind == vm::ValueKind::kF32 || kind == vm::ValueKind::kF64) {
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') return InvalidArgumentError("'", text, "': expected a floating-point scalar");
    return kind == vm::ValueKind::kF32 ? vm::Value::F32(static_cast<float>(v)) : vm::Value::F64(v);
  }
  long long v = std::strtoll(s.c_str(), &end, 0);
  if (s.empty() || *end != '\0' || errno != 0) return InvalidArgumentError("'", text, "': expected an integer scalar");
  if (kind == vm::ValueKind::kI32) {
    if (v < INT32_MIN || v > UINT32_MAX) return InvalidArgumentError("'", text, "': does not fit in 32 bits");
    return vm::Value::I32(static_cast<int32_t>(v));
  }
  return vm::Value::I64(v);
}

// Six significant digits: "1.5", "1E-07", "NAN", "INF".
std::string PrintedNumber(hal::ElementType type, double v) {
  if (hal::IsIntegerElementType(type)) return std::to_string(static_cast<int64_t>(v));
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%G", v);
  return buffer;
}

StatusOr<std::string> FormatBufferView(hal::BufferView& view, size_t max_elements) {
  if (!SupportsElementType(view.element_type())) {
    return UnimplementedError("cannot print elements of type ", hal::ElementTypeName(view.element_type()));
  }
  std::vector<uint8_t> data(view.byte_length());
  KILN_RETURN_IF_ERROR(view.buffer()->Read(0, data), "while reading a result");
  std::string out = view.ShapeString() + "=";
  std::span<const int64_t> shape = view.shape();
  hal::ElementType type = view.element_type();
  uint64_t next = 0;
  size_t budget = max_elements;
  // "[1 2 3][4 5 6]": the innermost dimension space-separated, outer ones bracketed. Once
  // `budget` elements are printed, a row cut short ends in "..." and later rows are "[...]".
  auto row = [&](int64_t length) {
    int64_t printed = std::min<int64_t>(length, static_cast<int64_t>(budget));
    for (int64_t j = 0; j < printed; ++j) {
      if (j > 0) out += " ";
      out += PrintedNumber(type, LoadElement(type, data, next + j));
    }
    budget -= static_cast<size_t>(printed);
    next += static_cast<uint64_t>(length);
    if (printed < length) out += "...";
  };
  std::function<void(size_t)> format = [&](size_t d) {
    if (d + 1 == shape.size()) return row(shape[d]);
    for (int64_t j = 0; j < shape[d]; ++j) {
      out += "[";
      format(d + 1);
      out += "]";
    }
  };
  if (shape.empty()) {
    row(1);
  } else {
    format(0);
  }
  return out;
}

StatusOr<std::string> FormatValue(const vm::Value& value, size_t max_elements) {
  char buffer[48];
  switch (value.kind) {
    case vm::ValueKind::kI32: return "i32=" + std::to_string(value.i32());
    case vm::ValueKind::kI64: return "i64=" + std::to_string(value.i64());
    case vm::ValueKind::kF32: std::snprintf(buffer, sizeof(buffer), "f32=%g", value.f32()); return std::string(buffer);
    case vm::ValueKind::kF64: std::snprintf(buffer, sizeof(buffer), "f64=%g", value.f64()); return std::string(buffer);
    case vm::ValueKind::kRef: break;
  }
  if (!value.ref) return std::string("(null)");
  std::string out = std::string(value.ref.type()->name) + "\n";
  if (hal::BufferView* view = value.ref.As<hal::BufferView>()) {
    KILN_ASSIGN_OR_RETURN(std::string text, FormatBufferView(*view, max_elements));
    return out + text;
  }
  if (vm::List* list = value.ref.As<vm::List>()) {
    std::vector<vm::Value> elements;
    for (uint32_t i = 0; i < list->size(); ++i) {
      vm::Value element;
      element.kind = list->element_kind();
      if (element.kind == vm::ValueKind::kRef) {
        KILN_ASSIGN_OR_RETURN(element.ref, list->GetRef(i));
      } else {
        KILN_ASSIGN_OR_RETURN(element.bits, list->GetBits(i, element.kind));
      }
      elements.push_back(std::move(element));
    }
    KILN_ASSIGN_OR_RETURN(std::string text, FormatValues("child_list", elements, max_elements));
    return out + text;
  }
  return out + "(no printer)";
}

StatusOr<std::string> FormatValues(std::string_view name, std::span<const vm::Value> values, size_t max_elements) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(std::string text, FormatValue(values[i], max_elements));
    out += StrCat(name, "[", i, "]: ", text, "\n");
  }
  return out;
}

StatusOr<std::optional<BufferViewMismatch>> FindMismatch(hal::BufferView& actual, hal::BufferView& expected,
                                                         double atol, double rtol) {
  using Kind = BufferViewMismatch::Kind;
  if (actual.element_type() != expected.element_type() || !std::ranges::equal(actual.shape(), expected.shape())) {
    return BufferViewMismatch{Kind::kMetadata};
  }
  std::vector<uint8_t> a(actual.byte_length()), e(expected.byte_length());
  KILN_RETURN_IF_ERROR(actual.buffer()->Read(0, a));
  KILN_RETURN_IF_ERROR(expected.buffer()->Read(0, e));
  hal::ElementType type = actual.element_type();
  if (!SupportsElementType(type)) {
    // Elements this file cannot read (packed sub-byte, complex) can still be equal.
    if (atol != 0 || rtol != 0) {
      return UnimplementedError("cannot compare ", hal::ElementTypeName(type), " elements within a tolerance");
    }
    auto [at, _] = std::ranges::mismatch(a, e);
    if (at != a.end()) return BufferViewMismatch{Kind::kByte, static_cast<uint64_t>(at - a.begin())};
    return std::nullopt;
  }
  for (uint64_t i = 0; i < actual.element_count(); ++i) {
    double av = LoadElement(type, a, i), ev = LoadElement(type, e, i);
    bool close = hal::IsIntegerElementType(type) ? av == ev : IsClose(av, ev, atol, rtol);
    if (!close) return BufferViewMismatch{Kind::kElement, i, av, ev};
  }
  return std::nullopt;
}

Status CompareBufferViews(hal::BufferView& actual, hal::BufferView& expected, double atol, double rtol) {
  KILN_ASSIGN_OR_RETURN(std::optional<BufferViewMismatch> mismatch, FindMismatch(actual, expected, atol, rtol));
  if (!mismatch) return OkStatus();
  switch (mismatch->kind) {
    case BufferViewMismatch::Kind::kMetadata:
      return InvalidArgumentError("result is ", actual.ShapeString(), ", expected ", expected.ShapeString());
    case BufferViewMismatch::Kind::kByte:
      return InvalidArgumentError("byte ", mismatch->index, " of ", actual.ShapeString(), " differs");
    case BufferViewMismatch::Kind::kElement:
      break;
  }
  hal::ElementType type = actual.element_type();
  return InvalidArgumentError("element ", IndexString(actual.shape(), mismatch->index), " is ",
                              FormatNumber(type, mismatch->actual), ", expected ", FormatNumber(type, mismatch->expected),
                              " (atol ", atol, ", rtol ", rtol, ")");
}

Status CompareValues(const vm::Value& actual, const vm::Value& expected, double atol, double rtol) {
  if (actual.kind != expected.kind) {
    return InvalidArgumentError("result is a ", vm::ValueKindName(actual.kind), ", expected a ",
                                vm::ValueKindName(expected.kind));
  }
  bool close = false;
  switch (actual.kind) {
    case vm::ValueKind::kRef: {
      hal::BufferView* a = actual.ref.As<hal::BufferView>();
      hal::BufferView* e = expected.ref.As<hal::BufferView>();
      if (!a || !e) return InvalidArgumentError("only buffer view results can be compared");
      return CompareBufferViews(*a, *e, atol, rtol);
    }
    case vm::ValueKind::kI32: close = actual.i32() == expected.i32(); break;
    case vm::ValueKind::kI64: close = actual.i64() == expected.i64(); break;
    case vm::ValueKind::kF32: close = IsClose(actual.f32(), expected.f32(), atol, rtol); break;
    case vm::ValueKind::kF64: close = IsClose(actual.f64(), expected.f64(), atol, rtol); break;
  }
  if (close) return OkStatus();
  KILN_ASSIGN_OR_RETURN(std::string a, FormatValue(actual));
  KILN_ASSIGN_OR_RETURN(std::string e, FormatValue(expected));
  return InvalidArgumentError("result is ", a, ", expected ", e);
}

}  // namespace kiln::runtime
