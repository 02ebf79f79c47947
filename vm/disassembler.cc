#include "vm/disassembler.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "vm/bytecode.h"
#include "vm/module_generated.h"

namespace kiln::vm {
namespace {

constexpr uint32_t kValueKindCount = 5;  // ValueKind values (list element types)

void AppendU64(std::string& out, uint64_t v) { out += std::to_string(v); }

// "1 import", "2 imports".
std::string Count(uint64_t n, std::string_view singular, std::string_view plural) {
  return StrCat(n, " ", n == 1 ? singular : plural);
}

// `offset` zero-padded to `width` decimal digits.
void AppendOffset(std::string& out, uint32_t offset, int width) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%0*" PRIu32, width, offset);
  out += buf;
}

// A cost formula (module.fbs DispatchCostDef) as "256*c1 + 64", c1 being push-constant
// word 1; "?" when unknown.
std::string CostText(const flatbuffers::Vector<flatbuffers::Offset<fb::CostTerm>>* terms) {
  if (!terms) return "?";
  if (terms->size() == 0) return "0";
  std::string out;
  for (const fb::CostTerm* term : *terms) {
    if (!out.empty()) out += " + ";
    out += std::to_string(term->coefficient());
    if (term->words()) {
      for (uint32_t w : *term->words()) out += StrCat("*c", w);
    }
  }
  return out;
}

void AppendQuoted(std::string& out, std::string_view text) {
  out += '"';
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c >= 0x20 && c < 0x7f) {
          out += static_cast<char>(c);
        } else {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02x", c);
          out += buf;
        }
    }
  }
  out += '"';
}

// A signed immediate in decimal; large magnitudes (addresses, float bit patterns) also in hex.
void AppendImmediate(std::string& out, int64_t value, uint64_t bits) {
  out += std::to_string(value);
  if (value > 65535 || value < -65535) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), " (0x%" PRIx64 ")", bits);
    out += buf;
  }
}

// A register-list entry ('b', 'c', 'v' operands): the bank is in the high bits.
void AppendListEntry(std::string& out, uint16_t entry) {
  uint16_t index = entry & kRegisterIndexMask;
  if ((entry & kRefRegisterBit) && (entry & kPairRegisterBit)) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "%%<bad entry 0x%04x>", entry);
    out += buf;
    return;
  }
  out += (entry & kRefRegisterBit) ? "%r" : (entry & kPairRegisterBit) ? "%l" : "%i";
  AppendU64(out, index);
}

void AppendList(std::string& out, const EntryList& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out += ", ";
    AppendListEntry(out, list[i]);
  }
}

void AppendBranch(std::string& out, const Operand& op) {
  out += "^bb";
  AppendU64(out, op.value);
  if (op.list.empty()) return;
  out += '(';
  for (size_t m = 0; m < op.list.size(); ++m) {
    if (m) out += ", ";
    AppendListEntry(out, op.list[m]);
    out += " -> ";
    AppendListEntry(out, m < op.list2.size() ? op.list2[m] : uint16_t{0});
  }
  out += ')';
}

void AppendCallee(std::string& out, const Module& module, uint64_t callee) {
  if (callee & kImportCalleeBit) {
    uint64_t index = callee & ~uint64_t{kImportCalleeBit};
    if (index < module.imports().size()) {
      out += '@';
      out += module.imports()[index].name;
    } else {
      out += StrCat("@<bad import ", index, ">");
    }
  } else if (callee < module.functions().size()) {
    out += '@';
    out += module.functions()[callee].name;
  } else {
    out += StrCat("@<bad function ", callee, ">");
  }
}

