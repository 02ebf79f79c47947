#include "vm/signature.h"

namespace kiln::vm {
namespace {

std::optional<ValueKind> KindOf(char c) {
  switch (c) {
    case 'i': return ValueKind::kI32;
    case 'I': return ValueKind::kI64;
    case 'f': return ValueKind::kF32;
    case 'F': return ValueKind::kF64;
    case 'r': return ValueKind::kRef;
    default: return std::nullopt;
  }
}

}  // namespace

char ValueKindLetter(ValueKind kind) {
  switch (kind) {
    case ValueKind::kI32: return 'i';
    case ValueKind::kI64: return 'I';
    case ValueKind::kF32: return 'f';
    case ValueKind::kF64: return 'F';
    case ValueKind::kRef: return 'r';
  }
  return '?';
}

std::string_view ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kI32: return "i32";
    case ValueKind::kI64: return "i64";
    case ValueKind::kF32: return "f32";
    case ValueKind::kF64: return "f64";
    case ValueKind::kRef: return "ref";
  }
  return "?";
}

StatusOr<Signature> ParseSignature(std::string_view text) {
  Signature sig;
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return InvalidArgumentError("signature '", text, "' has no ':' between arguments and results");
  }
  std::string_view args = text.substr(0, colon), results = text.substr(colon + 1);
  bool in_group = false, had_group = false;
  for (size_t i = 0; i < args.size(); ++i) {
    char c = args[i];
    if (c == '[') {
      if (in_group || had_group) return InvalidArgumentError("signature '", text, "' has more than one variadic group");
      in_group = had_group = true;
      continue;
    }
    if (c == ']') {
      if (!in_group || sig.variadic.empty()) {
        return InvalidArgumentError("signature '", text, "' has an unmatched or empty variadic group at ", i);
      }
      if (i + 1 != args.size()) {
        return InvalidArgumentError("signature '", text, "': the variadic group must end the arguments");
      }
      in_group = false;
      continue;
    }
    std::optional<ValueKind> kind = KindOf(c);
    if (!kind) return InvalidArgumentError("signature '", text, "' has unknown type letter '", c, "' at ", i);
    (in_group ? sig.variadic : sig.args).push_back(*kind);
  }
  if (in_group) return InvalidArgumentError("signature '", text, "' has an unclosed variadic group");
  for (size_t i = 0; i < results.size(); ++i) {
    std::optional<ValueKind> kind = KindOf(results[i]);
    if (!kind) {
      return InvalidArgumentError("signature '", text, "' has unknown result letter '", results[i], "' at ",
                                  colon + 1 + i);
    }
    sig.results.push_back(*kind);
  }
  return sig;
}

bool Signature::AcceptsArgs(std::span<const ValueKind> call_args) const {
  if (call_args.size() < args.size()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (call_args[i] != args[i]) return false;
  }
  std::span<const ValueKind> rest = call_args.subspan(args.size());
  if (variadic.empty()) return rest.empty();
  if (rest.size() % variadic.size() != 0) return false;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] != variadic[i % variadic.size()]) return false;
  }
  return true;
}

std::string Signature::ToString() const {
  std::string out;
  for (ValueKind k : args) out += ValueKindLetter(k);
  if (!variadic.empty()) {
    out += '[';
    for (ValueKind k : variadic) out += ValueKindLetter(k);
    out += ']';
  }
  out += ':';
  for (ValueKind k : results) out += ValueKindLetter(k);
  return out;
}

}  // namespace kiln::vm
