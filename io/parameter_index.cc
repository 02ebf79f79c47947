#include "io/parameter_index.h"

namespace kiln::io {

StatusOr<std::span<const uint8_t>> EntryBytes(const ParameterEntry& entry) {
  if (entry.kind != ParameterEntry::Kind::kData) {
    return FailedPreconditionError("parameter '", entry.key, "' of '", entry.source,
                                   "' is a splat: it has no bytes in a file");
  }
  if (!entry.file) return InternalError("parameter '", entry.key, "' of '", entry.source, "' has no file");
  std::span<const uint8_t> bytes = entry.file->bytes();
  if (entry.offset > bytes.size() || entry.length > bytes.size() - entry.offset) {
    return OutOfRangeError("parameter '", entry.key, "': range [", entry.offset, ", ", entry.offset + entry.length,
                           ") is past the end of the ", bytes.size(), "-byte file '", entry.file->path(), "'");
  }
  return bytes.subspan(static_cast<size_t>(entry.offset), static_cast<size_t>(entry.length));
}

Status ParameterIndex::Add(ParameterEntry entry) {
  auto it = by_key_.find(entry.key);
  if (it != by_key_.end()) {
    return AlreadyExistsError("duplicate parameter '", entry.key, "' in '", description_, "' (in '",
                              entries_[it->second].source, "' and in '", entry.source, "')");
  }
  by_key_.emplace(entry.key, entries_.size());
  entries_.push_back(std::move(entry));
  return OkStatus();
}

const ParameterEntry* ParameterIndex::Find(std::string_view key) const {
  auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : &entries_[it->second];
}

}  // namespace kiln::io
