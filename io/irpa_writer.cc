#include "io/irpa_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_set>
#include <vector>

#include "io/byte_reader.h"
#include "io/format_util.h"
#include "io/irpa_layout.h"

namespace kiln::io {
namespace {

constexpr uint64_t kMaxAlignment = 1u << 20;

class HeaderBytes {
 public:
  template <typename T>
  void Put(T value) {
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    bytes_.insert(bytes_.end(), raw, raw + sizeof(T));
  }
  void PutBytes(std::span<const uint8_t> data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }
  void PadTo(uint64_t alignment) { bytes_.resize((bytes_.size() + alignment - 1) / alignment * alignment, 0); }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

Status ValidateRecords(std::span<const IrpaRecord> records) {
  std::unordered_set<std::string_view> keys;
  for (const IrpaRecord& r : records) {
    if (!keys.insert(r.key).second) return AlreadyExistsError("duplicate parameter '", r.key, "'");
    if (!r.splat) continue;
    size_t n = r.pattern.size();
    if (n == 0 || n > irpa::kMaxPatternLength || (n & (n - 1)) != 0 || r.splat_length % n != 0) {
      return InvalidArgumentError("splat parameter '", r.key, "' has a ", n,
                                  "-byte pattern; expected 1, 2, 4, 8 or 16 bytes dividing its length of ",
                                  r.splat_length);
    }
  }
  return OkStatus();
}

Status WriteAt(int fd, std::span<const uint8_t> bytes, uint64_t offset, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return UnavailableError("cannot write '", path, "': ", std::strerror(n < 0 ? errno : EIO));
    bytes = bytes.subspan(static_cast<size_t>(n));
    offset += static_cast<uint64_t>(n);
  }
  return OkStatus();
}

}  // namespace

Status WriteIrpa(const std::string& path, std::span<const ParameterEntry> entries, const IrpaWriteOptions& options) {
  std::vector<IrpaRecord> records;
  records.reserve(entries.size());
  for (const ParameterEntry& e : entries) {
    IrpaRecord r{.key = e.key};
    if (e.kind == ParameterEntry::Kind::kSplat) {
      r.splat = true;
      r.splat_length = e.length;
      r.pattern = e.pattern;
    } else {
      KILN_ASSIGN_OR_RETURN(r.data, EntryBytes(e), "while writing '", path, "'");
    }
    records.push_back(r);
  }
  return WriteIrpaRecords(path, records, options);
}

Status WriteIrpaRecords(const std::string& path, std::span<const IrpaRecord> entries, const IrpaWriteOptions& options) {
  uint64_t alignment = options.alignment;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > kMaxAlignment) {
    return InvalidArgumentError("irpa alignment ", alignment, ": expected a power of two up to ", kMaxAlignment);
  }
  KILN_RETURN_IF_ERROR(ValidateRecords(entries), "while writing '", path, "'");

  // Layout: header, entry table (16-byte aligned entries), names, then the data.
  uint64_t table_size = 0, names_size = 0, storage_size = 0;
  std::vector<uint64_t> storage_offsets;
  for (size_t i = 0; i < entries.size(); ++i) {
    bool splat = entries[i].splat;
    table_size += (splat ? irpa::kSplatEntrySize : irpa::kDataEntrySize) + irpa::kEntryAlignment - 1;
    table_size -= table_size % irpa::kEntryAlignment;
    names_size += entries[i].key.size();
    if (!splat) AlignUp(storage_size, alignment, &storage_size);
    storage_offsets.push_back(storage_size);
    storage_size += splat ? 0 : entries[i].data.size();
  }
  const uint64_t table_at = irpa::kHeaderSize + irpa::kEntryAlignment - irpa::kHeaderSize % irpa::kEntryAlignment;
  const uint64_t names_at = table_at + table_size;
  uint64_t storage_at = 0, file_size = 0;
  AlignUp(names_at + names_size, alignment, &storage_at);
  AlignUp(storage_at + storage_size, irpa::kFileAlignment, &file_size);

  HeaderBytes h;
  h.Put(irpa::kMagic);
  h.Put<uint16_t>(0);
  h.Put<uint16_t>(0);
  h.Put(irpa::kHeaderSize);
  h.Put<uint64_t>(0);  // next header
  h.Put<uint64_t>(0);  // flags
  h.Put<uint64_t>(entries.size());
  for (uint64_t v : {table_at, table_size, names_at, names_size, storage_at, storage_size}) h.Put(v);
  h.PadTo(irpa::kEntryAlignment);
  uint64_t name_offset = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const IrpaRecord& e = entries[i];
    bool splat = e.splat;
    h.Put<uint64_t>(splat ? irpa::kSplatEntrySize : irpa::kDataEntrySize);
    h.Put<uint32_t>(splat ? irpa::kSplat : irpa::kData);
    h.Put<uint64_t>(0);  // flags
    h.Put(name_offset);
    h.Put<uint64_t>(e.key.size());
    h.Put<uint64_t>(0);  // no metadata
    h.Put<uint64_t>(0);
    h.Put<uint64_t>(splat ? 0 : alignment);
    if (splat) {
      uint8_t pattern[irpa::kMaxPatternLength] = {};
      std::memcpy(pattern, e.pattern.data(), e.pattern.size());
      h.Put(e.splat_length);
      h.PutBytes(pattern);
      h.Put<uint8_t>(static_cast<uint8_t>(e.pattern.size()));
    } else {
      h.Put(storage_offsets[i]);
      h.Put<uint64_t>(e.data.size());
    }
    h.PadTo(irpa::kEntryAlignment);
    name_offset += e.key.size();
  }
  for (const IrpaRecord& e : entries) {
    h.PutBytes({reinterpret_cast<const uint8_t*>(e.key.data()), e.key.size()});
  }

  std::string temp = path + ".tmp-XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) return UnavailableError("cannot create a temporary file beside '", path, "': ", std::strerror(errno));
  Status status = WriteAt(fd, h.bytes(), 0, temp);
  for (size_t i = 0; i < entries.size() && status.ok(); ++i) {
    if (!entries[i].data.empty()) status = WriteAt(fd, entries[i].data, storage_at + storage_offsets[i], temp);
  }
  if (status.ok() && ftruncate(fd, static_cast<off_t>(file_size)) != 0) {
    status = UnavailableError("cannot size '", temp, "': ", std::strerror(errno));
  }
  if (status.ok() && fchmod(fd, 0644) != 0) status = UnavailableError("cannot chmod '", temp, "': ", std::strerror(errno));
  if (::close(fd) != 0 && status.ok()) status = UnavailableError("cannot close '", temp, "': ", std::strerror(errno));
  if (status.ok() && std::rename(temp.c_str(), path.c_str()) != 0) {
    status = UnavailableError("cannot rename '", temp, "' to '", path, "': ", std::strerror(errno));
  }
  if (!status.ok()) ::unlink(temp.c_str());
  return status;
}

}  // namespace kiln::io
