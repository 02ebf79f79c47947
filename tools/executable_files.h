// What kiln-dump shows of and extracts from a module's executables: the binaries inside
// each one (an x86-64 ELF for the CPU; a code object and its host twin for an AMD GPU) and
// the per-kernel resources a GPU container records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "vm/module.h"

namespace kiln::tools {

struct ExecutableFile {
  std::string name;  // "kiln_executable.so", "kiln_executable.gfx942.hsaco", "...gfx942.twin.so"
  std::vector<uint8_t> bytes;
};

// Every binary of every executable of `module`, named for llvm-readelf and llvm-objdump.
StatusOr<std::vector<ExecutableFile>> ExecutableFiles(const vm::Module& module);

// One line per GPU kernel of `module`: chip, name, workgroup size, registers, LDS, scratch
// and occupancy, as the compiler recorded them. Empty when the module has no GPU code.
StatusOr<std::string> DescribeGpuKernels(const vm::Module& module);

}  // namespace kiln::tools
