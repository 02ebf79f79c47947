// The body of the parameter file fuzzers (irpa_fuzzer.cc, safetensors_fuzzer.cc,
// gguf_fuzzer.cc): any bytes either fail to parse with a Status or parse into entries
// whose bytes (EntryBytes) all lie inside their files; every byte is read, so ASan sees an
// out-of-bounds range. Splats must have a 1..16-byte pattern.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "io/mapped_file.h"
#include "io/parameter_index.h"

namespace kiln::io::fuzz {

using ParseFn = Status (*)(Ref<MappedFile>, ParameterIndex&);

inline int FuzzParameterParser(ParseFn parse, const uint8_t* data, size_t size, const char* name) {
  Ref<MappedFile> file = MappedFile::FromBytes(std::vector<uint8_t>(data, data + size), name);
  ParameterIndex index(name);
  if (!parse(file, index).ok()) return 0;
  uint8_t sum = 0;
  for (const ParameterEntry& entry : index.entries()) {
    if (index.Find(entry.key) != &entry) std::abort();  // keys are unique and found
    if (entry.kind == ParameterEntry::Kind::kSplat) {
      if (entry.pattern.empty() || entry.pattern.size() > 16 || entry.length % entry.pattern.size() != 0) std::abort();
      continue;
    }
    StatusOr<std::span<const uint8_t>> bytes = EntryBytes(entry);
    if (!bytes.ok()) std::abort();  // a parsed data entry always lies in its file
    for (uint8_t b : *bytes) sum = static_cast<uint8_t>(sum + b);
  }
  volatile uint8_t sink = sum;
  (void)sink;
  return 0;
}

}  // namespace kiln::io::fuzz
