#include "vm/builder.h"

#include <algorithm>

#include <zstd.h>

#include "vm/module.h"
#include "vm/module_generated.h"
#include "vm/signature.h"

namespace kiln::vm {

FunctionBuilder::FunctionBuilder(ModuleBuilder* owner, uint32_t ordinal, std::string name, std::string signature)
    : owner_(owner), ordinal_(ordinal), name_(std::move(name)), signature_(std::move(signature)) {
  block_offsets_.push_back(0);  // the entry block
  StatusOr<Signature> sig = ParseSignature(signature_);
  if (!sig.ok()) {
    Error(sig.status().ToString());
    return;
  }
  for (ValueKind kind : sig->args) {
    if (kind == ValueKind::kRef) {
      args_.push_back(NewRef());
    } else if (SlotCount(kind) == 2) {
      args_.push_back(NewI64());
    } else {
      args_.push_back(NewI32());
    }
  }
}

void FunctionBuilder::Error(std::string message) {
  if (owner_->error_.ok()) owner_->error_ = InvalidArgumentError("in function '", name_, "': ", message);
}

Reg FunctionBuilder::NewI32() { return Reg::I32(next_i32_++); }
Reg FunctionBuilder::NewI64() {
  next_i32_ = (next_i32_ + 1) & ~1;
  Reg r = Reg::I64(next_i32_);
  next_i32_ += 2;
  return r;
}
Reg FunctionBuilder::NewRef() { return Reg::Ref(next_ref_++); }

FunctionBuilder::Block FunctionBuilder::NewBlock() {
  block_offsets_.push_back(-1);
  return {static_cast<uint32_t>(block_offsets_.size() - 1)};
}

void FunctionBuilder::Bind(Block block) {
  if (block.index >= block_offsets_.size() || block_offsets_[block.index] != -1) return Error("block bound twice");
  block_offsets_[block.index] = static_cast<int64_t>(code_.size());
}

Status FunctionBuilder::NumberBlocksInOrder(std::vector<uint32_t>& offsets) {
  for (int64_t offset : block_offsets_) {
    if (offset < 0) return InvalidArgumentError("a block was never bound");
  }
  std::vector<uint32_t> order(block_offsets_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return block_offsets_[a] < block_offsets_[b]; });
  std::vector<uint32_t> renumbered(block_offsets_.size());
  offsets.clear();
  for (uint32_t old_index : order) {
    uint32_t offset = static_cast<uint32_t>(block_offsets_[old_index]);
    if (offsets.empty() || offsets.back() != offset) offsets.push_back(offset);
    renumbered[old_index] = static_cast<uint32_t>(offsets.size() - 1);
  }
  for (size_t position : branch_target_positions_) {
    uint32_t target = 0;
    for (int i = 0; i < 4; ++i) target |= static_cast<uint32_t>(code_[position + i]) << (8 * i);
    // A target that names no block is left for the verifier to reject (its tests build such modules).
    if (target >= renumbered.size()) continue;
    target = renumbered[target];
    for (int i = 0; i < 4; ++i) code_[position + i] = static_cast<uint8_t>(target >> (8 * i));
  }
  // Numbered in order now, so that numbering again (another Finish) changes nothing.
  block_offsets_.assign(offsets.begin(), offsets.end());
  return OkStatus();
}

void FunctionBuilder::Location(std::string location) { pending_location_ = std::move(location); }

void FunctionBuilder::BeginInstruction() {
  if (!pending_location_.empty()) {
    locations_.emplace_back(static_cast<uint32_t>(code_.size()), std::move(pending_location_));
    pending_location_.clear();
  }
}

