#include "vm/verifier.h"

#include <zstd.h>

#include <algorithm>

#include "vm/bytecode.h"
#include "vm/module.h"
#include "vm/module_generated.h"

namespace kiln::vm {
namespace {

constexpr uint64_t kMaxRodataBytes = uint64_t{1} << 31;
// zstd cannot expand more than ~32768x (one 3-byte RLE block header per 128 KiB), so a
// segment declaring more is lying; this bounds what a tiny hostile module can make the
// loader allocate.
constexpr uint64_t kMaxCompressionRatio = 1u << 16;
constexpr uint32_t kListElementKinds = 5;  // ValueKind values

// Which register bank and width a value uses; i32 and f32 share one, i64 and f64 another.
enum class Slot { k32, k64, kRef };
Slot SlotOf(ValueKind kind) {
  switch (kind) {
    case ValueKind::kI32: case ValueKind::kF32: return Slot::k32;
    case ValueKind::kI64: case ValueKind::kF64: return Slot::k64;
    case ValueKind::kRef: return Slot::kRef;
  }
  return Slot::k32;
}
Slot SlotOfListEntry(uint16_t entry) {
  if (entry & kRefRegisterBit) return Slot::kRef;
  return (entry & kPairRegisterBit) ? Slot::k64 : Slot::k32;
}
const char* SlotName(Slot s) { return s == Slot::k32 ? "32-bit" : s == Slot::k64 ? "64-bit" : "ref"; }

class FunctionVerifier {
 public:
  FunctionVerifier(const Module& module, uint32_t ordinal)
      : module_(module), def_(module.def()), fn_(module.functions()[ordinal]) {}

  Status Run() {
    KILN_RETURN_IF_ERROR(CheckArgumentsFit());
    if (fn_.code.empty()) return InvalidArgumentError("function has no bytecode");
    const auto& blocks = fn_.block_offsets;
    if (blocks.empty() || blocks[0] != 0) return InvalidArgumentError("function's first block must start at offset 0");
    if (!std::is_sorted(blocks.begin(), blocks.end()) ||
        std::adjacent_find(blocks.begin(), blocks.end()) != blocks.end()) {
      return InvalidArgumentError("function's block offsets are not strictly increasing");
    }
    std::vector<uint32_t> starts;
    uint32_t offset = 0;
    Opcode last = Opcode::kReturn;
    while (offset < fn_.code.size()) {
      KILN_ASSIGN_OR_RETURN(Instruction inst, DecodeInstruction(fn_.code, offset));
      Status checked = CheckInstruction(inst);
      if (!checked.ok()) {
        return checked.With("in '", GetOpcodeInfo(inst.opcode).mnemonic, "' at offset ", offset);
      }
      starts.push_back(offset);
      last = inst.opcode;
      offset += inst.length;
    }
    if (last != Opcode::kReturn && last != Opcode::kBranch && last != Opcode::kCondBranch) {
      return InvalidArgumentError("function ends with '", GetOpcodeInfo(last).mnemonic,
                                  "'; the last instruction must be return or a branch");
    }
    for (uint32_t block : blocks) {
      if (!std::binary_search(starts.begin(), starts.end(), block)) {
        return InvalidArgumentError("block at offset ", block, " does not start on an instruction");
      }
    }
    return OkStatus();
  }

 private:
  Status CheckArgumentsFit() {
    uint32_t slots = 0, refs = 0;
    for (ValueKind kind : fn_.signature.args) {
      if (kind == ValueKind::kRef) {
        ++refs;
      } else if (SlotCount(kind) == 2) {
        slots = (slots + 1) & ~1u;
        slots += 2;
      } else {
        slots += 1;
      }
    }
    if (!fn_.signature.variadic.empty()) return InvalidArgumentError("bytecode functions cannot be variadic");
    if (slots > fn_.i32_register_count || refs > fn_.ref_register_count) {
      return InvalidArgumentError("arguments need ", slots, " 32-bit slots and ", refs, " refs but the function has ",
                                  fn_.i32_register_count, " and ", fn_.ref_register_count);
    }
    return OkStatus();
  }