void AppendOperand(std::string& out, const Module& module, const Operand& op) {
  switch (op.kind) {
    case 'i': out += "%i"; AppendU64(out, op.value); break;
    case 'l': out += "%l"; AppendU64(out, op.value); break;
    case 'r': out += "%r"; AppendU64(out, op.value); break;
    case 'k': AppendImmediate(out, static_cast<int32_t>(static_cast<uint32_t>(op.value)), op.value); break;
    case 'q': AppendImmediate(out, static_cast<int64_t>(op.value), op.value); break;
    case 'b': AppendBranch(out, op); break;
    case 'c':
      AppendCallee(out, module, op.value);
      out += '(';
      AppendList(out, op.list);
      out += ')';
      if (!op.list2.empty()) {
        out += " -> (";
        AppendList(out, op.list2);
        out += ')';
      }
      break;
    case 'v': AppendList(out, op.list); break;
    case 's': {
      const auto* strings = module.def().strings();
      if (strings && op.value < strings->size()) {
        AppendQuoted(out, module.String(static_cast<uint32_t>(op.value)));
      } else {
        out += StrCat("<bad string ", op.value, ">");
      }
      break;
    }
    case 'd': out += "rodata["; AppendU64(out, op.value); out += ']'; break;
    case 'g': case 'h': out += "global["; AppendU64(out, op.value); out += ']'; break;
    case 'x': out += "global.ref["; AppendU64(out, op.value); out += ']'; break;
    case 't':
      if (op.value < kValueKindCount) {
        out += ValueKindName(static_cast<ValueKind>(op.value));
      } else {
        out += StrCat("<bad type ", op.value, ">");
      }
      break;
    default: out += StrCat("<operand '", op.kind, "'>"); break;
  }
}

void AppendSignatureLine(std::string& out, const Signature& signature, std::string_view text) {
  out += FormatSignature(signature);
  out += "  ";
  AppendQuoted(out, text);
}

void AppendFunction(std::string& out, const Module& module, uint32_t ordinal, const DumpOptions& options) {
  if (ordinal >= module.functions().size()) {
    out += StrCat("; module '", module.name(), "' has no function ", ordinal, " (it has ",
                  module.functions().size(), ")\n");
    return;
  }
  const FunctionInfo& fn = module.functions()[ordinal];
  const fb::FunctionDef* def = module.def().functions()->Get(ordinal);
  out += StrCat("function ", ordinal, " @", fn.name, " ");
  AppendSignatureLine(out, fn.signature, def->signature()->string_view());
  out += '\n';
  out += StrCat("  registers: ", Count(fn.i32_register_count, "32-bit slot", "32-bit slots"), ", ",
                Count(fn.ref_register_count, "ref", "refs"), "\n");
  out += StrCat("  bytecode: ", fn.code.size(), " bytes at offset ", def->bytecode_offset(), "\n");
  int width = 4;
  for (size_t size = fn.code.size(); size >= 10000; size /= 10) ++width;
  out += "  blocks:";
  for (size_t b = 0; b < fn.block_offsets.size(); ++b) {
    out += b ? ", ^bb" : " ^bb";
    AppendU64(out, b);
    out += " at ";
    AppendOffset(out, fn.block_offsets[b], width);
  }
  if (fn.block_offsets.empty()) out += " none";
  out += '\n';
  std::string exported;
  for (const ExportInfo& e : module.exports()) {
    if (e.function_ordinal == ordinal) exported += StrCat(exported.empty() ? "" : ", ", e.name);
  }
  if (!exported.empty()) out += StrCat("  exported as: ", exported, "\n");
  if (!options.disassemble) return;

  // Source locations: the last entry at or before each instruction (Module::SourceLocation),
  // found by walking the table alongside the code when it is sorted, as producers write it.
  const auto* locations = def->locations();
  bool sorted_locations =
      locations && std::is_sorted(locations->begin(), locations->end(),
                                  [](const fb::SourceLocation* a, const fb::SourceLocation* b) {
                                    return a->offset() < b->offset();
                                  });
  size_t next_location = 0;
  std::string_view location, last_location;

  size_t next_block = 0;
  uint32_t offset = 0;
  while (offset < fn.code.size()) {
    // Block labels at this offset; a block that does not start on an instruction (which
    // the verifier rejects) is still shown where it falls.
    while (next_block < fn.block_offsets.size() && fn.block_offsets[next_block] <= offset) {
      out += StrCat("^bb", next_block, ":");
      if (fn.block_offsets[next_block] != offset) {
        out += StrCat("  // starts at ", fn.block_offsets[next_block], ", inside an instruction");
      }
      out += '\n';
      ++next_block;
    }
    out += "  ";
    AppendOffset(out, offset, width);
    out += ": ";
    StatusOr<Instruction> decoded = DecodeInstruction(fn.code, offset);
    if (!decoded.ok()) {
      out += StrCat("<cannot decode: ", decoded.status().ToString(), ">\n");
      return;
    }
    const Instruction& inst = *decoded;
    out += GetOpcodeInfo(inst.opcode).mnemonic;
    for (size_t i = 0; i < inst.operands.size(); ++i) {
      const Operand& op = inst.operands[i];
      // An empty return list prints nothing.
      if (op.kind == 'v' && op.list.empty()) continue;
      out += i ? ", " : " ";
      AppendOperand(out, module, op);
    }
    if (options.source_locations) {
      if (sorted_locations) {
        for (; next_location < locations->size() && locations->Get(next_location)->offset() <= offset; ++next_location) {
          location = locations->Get(next_location)->location()->string_view();
        }
      } else {
        location = module.SourceLocation(ordinal, offset);
      }
      if (!location.empty() && location != last_location) {
        out += "  // ";
        out += location;
      }
      last_location = location;
    }
    out += '\n';
    offset += inst.length;
  }
  for (; next_block < fn.block_offsets.size(); ++next_block) {
    out += StrCat("^bb", next_block, ":  // starts at ", fn.block_offsets[next_block], ", past the end\n");
  }
}

}  // namespace

