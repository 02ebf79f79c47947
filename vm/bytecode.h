// Opcodes and the checked instruction decoder shared by the verifier and the
// disassembler. The interpreter decodes the same layout without checks, after verification.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

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

template <typename T>
inline T ReadUnaligned(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// A view of u16 register entries inside the bytecode (no copy): a call's argument list, or
// the sources or targets of a branch's moves (interleaved, hence the stride).
class EntryList {
 public:
  EntryList() = default;
  EntryList(const uint8_t* base, uint16_t count, uint8_t stride) : base_(base), count_(count), stride_(stride) {}
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  uint16_t operator[](size_t i) const { return ReadUnaligned<uint16_t>(base_ + i * stride_); }

  class iterator {
   public:
    iterator(const EntryList* list, size_t i) : list_(list), i_(i) {}
    uint16_t operator*() const { return (*list_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const iterator& other) const { return i_ != other.i_; }

   private:
    const EntryList* list_;
    size_t i_;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, count_}; }

 private:
  const uint8_t* base_ = nullptr;
  uint16_t count_ = 0;
  uint8_t stride_ = 2;
};

struct Operand {
  char kind = 0;       // the operand letter
  uint64_t value = 0;  // register, immediate, ordinal, block index or callee
  EntryList list;      // 'v' registers, call arguments, branch move sources
  EntryList list2;     // call results, branch move targets
};

// At most four operands per instruction (the longest operand strings have four letters);
// a fixed array keeps decoding free of allocations.
class OperandArray {
 public:
  size_t size() const { return size_; }
  const Operand& operator[](size_t i) const { return items_[i]; }
  Operand& operator[](size_t i) { return items_[i]; }
  const Operand* begin() const { return items_.data(); }
  const Operand* end() const { return items_.data() + size_; }
  // The operand's lists are set by the decoder only for list letters ('b', 'c', 'v'); for
  // other letters they hold whatever a previous instruction left and must not be read.
  Operand& emplace_back() { return items_[size_++]; }
  static constexpr size_t kCapacity = 4;

 private:
  std::array<Operand, kCapacity> items_;
  size_t size_ = 0;
};

struct Instruction {
  Opcode opcode;
  uint32_t offset;  // within the function
  uint32_t length;
  OperandArray operands;
};

// Decodes the instruction at `offset`; fails on an unknown opcode or one that runs past
// the end of `code`, naming the offset.
StatusOr<Instruction> DecodeInstruction(std::span<const uint8_t> code, uint32_t offset);

}  // namespace kiln::vm
