// x86-64 ELF shared objects loaded from memory: the bytes go to a memfd that dlopen opens,
// after ValidateElfImage. Used for the CPU executables and hip-sim's host twins.
//
// This does not make hostile code safe: a shared object is native code and runs with the
// process's rights.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "base/status.h"

namespace kiln {

class SharedObject {
 public:
  // Validates and loads `image` (copied; it need not outlive the call). Errors say what is
  // wrong with the image or what the system loader said; the caller adds which object it was.
  static StatusOr<std::unique_ptr<SharedObject>> LoadFromMemory(std::span<const uint8_t> image,
                                                                std::string_view debug_name);
  ~SharedObject();
  SharedObject(const SharedObject&) = delete;
  SharedObject& operator=(const SharedObject&) = delete;

  // The address of a dynamic symbol, or null.
  void* Symbol(const char* name) const;

 private:
  SharedObject(void* handle, int memfd) : handle_(handle), memfd_(memfd) {}
  void* handle_;
  // Held open while loaded: glibc matches dlopen paths by name, so a reused descriptor
  // number must not name a library that is still loaded.
  int memfd_;
};

}  // namespace kiln
