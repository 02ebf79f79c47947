#include "io/irpa_format.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "io/byte_reader.h"
#include "io/irpa_layout.h"

namespace kiln::io {
namespace {

struct Range {
  uint64_t offset = 0;
  uint64_t length = 0;
};

class IrpaParser {
 public:
  IrpaParser(Ref<MappedFile> file, ParameterIndex& index)
      : file_(std::move(file)), index_(index), label_(StrCat("irpa file '", file_->path(), "'")) {}

  Status Parse() {
    uint64_t size = file_->bytes().size();
    if (size == 0) return InvalidArgumentError(label_, ": the file is empty, expected an IRPA header");
    uint64_t base = 0;
    while (true) {
      uint64_t next = 0;
      KILN_RETURN_IF_ERROR(ParseArchive(base, &next));
      if (next == 0) return OkStatus();
      uint64_t next_base = 0;
      if (!CheckedAdd(base, next, &next_base) || next_base >= size) {
        return OutOfRangeError(label_, ": the header at offset ", base, " links to a header at +", next,
                               ", past the end of the ", size, "-byte file");
      }
      base = next_base;  // strictly increasing: the walk ends
    }
  }

 private:
  ByteReader At(uint64_t offset) const { return ByteReader(file_->bytes(), label_, offset); }

  Status ReadRange(ByteReader& r, Range* out, std::string_view what) {
    KILN_RETURN_IF_ERROR(r.Read(&out->offset, what));
    return r.Read(&out->length, what);
  }

  // Segment `range` of the header at `base` must lie in the file; sets its absolute offset.
  Status CheckSegment(uint64_t base, const Range& range, std::string_view name, uint64_t* absolute) {
    uint64_t size = file_->bytes().size();
    if (!CheckedAdd(base, range.offset, absolute) || (range.length != 0 && !RangeFits(*absolute, range.length, size))) {
      return OutOfRangeError(label_, ": the ", name, " segment at +", range.offset, " of the header at ", base,
                             " (", range.length, " bytes) is past the end of the ", size, "-byte file");
    }
    return OkStatus();
  }

  Status ParseArchive(uint64_t base, uint64_t* next) {
    if (base % irpa::kHeaderAlignment != 0) {
      return InvalidArgumentError(label_, ": the header at offset ", base, " is not aligned to ",
                                  irpa::kHeaderAlignment, " bytes");
    }
    ByteReader r = At(base);
    uint32_t magic = 0;
    uint16_t major = 0, minor = 0;
    uint64_t header_size = 0, flags = 0, entry_count = 0;
    KILN_RETURN_IF_ERROR(r.Read(&magic, "the IRPA magic"));
    if (magic != irpa::kMagic) {
      return InvalidArgumentError(label_, ": expected the magic 'IRPA' at offset ", base, ", found 0x", std::hex,
                                  magic);
    }
    KILN_RETURN_IF_ERROR(r.Read(&major, "the header"));
    KILN_RETURN_IF_ERROR(r.Read(&minor, "the header"));
    KILN_RETURN_IF_ERROR(r.Read(&header_size, "the header"));
    KILN_RETURN_IF_ERROR(r.Read(next, "the header"));
    KILN_RETURN_IF_ERROR(r.Read(&flags, "the header"));
    if (major != 0 || minor != 0) {
      return UnimplementedError(label_, ": archive version ", major, ".", minor, " at offset ", base,
                                "; kiln reads version 0.0");
    }
    if (header_size != irpa::kHeaderSize) {
      return InvalidArgumentError(label_, ": the header at offset ", base, " says it has ", header_size,
                                  " bytes; a version 0 header has ", irpa::kHeaderSize);
    }
    Range entries, metadata, storage;
    KILN_RETURN_IF_ERROR(r.Read(&entry_count, "the header"));
    KILN_RETURN_IF_ERROR(ReadRange(r, &entries, "the header"));
    KILN_RETURN_IF_ERROR(ReadRange(r, &metadata, "the header"));
    KILN_RETURN_IF_ERROR(ReadRange(r, &storage, "the header"));
    uint64_t entries_at = 0;
    KILN_RETURN_IF_ERROR(CheckSegment(base, entries, "entry", &entries_at));
    KILN_RETURN_IF_ERROR(CheckSegment(base, metadata, "metadata", &metadata_at_));
    KILN_RETURN_IF_ERROR(CheckSegment(base, storage, "storage", &storage_at_));
    metadata_ = metadata;
    storage_ = storage;
    return ParseEntries(base, entry_count, entries_at, entries.length);
  }

