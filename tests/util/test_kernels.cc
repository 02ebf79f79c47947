#include "tests/util/test_kernels.h"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "hal/abi/gpu_executable_generated.h"
#include "hal/abi/gpu_kernel_abi.h"

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

std::vector<uint8_t> GpuTestContainer(const GpuContainerOptions& options) {
  flatbuffers::FlatBufferBuilder builder;
  std::vector<flatbuffers::Offset<gpu_abi::GpuExportDef>> exports;
  // test_kernels.c's check_index sites, for the checked kernels.
  const std::vector<std::string> check_sites = {"dimension 0 of the source of a gather",
                                                "dimension 1 of the original of a scatter"};
#define KILN_GPU_TEST_KERNEL(name, b, c, x, y, z, lds, loc, checked)                                          \
  {                                                                                                            \
    const char* location = loc;                                                                               \
    auto size = builder.CreateVector(std::vector<uint32_t>{x, y, z});                                         \
    auto where = location ? builder.CreateString(location) : 0;                                               \
    auto sites = (checked) ? builder.CreateVectorOfStrings(check_sites) : 0;                                  \
    exports.push_back(gpu_abi::CreateGpuExportDef(builder, builder.CreateString(#name), b, c, size, lds, where, \
                                                  0, 0, 0, 0, 0, sites));                                      \
  }
#include "tests/kernels/gpu_test_kernels.def"
#undef KILN_GPU_TEST_KERNEL
  auto bytes = [&](const std::vector<uint8_t>& v) {
    builder.ForceVectorAlignment(v.size(), 1, 16);
    return builder.CreateVector(v);
  };
  auto hsaco = bytes(options.hsaco);
  auto twin = bytes(options.host_twin);
  auto def = gpu_abi::CreateGpuExecutableDef(
      builder, options.abi_version ? options.abi_version : KILN_GPU_KERNEL_ABI_VERSION,
      builder.CreateString(options.target), options.wavefront_size, builder.CreateVector(exports), hsaco, twin);
  gpu_abi::FinishGpuExecutableDefBuffer(builder, def);
  return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

StatusOr<std::vector<uint8_t>> GpuTestKernels(const std::string& chip, uint32_t wavefront_size) {
  GpuContainerOptions options;
  options.target = chip;
  options.wavefront_size = wavefront_size;
  KILN_ASSIGN_OR_RETURN(options.host_twin, ReadKernelFile("gpu_test_kernels_" + chip));
  return GpuTestContainer(options);
}

StatusOr<Ref<hal::Executable>> LoadKernelLibrary(hal::Device& device, const std::string& name) {
  const auto& formats = device.info().executable_formats;
  if (std::find(formats.begin(), formats.end(), hal::kExecutableFormatAmdgpu) != formats.end()) {
    if (name != "test_kernels") return NotFoundError("no GPU build of the test kernel library '", name, "'");
    KILN_ASSIGN_OR_RETURN(std::vector<uint8_t> container,
                          GpuTestKernels(device.info().architecture, device.info().subgroup_size));
    return device.CreateExecutable({hal::kExecutableFormatAmdgpu, container, name});
  }
  KILN_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, ReadKernelFile(name));
  return device.CreateExecutable({hal::kExecutableFormatElfX86_64, bytes, name});
}

}  // namespace kiln::testing
