// Opcodes and the checked instruction decoder shared by the verifier and the
// disassembler. The interpreter decodes the same layout without checks, after verification.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace kiln::vm {

enum class Opcode : uint8_t {
#define KILN_OP(name, mnemonic, operands) k##name,
#include "vm/opcodes.def"
#undef KILN_OP
  kCount,
};
inline constexpr int kOpcodeCount = static_cast<int>(Opcode::kCount);

struct OpcodeInfo {
  std::string_view mnemonic;
  std::string_view operands;  // operand letters, see vm/opcodes.def
};
// Precondition: opcode < kCount.
const OpcodeInfo& GetOpcodeInfo(Opcode opcode);

// Register-list entries ('b', 'c', 'v' operands) carry their bank in the high bits.
inline constexpr uint16_t kRefRegisterBit = 0x8000;
inline constexpr uint16_t kPairRegisterBit = 0x4000;
inline constexpr uint16_t kRegisterIndexMask = 0x3FFF;
inline constexpr uint32_t kImportCalleeBit = 0x80000000u;

struct Operand {
  char kind = 0;                // the operand letter
  uint64_t value = 0;           // register, immediate, ordinal, block index or callee
  std::vector<uint16_t> list;   // 'v' registers, call arguments, branch move sources
  std::vector<uint16_t> list2;  // call results, branch move targets
};

struct Instruction {
  Opcode opcode;
  uint32_t offset;  // within the function
  uint32_t length;
  std::vector<Operand> operands;
};

// Decodes the instruction at `offset`; fails on an unknown opcode or one that runs past
// the end of `code`, naming the offset.
StatusOr<Instruction> DecodeInstruction(std::span<const uint8_t> code, uint32_t offset);

template <typename T>
inline T ReadUnaligned(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace kiln::vm