  // The entry table of the header at `base`: `count` entries from file offset `at`, within
  // `length` bytes.
  Status ParseEntries(uint64_t base, uint64_t count, uint64_t at, uint64_t length) {
    // Linked headers' entry tables may overlap; bound the walk by what one file can hold so
    // that a file of many headers over one table cannot take quadratic time.
    const uint64_t capacity = file_->bytes().size() / irpa::kEntryHeaderSize;
    if (count > capacity - walked_) {
      return InvalidArgumentError(label_, ": the header at offset ", base, " declares ", count,
                                  " entries; with the ", walked_, " of earlier headers that is more than the ",
                                  file_->bytes().size(), "-byte file can hold");
    }
    walked_ += count;
    uint64_t offset = at, remaining = length;
    for (uint64_t i = 0; i < count; ++i) {
      if (remaining < irpa::kEntryHeaderSize) {
        return DataLossError(label_, ": entry table truncated: entry ", i, " of ", count, " needs ",
                             irpa::kEntryHeaderSize, " bytes at offset ", offset, " but the entry segment has ",
                             remaining, " left");
      }
      uint64_t entry_size = 0;
      KILN_RETURN_IF_ERROR(At(offset).Read(&entry_size, "an entry"));
      if (entry_size < irpa::kEntryHeaderSize || entry_size > remaining) {
        return DataLossError(label_, ": entry ", i, " at offset ", offset, " has size ", entry_size,
                             "; expected at least ", irpa::kEntryHeaderSize, " and at most the ", remaining,
                             " bytes left in the entry segment");
      }
      KILN_RETURN_IF_ERROR(ParseEntry(i, offset, entry_size));
      // Entries start 16-byte aligned; the last one's padding may be cut off.
      uint64_t step = std::min(entry_size + (irpa::kEntryAlignment - entry_size % irpa::kEntryAlignment) %
                                                irpa::kEntryAlignment,
                               remaining);
      offset += step;
      remaining -= step;
    }
    return OkStatus();
  }

  // A string or blob of the metadata segment.
  Status Metadata(const Range& ref, std::string_view what, std::string* out) {
    if (ref.length == 0) return OkStatus();
    if (!RangeFits(ref.offset, ref.length, metadata_.length)) {
      return OutOfRangeError(label_, ": ", what, " at [", ref.offset, ", +", ref.length,
                             ") is past the end of the ", metadata_.length, "-byte metadata segment");
    }
    const uint8_t* p = file_->bytes().data() + metadata_at_ + ref.offset;
    out->assign(reinterpret_cast<const char*>(p), static_cast<size_t>(ref.length));
    return OkStatus();
  }

  Status CheckAlignment(const ParameterEntry& e, uint64_t alignment, std::string_view entry) {
    if (alignment != 0 && e.length != 0 && e.offset % alignment != 0) {
      return InvalidArgumentError(label_, ": ", entry, " has its data at offset ", e.offset, " of '",
                                  e.file->path(), "', which is not aligned to its minimum alignment of ",
                                  alignment, " bytes");
    }
    return OkStatus();
  }

  Status ParseEntry(uint64_t i, uint64_t offset, uint64_t entry_size) {
    ByteReader r = At(offset + 8);
    uint32_t type = 0;
    uint64_t flags = 0, alignment = 0;
    Range name, metadata;
    KILN_RETURN_IF_ERROR(r.Read(&type, "an entry"));
    KILN_RETURN_IF_ERROR(r.Read(&flags, "an entry"));
    KILN_RETURN_IF_ERROR(ReadRange(r, &name, "an entry"));
    KILN_RETURN_IF_ERROR(ReadRange(r, &metadata, "an entry"));
    KILN_RETURN_IF_ERROR(r.Read(&alignment, "an entry"));
    ParameterEntry e;
    e.source = file_->path();
    KILN_RETURN_IF_ERROR(Metadata(name, StrCat("the name of entry ", i), &e.key));
    std::string entry = StrCat("entry ", i, " '", e.key, "'");
    uint64_t needed = type == irpa::kSplat ? irpa::kSplatEntrySize
                      : type == irpa::kData ? irpa::kDataEntrySize
                      : type == irpa::kExternal ? irpa::kExternalEntrySize
                                                : irpa::kEntryHeaderSize;
    if (entry_size < needed) {
      return DataLossError(label_, ": ", entry, " has size ", entry_size, "; its type ", type, " needs ", needed,
                           " bytes");
    }
    switch (type) {
      case irpa::kSkip:
        return OkStatus();
      case irpa::kSplat:
        KILN_RETURN_IF_ERROR(ReadSplat(r, entry, &e));
        break;
      case irpa::kData: {
        Range data;
        KILN_RETURN_IF_ERROR(ReadRange(r, &data, "an entry"));
        if (data.length != 0 && !RangeFits(data.offset, data.length, storage_.length)) {
          return OutOfRangeError(label_, ": ", entry, " has its data at [", data.offset, ", +", data.length,
                                 ") past the end of the ", storage_.length, "-byte storage segment");
        }
        e.file = file_;
        e.offset = data.length == 0 ? 0 : storage_at_ + data.offset;
        e.length = data.length;
        KILN_RETURN_IF_ERROR(CheckAlignment(e, alignment, entry));
        break;
      }
      case irpa::kExternal:
        KILN_RETURN_IF_ERROR(ReadExternal(r, entry, &e));
        KILN_RETURN_IF_ERROR(CheckAlignment(e, alignment, entry));
        break;
      default:
        return UnimplementedError(label_, ": ", entry, " has entry type ", type,
                                  "; kiln reads skip (0), splat (1), data (2) and external (3) entries");
    }
    return index_.Add(std::move(e));
  }

