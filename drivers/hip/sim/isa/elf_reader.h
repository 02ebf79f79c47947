// A bounded reader of ELF64 little-endian images, enough for an AMDGPU code object (HSACO):
// section headers, the symbols of .symtab/.dynsym and the notes of SHT_NOTE sections. Every
// offset and size is checked against the image; a malformed file is an error, never a crash.
// Layout facts: the System V gABI (ELF64 header, Elf64_Shdr, Elf64_Sym, Elf64_Nhdr).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace kiln::hsa_sim::isa {

struct ElfSection {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t address = 0;  // sh_addr: where the loader places it (code objects are position independent)
  uint64_t offset = 0;   // in the image (SHT_NOBITS: 0 bytes in the image)
  uint64_t size = 0;
};

struct ElfSymbol {
  std::string name;
  uint64_t value = 0;  // a virtual address (sh_addr space)
  uint64_t size = 0;
  uint8_t type = 0;  // STT_*
  uint16_t section = 0;
};

struct ElfNote {
  std::string owner;  // "AMDGPU"
  uint32_t type = 0;
  std::span<const uint8_t> desc;  // into the image
};

class ElfReader {
 public:
  static constexpr uint32_t kShtNote = 7;
  static constexpr uint32_t kShtNobits = 8;
  static constexpr uint8_t kSttObject = 1;
  static constexpr uint8_t kSttFunc = 2;

  // Parses `image` (which must outlive the reader): an ELF64 little-endian file for
  // `machine` (EM_AMDGPU is 224).
  static StatusOr<ElfReader> Parse(std::span<const uint8_t> image, uint16_t machine);

  uint32_t e_flags() const { return e_flags_; }
  const std::vector<ElfSection>& sections() const { return sections_; }
  const std::vector<ElfSymbol>& symbols() const { return symbols_; }
  const std::vector<ElfNote>& notes() const { return notes_; }
  const ElfSection* FindSection(std::string_view name) const;
  const ElfSymbol* FindSymbol(std::string_view name) const;
  // The section whose [address, address + size) holds [address, address + size), or null.
  const ElfSection* SectionAt(uint64_t address, uint64_t size) const;
  // The image bytes of `size` bytes at virtual `address` (inside one section with contents).
  StatusOr<std::span<const uint8_t>> BytesAt(uint64_t address, uint64_t size) const;

 private:
  std::span<const uint8_t> image_;
  uint32_t e_flags_ = 0;
  std::vector<ElfSection> sections_;
  std::vector<ElfSymbol> symbols_;
  std::vector<ElfNote> notes_;
};

}  // namespace kiln::hsa_sim::isa
