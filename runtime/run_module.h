// iree-run-module's behaviour as a library (tools/kiln-run is a thin main over it): which
// function to call, its inputs from text and files, and what becomes of its results:
// printed, written to files, or compared with expected values. docs/tools.md shows the
// command line; value syntax is in runtime/value_text.h and runtime/value_files.h.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "hal/allocator.h"
#include "hal/element_type.h"
#include "runtime/value_text.h"
#include "vm/module.h"
#include "vm/signature.h"
#include "vm/value.h"

namespace kiln::runtime {

// How close a floating-point result must be to its expected value.
struct Tolerance {
  double atol = 1e-5, rtol = 1e-6;  // NumPy isclose: |a - e| <= atol + rtol * |e|
  // iree-run-module's --expected_f16_threshold, --expected_f32_threshold and
  // --expected_f64_threshold: when set, elements of that width (f16 and bf16 for f16)
  // match when |a - e| <= threshold, and atol and rtol do not apply to them.
  std::optional<double> f16_threshold, f32_threshold, f64_threshold;
  // (atol, rtol) for elements of `type`.
  std::pair<double, double> For(hal::ElementType type) const;
};

struct ResultOptions {
  std::vector<std::string> outputs;           // --output: one per result, or none
  std::vector<std::string> expected_outputs;  // --expected_output: one per result, or none
  Tolerance tolerance;
  size_t max_elements = kDefaultMaxPrintedElements;  // --output_max_element_count
};

// The exported function to call: `requested`, or when it is empty the module's only one
// (names starting with "__" aside, as iree-run-module does). With several the error lists
// them and asks for --function.
StatusOr<std::string> SelectFunction(const vm::Module& module, std::string_view requested);

// The arguments `specs` give (--input values, in order) for a function of `signature`:
// text, "(null)", and file values, where "*x.npy" may stand for several arguments.
StatusOr<std::vector<vm::Value>> ParseInputs(std::span<const std::string> specs, const vm::Signature& signature,
                                             hal::Allocator& allocator);

// "" when `actual` matches `expected`, else iree-run-module's report of the mismatch:
//   [FAILED] result[0]: element at index 2 (6) does not match the expected (7); expected that the view is equal to contents of a view of 3xf32
//     expected:
//   3xf32=2 4 7
//     actual:
//   3xf32=2 4 6
// Another shape or element type: "[FAILED] result[0]: metadata is f32; expected that the
// view matches 4xf32" (then the two views). Scalars: "[FAILED] result[0]: i32 values differ\n  expected: 5\n  actual: 4"; different
// kinds: "[FAILED] result[0]: variant types mismatch; expected hal.buffer_view but got i32".
StatusOr<std::string> CompareResult(size_t index, const vm::Value& actual, const vm::Value& expected,
                                    const Tolerance& tolerance, size_t max_elements = kDefaultMaxPrintedElements);

// Does with `results` what iree-run-module does, appending its text to `out`:
//  - neither outputs nor expected outputs: prints every result ("result[0]: ...").
//  - outputs: handles each result as its --output says: "" ignores it, "-" prints it
//    (without the "result[i]: " prefix), a file spec writes it.
//  - expected outputs: compares each result ("(ignored)" skips one) and reports every
//    mismatch (CompareResult), or "[SUCCESS] all function outputs matched their expected
//    values." Results are not printed.
// Returns whether every result matched (true without expected outputs). Errors are for
// bad flags (counts, specs, unwritable files), not for mismatches.
StatusOr<bool> ProcessResults(std::span<const vm::Value> results, const ResultOptions& options,
                              hal::Allocator& allocator, std::string& out);

}  // namespace kiln::runtime
