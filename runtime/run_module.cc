#include "runtime/run_module.h"

#include <cctype>
#include <cmath>
#include <cstdio>

#include "hal/module/hal_module.h"
#include "runtime/value_files.h"

namespace kiln::runtime {

std::pair<double, double> Tolerance::For(hal::ElementType type) const {
  const std::optional<double>* threshold = nullptr;
  switch (type) {
    case hal::ElementType::kF16:
    case hal::ElementType::kBF16: threshold = &f16_threshold; break;
    case hal::ElementType::kF32: threshold = &f32_threshold; break;
    case hal::ElementType::kF64: threshold = &f64_threshold; break;
    default: break;
  }
  if (threshold && *threshold) return {**threshold, 0.0};
  return {atol, rtol};
}

StatusOr<std::string> SelectFunction(const vm::Module& module, std::string_view requested) {
  if (!requested.empty()) return std::string(requested);
  std::vector<std::string_view> names;
  for (const vm::ExportInfo& e : module.exports()) {
    if (!e.name.starts_with("__")) names.push_back(e.name);
  }
  if (names.size() == 1) return std::string(names.front());
  if (names.empty()) return InvalidArgumentError("module '", module.name(), "' exports no function to call");
  std::string list;
  for (std::string_view name : names) list += StrCat(list.empty() ? "" : ", ", name);
  return InvalidArgumentError("module '", module.name(), "' exports ", names.size(), " functions (", list,
                              "); choose one with --function=NAME");
}

namespace {

// Parses `specs` against `kinds` in order, with one file reader for all of them so that
// "+x.npy" continues where an earlier value stopped. With `allow_ignored`, "(ignored)"
// gives nullopt. `what` names the flag in errors ("--input").
StatusOr<std::vector<std::optional<vm::Value>>> ParseValueList(std::span<const std::string> specs,
                                                               std::span<const vm::ValueKind> kinds,
                                                               hal::Allocator& allocator, std::string_view what,
                                                               bool allow_ignored) {
  std::vector<std::optional<vm::Value>> values;
  FileValueReader reader;
  for (size_t i = 0; i < specs.size(); ++i) {
    std::string_view text = specs[i];
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    if (text.empty()) return InvalidArgumentError(what, " ", i, " is empty; give a value, e.g. 2x2xf32=1,2,3,4");
    size_t at = values.size();
    if (at >= kinds.size()) {
      values.emplace_back();  // counted below
      continue;
    }
    if (allow_ignored && text == "(ignored)") {
      values.emplace_back();
      continue;
    }
    if (kinds[at] == vm::ValueKind::kRef && IsFileValue(text)) {
      KILN_ASSIGN_OR_RETURN(std::vector<Ref<hal::BufferView>> views, reader.Read(text, allocator), "in ", what, " ", i);
      for (Ref<hal::BufferView>& view : views) values.emplace_back(vm::Value::Ref(vm::VmRef::Make(std::move(view))));
      continue;
    }
    KILN_ASSIGN_OR_RETURN(vm::Value value, ParseValue(text, kinds[at], allocator), "in ", what, " ", i);
    values.push_back(std::move(value));
  }
  KILN_RETURN_IF_ERROR(reader.Finish(), "in ", what);
  return values;
}

std::string KindNames(std::span<const vm::ValueKind> kinds) {
  std::string out;
  for (vm::ValueKind kind : kinds) {
    out += StrCat(out.empty() ? "" : ", ", kind == vm::ValueKind::kRef ? "ref" : vm::ValueKindName(kind));
  }
  return out;
}

// "i32", "hal.buffer_view", "(null)": what a value is, for type mismatches.
std::string TypeName(const vm::Value& value) {
  if (value.kind != vm::ValueKind::kRef) return std::string(vm::ValueKindName(value.kind));
  return value.ref ? std::string(value.ref.type()->name) : "(null)";
}

std::string ScalarText(const vm::Value& value) {
  char buffer[48];
  switch (value.kind) {
    case vm::ValueKind::kI32: return std::to_string(value.i32());
    case vm::ValueKind::kI64: return std::to_string(value.i64());
    case vm::ValueKind::kF32: std::snprintf(buffer, sizeof(buffer), "%.9G", value.f32()); return buffer;
    case vm::ValueKind::kF64: std::snprintf(buffer, sizeof(buffer), "%.17G", value.f64()); return buffer;
    case vm::ValueKind::kRef: break;
  }
  return "?";
}

bool ScalarsMatch(const vm::Value& actual, const vm::Value& expected, const Tolerance& tolerance) {
  if (actual.kind == vm::ValueKind::kI32) return actual.i32() == expected.i32();
  if (actual.kind == vm::ValueKind::kI64) return actual.i64() == expected.i64();
  bool f32 = actual.kind == vm::ValueKind::kF32;
  double a = f32 ? actual.f32() : actual.f64(), e = f32 ? expected.f32() : expected.f64();
  auto [atol, rtol] = tolerance.For(f32 ? hal::ElementType::kF32 : hal::ElementType::kF64);
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
  if (std::isinf(a) || std::isinf(e)) return a == e;
  return std::fabs(a - e) <= atol + rtol * std::fabs(e);
}

}  // namespace

StatusOr<std::vector<vm::Value>> ParseInputs(std::span<const std::string> specs, const vm::Signature& signature,
                                             hal::Allocator& allocator) {
  KILN_ASSIGN_OR_RETURN(std::vector<std::optional<vm::Value>> parsed,
                        ParseValueList(specs, signature.args, allocator, "--input", /*allow_ignored=*/false));
  if (parsed.size() != signature.args.size()) {
    return InvalidArgumentError("the function takes ", signature.args.size(), " inputs (",
                                KindNames(signature.args), "), ", parsed.size(), " were given");
  }
  std::vector<vm::Value> values;
  for (std::optional<vm::Value>& value : parsed) values.push_back(std::move(*value));
  return values;
}

StatusOr<std::string> CompareResult(size_t index, const vm::Value& actual, const vm::Value& expected,
                                    const Tolerance& tolerance, size_t max_elements) {
  std::string failed = StrCat("[FAILED] result[", index, "]: ");
  if (actual.kind != expected.kind || (actual.kind == vm::ValueKind::kRef && actual.ref.type() != expected.ref.type())) {
    return StrCat(failed, "variant types mismatch; expected ", TypeName(expected), " but got ", TypeName(actual), "\n");
  }
  if (actual.kind != vm::ValueKind::kRef) {
    if (ScalarsMatch(actual, expected, tolerance)) return std::string();
    return StrCat(failed, vm::ValueKindName(actual.kind), " values differ\n  expected: ", ScalarText(expected),
                  "\n  actual: ", ScalarText(actual), "\n");
  }
  if (!actual.ref) return std::string();  // both null
  hal::BufferView* a = actual.ref.As<hal::BufferView>();
  hal::BufferView* e = expected.ref.As<hal::BufferView>();
  if (!a || !e) return StrCat(failed, "cannot compare values of type ", TypeName(actual), "\n");
  auto [atol, rtol] = tolerance.For(a->element_type());
  KILN_ASSIGN_OR_RETURN(std::optional<BufferViewMismatch> mismatch, FindMismatch(*a, *e, atol, rtol));
  if (!mismatch) return std::string();
  // iree-run-module's words, which scripts parse.
  std::string what;
  switch (mismatch->kind) {
    case BufferViewMismatch::Kind::kMetadata:
      what = StrCat("metadata is ", a->ShapeString(), "; expected that the view matches ", e->ShapeString());
      break;
    case BufferViewMismatch::Kind::kElement:
      what = StrCat("element at index ", mismatch->index, " (", PrintedNumber(a->element_type(), mismatch->actual),
                    ") does not match the expected (", PrintedNumber(a->element_type(), mismatch->expected),
                    "); expected that the view is equal to contents of a view of ", e->ShapeString());
      break;
    case BufferViewMismatch::Kind::kByte:
      what = StrCat("byte ", mismatch->index, " does not match the expected; expected that the view is equal to "
                    "contents of a view of ", e->ShapeString());
      break;
  }
  KILN_ASSIGN_OR_RETURN(std::string expected_text, FormatBufferView(*e, max_elements));
  KILN_ASSIGN_OR_RETURN(std::string actual_text, FormatBufferView(*a, max_elements));
  return StrCat(failed, what, "\n  expected:\n", expected_text, "\n  actual:\n", actual_text, "\n");
}

StatusOr<bool> ProcessResults(std::span<const vm::Value> results, const ResultOptions& options,
                              hal::Allocator& allocator, std::string& out) {
  if (options.outputs.empty() && options.expected_outputs.empty()) {
    KILN_ASSIGN_OR_RETURN(std::string text, FormatValues("result", results, options.max_elements));
    out += text;
    return true;
  }
  if (!options.outputs.empty()) {
    if (options.outputs.size() != results.size()) {
      return InvalidArgumentError(options.outputs.size(), " --output flags given for ", results.size(), " results");
    }
    for (size_t i = 0; i < results.size(); ++i) {
      const std::string& spec = options.outputs[i];
      if (spec.empty()) continue;
      if (spec == "-") {
        KILN_ASSIGN_OR_RETURN(std::string text, FormatValue(results[i], options.max_elements));
        out += text + "\n";
        continue;
      }
      KILN_RETURN_IF_ERROR(WriteOutput(spec, results[i]), "for result ", i);
    }
  }
  if (options.expected_outputs.empty()) return true;
  if (options.expected_outputs.size() != results.size()) {
    return InvalidArgumentError(options.expected_outputs.size(), " expected outputs given for ", results.size(),
                                " results");
  }
  std::vector<vm::ValueKind> kinds;
  for (const vm::Value& result : results) kinds.push_back(result.kind);
  KILN_ASSIGN_OR_RETURN(std::vector<std::optional<vm::Value>> expected,
                        ParseValueList(options.expected_outputs, kinds, allocator, "--expected_output",
                                       /*allow_ignored=*/true));
  if (expected.size() != results.size()) {
    return InvalidArgumentError("--expected_output values stand for ", expected.size(), " results; the function returned ",
                                results.size());
  }
  bool all_matched = true;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!expected[i]) continue;  // (ignored)
    KILN_ASSIGN_OR_RETURN(std::string report,
                          CompareResult(i, results[i], *expected[i], options.tolerance, options.max_elements));
    out += report;
    all_matched = all_matched && report.empty();
  }
  if (all_matched) out += "[SUCCESS] all function outputs matched their expected values.\n";
  return all_matched;
}

}  // namespace kiln::runtime