  Status ReadSplat(ByteReader& r, std::string_view entry, ParameterEntry* e) {
    std::span<const uint8_t> pattern;
    uint8_t pattern_length = 0;
    KILN_RETURN_IF_ERROR(r.Read(&e->length, "a splat entry"));
    KILN_RETURN_IF_ERROR(r.Bytes(irpa::kMaxPatternLength, &pattern, "a splat entry"));
    KILN_RETURN_IF_ERROR(r.Read(&pattern_length, "a splat entry"));
    bool power_of_two = pattern_length != 0 && (pattern_length & (pattern_length - 1)) == 0;
    if (!power_of_two || pattern_length > irpa::kMaxPatternLength || e->length % pattern_length != 0) {
      return InvalidArgumentError(label_, ": splat ", entry, " has a ", static_cast<int>(pattern_length),
                                  "-byte pattern; expected 1, 2, 4, 8 or 16 bytes dividing its length of ",
                                  e->length);
    }
    e->kind = ParameterEntry::Kind::kSplat;
    e->pattern.assign(pattern.begin(), pattern.begin() + pattern_length);
    return OkStatus();
  }

  Status ReadExternal(ByteReader& r, std::string_view entry, ParameterEntry* e) {
    Range path_ref, range;
    KILN_RETURN_IF_ERROR(ReadRange(r, &path_ref, "an external entry"));
    KILN_RETURN_IF_ERROR(ReadRange(r, &range, "an external entry"));
    std::string path;
    KILN_RETURN_IF_ERROR(Metadata(path_ref, StrCat("the path of ", entry), &path));
    if (path.empty()) return InvalidArgumentError(label_, ": external ", entry, " names no file");
    std::filesystem::path resolved(path);
    if (resolved.is_relative()) resolved = std::filesystem::path(file_->path()).parent_path() / resolved;
    std::string key = resolved.string();
    auto it = external_.find(key);
    if (it == external_.end()) {
      StatusOr<Ref<MappedFile>> opened = MappedFile::Open(key);
      if (!opened.ok()) return opened.status().With("for external ", entry, " of ", label_);
      it = external_.emplace(key, *std::move(opened)).first;
    }
    e->file = it->second;
    e->offset = range.offset;
    e->length = range.length;
    if (!RangeFits(range.offset, range.length, e->file->bytes().size())) {
      return OutOfRangeError(label_, ": external ", entry, " has its data at [", range.offset, ", +", range.length,
                             ") past the end of the ", e->file->bytes().size(), "-byte file '", key, "'");
    }
    return OkStatus();
  }

  Ref<MappedFile> file_;
  ParameterIndex& index_;
  std::string label_;
  Range metadata_, storage_;  // of the archive being parsed
  uint64_t metadata_at_ = 0, storage_at_ = 0;
  uint64_t walked_ = 0;  // entries of all headers so far
  std::map<std::string, Ref<MappedFile>> external_;
};

}  // namespace

Status ParseIrpa(Ref<MappedFile> file, ParameterIndex& index) {
  if (!file) return InvalidArgumentError("ParseIrpa: no file");
  return IrpaParser(std::move(file), index).Parse();
}

}  // namespace kiln::io