std::string FormatSignature(const Signature& signature) {
  std::string out = "(";
  for (size_t i = 0; i < signature.args.size(); ++i) {
    if (i) out += ", ";
    out += ValueKindName(signature.args[i]);
  }
  if (!signature.variadic.empty()) {
    out += signature.args.empty() ? "[" : ", [";
    for (size_t i = 0; i < signature.variadic.size(); ++i) {
      if (i) out += ", ";
      out += ValueKindName(signature.variadic[i]);
    }
    out += "]...";
  }
  out += ") -> (";
  for (size_t i = 0; i < signature.results.size(); ++i) {
    if (i) out += ", ";
    out += ValueKindName(signature.results[i]);
  }
  out += ')';
  return out;
}

std::string DisassembleFunction(const Module& module, uint32_t ordinal, const DumpOptions& options) {
  std::string out;
  AppendFunction(out, module, ordinal, options);
  return out;
}

std::string DisassembleFunction(const Module& module, uint32_t ordinal) {
  return DisassembleFunction(module, ordinal, DumpOptions());
}

StatusOr<uint32_t> FindFunction(const Module& module, std::string_view name) {
  std::string known;
  for (uint32_t i = 0; i < module.functions().size(); ++i) {
    if (module.functions()[i].name == name) return i;
    known += StrCat(known.empty() ? "" : ", ", module.functions()[i].name);
  }
  return NotFoundError("module '", module.name(), "' has no function '", name, "'; it has: ",
                       known.empty() ? "no functions" : known);
}

