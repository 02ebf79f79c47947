#include "io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

namespace kiln::io {
namespace {

constexpr std::align_val_t kHeapAlignment{64};

Status ErrnoError(int error, const std::string& what, const std::string& path) {
  std::string text = StrCat(what, " '", path, "': ", std::strerror(error));
  if (error == ENOENT) return NotFoundError(text);
  if (error == EACCES || error == EPERM) return PermissionDeniedError(text);
  if (error == ENOMEM) return ResourceExhaustedError(text);
  return UnavailableError(text);
}

}  // namespace

void MappedFile::AlignedDelete::operator()(uint8_t* p) const { ::operator delete[](p, kHeapAlignment); }

MappedFile::MappedFile(std::string path, const uint8_t* data, size_t size, bool mapped,
                       std::unique_ptr<uint8_t[], AlignedDelete> heap)
    : path_(std::move(path)), data_(data), size_(size), mapped_(mapped), heap_(std::move(heap)) {}

MappedFile::~MappedFile() {
  if (mapped_) munmap(const_cast<uint8_t*>(data_), size_);
}

void MappedFile::Prefault(std::span<const uint8_t> bytes) const {
#ifdef MADV_POPULATE_READ
  if (!mapped_ || bytes.empty() || bytes.data() < data_ || bytes.data() + bytes.size() > data_ + size_) return;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t begin = reinterpret_cast<uintptr_t>(bytes.data()) & ~(page - 1);
  uintptr_t end = reinterpret_cast<uintptr_t>(bytes.data() + bytes.size());
  // Readahead of the whole range first (asynchronous, in large requests), then the mapping.
  (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_WILLNEED);
  (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);  // best effort
#else
  (void)bytes;
#endif
}

StatusOr<Ref<MappedFile>> MappedFile::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return ErrnoError(errno, "cannot open parameter file", path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int error = errno;
    ::close(fd);
    return ErrnoError(error, "cannot stat parameter file", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgumentError("parameter file '", path, "' is not a regular file");
  }
  size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return Ref<MappedFile>(new MappedFile(path, nullptr, 0, false, nullptr));
  }
  void* data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int error = errno;
  ::close(fd);
  if (data == MAP_FAILED) return ErrnoError(error, "cannot mmap parameter file", path);
  return Ref<MappedFile>(new MappedFile(path, static_cast<const uint8_t*>(data), size, true, nullptr));
}

Ref<MappedFile> MappedFile::FromBytes(std::vector<uint8_t> bytes, std::string name) {
  std::unique_ptr<uint8_t[], AlignedDelete> heap;
  if (!bytes.empty()) {
    heap.reset(new (kHeapAlignment) uint8_t[bytes.size()]);
    std::memcpy(heap.get(), bytes.data(), bytes.size());
  }
  const uint8_t* data = heap.get();
  return Ref<MappedFile>(new MappedFile(std::move(name), data, bytes.size(), false, std::move(heap)));
}

}  // namespace kiln::io