  Status Register32(uint64_t r) const {
    if (r >= fn_.i32_register_count) {
      return OutOfRangeError("32-bit register ", r, " is out of range (", fn_.i32_register_count, " registers)");
    }
    return OkStatus();
  }
  Status Register64(uint64_t r) const {
    if (r % 2 != 0) return InvalidArgumentError("64-bit register ", r, " is not an even slot");
    if (r + 1 >= fn_.i32_register_count) {
      return OutOfRangeError("64-bit register ", r, " is out of range (", fn_.i32_register_count, " registers)");
    }
    return OkStatus();
  }
  Status RegisterRef(uint64_t r) const {
    if (r >= fn_.ref_register_count) {
      return OutOfRangeError("ref register ", r, " is out of range (", fn_.ref_register_count, " registers)");
    }
    return OkStatus();
  }
  Status ListEntry(uint16_t entry) const {
    uint16_t index = entry & kRegisterIndexMask;
    switch (SlotOfListEntry(entry)) {
      case Slot::kRef:
        if (entry & kPairRegisterBit) return InvalidArgumentError("register entry ", entry, " sets both bank bits");
        return RegisterRef(index);
      case Slot::k64: return Register64(index);
      case Slot::k32: return Register32(index);
    }
    return OkStatus();
  }
  // Registers in `list` must match `kinds` one for one (i32/f32 and i64/f64 interchangeable).
  Status MatchList(const std::vector<uint16_t>& list, std::span<const ValueKind> kinds, std::string_view what) const {
    if (list.size() != kinds.size()) {
      return InvalidArgumentError(what, " has ", list.size(), " values but the signature has ", kinds.size());
    }
    for (size_t i = 0; i < list.size(); ++i) {
      KILN_RETURN_IF_ERROR(ListEntry(list[i]), what, " value ", i);
      if (SlotOfListEntry(list[i]) != SlotOf(kinds[i])) {
        return InvalidArgumentError(what, " value ", i, " is a ", SlotName(SlotOfListEntry(list[i])),
                                    " register but the signature wants ", ValueKindName(kinds[i]));
      }
    }
    return OkStatus();
  }
  Status CheckBranch(const Operand& op) const {
    if (op.value >= fn_.block_offsets.size()) {
      return OutOfRangeError("branch to block ", op.value, " of ", fn_.block_offsets.size());
    }
    for (size_t m = 0; m < op.list.size(); ++m) {
      KILN_RETURN_IF_ERROR(ListEntry(op.list[m]), "branch move ", m, " source");
      KILN_RETURN_IF_ERROR(ListEntry(op.list2[m]), "branch move ", m, " target");
      if (SlotOfListEntry(op.list[m]) != SlotOfListEntry(op.list2[m])) {
        return InvalidArgumentError("branch move ", m, " copies between different register banks");
      }
    }
    return OkStatus();
  }
  Status CheckCall(const Operand& op) const {
    const Signature* sig;
    std::string callee;
    if (op.value & kImportCalleeBit) {
      uint64_t index = op.value & ~uint64_t{kImportCalleeBit};
      if (index >= module_.imports().size()) return OutOfRangeError("call to import ", index, " of ", module_.imports().size());
      sig = &module_.imports()[index].signature;
      callee = std::string(module_.imports()[index].name);
    } else {
      if (op.value >= module_.functions().size()) {
        return OutOfRangeError("call to function ", op.value, " of ", module_.functions().size());
      }
      sig = &module_.functions()[op.value].signature;
      callee = std::string(module_.functions()[op.value].name);
    }
    // Variadic imports: the fixed arguments, then whole repetitions of the group.
    std::vector<ValueKind> expected = sig->args;
    if (!sig->variadic.empty()) {
      if (op.list.size() < sig->args.size() ||
          (op.list.size() - sig->args.size()) % sig->variadic.size() != 0) {
        return InvalidArgumentError("call to '", callee, "' passes ", op.list.size(),
                                    " arguments, which is not its fixed arguments plus whole variadic groups (",
                                    sig->ToString(), ")");
      }
      while (expected.size() < op.list.size()) expected.insert(expected.end(), sig->variadic.begin(), sig->variadic.end());
    }
    KILN_RETURN_IF_ERROR(MatchList(op.list, expected, StrCat("call to '", callee, "' argument list")));
    return MatchList(op.list2, sig->results, StrCat("call to '", callee, "' result list"));
  }

  Status CheckInstruction(const Instruction& inst) const {
    for (const Operand& op : inst.operands) {
      switch (op.kind) {
        case 'i': KILN_RETURN_IF_ERROR(Register32(op.value)); break;
        case 'l': KILN_RETURN_IF_ERROR(Register64(op.value)); break;
        case 'r': KILN_RETURN_IF_ERROR(RegisterRef(op.value)); break;
        case 'k': case 'q': break;
        case 'b': KILN_RETURN_IF_ERROR(CheckBranch(op)); break;
        case 'c': KILN_RETURN_IF_ERROR(CheckCall(op)); break;
        case 'v': KILN_RETURN_IF_ERROR(MatchList(op.list, fn_.signature.results, "return list")); break;
        case 's':
          if (!def_.strings() || op.value >= def_.strings()->size()) return OutOfRangeError("string ordinal ", op.value);
          break;
        case 'd':
          if (!def_.rodata() || op.value >= def_.rodata()->size()) return OutOfRangeError("rodata ordinal ", op.value);
          break;
        case 'g':
          if (op.value >= module_.global_i32_slots()) return OutOfRangeError("global slot ", op.value);
          break;
        case 'h':
          if (op.value % 2 || op.value + 1 >= module_.global_i32_slots()) {
            return OutOfRangeError("64-bit global slot ", op.value, " (must be even and in range)");
          }
          break;
        case 'x':
          if (op.value >= module_.global_ref_count()) return OutOfRangeError("global ref ", op.value);
          break;
        case 't':
          if (op.value >= kListElementKinds) return InvalidArgumentError("list element kind ", op.value);
          break;
        default: return InternalError("unhandled operand letter '", op.kind, "'");
      }
    }
    return OkStatus();
  }

