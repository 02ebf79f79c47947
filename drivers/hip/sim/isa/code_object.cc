// HSACO reading: metadata note, kernel descriptors, code ranges; see code_object.h.
#include "drivers/hip/sim/isa/code_object.h"

#include <algorithm>
#include <cstring>

#include "drivers/hip/sim/isa/elf_reader.h"
#include "drivers/hip/sim/isa/msgpack.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

constexpr uint16_t kMachineAmdgpu = 224;
constexpr uint32_t kNtAmdgpuMetadata = 32;
constexpr uint64_t kDescriptorSize = 64;
// Bounds that keep a corrupt file's numbers far from overflow.
constexpr uint32_t kMaxKernargBytes = 1u << 20;
constexpr uint64_t kMaxCodeBytes = 64ull << 20;

template <typename T>
T Read(std::span<const uint8_t> bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

KernelDescriptor DecodeDescriptor(std::span<const uint8_t> kd) {
  KernelDescriptor d;
  d.group_segment_fixed_size = Read<uint32_t>(kd, 0);
  d.private_segment_fixed_size = Read<uint32_t>(kd, 4);
  d.kernarg_size = Read<uint32_t>(kd, 8);
  d.kernel_code_entry_byte_offset = Read<int64_t>(kd, 16);
  d.compute_pgm_rsrc3 = Read<uint32_t>(kd, 44);
  d.compute_pgm_rsrc1 = Read<uint32_t>(kd, 48);
  d.compute_pgm_rsrc2 = Read<uint32_t>(kd, 52);
  d.kernel_code_properties = Read<uint16_t>(kd, 56);
  d.kernarg_preload = Read<uint16_t>(kd, 58);
  return d;
}

// Reads an unsigned 32-bit metadata field; `required` ones must be present.
Status ReadU32(const MsgpackValue& map, std::string_view key, bool required, uint32_t* out) {
  const MsgpackValue* v = map.Find(key);
  if (!v) return required ? DataLossError("the metadata lacks ", key) : OkStatus();
  uint64_t n;
  if (!v->AsUint(&n) || n > UINT32_MAX) {
    return DataLossError("metadata ", key, " is a ", v->KindName(), ", not an unsigned 32-bit integer");
  }
  *out = static_cast<uint32_t>(n);
  return OkStatus();
}

Status ReadString(const MsgpackValue& map, std::string_view key, bool required, std::string* out) {
  const MsgpackValue* v = map.Find(key);
  if (!v) return required ? DataLossError("the metadata lacks ", key) : OkStatus();
  if (!v->is_string()) return DataLossError("metadata ", key, " is a ", v->KindName(), ", not a string");
  *out = v->string();
  return OkStatus();
}

Status ReadArgs(const MsgpackValue& kernel, KernelCode* out) {
  const MsgpackValue* args = kernel.Find(".args");
  if (!args) return OkStatus();  // a kernel without arguments may omit the list
  if (args->kind() != MsgpackValue::Kind::kArray) return DataLossError(".args is a ", args->KindName());
  for (size_t i = 0; i < args->array().size(); ++i) {
    const MsgpackValue& a = args->array()[i];
    if (a.kind() != MsgpackValue::Kind::kMap) return DataLossError(".args[", i, "] is a ", a.KindName());
    KernelArg arg;
    KILN_RETURN_IF_ERROR(ReadString(a, ".name", false, &arg.name), ".args[", i, "]");
    KILN_RETURN_IF_ERROR(ReadU32(a, ".offset", true, &arg.offset), ".args[", i, "]");
    KILN_RETURN_IF_ERROR(ReadU32(a, ".size", true, &arg.size), ".args[", i, "]");
    KILN_RETURN_IF_ERROR(ReadString(a, ".value_kind", true, &arg.value_kind), ".args[", i, "]");
    if (arg.size == 0 || arg.offset > out->kernarg_segment_size || arg.size > out->kernarg_segment_size - arg.offset) {
      return DataLossError(".args[", i, "] (", arg.value_kind, " at offset ", arg.offset, ", ", arg.size,
                           " bytes) does not fit in the ", out->kernarg_segment_size, "-byte kernarg segment");
    }
    for (size_t j = 0; j < out->args.size(); ++j) {
      const KernelArg& b = out->args[j];
      if (arg.offset < b.offset + b.size && b.offset < arg.offset + arg.size) {
        return DataLossError(".args[", i, "] at offset ", arg.offset, " overlaps .args[", j, "] at offset ", b.offset);
      }
    }
    out->args.push_back(std::move(arg));
  }
  return OkStatus();
}

// Fills a kernel's fields from its metadata map (not the descriptor or code).
Status ReadKernelMetadata(const MsgpackValue& k, KernelCode* out) {
  if (k.kind() != MsgpackValue::Kind::kMap) return DataLossError("the kernel entry is a ", k.KindName());
  KILN_RETURN_IF_ERROR(ReadString(k, ".name", true, &out->name));
  KILN_RETURN_IF_ERROR(ReadString(k, ".symbol", true, &out->symbol), "kernel ", out->name);
  auto where = [&] { return StrCat("kernel ", out->name); };
  KILN_RETURN_IF_ERROR(ReadU32(k, ".kernarg_segment_size", true, &out->kernarg_segment_size), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".kernarg_segment_align", true, &out->kernarg_segment_align), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".group_segment_fixed_size", true, &out->group_segment_fixed_size), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".private_segment_fixed_size", true, &out->private_segment_fixed_size), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".wavefront_size", true, &out->wavefront_size), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".sgpr_count", true, &out->sgpr_count), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".vgpr_count", true, &out->vgpr_count), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".agpr_count", false, &out->agpr_count), where());
  KILN_RETURN_IF_ERROR(ReadU32(k, ".max_flat_workgroup_size", false, &out->max_flat_workgroup_size), where());
  uint32_t align = out->kernarg_segment_align;
  if (align == 0 || (align & (align - 1)) != 0) {
    return DataLossError(".kernarg_segment_align ", align, " is not a power of two").With(where());
  }
  if (out->kernarg_segment_size > kMaxKernargBytes) {
    return DataLossError(".kernarg_segment_size ", out->kernarg_segment_size, " exceeds ", kMaxKernargBytes)
        .With(where());
  }
  KILN_RETURN_IF_ERROR(ReadArgs(k, out), where());
  return OkStatus();
}

