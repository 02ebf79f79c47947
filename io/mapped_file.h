// MappedFile: the bytes of a parameter file, memory-mapped read-only (never read into the
// heap), shared by every ParameterEntry that points into it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/ref.h"
#include "base/status.h"

namespace kiln::io {

class MappedFile final : public RefCounted {
 public:
  // Maps the regular file at `path` with PROT_READ and MAP_PRIVATE. An empty file maps to
  // no bytes. Errors (missing file, not a regular file, mmap failure) name the path and
  // the errno text. Opening never blocks (FIFOs and devices are refused, not read).
  // The mapping lives as long as the object; a file truncated by someone else while it is
  // mapped faults on access (SIGBUS), as with any mmap.
  static StatusOr<Ref<MappedFile>> Open(const std::string& path);
  // Heap-backed copy of `bytes` in 64-byte aligned storage, named `name` (used like a path
  // in messages and to resolve relative paths): for tests and fuzzers.
  static Ref<MappedFile> FromBytes(std::vector<uint8_t> bytes, std::string name);

  ~MappedFile() override;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  // Asks the kernel to map `bytes` (a range of bytes()) now, reading what the page cache
  // lacks (madvise MADV_POPULATE_READ): for ranges about to be used whole, such as a
  // parameter bound to a global, one call costs less than a page fault per 64 KiB later.
  // Best effort: a kernel without it (before Linux 5.14) or a heap copy does nothing.
  void Prefault(std::span<const uint8_t> bytes) const;
  // The path given to Open, or the name given to FromBytes.
  const std::string& path() const { return path_; }

 private:
  struct AlignedDelete {
    void operator()(uint8_t* p) const;
  };
  MappedFile(std::string path, const uint8_t* data, size_t size, bool mapped,
             std::unique_ptr<uint8_t[], AlignedDelete> heap);

  std::string path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;  // munmap(data_, size_) on destruction
  std::unique_ptr<uint8_t[], AlignedDelete> heap_;
};

}  // namespace kiln::io
