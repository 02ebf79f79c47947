#include "compiler/codegen/gpu/CodeObjectMetadata.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFTypes.h"

namespace kiln::compiler::gpu {

namespace {

uint32_t UInt(llvm::msgpack::MapDocNode& map, llvm::StringRef key) {
  auto it = map.find(key);
  if (it == map.end() || it->second.getKind() != llvm::msgpack::Type::UInt) return 0;
  return static_cast<uint32_t>(it->second.getUInt());
}

std::string String(llvm::msgpack::MapDocNode& map, llvm::StringRef key) {
  auto it = map.find(key);
  if (it == map.end() || it->second.getKind() != llvm::msgpack::Type::String) return "";
  return it->second.getString().str();
}

llvm::Expected<std::vector<KernelResources>> ParseMetadata(llvm::ArrayRef<uint8_t> blob) {
  llvm::msgpack::Document document;
  if (!document.readFromBlob(llvm::StringRef(reinterpret_cast<const char*>(blob.data()), blob.size()),
                             /*Multi=*/false)) {
    return llvm::createStringError("the code object's metadata note is not valid msgpack");
  }
  llvm::msgpack::DocNode& root = document.getRoot();
  if (root.getKind() != llvm::msgpack::Type::Map) return llvm::createStringError("metadata root is not a map");
  auto kernels = root.getMap().find("amdhsa.kernels");
  if (kernels == root.getMap().end() || kernels->second.getKind() != llvm::msgpack::Type::Array) {
    return llvm::createStringError("the code object's metadata has no amdhsa.kernels");
  }
  std::vector<KernelResources> result;
  for (llvm::msgpack::DocNode& node : kernels->second.getArray()) {
    if (node.getKind() != llvm::msgpack::Type::Map) continue;
    llvm::msgpack::MapDocNode& map = node.getMap();
    KernelResources k;
    k.name = String(map, ".name");
    k.symbol = String(map, ".symbol");
    k.kernarg_segment_size = UInt(map, ".kernarg_segment_size");
    k.kernarg_segment_alignment = UInt(map, ".kernarg_segment_align");
    k.group_segment_size = UInt(map, ".group_segment_fixed_size");
    k.private_segment_size = UInt(map, ".private_segment_fixed_size");
    k.vgpr_count = UInt(map, ".vgpr_count");
    k.sgpr_count = UInt(map, ".sgpr_count");
    k.agpr_count = UInt(map, ".agpr_count");
    k.vgpr_spill_count = UInt(map, ".vgpr_spill_count");
    k.sgpr_spill_count = UInt(map, ".sgpr_spill_count");
    k.wavefront_size = UInt(map, ".wavefront_size");
    k.max_flat_workgroup_size = UInt(map, ".max_flat_workgroup_size");
    result.push_back(std::move(k));
  }
  return result;
}

}  // namespace

llvm::Expected<std::vector<KernelResources>> ReadKernelResources(llvm::ArrayRef<uint8_t> elf) {
  auto file = llvm::object::ELF64LEFile::create(llvm::StringRef(reinterpret_cast<const char*>(elf.data()), elf.size()));
  if (!file) return file.takeError();
  auto sections = file->sections();
  if (!sections) return sections.takeError();
  for (const auto& section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_NOTE) continue;
    llvm::Error error = llvm::Error::success();
    for (const auto& note : file->notes(section, error)) {
      if (note.getType() == llvm::ELF::NT_AMDGPU_METADATA && note.getName() == "AMDGPU") {
        llvm::consumeError(std::move(error));
        return ParseMetadata(note.getDesc(section.sh_addralign));
      }
    }
    if (error) return error;
  }
  return llvm::createStringError("the code object has no AMDGPU metadata note");
}

}  // namespace kiln::compiler::gpu
