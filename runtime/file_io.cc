#include "runtime/file_io.h"

#include <fstream>

namespace kiln::runtime {

StatusOr<std::string> ReadFileBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return NotFoundError("cannot open '", path, "'");
  std::string bytes(static_cast<size_t>(file.tellg()), '\0');
  file.seekg(0);
  if (!file.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    return DataLossError("reading '", path, "' failed");
  }
  return bytes;
}

StatusOr<size_t> FileSize(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return NotFoundError("cannot open '", path, "'");
  return static_cast<size_t>(file.tellg());
}

Status ReadFileInto(const std::string& path, std::span<uint8_t> out, size_t offset) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFoundError("cannot open '", path, "'");
  if (!file.seekg(static_cast<std::streamoff>(offset))) return DataLossError("cannot seek to byte ", offset, " of '", path, "'");
  if (!file.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()))) {
    return DataLossError("reading ", out.size(), " bytes of '", path, "' failed");
  }
  return OkStatus();
}

Status WriteFileBytes(const std::string& path, std::string_view bytes, bool append) {
  std::ofstream file(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  if (!file) return NotFoundError("cannot open '", path, "' for writing");
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file) return DataLossError("writing '", path, "' failed");
  return OkStatus();
}

}  // namespace kiln::runtime