std::string DumpModule(const Module& module, const DumpOptions& options) {
  const fb::Module& def = module.def();
  std::string out;
  auto size_of = [](const auto* vector) -> size_t { return vector ? vector->size() : 0; };

  out += "module ";
  AppendQuoted(out, module.name());
  out += '\n';
  out += StrCat("  abi version: ", def.abi_version(), "\n");
  out += "  producer: ";
  if (def.producer()) {
    AppendQuoted(out, def.producer()->string_view());
  } else {
    out += "unknown";
  }
  out += '\n';
  out += StrCat("  contents: ", Count(module.imports().size(), "import", "imports"), ", ",
                Count(module.exports().size(), "export", "exports"), ", ",
                Count(module.functions().size(), "function", "functions"), " (",
                Count(size_of(def.bytecode()), "bytecode byte", "bytecode bytes"), "), ",
                Count(size_of(def.rodata()), "rodata segment", "rodata segments"), ", ",
                Count(size_of(def.strings()), "string", "strings"), ", ",
                Count(size_of(def.executables()), "executable", "executables"), "\n");
  out += StrCat("  globals: ", Count(module.global_i32_slots(), "32-bit slot", "32-bit slots"), ", ",
                Count(module.global_ref_count(), "ref", "refs"), "\n");
  if (std::optional<uint32_t> init = module.initializer()) {
    out += StrCat("  initializer: function ", *init, " @", module.functions()[*init].name,
                  " (runs when a context is created)\n");
  }

  if (!module.imports().empty()) {
    out += "\nimports:\n";
    for (size_t i = 0; i < module.imports().size(); ++i) {
      const ImportInfo& import = module.imports()[i];
      out += StrCat("  [", i, "] ", import.name, " ");
      AppendSignatureLine(out, import.signature, import.signature_text);
      out += '\n';
    }
  }

  if (!module.exports().empty()) {
    out += "\nexports:\n";
    for (const ExportInfo& e : module.exports()) {
      out += StrCat("  ", e.name, " -> function ", e.function_ordinal);
      if (e.function_ordinal < module.functions().size()) {
        out += StrCat(" @", module.functions()[e.function_ordinal].name);
      }
      out += '\n';
    }
  }

  if (size_of(def.strings())) {
    out += "\nstrings:\n";
    for (uint32_t i = 0; i < def.strings()->size(); ++i) {
      out += StrCat("  [", i, "] ");
      AppendQuoted(out, module.String(i));
      out += '\n';
    }
  }

  if (size_of(def.rodata())) {
    out += "\nrodata:\n";
    for (uint32_t i = 0; i < def.rodata()->size(); ++i) {
      const fb::RodataSegment* s = def.rodata()->Get(i);
      size_t stored = size_of(s->data());
      out += StrCat("  rodata[", i, "]: ");
      switch (s->compression()) {
        case fb::Compression::None: out += Count(stored, "byte", "bytes"); break;
        case fb::Compression::Zstd:
          out += StrCat(Count(s->uncompressed_size(), "byte", "bytes"), ", zstd-compressed to ", Count(stored, "byte", "bytes"));
          break;
        default:
          out += StrCat(Count(stored, "byte", "bytes"), ", unknown compression ", static_cast<int>(s->compression()));
          break;
      }
      out += '\n';
    }
  }

  if (size_of(def.executables())) {
    out += "\nexecutables:\n";
    for (uint32_t i = 0; i < def.executables()->size(); ++i) {
      const fb::ExecutableDef* e = def.executables()->Get(i);
      out += StrCat("  [", i, "] ");
      AppendQuoted(out, e->name()->string_view());
      out += StrCat(": format ", e->format()->string_view(), ", ", Count(size_of(e->data()), "byte", "bytes"), ", ",
                    Count(size_of(e->exports()), "export", "exports"), "\n");
      if (!e->exports()) continue;
      for (const fb::ExecutableExportDef* x : *e->exports()) {
        out += "      ";
        out += x->name()->string_view();
        out += StrCat(": ", Count(x->binding_count(), "binding", "bindings"), ", ",
                      Count(x->constant_count(), "constant", "constants"), ", workgroup ");
        if (x->workgroup_size() && x->workgroup_size()->size()) {
          for (uint32_t d = 0; d < x->workgroup_size()->size(); ++d) {
            if (d) out += 'x';
            AppendU64(out, x->workgroup_size()->Get(d));
          }
        } else {
          out += "unknown";
        }
        out += StrCat(", local memory ", Count(x->local_memory_bytes(), "byte", "bytes"));
        if (x->cost()) {
          out += StrCat(", flops ", CostText(x->cost()->flops()), ", bytes read ", CostText(x->cost()->bytes_read()),
                        ", written ", CostText(x->cost()->bytes_written()));
        }
        if (x->source_location() && x->source_location()->size()) {
          out += "  // ";
          out += x->source_location()->string_view();
        }
        out += '\n';
      }
    }
  }

  for (uint32_t i = 0; i < module.functions().size(); ++i) {
    out += '\n';
    AppendFunction(out, module, i, options);
  }
  return out;
}

}  // namespace kiln::vm
