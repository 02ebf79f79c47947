#include "vm/bytecode.h"

#include <array>

namespace kiln::vm {
namespace {

constexpr std::array<OpcodeInfo, kOpcodeCount> kOpcodeInfo = {{
#define KILN_OP(name, mnemonic, operands) {mnemonic, operands},
#include "vm/opcodes.def"
#undef KILN_OP
}};

class Cursor {
 public:
  Cursor(std::span<const uint8_t> code, uint32_t offset) : code_(code), pos_(offset), start_(offset) {}
  template <typename T>
  StatusOr<T> Read() {
    if (code_.size() - pos_ < sizeof(T)) {
      return OutOfRangeError("instruction at offset ", start_, " runs past the end of the function (",
                             code_.size(), " bytes)");
    }
    T v = ReadUnaligned<T>(code_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }
  StatusOr<std::vector<uint16_t>> ReadList() {
    KILN_ASSIGN_OR_RETURN(uint16_t count, Read<uint16_t>());
    std::vector<uint16_t> out;
    out.reserve(count);
    for (uint16_t i = 0; i < count; ++i) {
      KILN_ASSIGN_OR_RETURN(uint16_t reg, Read<uint16_t>());
      out.push_back(reg);
    }
    return out;
  }
  uint32_t pos() const { return pos_; }

 private:
  std::span<const uint8_t> code_;
  uint32_t pos_;
  uint32_t start_;
};

}  // namespace

const OpcodeInfo& GetOpcodeInfo(Opcode opcode) { return kOpcodeInfo[static_cast<size_t>(opcode)]; }

StatusOr<Instruction> DecodeInstruction(std::span<const uint8_t> code, uint32_t offset) {
  Cursor cursor(code, offset);
  KILN_ASSIGN_OR_RETURN(uint8_t raw, cursor.Read<uint8_t>());
  if (raw >= kOpcodeCount) return InvalidArgumentError("unknown opcode ", int{raw}, " at offset ", offset);
  Instruction inst{static_cast<Opcode>(raw), offset, 0, {}};
  for (char kind : GetOpcodeInfo(inst.opcode).operands) {
    Operand op;
    op.kind = kind;
    switch (kind) {
      case 'i': case 'l': case 'r': {
        KILN_ASSIGN_OR_RETURN(uint16_t v, cursor.Read<uint16_t>());
        op.value = v;
        break;
      }
      case 't': {
        KILN_ASSIGN_OR_RETURN(uint8_t v, cursor.Read<uint8_t>());
        op.value = v;
        break;
      }
      case 'k': case 's': case 'd': case 'g': case 'h': case 'x': {
        KILN_ASSIGN_OR_RETURN(uint32_t v, cursor.Read<uint32_t>());
        op.value = v;
        break;
      }
      case 'q': {
        KILN_ASSIGN_OR_RETURN(uint64_t v, cursor.Read<uint64_t>());
        op.value = v;
        break;
      }
      case 'b': {
        KILN_ASSIGN_OR_RETURN(uint32_t block, cursor.Read<uint32_t>());
        op.value = block;
        KILN_ASSIGN_OR_RETURN(uint16_t count, cursor.Read<uint16_t>());
        for (uint16_t m = 0; m < count; ++m) {
          KILN_ASSIGN_OR_RETURN(uint16_t src, cursor.Read<uint16_t>());
          KILN_ASSIGN_OR_RETURN(uint16_t dst, cursor.Read<uint16_t>());
          op.list.push_back(src);
          op.list2.push_back(dst);
        }
        break;
      }
      case 'c': {
        KILN_ASSIGN_OR_RETURN(uint32_t callee, cursor.Read<uint32_t>());
        op.value = callee;
        KILN_ASSIGN_OR_RETURN(op.list, cursor.ReadList());
        KILN_ASSIGN_OR_RETURN(op.list2, cursor.ReadList());
        break;
      }
      case 'v': {
        KILN_ASSIGN_OR_RETURN(op.list, cursor.ReadList());
        break;
      }
      default:
        return InternalError("opcode table has unknown operand letter '", kind, "'");
    }
    inst.operands.push_back(std::move(op));
  }
  inst.length = cursor.pos() - offset;
  return inst;
}

}  // namespace kiln::vm