// The descriptor at the symbol `kd`, the code it points at, and the checks that tie them to
// the metadata.
Status ReadDescriptorAndCode(const ElfReader& elf, KernelCode* out) {
  const ElfSymbol* kd = elf.FindSymbol(out->symbol);
  if (!kd) return DataLossError("the code object has no symbol ", out->symbol);
  KILN_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, elf.BytesAt(kd->value, kDescriptorSize), "kernel descriptor ",
                        out->symbol);
  out->descriptor = DecodeDescriptor(bytes);
  const KernelDescriptor& d = out->descriptor;
  if (d.kernarg_size != out->kernarg_segment_size) {
    return DataLossError("kernel descriptor ", out->symbol, " says kernarg_size ", d.kernarg_size,
                         " but the metadata says .kernarg_segment_size ", out->kernarg_segment_size);
  }
  if (d.group_segment_fixed_size != out->group_segment_fixed_size) {
    return DataLossError("kernel descriptor ", out->symbol, " says group_segment_fixed_size ",
                         d.group_segment_fixed_size, " but the metadata says ", out->group_segment_fixed_size);
  }
  uint32_t user_sgprs =
      4 * d.private_segment_buffer() +
      2 * (d.dispatch_ptr() + d.queue_ptr() + d.kernarg_segment_ptr() + d.dispatch_id() + d.flat_scratch_init()) +
      d.private_segment_size() + d.kernarg_preload_length();
  if (user_sgprs > d.user_sgpr_count()) {
    return DataLossError("kernel descriptor ", out->symbol, " enables ", user_sgprs,
                         " user SGPRs but compute_pgm_rsrc2 USER_SGPR_COUNT is ", d.user_sgpr_count());
  }
  uint64_t preload_end = 4 * (uint64_t{d.kernarg_preload} >> 7) + 4 * uint64_t{d.kernarg_preload_length()};
  if (preload_end > out->kernarg_segment_size) {
    return DataLossError("kernel descriptor ", out->symbol, " preloads kernarg bytes up to ", preload_end, " of a ",
                         out->kernarg_segment_size, "-byte kernarg segment");
  }
  uint64_t entry = kd->value + static_cast<uint64_t>(d.kernel_code_entry_byte_offset);
  const ElfSection* text = elf.SectionAt(entry, 4);
  if (!text || !(text->flags & 0x4 /* SHF_EXECINSTR */)) {
    return DataLossError("kernel ", out->name, ": the entry point ", Hex(entry), " (descriptor ", Hex(kd->value),
                         " + kernel_code_entry_byte_offset ", d.kernel_code_entry_byte_offset,
                         ") is not in an executable section");
  }
  if (entry % 256 != 0)
    return DataLossError("kernel ", out->name, ": the entry point ", Hex(entry), " is not 256-byte aligned");
  uint64_t end = text->address + text->size;
  // The entry's function symbol bounds the code when it has a size; otherwise the next symbol
  // in the section, or the section's end, does.
  for (const ElfSymbol& s : elf.symbols()) {
    if (s.value == entry && s.type == ElfReader::kSttFunc && s.size > 0) end = std::min(end, entry + s.size);
    if (s.value > entry && s.value < end) end = s.value;
  }
  if (end - entry > kMaxCodeBytes) return DataLossError("kernel ", out->name, ": ", end - entry, " bytes of code");
  KILN_ASSIGN_OR_RETURN(std::span<const uint8_t> code, elf.BytesAt(entry, end - entry), "kernel ", out->name);
  out->code.assign(code.begin(), code.end());
  out->entry_address = entry;
  return OkStatus();
}

}  // namespace

