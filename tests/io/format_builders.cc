#include "tests/io/format_builders.h"

#include <cstdlib>
#include <fstream>

namespace kiln::io::testing {

std::string MakeTempDir(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + name + "-XXXXXX";
  return mkdtemp(dir.data()) ? dir : "";
}

bool WriteFile(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out.flush());
}

void AppendString(Bytes& out, const std::string& s) { out.insert(out.end(), s.begin(), s.end()); }

Bytes Iota(size_t count, uint8_t start) {
  Bytes out(count);
  for (size_t i = 0; i < count; ++i) out[i] = static_cast<uint8_t>(start + i);
  return out;
}

ParameterEntry DataEntry(std::string key, Ref<MappedFile> file, uint64_t offset, uint64_t length) {
  ParameterEntry e;
  e.key = std::move(key);
  e.source = file ? file->path() : "";
  e.file = std::move(file);
  e.offset = offset;
  e.length = length;
  return e;
}

ParameterEntry SplatEntry(std::string key, uint64_t length, Bytes pattern) {
  ParameterEntry e;
  e.key = std::move(key);
  e.kind = ParameterEntry::Kind::kSplat;
  e.length = length;
  e.pattern = std::move(pattern);
  return e;
}

Bytes SafetensorsFile(const std::string& header, const Bytes& data) {
  std::string padded = header;
  while (padded.size() % 8 != 0) padded += ' ';
  Bytes out;
  Append<uint64_t>(out, padded.size());
  AppendString(out, padded);
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

Bytes SafetensorsFile(const std::vector<SafetensorsTensor>& tensors) {
  std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
  Bytes data;
  for (const SafetensorsTensor& t : tensors) {
    header += ",\"" + t.name + "\":{\"dtype\":\"" + t.dtype + "\",\"shape\":[";
    for (size_t i = 0; i < t.shape.size(); ++i) header += (i ? "," : "") + std::to_string(t.shape[i]);
    header += "],\"data_offsets\":[" + std::to_string(data.size()) + "," +
              std::to_string(data.size() + t.data.size()) + "]}";
    data.insert(data.end(), t.data.begin(), t.data.end());
  }
  return SafetensorsFile(header + "}", data);
}

Bytes GgufString(const std::string& s) {
  Bytes out;
  Append<uint64_t>(out, s.size());
  AppendString(out, s);
  return out;
}

GgufBuilder& GgufBuilder::KvRaw(const std::string& key, uint32_t type, const Bytes& value) {
  Bytes k = GgufString(key);
  kv_.insert(kv_.end(), k.begin(), k.end());
  Append<uint32_t>(kv_, type);
  kv_.insert(kv_.end(), value.begin(), value.end());
  ++kv_count_;
  return *this;
}

GgufBuilder& GgufBuilder::KvU32(const std::string& key, uint32_t value) {
  Bytes v;
  Append<uint32_t>(v, value);
  return KvRaw(key, 4, v);
}

GgufBuilder& GgufBuilder::KvString(const std::string& key, const std::string& value) {
  return KvRaw(key, 8, GgufString(value));
}

GgufBuilder& GgufBuilder::Alignment(uint32_t alignment) {
  alignment_ = alignment;
  return KvU32("general.alignment", alignment);
}

GgufBuilder& GgufBuilder::Tensor(const std::string& name, uint32_t type, std::vector<uint64_t> ne, Bytes data,
                                 int64_t offset) {
  uint64_t at = offset >= 0 ? static_cast<uint64_t>(offset) : (data_end_ + alignment_ - 1) / alignment_ * alignment_;
  if (at + data.size() > data_end_) data_end_ = at + data.size();
  tensors_.push_back({name, type, std::move(ne), std::move(data), at});
  return *this;
}

Bytes GgufBuilder::Build() const {
  Bytes out;
  AppendString(out, "GGUF");
  Append<uint32_t>(out, version_);
  Append<uint64_t>(out, tensors_.size());
  Append<uint64_t>(out, kv_count_);
  out.insert(out.end(), kv_.begin(), kv_.end());
  for (const TensorSpec& t : tensors_) {
    Bytes name = GgufString(t.name);
    out.insert(out.end(), name.begin(), name.end());
    Append<uint32_t>(out, static_cast<uint32_t>(t.ne.size()));
    for (uint64_t n : t.ne) Append<uint64_t>(out, n);
    Append<uint32_t>(out, t.type);
    Append<uint64_t>(out, t.offset);
  }
  size_t data_start = (out.size() + alignment_ - 1) / alignment_ * alignment_;
  out.resize(data_start + data_end_, 0);
  for (const TensorSpec& t : tensors_) std::copy(t.data.begin(), t.data.end(), out.begin() + data_start + t.offset);
  return out;
}

IrpaBuilder& IrpaBuilder::Data(const std::string& name, const Bytes& data, uint64_t alignment) {
  uint64_t at = (storage_.size() + 63) / 64 * 64 + skew_;
  storage_.resize(at, 0);
  storage_.insert(storage_.end(), data.begin(), data.end());
  entries_.push_back({2, name, "", data, {}, alignment, 0, data.size(), at});
  return *this;
}

IrpaBuilder& IrpaBuilder::Splat(const std::string& name, uint64_t length, const Bytes& pattern) {
  entries_.push_back({1, name, "", {}, pattern, 0, 0, length, 0});
  return *this;
}

IrpaBuilder& IrpaBuilder::External(const std::string& name, const std::string& path, uint64_t offset,
                                   uint64_t length) {
  entries_.push_back({3, name, path, {}, {}, 0, offset, length, 0});
  return *this;
}

IrpaBuilder& IrpaBuilder::Skip(const std::string& name) {
  entries_.push_back({0, name, "", {}, {}, 0, 0, 0, 0});
  return *this;
}

Bytes IrpaBuilder::Build() const {
  // Entry table at 96, names and paths after it, storage at the next 64-byte multiple.
  Bytes table, metadata;
  for (const EntrySpec& e : entries_) {
    uint64_t size = e.type == 1 ? 85 : e.type == 2 ? 76 : e.type == 3 ? 92 : 60;
    Append<uint64_t>(table, size);
    Append<uint32_t>(table, e.type);
    Append<uint64_t>(table, 0);
    Append<uint64_t>(table, metadata.size());
    Append<uint64_t>(table, e.name.size());
    AppendString(metadata, e.name);
    Append<uint64_t>(table, 0);
    Append<uint64_t>(table, 0);
    Append<uint64_t>(table, e.alignment);
    if (e.type == 1) {
      Append<uint64_t>(table, e.length);
      Bytes pattern = e.pattern;
      uint8_t n = static_cast<uint8_t>(pattern.size());
      pattern.resize(16, 0);
      table.insert(table.end(), pattern.begin(), pattern.end());
      table.push_back(n);
    } else if (e.type == 2) {
      Append<uint64_t>(table, e.storage_offset);
      Append<uint64_t>(table, e.length);
    } else if (e.type == 3) {
      Append<uint64_t>(table, metadata.size());
      Append<uint64_t>(table, e.path.size());
      AppendString(metadata, e.path);
      Append<uint64_t>(table, e.offset);
      Append<uint64_t>(table, e.length);
    }
    table.resize((table.size() + 15) / 16 * 16, 0);
  }
  uint64_t table_at = 96, metadata_at = table_at + table.size();
  uint64_t storage_at = (metadata_at + metadata.size() + 63) / 64 * 64;
  Bytes out;
  AppendString(out, "IRPA");
  Append<uint16_t>(out, 0);
  Append<uint16_t>(out, 0);
  Append<uint64_t>(out, 88);
  Append<uint64_t>(out, 0);
  Append<uint64_t>(out, 0);
  Append<uint64_t>(out, entries_.size());
  for (uint64_t v : {table_at, uint64_t{table.size()}, metadata_at, uint64_t{metadata.size()}, storage_at,
                     uint64_t{storage_.size()}}) {
    Append<uint64_t>(out, v);
  }
  out.resize(table_at, 0);
  out.insert(out.end(), table.begin(), table.end());
  out.insert(out.end(), metadata.begin(), metadata.end());
  out.resize(storage_at, 0);
  out.insert(out.end(), storage_.begin(), storage_.end());
  return out;
}

}  // namespace kiln::io::testing
