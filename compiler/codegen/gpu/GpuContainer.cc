#include "compiler/codegen/gpu/GpuContainer.h"

#include "hal/abi/gpu_executable_generated.h"
#include "hal/abi/gpu_kernel_abi.h"

namespace kiln::compiler::gpu {

std::vector<uint8_t> WriteGpuContainer(const GpuTarget& target, const std::vector<GpuExport>& exports,
                                       const std::vector<uint8_t>& hsaco, const std::vector<uint8_t>& host_twin) {
  namespace fb = kiln::gpu_abi;
  flatbuffers::FlatBufferBuilder builder;
  std::vector<flatbuffers::Offset<fb::GpuExportDef>> defs;
  for (const GpuExport& e : exports) {
    auto name = builder.CreateString(e.name);
    auto size = builder.CreateVector(std::vector<uint32_t>(e.workgroup_size, e.workgroup_size + 3));
    auto location = e.source_location.empty() ? 0 : builder.CreateString(e.source_location);
    auto sites = e.check_sites.empty() ? 0 : builder.CreateVectorOfStrings(e.check_sites);
    defs.push_back(fb::CreateGpuExportDef(builder, name, e.binding_count, e.constant_count, size,
                                          e.local_memory_bytes, location, e.vgpr_count, e.sgpr_count, e.agpr_count,
                                          e.scratch_bytes, e.waves_per_simd, sites));
  }
  auto bytes = [&](const std::vector<uint8_t>& v) {
    builder.ForceVectorAlignment(v.size(), 1, 16);
    return builder.CreateVector(v);
  };
  auto code = bytes(hsaco);
  auto twin = bytes(host_twin);
  auto def = fb::CreateGpuExecutableDef(builder, KILN_GPU_KERNEL_ABI_VERSION, builder.CreateString(target.chip),
                                        target.wavefront_size, builder.CreateVector(defs), code, twin);
  fb::FinishGpuExecutableDefBuffer(builder, def);
  return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

}  // namespace kiln::compiler::gpu
