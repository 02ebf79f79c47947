#include "tests/util/test_kernels.h"

#include <fstream>
#include <iterator>

#ifndef KILN_KERNEL_DIR
#error "KILN_KERNEL_DIR must name the directory of the built kernels"
#endif

namespace kiln::testing {

StatusOr<std::vector<uint8_t>> ReadKernelFile(const std::string& name) {
  std::string path = StrCat(KILN_KERNEL_DIR, "/", name, ".so");
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFoundError("cannot open kernel library ", path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

StatusOr<Ref<hal::Executable>> LoadKernelLibrary(hal::Device& device, const std::string& name) {
  KILN_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ReadKernelFile(name));
  return device.CreateExecutable({hal::kExecutableFormatElfX86_64, bytes, name});
}

}  // namespace kiln::testing