  const Module& module_;
  const fb::Module& def_;
  const FunctionInfo& fn_;
};

}  // namespace

Status VerifyModuleBuffer(std::span<const uint8_t> bytes) {
  if (bytes.size() < 8) return InvalidArgumentError("module of ", bytes.size(), " bytes is too small to be a module");
  if (!fb::ModuleBufferHasIdentifier(bytes.data())) {
    return InvalidArgumentError("not a kiln module: the file identifier at offset 4 is not 'KILN'");
  }
  if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return InvalidArgumentError("module of ", bytes.size(), " bytes exceeds the 2 GiB format limit");
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = 32;
  options.max_tables = 1u << 22;
  flatbuffers::Verifier verifier(bytes.data(), bytes.size(), options);
  if (!fb::VerifyModuleBuffer(verifier)) {
    return InvalidArgumentError("module is corrupt: its flatbuffer tables, offsets or sizes are out of bounds or "
                                "required fields are missing");
  }
  const fb::Module* m = fb::GetModule(bytes.data());
  if (m->abi_version() != kAbiVersion) {
    return InvalidArgumentError("module has ABI version ", m->abi_version(), " (from '",
                                m->producer() ? m->producer()->string_view() : "unknown producer",
                                "'); this runtime supports version ", kAbiVersion);
  }
  return OkStatus();
}

Status VerifyModuleStructure(const fb::Module& m) {
  size_t code_size = m.bytecode() ? m.bytecode()->size() : 0;
  size_t function_count = m.functions() ? m.functions()->size() : 0;
  if (m.functions()) {
    for (size_t i = 0; i < function_count; ++i) {
      const fb::FunctionDef* f = m.functions()->Get(i);
      if (uint64_t{f->bytecode_offset()} + f->bytecode_length() > code_size) {
        return OutOfRangeError("function ", i, " '", f->name()->string_view(), "' bytecode [", f->bytecode_offset(),
                               ", +", f->bytecode_length(), ") lies outside the ", code_size, "-byte bytecode section");
      }
    }
  }
  if (m.exports()) {
    for (const fb::ExportDef* e : *m.exports()) {
      if (e->function_ordinal() >= function_count) {
        return OutOfRangeError("export '", e->name()->string_view(), "' names function ", e->function_ordinal(),
                               " of ", function_count);
      }
    }
  }
  if (m.rodata()) {
    for (size_t i = 0; i < m.rodata()->size(); ++i) {
      const fb::RodataSegment* s = m.rodata()->Get(i);
      uint64_t stored = s->data() ? s->data()->size() : 0;
      if (s->compression() == fb::Compression::None) {
        if (s->uncompressed_size() != stored) {
          return InvalidArgumentError("rodata segment ", i, " declares ", s->uncompressed_size(), " bytes but stores ",
                                      stored);
        }
      } else if (s->compression() == fb::Compression::Zstd) {
        if (s->uncompressed_size() > kMaxRodataBytes || s->uncompressed_size() > stored * kMaxCompressionRatio + 4096) {
          return InvalidArgumentError("rodata segment ", i, " declares an implausible decompressed size of ",
                                      s->uncompressed_size(), " bytes for ", stored, " compressed bytes");
        }
        unsigned long long framed = ZSTD_getFrameContentSize(s->data() ? s->data()->data() : nullptr, stored);
        if (framed != s->uncompressed_size()) {
          return InvalidArgumentError("rodata segment ", i, " declares ", s->uncompressed_size(),
                                      " decompressed bytes but its zstd frame ",
                                      framed == ZSTD_CONTENTSIZE_ERROR ? std::string("is invalid")
                                      : framed == ZSTD_CONTENTSIZE_UNKNOWN ? std::string("does not state its size")
                                                                           : StrCat("holds ", framed));
        }
      } else {
        return InvalidArgumentError("rodata segment ", i, " has unknown compression ", int(s->compression()));
      }
    }
  }
  if (m.executables()) {
    for (size_t i = 0; i < m.executables()->size(); ++i) {
      const fb::ExecutableDef* e = m.executables()->Get(i);
      if (!e->exports()) continue;
      for (const fb::ExecutableExportDef* x : *e->exports()) {
        if (!x->workgroup_size() || x->workgroup_size()->size() != 3) {
          return InvalidArgumentError("executable ", i, " export '", x->name()->string_view(),
                                      "' needs a 3-entry workgroup size");
        }
      }
    }
  }
  return OkStatus();
}

Status VerifyFunction(const Module& module, uint32_t function_ordinal) {
  return FunctionVerifier(module, function_ordinal).Run();
}

}  // namespace kiln::vm
