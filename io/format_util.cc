#include "io/format_util.h"

#include <algorithm>
#include <vector>

namespace kiln::io {

Status CheckNoOverlap(std::span<const ParameterEntry> entries, std::string_view label) {
  std::vector<const ParameterEntry*> data;
  for (const ParameterEntry& e : entries) {
    if (e.kind == ParameterEntry::Kind::kData && e.length != 0) data.push_back(&e);
  }
  std::sort(data.begin(), data.end(), [](const ParameterEntry* a, const ParameterEntry* b) {
    if (a->file.get() != b->file.get()) return a->file.get() < b->file.get();
    return a->offset < b->offset;
  });
  for (size_t i = 1; i < data.size(); ++i) {
    const ParameterEntry& a = *data[i - 1];
    const ParameterEntry& b = *data[i];
    if (a.file.get() == b.file.get() && b.offset < a.offset + a.length) {
      return InvalidArgumentError(label, ": tensors '", a.key, "' [", a.offset, ", ", a.offset + a.length, ") and '",
                                  b.key, "' [", b.offset, ", ", b.offset + b.length, ") overlap");
    }
  }
  return OkStatus();
}

bool AlignUp(uint64_t value, uint64_t alignment, uint64_t* out) {
  uint64_t sum = 0;
  if (!CheckedAdd(value, alignment - 1, &sum)) return false;
  *out = sum & ~(alignment - 1);
  return true;
}

std::string ShapeText(std::span<const int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += StrCat(i ? "," : "", shape[i]);
  return text + "]";
}

}  // namespace kiln::io
