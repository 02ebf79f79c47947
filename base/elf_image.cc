#include "base/elf_image.h"

#include <elf.h>

#include <cstring>

namespace kiln {
namespace {

bool RangeFits(uint64_t offset, uint64_t size, uint64_t total) { return offset <= total && size <= total - offset; }

const char* MachineName(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_386: return "i386";
    case EM_AARCH64: return "aarch64";
    case EM_ARM: return "arm";
    case EM_AMDGPU: return "amdgpu";
    case EM_RISCV: return "riscv";
    default: return "unknown";
  }
}

}  // namespace

Status ValidateElfImage(std::span<const uint8_t> image) {
  if (image.size() < sizeof(Elf64_Ehdr)) {
    return InvalidArgumentError("image of ", image.size(), " bytes is too small for an ELF header (",
                                sizeof(Elf64_Ehdr), " bytes)");
  }
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof(header));
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return InvalidArgumentError("image does not start with the ELF magic bytes");
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64) return InvalidArgumentError("ELF image is not 64-bit");
  if (header.e_ident[EI_DATA] != ELFDATA2LSB) return InvalidArgumentError("ELF image is not little-endian");
  if (header.e_ident[EI_VERSION] != EV_CURRENT) return InvalidArgumentError("ELF image has an unknown version");
  if (header.e_type != ET_DYN) {
    return InvalidArgumentError("ELF image is of type ", header.e_type, ", expected a shared object (ET_DYN = ",
                                ET_DYN, ")");
  }
  if (header.e_machine != EM_X86_64) {
    return InvalidArgumentError("ELF image is for machine ", header.e_machine, " (", MachineName(header.e_machine),
                                "); this runtime runs x86-64 code (", EM_X86_64, ")");
  }
  if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0) {
    return InvalidArgumentError("ELF image has no usable program headers (", header.e_phnum, " of ",
                                header.e_phentsize, " bytes)");
  }
  if (!RangeFits(header.e_phoff, uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), image.size())) {
    return InvalidArgumentError("ELF program header table [", header.e_phoff, ", +",
                                uint64_t{header.e_phnum} * sizeof(Elf64_Phdr), ") lies outside the ", image.size(),
                                "-byte image");
  }
  if (header.e_shnum != 0 &&
      (header.e_shentsize != sizeof(Elf64_Shdr) ||
       !RangeFits(header.e_shoff, uint64_t{header.e_shnum} * sizeof(Elf64_Shdr), image.size()))) {
    return InvalidArgumentError("ELF section header table lies outside the image or has the wrong entry size");
  }
  bool has_load = false, has_dynamic = false;
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, image.data() + header.e_phoff + i * sizeof(Elf64_Phdr), sizeof(ph));
    if (ph.p_type != PT_LOAD && ph.p_type != PT_DYNAMIC) continue;
    if (!RangeFits(ph.p_offset, ph.p_filesz, image.size())) {
      return InvalidArgumentError("ELF segment ", i, " [", ph.p_offset, ", +", ph.p_filesz, ") lies outside the ",
                                  image.size(), "-byte image");
    }
    if (ph.p_type == PT_LOAD) {
      if (ph.p_filesz > ph.p_memsz) {
        return InvalidArgumentError("ELF segment ", i, " has more file bytes (", ph.p_filesz, ") than memory bytes (",
                                    ph.p_memsz, ")");
      }
      has_load = true;
    } else {
      has_dynamic = true;
    }
  }
  if (!has_load) return InvalidArgumentError("ELF image has no loadable segment");
  if (!has_dynamic) return InvalidArgumentError("ELF image has no dynamic segment; it is not a shared object");
  return OkStatus();
}

}  // namespace kiln
