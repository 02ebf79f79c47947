// Builders of parameter file bytes for the io tests and the parameter fuzzers' seeds:
// safetensors, GGUF and raw irpa archives (including entry kinds and layouts the kiln writer
// does not produce: skip and external entries, misalignment, linked headers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/parameter_index.h"

namespace kiln::io::testing {

using Bytes = std::vector<uint8_t>;

// Little-endian bytes of a scalar, appended to `out`.
template <typename T>
void Append(Bytes& out, T value) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}
void AppendString(Bytes& out, const std::string& s);  // bytes only, no length
Bytes Iota(size_t count, uint8_t start = 0);            // start, start+1, ...
// A new empty directory under $TMPDIR (or /tmp) whose name starts with `name`.
std::string MakeTempDir(const std::string& name);
// Writes `bytes` to `path`; false on failure.
bool WriteFile(const std::string& path, const Bytes& bytes);

// Entries for the writer and the index tests (source: the file's path).
ParameterEntry DataEntry(std::string key, Ref<MappedFile> file, uint64_t offset, uint64_t length);
ParameterEntry SplatEntry(std::string key, uint64_t length, Bytes pattern);

// safetensors: the 8-byte length, `header` (padded with spaces to a multiple of 8), `data`.
Bytes SafetensorsFile(const std::string& header, const Bytes& data);
struct SafetensorsTensor {
  std::string name, dtype;
  std::vector<int64_t> shape;
  Bytes data;
};
// A well-formed file: the tensors' data back to back, in order, and a __metadata__ entry.
Bytes SafetensorsFile(const std::vector<SafetensorsTensor>& tensors);

// GGUF, version 3 unless set: key-value pairs appended raw, then tensor infos and data.
class GgufBuilder {
 public:
  explicit GgufBuilder(uint32_t version = 3) : version_(version) {}
  GgufBuilder& KvU32(const std::string& key, uint32_t value);
  GgufBuilder& KvString(const std::string& key, const std::string& value);
  // A value of any type given as its type code and raw value bytes.
  GgufBuilder& KvRaw(const std::string& key, uint32_t type, const Bytes& value);
  // A tensor with `ne` innermost first, placed at the next `alignment` multiple of the data
  // section unless `offset` is given.
  GgufBuilder& Tensor(const std::string& name, uint32_t type, std::vector<uint64_t> ne, Bytes data,
                      int64_t offset = -1);
  GgufBuilder& Alignment(uint32_t alignment);  // also writes general.alignment
  Bytes Build() const;

 private:
  struct TensorSpec {
    std::string name;
    uint32_t type;
    std::vector<uint64_t> ne;
    Bytes data;
    uint64_t offset;
  };
  uint32_t version_;
  uint32_t alignment_ = 32;
  uint64_t kv_count_ = 0;
  Bytes kv_;
  std::vector<TensorSpec> tensors_;
  uint64_t data_end_ = 0;
};
// GGUF string bytes: u64 length then the characters.
Bytes GgufString(const std::string& s);

// A raw irpa archive with one header at offset 0: entries are laid out as given.
class IrpaBuilder {
 public:
  IrpaBuilder& Data(const std::string& name, const Bytes& data, uint64_t alignment = 64);
  IrpaBuilder& Splat(const std::string& name, uint64_t length, const Bytes& pattern);
  IrpaBuilder& External(const std::string& name, const std::string& path, uint64_t offset, uint64_t length);
  IrpaBuilder& Skip(const std::string& name);
  // Stores the data of later Data entries at this extra offset in the storage segment.
  IrpaBuilder& StorageSkew(uint64_t skew) {
    skew_ = skew;
    return *this;
  }
  Bytes Build() const;

 private:
  struct EntrySpec {
    uint32_t type;
    std::string name, path;
    Bytes data, pattern;
    uint64_t alignment = 0, offset = 0, length = 0, storage_offset = 0;
  };
  std::vector<EntrySpec> entries_;
  Bytes storage_;
  uint64_t skew_ = 0;
};

}  // namespace kiln::io::testing
