#include "vm/verifier.h"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <string_view>

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
// A context allocates every global up front; these bound what a module can make it allocate
// (4 MiB of 32-bit slots, 16 MiB of refs) and keep slot arithmetic far from overflow.
constexpr uint32_t kMaxGlobalI32Slots = 1u << 20;
constexpr uint32_t kMaxGlobalRefs = 1u << 20;

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

// Most opcodes take only registers. For those the verifier needs one bounds check and one
// comparison per operand; their shape is computed once from the opcode table.
struct RegisterShape {
  bool registers_only = false;
  uint8_t count = 0;
  char banks[4] = {};  // 'i', 'l' or 'r'
};
constexpr std::array<RegisterShape, kOpcodeCount> MakeRegisterShapes() {
  std::array<RegisterShape, kOpcodeCount> shapes{};
  constexpr std::string_view kOperands[] = {
#define KILN_OP(name, mnemonic, operands) operands,
#include "vm/opcodes.def"
#undef KILN_OP
  };
  for (int op = 0; op < kOpcodeCount; ++op) {
    RegisterShape shape;
    shape.registers_only = kOperands[op].size() <= 4;
    for (char c : kOperands[op]) {
      if (c != 'i' && c != 'l' && c != 'r') shape.registers_only = false;
      if (shape.registers_only) shape.banks[shape.count++] = c;
    }
    if (!shape.registers_only) shape.count = 0;
    shapes[op] = shape;
  }
  return shapes;
}
constexpr std::array<RegisterShape, kOpcodeCount> kRegisterShapes = MakeRegisterShapes();

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
    std::vector<uint8_t> is_start(fn_.code.size(), 0);
    uint32_t offset = 0;
    Opcode last = Opcode::kReturn;
    const uint8_t* code = fn_.code.data();
    const uint32_t size = static_cast<uint32_t>(fn_.code.size());
    while (offset < size) {
      is_start[offset] = 1;
      // Fast path, inline: an opcode whose operands are all registers, all in range.
      uint8_t raw = code[offset];
      if (raw < kOpcodeCount && kRegisterShapes[raw].registers_only) {
        const RegisterShape& shape = kRegisterShapes[raw];
        uint32_t end = offset + 1 + 2u * shape.count;
        bool ok = end <= size;
        for (uint8_t k = 0; ok && k < shape.count; ++k) {
          ok = RegisterInRange(shape.banks[k], ReadUnaligned<uint16_t>(code + offset + 1 + 2 * k));
        }
        if (ok) {
          last = static_cast<Opcode>(raw);
          offset = end;
          continue;
        }
      }
      // Everything else, and any error, takes the general path (which words the error).
      uint32_t next = 0;
      if (Status checked = CheckInstructionAt(offset, &next, &last); !checked.ok()) {
        if (last == Opcode::kCount) return checked;  // not even an opcode to name
        return checked.With("in '", GetOpcodeInfo(last).mnemonic, "' at offset ", offset);
      }
      offset = next;
    }
    if (last != Opcode::kReturn && last != Opcode::kBranch && last != Opcode::kCondBranch) {
      return InvalidArgumentError("function ends with '", GetOpcodeInfo(last).mnemonic,
                                  "'; the last instruction must be return or a branch");
    }
    for (uint32_t block : blocks) {
      if (block >= is_start.size() || !is_start[block]) {
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

  // The common case is a comparison; only a register out of range builds a Status.
  bool RegisterInRange(char bank, uint16_t reg) const {
    return bank == 'i'   ? reg < fn_.i32_register_count
           : bank == 'l' ? (reg % 2 == 0 && reg + 1 < fn_.i32_register_count)
                         : reg < fn_.ref_register_count;
  }
  Status RegisterError(char bank, uint16_t reg) const {
    return bank == 'i' ? Register32(reg) : bank == 'l' ? Register64(reg) : RegisterRef(reg);
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
  // Registers in `list` must match the kinds `kind_of(i)` one for one (i32/f32 and i64/f64
  // interchangeable). `what` is only evaluated to word an error.
  template <typename KindOf, typename What>
  Status MatchList(const EntryList& list, size_t expected_count, KindOf kind_of, What what) const {
    if (list.size() != expected_count) {
      return InvalidArgumentError(what(), " has ", list.size(), " values but the signature has ", expected_count);
    }
    for (size_t i = 0; i < list.size(); ++i) {
      if (Status s = ListEntry(list[i]); !s.ok()) return s.With(what(), " value ", i);
      ValueKind kind = kind_of(i);
      if (SlotOfListEntry(list[i]) != SlotOf(kind)) {
        return InvalidArgumentError(what(), " value ", i, " is a ", SlotName(SlotOfListEntry(list[i])),
                                    " register but the signature wants ", ValueKindName(kind));
      }
    }
    return OkStatus();
  }
  Status CheckBranch(uint32_t block, const EntryList& sources, const EntryList& targets) const {
    if (block >= fn_.block_offsets.size()) {
      return OutOfRangeError("branch to block ", block, " of ", fn_.block_offsets.size());
    }
    for (size_t m = 0; m < sources.size(); ++m) {
      KILN_RETURN_IF_ERROR(ListEntry(sources[m]), "branch move ", m, " source");
      KILN_RETURN_IF_ERROR(ListEntry(targets[m]), "branch move ", m, " target");
      if (SlotOfListEntry(sources[m]) != SlotOfListEntry(targets[m])) {
        return InvalidArgumentError("branch move ", m, " copies between different register banks");
      }
    }
    return OkStatus();
  }
  Status CheckCall(uint32_t callee_ordinal, const EntryList& args, const EntryList& results) const {
    const Signature* sig;
    std::string_view callee;
    if (callee_ordinal & kImportCalleeBit) {
      uint32_t index = callee_ordinal & ~kImportCalleeBit;
      if (index >= module_.imports().size()) return OutOfRangeError("call to import ", index, " of ", module_.imports().size());
      sig = &module_.imports()[index].signature;
      callee = module_.imports()[index].name;
    } else {
      if (callee_ordinal >= module_.functions().size()) {
        return OutOfRangeError("call to function ", callee_ordinal, " of ", module_.functions().size());
      }
      sig = &module_.functions()[callee_ordinal].signature;
      callee = module_.functions()[callee_ordinal].name;
    }
    // Variadic imports: the fixed arguments, then whole repetitions of the group.
    size_t fixed = sig->args.size(), group = sig->variadic.size();
    size_t expected = fixed;
    if (group) {
      if (args.size() < fixed || (args.size() - fixed) % group != 0) {
        return InvalidArgumentError("call to '", callee, "' passes ", args.size(),
                                    " arguments, which is not its fixed arguments plus whole variadic groups (",
                                    sig->ToString(), ")");
      }
      expected = args.size();
    }
    KILN_RETURN_IF_ERROR(MatchList(
        args, expected, [&](size_t i) { return i < fixed ? sig->args[i] : sig->variadic[(i - fixed) % group]; },
        [&] { return StrCat("call to '", callee, "' argument list"); }));
    return MatchList(
        results, sig->results.size(), [&](size_t i) { return sig->results[i]; },
        [&] { return StrCat("call to '", callee, "' result list"); });
  }

  // Checks the instruction at `offset` operand by operand straight from the bytes (no
  // decoded copy: verification runs over every instruction of every function at load).
  // Run() handles valid register-only instructions inline; everything else, and the
  // wording of every error, comes here.
  // Sets *opcode (kCount if the opcode byte itself is bad) and *next.
  Status CheckInstructionAt(uint32_t offset, uint32_t* next, Opcode* opcode) const {
    const uint8_t* code = fn_.code.data();
    const size_t size = fn_.code.size();
    size_t pos = offset;
    auto truncated = [&] {
      return OutOfRangeError("instruction at offset ", offset, " runs past the end of the function (", size,
                             " bytes)");
    };
    auto need = [&](size_t bytes) { return size - pos >= bytes; };
    uint8_t raw = code[pos++];
    if (raw >= kOpcodeCount) {
      *opcode = Opcode::kCount;
      return InvalidArgumentError("unknown opcode ", int{raw}, " at offset ", offset);
    }
    *opcode = static_cast<Opcode>(raw);
    for (char kind : GetOpcodeInfo(*opcode).operands) {
      switch (kind) {
        case 'i': case 'l': case 'r': {
          if (!need(2)) return truncated();
          uint16_t reg = ReadUnaligned<uint16_t>(code + pos);
          pos += 2;
          if (!RegisterInRange(kind, reg)) return RegisterError(kind, reg);
          break;
        }
        case 't': {
          if (!need(1)) return truncated();
          if (code[pos] >= kListElementKinds) return InvalidArgumentError("list element kind ", int{code[pos]});
          pos += 1;
          break;
        }
        case 'k': pos += 4; if (pos > size) return truncated(); break;
        case 'q': pos += 8; if (pos > size) return truncated(); break;
        case 's': case 'd': case 'g': case 'h': case 'x': {
          if (!need(4)) return truncated();
          KILN_RETURN_IF_ERROR(CheckOrdinal(kind, ReadUnaligned<uint32_t>(code + pos)));
          pos += 4;
          break;
        }
        case 'b': {
          if (!need(6)) return truncated();
          uint32_t block = ReadUnaligned<uint32_t>(code + pos);
          uint16_t count = ReadUnaligned<uint16_t>(code + pos + 4);
          pos += 6;
          if (!need(size_t{count} * 4)) return truncated();
          KILN_RETURN_IF_ERROR(CheckBranch(block, EntryList(code + pos, count, 4), EntryList(code + pos + 2, count, 4)));
          pos += size_t{count} * 4;
          break;
        }
        case 'c': case 'v': {
          uint32_t callee = 0;
          if (kind == 'c') {
            if (!need(4)) return truncated();
            callee = ReadUnaligned<uint32_t>(code + pos);
            pos += 4;
          }
          EntryList lists[2];
          for (int l = 0; l < (kind == 'c' ? 2 : 1); ++l) {
            if (!need(2)) return truncated();
            uint16_t count = ReadUnaligned<uint16_t>(code + pos);
            pos += 2;
            if (!need(size_t{count} * 2)) return truncated();
            lists[l] = EntryList(code + pos, count, 2);
            pos += size_t{count} * 2;
          }
          if (kind == 'c') {
            KILN_RETURN_IF_ERROR(CheckCall(callee, lists[0], lists[1]));
          } else {
            KILN_RETURN_IF_ERROR(MatchList(
                lists[0], fn_.signature.results.size(), [&](size_t i) { return fn_.signature.results[i]; },
                [] { return std::string("return list"); }));
          }
          break;
        }
        default: return InternalError("unhandled operand letter '", kind, "'");
      }
    }
    *next = static_cast<uint32_t>(pos);
    return OkStatus();
  }

  Status CheckOrdinal(char kind, uint32_t value) const {
    switch (kind) {
      case 's':
        if (!def_.strings() || value >= def_.strings()->size()) return OutOfRangeError("string ordinal ", value);
        return OkStatus();
      case 'd':
        if (!def_.rodata() || value >= def_.rodata()->size()) return OutOfRangeError("rodata ordinal ", value);
        return OkStatus();
      case 'g':
        if (value >= module_.global_i32_slots()) return OutOfRangeError("global slot ", value);
        return OkStatus();
      case 'h':
        if (value % 2 || uint64_t{value} + 1 >= module_.global_i32_slots()) {
          return OutOfRangeError("64-bit global slot ", value, " (must be even and in range)");
        }
        return OkStatus();
      default:  // 'x'
        if (value >= module_.global_ref_count()) return OutOfRangeError("global ref ", value);
        return OkStatus();
    }
  }

  const Module& module_;
  const fb::Module& def_;
  const FunctionInfo& fn_;
};

// A cost formula names only push-constant words the export has.
Status VerifyCost(const fb::ExecutableExportDef& x) {
  if (!x.cost()) return OkStatus();
  for (const auto* formula : {x.cost()->flops(), x.cost()->bytes_read(), x.cost()->bytes_written()}) {
    if (!formula) continue;
    for (const fb::CostTerm* term : *formula) {
      if (!term->words()) continue;
      for (uint32_t word : *term->words()) {
        if (word >= x.constant_count()) {
          return InvalidArgumentError("cost formula names push-constant word ", word, " of ", x.constant_count());
        }
      }
    }
  }
  return OkStatus();
}

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
  if (m.global_i32_slots() > kMaxGlobalI32Slots || m.global_ref_count() > kMaxGlobalRefs) {
    return InvalidArgumentError("module declares ", m.global_i32_slots(), " 32-bit global slots and ",
                                m.global_ref_count(), " global refs; the limits are ", kMaxGlobalI32Slots, " and ",
                                kMaxGlobalRefs);
  }
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
  if (int32_t init = m.initializer_function(); init != -1) {
    if (init < 0 || static_cast<size_t>(init) >= function_count) {
      return OutOfRangeError("the module's initializer names function ", init, " of ", function_count);
    }
    std::string_view signature = m.functions()->Get(init)->signature()->string_view();
    if (signature != ":") {
      return InvalidArgumentError("the module's initializer '", m.functions()->Get(init)->name()->string_view(),
                                  "' has signature '", signature, "'; an initializer takes and returns nothing");
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
        KILN_RETURN_IF_ERROR(VerifyCost(*x), "in executable ", i, " export '", x->name()->string_view(), "'");
      }
    }
  }
  return OkStatus();
}

Status VerifyFunction(const Module& module, uint32_t function_ordinal) {
  return FunctionVerifier(module, function_ordinal).Run();
}

}  // namespace kiln::vm