std::string AmdgpuProcessorName(uint32_t e_flags) {
  struct Mach {
    uint32_t value;
    const char* name;
  };
  // EF_AMDGPU_MACH values from LLVM's AMDGPUUsage ("AMDGPU ELF Header").
  static constexpr Mach kMachs[] = {
      {0x02c, "gfx900"},  {0x02f, "gfx906"},  {0x030, "gfx908"},  {0x03f, "gfx90a"},
      {0x04c, "gfx942"},  {0x04f, "gfx950"},  {0x036, "gfx1030"}, {0x041, "gfx1100"},
      {0x046, "gfx1101"}, {0x047, "gfx1102"}, {0x048, "gfx1200"}, {0x04e, "gfx1201"},
  };
  uint32_t mach = e_flags & 0xff;
  for (const Mach& m : kMachs) {
    if (m.value == mach) return m.name;
  }
  return StrCat("EF_AMDGPU_MACH ", Hex(mach));
}

StatusOr<CodeObject> ParseCodeObject(std::span<const uint8_t> image) {
  KILN_ASSIGN_OR_RETURN(ElfReader elf, ElfReader::Parse(image, kMachineAmdgpu));
  CodeObject object;
  object.e_flags = elf.e_flags();
  object.processor = AmdgpuProcessorName(elf.e_flags());
  const ElfNote* metadata = nullptr;
  for (const ElfNote& note : elf.notes()) {
    if (note.owner == "AMDGPU" && note.type == kNtAmdgpuMetadata) metadata = &note;
  }
  if (!metadata) return DataLossError("the code object has no AMDGPU metadata note (NT_AMDGPU_METADATA)");
  KILN_ASSIGN_OR_RETURN(MsgpackValue root, MsgpackValue::Parse(metadata->desc), "the AMDGPU metadata note");
  const MsgpackValue* kernels = root.Find("amdhsa.kernels");
  if (!kernels || kernels->kind() != MsgpackValue::Kind::kArray) {
    return DataLossError("the AMDGPU metadata has no amdhsa.kernels array");
  }
  auto loaded = std::make_shared<std::vector<uint8_t>>();
  constexpr uint64_t kShfAlloc = 2;
  for (const ElfSection& section : elf.sections()) {
    if (!(section.flags & kShfAlloc) || section.size == 0) continue;
    if (section.address + section.size > (uint64_t{1} << 30)) {
      return DataLossError("section ", section.name, " lies above 1 GiB of virtual address space");
    }
    if (loaded->size() < section.address + section.size) loaded->resize(section.address + section.size, 0);
    if (section.type == ElfReader::kShtNobits) continue;
    KILN_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, elf.BytesAt(section.address, section.size),
                          "section ", section.name);
    std::copy(bytes.begin(), bytes.end(), loaded->begin() + static_cast<ptrdiff_t>(section.address));
  }
  for (size_t i = 0; i < kernels->array().size(); ++i) {
    KernelCode kernel;
    kernel.loaded_image = loaded;
    KILN_RETURN_IF_ERROR(ReadKernelMetadata(kernels->array()[i], &kernel), "amdhsa.kernels[", i, "]");
    KILN_RETURN_IF_ERROR(ReadDescriptorAndCode(elf, &kernel));
    object.kernels.push_back(std::move(kernel));
  }
  return object;
}

}  // namespace kiln::hsa_sim::isa
