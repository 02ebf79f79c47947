// Calling-convention signatures: the strings that describe a function's arguments and
// results, used to verify calls and to marshal native calls.
//
//   "<args>:<results>" with one letter per value: i (i32), I (i64), f (f32), F (f64), r (ref).
//   A native import may end its arguments with one variadic group "[...]": a repeated
//   group of letters whose repetition count is chosen by each call site, e.g.
//   "rrii[i]:" takes two refs, two i32 and any number of further i32.
// Examples: "ii:i", ":", "rI[rII]:r".
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "vm/value.h"

namespace kiln::vm {

struct Signature {
  std::vector<ValueKind> args;      // fixed arguments
  std::vector<ValueKind> variadic;  // one repetition of the variadic group (empty if none)
  std::vector<ValueKind> results;

  // Whether `call_args` (what a call site passes) matches: the fixed arguments, then zero
  // or more whole repetitions of the variadic group.
  bool AcceptsArgs(std::span<const ValueKind> call_args) const;
  std::string ToString() const;
};

// The signature letter of a kind: 'i', 'I', 'f', 'F' or 'r'.
char ValueKindLetter(ValueKind kind);

// Parses a signature string; errors name the offending character.
StatusOr<Signature> ParseSignature(std::string_view text);

}  // namespace kiln::vm
