// ELF64 parsing for AMDGPU code objects; see elf_reader.h.
#include "drivers/hip/sim/isa/elf_reader.h"

#include <cstring>

namespace kiln::hsa_sim::isa {
namespace {

constexpr uint32_t kShtSymtab = 2;
constexpr uint32_t kShtDynsym = 11;
constexpr size_t kElf64HeaderSize = 64;
constexpr size_t kSectionHeaderSize = 64;
constexpr size_t kSymbolSize = 24;
constexpr uint32_t kMaxSections = 1u << 16;

template <typename T>
T Read(std::span<const uint8_t> bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;  // the file and the host are both little-endian
}

bool InRange(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

// The NUL-terminated string at `offset` of the string table `table`, bounded by the table.
StatusOr<std::string> StringAt(std::span<const uint8_t> table, uint64_t offset) {
  if (offset >= table.size())
    return DataLossError("string offset ", offset, " is past its ", table.size(), "-byte table");
  const uint8_t* begin = table.data() + offset;
  const void* nul = std::memchr(begin, 0, table.size() - offset);
  if (!nul) return DataLossError("the string at offset ", offset, " is not terminated inside its table");
  return std::string(reinterpret_cast<const char*>(begin), static_cast<const uint8_t*>(nul) - begin);
}

}  // namespace

StatusOr<ElfReader> ElfReader::Parse(std::span<const uint8_t> image, uint16_t machine) {
  static constexpr uint8_t kMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (image.size() < kElf64HeaderSize || std::memcmp(image.data(), kMagic, 4) != 0) {
    return InvalidArgumentError("not an ELF64 file (", image.size(), " bytes)");
  }
  if (image[4] != 2 || image[5] != 1) return InvalidArgumentError("not a little-endian ELF64 file");
  uint16_t e_machine = Read<uint16_t>(image, 18);
  if (e_machine != machine) return InvalidArgumentError("the ELF machine is ", e_machine, ", not ", machine);
  ElfReader reader;
  reader.image_ = image;
  reader.e_flags_ = Read<uint32_t>(image, 48);
  uint64_t shoff = Read<uint64_t>(image, 40);
  uint16_t shentsize = Read<uint16_t>(image, 58);
  uint32_t shnum = Read<uint16_t>(image, 60);
  uint16_t shstrndx = Read<uint16_t>(image, 62);
  if (shnum == 0) return DataLossError("the ELF file has no section headers");
  if (shentsize != kSectionHeaderSize) return DataLossError("section header size ", shentsize, " is not 64");
  if (shnum > kMaxSections || !InRange(shoff, uint64_t{shnum} * kSectionHeaderSize, image.size())) {
    return DataLossError("the ", shnum, " section headers at ", shoff, " do not fit in the ", image.size(),
                         "-byte file");
  }
  struct Raw {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link;
    uint64_t entsize;
  };
  std::vector<Raw> raw(shnum);
  for (uint32_t i = 0; i < shnum; ++i) {
    uint64_t h = shoff + uint64_t{i} * kSectionHeaderSize;
    Raw& r = raw[i];
    r.name = Read<uint32_t>(image, h);
    r.type = Read<uint32_t>(image, h + 4);
    r.flags = Read<uint64_t>(image, h + 8);
    r.addr = Read<uint64_t>(image, h + 16);
    r.offset = Read<uint64_t>(image, h + 24);
    r.size = Read<uint64_t>(image, h + 32);
    r.link = Read<uint32_t>(image, h + 40);
    r.entsize = Read<uint64_t>(image, h + 56);
    if (r.type != kShtNobits && !InRange(r.offset, r.size, image.size())) {
      return DataLossError("section ", i, " [", r.offset, ", +", r.size, ") does not fit in the ", image.size(),
                           "-byte file");
    }
  }
  auto contents = [&](uint32_t i) { return image.subspan(raw[i].offset, raw[i].type == kShtNobits ? 0 : raw[i].size); };
  if (shstrndx >= shnum) return DataLossError("the section name table index ", shstrndx, " is out of range");
  for (uint32_t i = 0; i < shnum; ++i) {
    ElfSection s;
    KILN_ASSIGN_OR_RETURN(s.name, StringAt(contents(shstrndx), raw[i].name), "the name of section ", i);
    s.type = raw[i].type;
    s.flags = raw[i].flags;
    s.address = raw[i].addr;
    s.offset = raw[i].offset;
    s.size = raw[i].type == kShtNobits ? 0 : raw[i].size;
    reader.sections_.push_back(std::move(s));
  }
  for (uint32_t i = 0; i < shnum; ++i) {
    const Raw& r = raw[i];
    if (r.type == kShtSymtab || r.type == kShtDynsym) {
      if (r.entsize != kSymbolSize) return DataLossError("symbol table ", i, " has entries of ", r.entsize, " bytes");
      if (r.link >= shnum) return DataLossError("symbol table ", i, " links to section ", r.link);
      std::span<const uint8_t> table = contents(i), strings = contents(r.link);
      for (uint64_t at = kSymbolSize; at + kSymbolSize <= table.size(); at += kSymbolSize) {  // entry 0 is null
        ElfSymbol sym;
        KILN_ASSIGN_OR_RETURN(sym.name, StringAt(strings, Read<uint32_t>(table, at)), "a symbol of table ", i);
        sym.type = table[at + 4] & 0xf;
        sym.section = Read<uint16_t>(table, at + 6);
        sym.value = Read<uint64_t>(table, at + 8);
        sym.size = Read<uint64_t>(table, at + 16);
        if (!sym.name.empty() && !reader.FindSymbol(sym.name)) reader.symbols_.push_back(std::move(sym));
      }
    } else if (r.type == kShtNote) {
      std::span<const uint8_t> notes = contents(i);
      uint64_t at = 0;
      while (at + 12 <= notes.size()) {
        uint64_t namesz = Read<uint32_t>(notes, at), descsz = Read<uint32_t>(notes, at + 4);
        uint32_t type = Read<uint32_t>(notes, at + 8);
        uint64_t name_at = at + 12, desc_at = name_at + (namesz + 3) / 4 * 4;
        if (!InRange(name_at, namesz, notes.size()) || !InRange(desc_at, descsz, notes.size())) {
          return DataLossError("a note of section ", i, " runs past the section");
        }
        ElfNote note;
        note.owner.assign(reinterpret_cast<const char*>(notes.data() + name_at), namesz);
        while (!note.owner.empty() && note.owner.back() == '\0') note.owner.pop_back();
        note.type = type;
        note.desc = notes.subspan(desc_at, descsz);
        reader.notes_.push_back(std::move(note));
        at = desc_at + (descsz + 3) / 4 * 4;
      }
    }
  }
  return reader;
}

const ElfSection* ElfReader::FindSection(std::string_view name) const {
  for (const ElfSection& s : sections_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const ElfSymbol* ElfReader::FindSymbol(std::string_view name) const {
  for (const ElfSymbol& s : symbols_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const ElfSection* ElfReader::SectionAt(uint64_t address, uint64_t size) const {
  for (const ElfSection& s : sections_) {
    if (s.address == 0 || s.type == kShtNobits) continue;
    if (address >= s.address && InRange(address - s.address, size, s.size)) return &s;
  }
  return nullptr;
}

StatusOr<std::span<const uint8_t>> ElfReader::BytesAt(uint64_t address, uint64_t size) const {
  const ElfSection* s = SectionAt(address, size);
  if (!s) return DataLossError("[", address, ", +", size, ") lies in no section with contents");
  return image_.subspan(s->offset + (address - s->address), size);
}

}  // namespace kiln::hsa_sim::isa
