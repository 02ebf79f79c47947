#include "vm/bytecode.h"

#include <algorithm>
#include <array>

namespace kiln::vm {
namespace {

constexpr std::array<OpcodeInfo, kOpcodeCount> kOpcodeInfo = {{
#define KILN_OP(name, mnemonic, operands) {mnemonic, operands},
#include "vm/opcodes.def"
#undef KILN_OP
}};

static_assert(std::all_of(kOpcodeInfo.begin(), kOpcodeInfo.end(),
                          [](const OpcodeInfo& info) { return info.operands.size() <= OperandArray::kCapacity; }),
              "an opcode has more operands than OperandArray holds");

// Bounds-checked reads; the first failure is reported once by DecodeInstruction.
class Cursor {
 public:
  Cursor(std::span<const uint8_t> code, uint32_t offset) : code_(code), pos_(offset) {}
  template <typename T>
  bool Read(T* out) {
    if (code_.size() - pos_ < sizeof(T)) return false;
    *out = ReadUnaligned<T>(code_.data() + pos_);
    pos_ += sizeof(T);
    return true;
  }
  // `count` entries of `entry_bytes` each; returns where they start.
  bool Skip(size_t bytes, const uint8_t** start) {
    if (code_.size() - pos_ < bytes) return false;
    *start = code_.data() + pos_;
    pos_ += static_cast<uint32_t>(bytes);
    return true;
  }
  uint32_t pos() const { return pos_; }

 private:
  std::span<const uint8_t> code_;
  uint32_t pos_;
};

}  // namespace

const OpcodeInfo& GetOpcodeInfo(Opcode opcode) { return kOpcodeInfo[static_cast<size_t>(opcode)]; }

StatusOr<Instruction> DecodeInstruction(std::span<const uint8_t> code, uint32_t offset) {
  auto truncated = [&] {
    return OutOfRangeError("instruction at offset ", offset, " runs past the end of the function (", code.size(),
                           " bytes)");
  };
  if (offset >= code.size()) return truncated();
  Cursor cursor(code, offset);
  uint8_t raw = 0;
  cursor.Read(&raw);
  if (raw >= kOpcodeCount) return InvalidArgumentError("unknown opcode ", int{raw}, " at offset ", offset);
  Instruction inst{static_cast<Opcode>(raw), offset, 0, {}};
  for (char kind : GetOpcodeInfo(inst.opcode).operands) {
    Operand& op = inst.operands.emplace_back();
    op.kind = kind;
    bool ok = true;
    switch (kind) {
      case 'i': case 'l': case 'r': {
        uint16_t v = 0;
        ok = cursor.Read(&v);
        op.value = v;
        break;
      }
      case 't': {
        uint8_t v = 0;
        ok = cursor.Read(&v);
        op.value = v;
        break;
      }
      case 'k': case 's': case 'd': case 'g': case 'h': case 'x': {
        uint32_t v = 0;
        ok = cursor.Read(&v);
        op.value = v;
        break;
      }
      case 'q':
        ok = cursor.Read(&op.value);
        break;
      case 'b': {
        uint32_t block = 0;
        uint16_t count = 0;
        const uint8_t* moves = nullptr;
        ok = cursor.Read(&block) && cursor.Read(&count) && cursor.Skip(size_t{count} * 4, &moves);
        op.value = block;
        if (ok) {
          op.list = EntryList(moves, count, 4);
          op.list2 = EntryList(moves + 2, count, 4);
        }
        break;
      }
      case 'c': case 'v': {
        uint32_t callee = 0;
        if (kind == 'c') ok = cursor.Read(&callee);
        op.value = callee;
        for (EntryList* list : {&op.list, &op.list2}) {
          if (kind == 'v' && list == &op.list2) break;
          uint16_t count = 0;
          const uint8_t* entries = nullptr;
          ok = ok && cursor.Read(&count) && cursor.Skip(size_t{count} * 2, &entries);
          if (ok) *list = EntryList(entries, count, 2);
        }
        break;
      }
      default:
        return InternalError("opcode table has unknown operand letter '", kind, "'");
    }
    if (!ok) return truncated();
  }
  inst.length = cursor.pos() - offset;
  return inst;
}

}  // namespace kiln::vm
