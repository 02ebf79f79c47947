#include "io/json.h"

namespace kiln::io {
namespace {

class JsonParser {
 public:
  JsonParser(std::string_view text, std::string_view name, uint64_t base) : text_(text), name_(name), base_(base) {}

  StatusOr<JsonValue> ParseDocument() {
    JsonValue value;
    KILN_RETURN_IF_ERROR(ParseValue(&value, 0));
    SkipWhitespace();
    if (pos_ != text_.size()) return Error("unexpected text after the JSON value");
    return value;
  }

 private:
  Status Error(std::string_view what) const {
    return InvalidArgumentError(name_, ": bad JSON at byte ", base_ + pos_, ": ", what);
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }
  void SkipWhitespace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) ++pos_;
  }
  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Status ParseValue(JsonValue* out, int depth) {
    SkipWhitespace();
    if (AtEnd()) return Error("expected a value, found the end of the text");
    if (++values_ > kMaxJsonValues) return Error(StrCat("more than ", kMaxJsonValues, " values"));
    out->offset = base_ + pos_;
    char c = Peek();
    if (c == '{' || c == '[') {
      if (depth >= kMaxJsonDepth) return Error(StrCat("nesting deeper than ", kMaxJsonDepth, " levels"));
      return c == '{' ? ParseObject(out, depth) : ParseArray(out, depth);
    }
    if (c == '"') {
      out->type = JsonValue::Type::kString;
      return ParseString(&out->text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
    if (Consume("true")) {
      out->type = JsonValue::Type::kBool;
      out->boolean = true;
      return OkStatus();
    }
    if (Consume("false")) {
      out->type = JsonValue::Type::kBool;
      return OkStatus();
    }
    if (Consume("null")) return OkStatus();
    return Error(StrCat("expected a value, found '", text_.substr(pos_, 1), "'"));
  }

  // Consumes the opening bracket; true (and consumes `close`) when the container is empty.
  bool OpenEmpty(char close) {
    ++pos_;
    SkipWhitespace();
    if (AtEnd() || Peek() != close) return false;
    ++pos_;
    return true;
  }
  // After an item of an object or array: ',' (another follows) or `close` (`*done`).
  Status Separator(char close, std::string_view container, bool* done) {
    SkipWhitespace();
    if (AtEnd() || (Peek() != ',' && Peek() != close)) {
      return Error(StrCat("expected ',' or '", close, "' in ", container));
    }
    *done = Peek() == close;
    ++pos_;
    return OkStatus();
  }

  Status ParseObject(JsonValue* out, int depth) {
    out->type = JsonValue::Type::kObject;
    if (OpenEmpty('}')) return OkStatus();
    for (bool done = false; !done;) {
      SkipWhitespace();
      if (AtEnd() || Peek() != '"') return Error("expected a member name in double quotes");
      JsonMember member;
      KILN_RETURN_IF_ERROR(ParseString(&member.name));
      SkipWhitespace();
      if (AtEnd() || Peek() != ':') return Error("expected ':' after a member name");
      ++pos_;
      KILN_RETURN_IF_ERROR(ParseValue(&member.value, depth + 1));
      out->members.push_back(std::move(member));
      KILN_RETURN_IF_ERROR(Separator('}', "an object", &done));
    }
    return OkStatus();
  }

  Status ParseArray(JsonValue* out, int depth) {
    out->type = JsonValue::Type::kArray;
    if (OpenEmpty(']')) return OkStatus();
    for (bool done = false; !done;) {
      JsonValue item;
      KILN_RETURN_IF_ERROR(ParseValue(&item, depth + 1));
      out->items.push_back(std::move(item));
      KILN_RETURN_IF_ERROR(Separator(']', "an array", &done));
    }
    return OkStatus();
  }

  Status ParseNumber(JsonValue* out) {
    size_t start = pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (!AtEnd() && Peek() >= '0' && Peek() <= '9') ++pos_;
      return pos_ - from;
    };
    if (Peek() == '-') ++pos_;
    if (!AtEnd() && Peek() == '0') {
      ++pos_;
    } else if (digits() == 0) {
      return Error("expected digits in a number");
    }
    if (!AtEnd() && Peek() == '.') {
      ++pos_;
      if (digits() == 0) return Error("expected digits after '.' in a number");
    }
    if (!AtEnd() && (Peek() == 'e' || Peek() == 'E')) {
      ++pos_;
      if (!AtEnd() && (Peek() == '+' || Peek() == '-')) ++pos_;
      if (digits() == 0) return Error("expected digits in a number's exponent");
    }
    out->type = JsonValue::Type::kNumber;
    out->text = std::string(text_.substr(start, pos_ - start));
    return OkStatus();
  }

  // Four hex digits of a \u escape.
  Status ParseHex4(uint32_t* out) {
    if (text_.size() - pos_ < 4) return Error("truncated \\u escape");
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text_[pos_ + i];
      uint32_t digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 16;
      if (digit == 16) return Error("bad hex digit in a \\u escape");
      value = value * 16 + digit;
    }
    pos_ += 4;
    *out = value;
    return OkStatus();
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Status ParseEscape(std::string* out) {
    if (AtEnd()) return Error("unterminated string");
    char c = text_[pos_++];
    switch (c) {
      case '"': case '\\': case '/': out->push_back(c); return OkStatus();
      case 'b': out->push_back('\b'); return OkStatus();
      case 'f': out->push_back('\f'); return OkStatus();
      case 'n': out->push_back('\n'); return OkStatus();
      case 'r': out->push_back('\r'); return OkStatus();
      case 't': out->push_back('\t'); return OkStatus();
      case 'u': break;
      default: --pos_; return Error(StrCat("bad escape '\\", std::string_view(&c, 1), "' in a string"));
    }
    uint32_t cp = 0;
    KILN_RETURN_IF_ERROR(ParseHex4(&cp));
    if (cp >= 0xDC00 && cp <= 0xDFFF) return Error("unpaired low surrogate in a \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      uint32_t low = 0;
      if (!Consume("\\u")) return Error("high surrogate not followed by a \\u low surrogate");
      KILN_RETURN_IF_ERROR(ParseHex4(&low));
      if (low < 0xDC00 || low > 0xDFFF) return Error("high surrogate not followed by a low surrogate");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(cp, out);
    return OkStatus();
  }

  // Length of the valid UTF-8 sequence starting at pos_ (a byte >= 0x80), or 0.
  size_t Utf8Length() const {
    auto byte = [&](size_t i) { return static_cast<uint8_t>(text_[pos_ + i]); };
    uint8_t b0 = byte(0);
    size_t n = b0 >= 0xC2 && b0 <= 0xDF ? 2 : b0 >= 0xE0 && b0 <= 0xEF ? 3 : b0 >= 0xF0 && b0 <= 0xF4 ? 4 : 0;
    if (n == 0 || text_.size() - pos_ < n) return 0;
    for (size_t i = 1; i < n; ++i) {
      if ((byte(i) & 0xC0) != 0x80) return 0;
    }
    uint8_t b1 = byte(1);
    if ((b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F) || (b0 == 0xF0 && b1 < 0x90) ||
        (b0 == 0xF4 && b1 > 0x8F)) {
      return 0;  // overlong, surrogate or past U+10FFFF
    }
    return n;
  }

  Status ParseString(std::string* out) {
    ++pos_;  // '"'
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      uint8_t c = static_cast<uint8_t>(Peek());
      if (c == '"') {
        ++pos_;
        return OkStatus();
      }
      if (c < 0x20) return Error("control character in a string");
      if (c == '\\') {
        ++pos_;
        KILN_RETURN_IF_ERROR(ParseEscape(out));
        continue;
      }
      size_t n = c < 0x80 ? 1 : Utf8Length();
      if (n == 0) return Error("invalid UTF-8 in a string");
      out->append(text_.substr(pos_, n));
      pos_ += n;
    }
  }

  std::string_view text_;
  std::string_view name_;
  uint64_t base_;
  size_t pos_ = 0;
  uint64_t values_ = 0;
};

}  // namespace

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& [name, value] : members) {
    if (name == key) return &value;
  }
  return nullptr;
}

std::optional<uint64_t> JsonValue::AsUint64() const {
  if (type != Type::kNumber || text.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    if (value > (UINT64_MAX - static_cast<uint64_t>(c - '0')) / 10) return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

std::string_view JsonTypeName(JsonValue::Type type) {
  switch (type) {
    case JsonValue::Type::kNull: return "null";
    case JsonValue::Type::kBool: return "a boolean";
    case JsonValue::Type::kNumber: return "a number";
    case JsonValue::Type::kString: return "a string";
    case JsonValue::Type::kArray: return "an array";
    case JsonValue::Type::kObject: return "an object";
  }
  return "a value";
}

StatusOr<JsonValue> ParseJson(std::string_view text, std::string_view name, uint64_t base_offset) {
  return JsonParser(text, name, base_offset).ParseDocument();
}

}  // namespace kiln::io
