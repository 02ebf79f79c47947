// ModuleBuilder: writes .kiln modules from C++ (tests, benchmarks, the fuzz corpus).
// Registers are allocated per function; arguments occupy the first registers in signature
// order (32-bit values in order with 64-bit values on even slots, refs in order), which is
// the calling convention the interpreter uses.
//
// Misuse (wrong operand count, unbound block) is recorded and reported by Finish().
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "vm/bytecode.h"
#include "vm/value.h"

namespace kiln::vm {

// Register-list entries (for calls, returns and branch moves).
struct Reg {
  uint16_t entry;
  uint16_t index() const { return entry & kRegisterIndexMask; }
  static Reg I32(uint16_t i) { return {i}; }
  static Reg I64(uint16_t i) { return {static_cast<uint16_t>(i | kPairRegisterBit)}; }
  static Reg Ref(uint16_t i) { return {static_cast<uint16_t>(i | kRefRegisterBit)}; }
};

// coefficient times the push-constant words named: one term of a cost formula.
struct CostTerm {
  int64_t coefficient = 0;
  std::vector<uint32_t> words;
};
// A dispatch's cost formulas (sums of terms); nullopt is unknown.
struct DispatchCostSpec {
  std::optional<std::vector<CostTerm>> flops = std::nullopt, bytes_read = std::nullopt, bytes_written = std::nullopt;
};

struct ExecutableExportSpec {
  std::string name;
  uint32_t binding_count = 0;
  uint32_t constant_count = 0;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  uint32_t local_memory_bytes = 0;
  std::optional<DispatchCostSpec> cost = std::nullopt;  // none: the module records no cost
};

class ModuleBuilder;

class FunctionBuilder {
 public:
  struct Block {
    uint32_t index;
  };
  struct Move {
    Reg from, to;
  };

  // The registers holding the arguments, in signature order.
  const std::vector<Reg>& args() const { return args_; }
  Reg NewI32();
  Reg NewI64();
  Reg NewRef();

  Block NewBlock();
  void Bind(Block block);
  // Attaches a source location to the next instruction.
  void Location(std::string location);

  // Any instruction whose operands are all registers, immediates or ordinals, given in the
  // order of its operand string (registers by index).
  void Emit(Opcode opcode, std::initializer_list<uint64_t> operands);
  void Branch(Block target, std::span<const Move> moves = {});
  void CondBranch(Reg condition, Block if_true, Block if_false, std::span<const Move> true_moves = {},
                  std::span<const Move> false_moves = {});
  void Call(uint32_t function_ordinal, std::span<const Reg> args, std::span<const Reg> results);
  void CallImport(uint32_t import_ordinal, std::span<const Reg> args, std::span<const Reg> results);
  void Return(std::span<const Reg> values);
  // Raw bytes, for tests that build invalid bytecode on purpose.
  void EmitRaw(std::span<const uint8_t> bytes);

  uint32_t ordinal() const { return ordinal_; }

 private:
  friend class ModuleBuilder;
  FunctionBuilder(ModuleBuilder* owner, uint32_t ordinal, std::string name, std::string signature);
  void Put8(uint8_t v) { code_.push_back(v); }
  void Put16(uint16_t v);
  void Put32(uint32_t v);
  void Put64(uint64_t v);
  void PutList(std::span<const Reg> regs);
  void PutBranch(Block target, std::span<const Move> moves);
  void BeginInstruction();
  void Error(std::string message);
  // The bound blocks in offset order, blocks bound at the same offset merged, and every
  // branch target renumbered to match: blocks may be created and bound in any order, the
  // module format wants strictly increasing offsets. Fails if a block was never bound.
  Status NumberBlocksInOrder(std::vector<uint32_t>& offsets);

  ModuleBuilder* owner_;
  uint32_t ordinal_;
  std::string name_, signature_;
  std::vector<Reg> args_;
  uint16_t next_i32_ = 0, next_ref_ = 0;
  std::vector<uint8_t> code_;
  std::vector<int64_t> block_offsets_;  // -1 until bound
  std::vector<size_t> branch_target_positions_;  // where PutBranch wrote block indices
  std::vector<std::pair<uint32_t, std::string>> locations_;
  std::string pending_location_;
};

class ModuleBuilder {
 public:
  explicit ModuleBuilder(std::string name);
  ~ModuleBuilder();

  uint32_t AddImport(std::string name, std::string signature);
  // Functions are numbered in creation order. The reference stays valid until Finish().
  FunctionBuilder& AddFunction(std::string name, std::string signature);
  // `attrs` are reflection metadata of the export, e.g. {"kiln.function_type", "(tensor<4xf32>) -> f32"}
  // (vm::kFunctionTypeAttr).
  void Export(std::string name, uint32_t function_ordinal,
              std::vector<std::pair<std::string, std::string>> attrs = {});
  uint32_t AddString(std::string text);
  uint32_t AddRodata(std::span<const uint8_t> bytes, bool compress = false);
  uint32_t AddGlobalI32();
  uint32_t AddGlobalI64();  // an even slot pair
  uint32_t AddGlobalRef();
  // The function (no arguments, no results) each context runs once when it is created.
  void SetInitializer(uint32_t function_ordinal) { initializer_ = static_cast<int32_t>(function_ordinal); }
  uint32_t AddExecutable(std::string name, std::string format, std::span<const uint8_t> data,
                         std::vector<ExecutableExportSpec> exports);
  // For tests of the loader's version checks.
  void SetAbiVersion(uint32_t version) { abi_version_ = version; }

  // The module bytes, or the first misuse recorded while building.
  StatusOr<std::vector<uint8_t>> Finish();

 private:
  friend class FunctionBuilder;
  struct Rodata {
    std::vector<uint8_t> bytes;
    bool compressed;
    uint64_t uncompressed_size;
  };
  struct Executable {
    std::string name, format;
    std::vector<uint8_t> data;
    std::vector<ExecutableExportSpec> exports;
  };
  std::string name_;
  uint32_t abi_version_;
  std::vector<std::pair<std::string, std::string>> imports_;
  std::vector<std::unique_ptr<FunctionBuilder>> functions_;
  struct ExportSpec {
    std::string name;
    uint32_t function_ordinal;
    std::vector<std::pair<std::string, std::string>> attrs;
  };
  std::vector<ExportSpec> exports_;
  std::vector<std::string> strings_;
  std::vector<Rodata> rodata_;
  std::vector<Executable> executables_;
  uint32_t global_i32_slots_ = 0, global_refs_ = 0;
  int32_t initializer_ = -1;
  Status error_;
};

}  // namespace kiln::vm
