#include "base/shared_object.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/elf_image.h"

namespace kiln {
namespace {

Status WriteAll(int fd, std::span<const uint8_t> data) {
  while (!data.empty()) {
    ssize_t n = write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return UnavailableError("writing the shared object to a memfd failed: ", std::strerror(errno));
    }
    data = data.subspan(static_cast<size_t>(n));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<SharedObject>> SharedObject::LoadFromMemory(std::span<const uint8_t> image,
                                                                     std::string_view debug_name) {
  KILN_RETURN_IF_ERROR(ValidateElfImage(image));
  int fd = memfd_create(StrCat("kiln:", debug_name).c_str(), MFD_CLOEXEC);
  if (fd < 0) return UnavailableError("memfd_create failed: ", std::strerror(errno));
  Status written = WriteAll(fd, image);
  if (!written.ok()) {
    close(fd);
    return written;
  }
  std::string path = StrCat("/proc/self/fd/", fd);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* error = dlerror();
    close(fd);
    return InvalidArgumentError("the system loader rejected it: ", error ? error : "unknown error");
  }
  return std::unique_ptr<SharedObject>(new SharedObject(handle, fd));
}

SharedObject::~SharedObject() {
  dlclose(handle_);
  close(memfd_);
}

void* SharedObject::Symbol(const char* name) const { return dlsym(handle_, name); }

}  // namespace kiln