void FunctionBuilder::Put16(uint16_t v) {
  for (int i = 0; i < 2; ++i) code_.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void FunctionBuilder::Put32(uint32_t v) {
  for (int i = 0; i < 4; ++i) code_.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void FunctionBuilder::Put64(uint64_t v) {
  for (int i = 0; i < 8; ++i) code_.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void FunctionBuilder::PutList(std::span<const Reg> regs) {
  Put16(static_cast<uint16_t>(regs.size()));
  for (Reg r : regs) Put16(r.entry);
}
void FunctionBuilder::PutBranch(Block target, std::span<const Move> moves) {
  branch_target_positions_.push_back(code_.size());
  Put32(target.index);
  Put16(static_cast<uint16_t>(moves.size()));
  for (const Move& m : moves) {
    Put16(m.from.entry);
    Put16(m.to.entry);
  }
}

void FunctionBuilder::Emit(Opcode opcode, std::initializer_list<uint64_t> operands) {
  std::string_view format = GetOpcodeInfo(opcode).operands;
  if (format.size() != operands.size()) {
    return Error(StrCat("'", GetOpcodeInfo(opcode).mnemonic, "' takes ", format.size(), " operands, got ",
                        operands.size()));
  }
  BeginInstruction();
  Put8(static_cast<uint8_t>(opcode));
  auto it = operands.begin();
  for (char kind : format) {
    uint64_t v = *it++;
    switch (kind) {
      case 'i': case 'l': case 'r': Put16(static_cast<uint16_t>(v)); break;
      case 't': Put8(static_cast<uint8_t>(v)); break;
      case 'k': case 's': case 'd': case 'g': case 'h': case 'x': Put32(static_cast<uint32_t>(v)); break;
      case 'q': Put64(v); break;
      default:
        return Error(StrCat("'", GetOpcodeInfo(opcode).mnemonic, "' needs its own builder method"));
    }
  }
}

void FunctionBuilder::Branch(Block target, std::span<const Move> moves) {
  BeginInstruction();
  Put8(static_cast<uint8_t>(Opcode::kBranch));
  PutBranch(target, moves);
}

void FunctionBuilder::CondBranch(Reg condition, Block if_true, Block if_false, std::span<const Move> true_moves,
                                 std::span<const Move> false_moves) {
  BeginInstruction();
  Put8(static_cast<uint8_t>(Opcode::kCondBranch));
  Put16(condition.index());
  PutBranch(if_true, true_moves);
  PutBranch(if_false, false_moves);
}

void FunctionBuilder::Call(uint32_t function_ordinal, std::span<const Reg> args, std::span<const Reg> results) {
  BeginInstruction();
  Put8(static_cast<uint8_t>(Opcode::kCall));
  Put32(function_ordinal);
  PutList(args);
  PutList(results);
}

void FunctionBuilder::CallImport(uint32_t import_ordinal, std::span<const Reg> args, std::span<const Reg> results) {
  Call(import_ordinal | kImportCalleeBit, args, results);
}

void FunctionBuilder::Return(std::span<const Reg> values) {
  BeginInstruction();
  Put8(static_cast<uint8_t>(Opcode::kReturn));
  PutList(values);
}

void FunctionBuilder::EmitRaw(std::span<const uint8_t> bytes) { code_.insert(code_.end(), bytes.begin(), bytes.end()); }

ModuleBuilder::ModuleBuilder(std::string name) : name_(std::move(name)), abi_version_(kAbiVersion) {}
ModuleBuilder::~ModuleBuilder() = default;

uint32_t ModuleBuilder::AddImport(std::string name, std::string signature) {
  imports_.emplace_back(std::move(name), std::move(signature));
  return static_cast<uint32_t>(imports_.size() - 1);
}

FunctionBuilder& ModuleBuilder::AddFunction(std::string name, std::string signature) {
  uint32_t ordinal = static_cast<uint32_t>(functions_.size());
  functions_.push_back(std::unique_ptr<FunctionBuilder>(
      new FunctionBuilder(this, ordinal, std::move(name), std::move(signature))));
  return *functions_.back();
}

void ModuleBuilder::Export(std::string name, uint32_t function_ordinal,
                           std::vector<std::pair<std::string, std::string>> attrs) {
  exports_.push_back({std::move(name), function_ordinal, std::move(attrs)});
}

uint32_t ModuleBuilder::AddString(std::string text) {
  strings_.push_back(std::move(text));
  return static_cast<uint32_t>(strings_.size() - 1);
}

uint32_t ModuleBuilder::AddRodata(std::span<const uint8_t> bytes, bool compress) {
  Rodata segment{{bytes.begin(), bytes.end()}, false, bytes.size()};
  if (compress) {
    std::vector<uint8_t> out(ZSTD_compressBound(bytes.size()));
    size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3);
    if (ZSTD_isError(n)) {
      if (error_.ok()) error_ = InternalError("zstd compression failed: ", ZSTD_getErrorName(n));
    } else {
      out.resize(n);
      segment.bytes = std::move(out);
      segment.compressed = true;
    }
  }
  rodata_.push_back(std::move(segment));
  return static_cast<uint32_t>(rodata_.size() - 1);
}

uint32_t ModuleBuilder::AddGlobalI32() { return global_i32_slots_++; }
uint32_t ModuleBuilder::AddGlobalI64() {
  global_i32_slots_ = (global_i32_slots_ + 1) & ~1u;
  uint32_t slot = global_i32_slots_;
  global_i32_slots_ += 2;
  return slot;
}
uint32_t ModuleBuilder::AddGlobalRef() { return global_refs_++; }

uint32_t ModuleBuilder::AddExecutable(std::string name, std::string format, std::span<const uint8_t> data,
                                      std::vector<ExecutableExportSpec> exports) {
  executables_.push_back({std::move(name), std::move(format), {data.begin(), data.end()}, std::move(exports)});
  return static_cast<uint32_t>(executables_.size() - 1);
}

StatusOr<std::vector<uint8_t>> ModuleBuilder::Finish() {
  KILN_RETURN_IF_ERROR(error_, "while building module '", name_, "'");
  flatbuffers::FlatBufferBuilder fbb(1024);
  std::vector<uint8_t> bytecode;
  std::vector<flatbuffers::Offset<fb::FunctionDef>> functions;
  for (const auto& f : functions_) {
    // Keep each function 8-byte aligned within the bytecode section.
    while (bytecode.size() % 8) bytecode.push_back(0);
    std::vector<uint32_t> blocks;
    KILN_RETURN_IF_ERROR(f->NumberBlocksInOrder(blocks), "in function '", f->name_, "'");
    std::vector<flatbuffers::Offset<fb::SourceLocation>> locations;
    for (const auto& [offset, text] : f->locations_) {
      locations.push_back(fb::CreateSourceLocation(fbb, offset, fbb.CreateString(text)));
    }
    functions.push_back(fb::CreateFunctionDef(
        fbb, fbb.CreateString(f->name_), fbb.CreateString(f->signature_), static_cast<uint32_t>(bytecode.size()),
        static_cast<uint32_t>(f->code_.size()), f->next_i32_, f->next_ref_, fbb.CreateVector(blocks),
        locations.empty() ? 0 : fbb.CreateVector(locations)));
    bytecode.insert(bytecode.end(), f->code_.begin(), f->code_.end());
  }
  std::vector<flatbuffers::Offset<fb::ImportDef>> imports;
  for (const auto& [name, sig] : imports_) {
    imports.push_back(fb::CreateImportDef(fbb, fbb.CreateString(name), fbb.CreateString(sig)));
  }
  std::vector<flatbuffers::Offset<fb::ExportDef>> exports;
  for (const ExportSpec& e : exports_) {
    std::vector<flatbuffers::Offset<fb::Attr>> attrs;
    for (const auto& [key, value] : e.attrs) {
      attrs.push_back(fb::CreateAttr(fbb, fbb.CreateString(key), fbb.CreateString(value)));
    }
    exports.push_back(fb::CreateExportDef(fbb, fbb.CreateString(e.name), e.function_ordinal,
                                          attrs.empty() ? 0 : fbb.CreateVector(attrs)));
  }
  std::vector<flatbuffers::Offset<fb::RodataSegment>> rodata;
  for (const Rodata& r : rodata_) {
    fbb.ForceVectorAlignment(r.bytes.size(), 1, 64);
    auto data = fbb.CreateVector(r.bytes);
    rodata.push_back(fb::CreateRodataSegment(fbb, data, r.compressed ? fb::Compression::Zstd : fb::Compression::None,
                                             r.uncompressed_size));
  }
  std::vector<flatbuffers::Offset<fb::ExecutableDef>> executables;
  for (const Executable& e : executables_) {
    std::vector<flatbuffers::Offset<fb::ExecutableExportDef>> xs;
    for (const ExecutableExportSpec& x : e.exports) {
      std::vector<uint32_t> wg(x.workgroup_size.begin(), x.workgroup_size.end());
      flatbuffers::Offset<fb::DispatchCostDef> cost;
      if (x.cost) {
        auto formula = [&](const std::optional<std::vector<CostTerm>>& terms) {
          flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::CostTerm>>> out;
          if (!terms) return out;
          std::vector<flatbuffers::Offset<fb::CostTerm>> offsets;
          for (const CostTerm& t : *terms) offsets.push_back(fb::CreateCostTerm(fbb, t.coefficient, fbb.CreateVector(t.words)));
          return fbb.CreateVector(offsets);
        };
        auto flops = formula(x.cost->flops);
        auto read = formula(x.cost->bytes_read);
        auto written = formula(x.cost->bytes_written);
        cost = fb::CreateDispatchCostDef(fbb, flops, read, written);
      }
      xs.push_back(fb::CreateExecutableExportDef(fbb, fbb.CreateString(x.name), x.binding_count, x.constant_count,
                                                 fbb.CreateVector(wg), x.local_memory_bytes, 0, cost));
    }
    fbb.ForceVectorAlignment(e.data.size(), 1, 64);
    auto data = fbb.CreateVector(e.data);
    executables.push_back(fb::CreateExecutableDef(fbb, fbb.CreateString(e.name), fbb.CreateString(e.format), data,
                                                  fbb.CreateVector(xs)));
  }
  fbb.ForceVectorAlignment(bytecode.size(), 1, 8);
  auto code = fbb.CreateVector(bytecode);
  auto module = fb::CreateModule(fbb, abi_version_, fbb.CreateString(std::string(kProducerName)),
                                 fbb.CreateString(name_), fbb.CreateVector(imports), fbb.CreateVector(exports),
                                 fbb.CreateVector(functions), code, fbb.CreateVector(rodata),
                                 fbb.CreateVectorOfStrings(strings_), fbb.CreateVector(executables),
                                 global_i32_slots_, global_refs_, initializer_);
  fb::FinishModuleBuffer(fbb, module);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace kiln::vm
