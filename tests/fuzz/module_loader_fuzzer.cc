// libFuzzer target for the module loader: any bytes either fail to load with a Status or
// load into a module that every consumer can use without crashing, hanging or leaking.
//
// For each input that loads, it
//   - formats the module listing and disassembles every function (vm/disassembler.h),
//   - decompresses every rodata segment,
//   - creates a context with the "fuzz" native module (tests/fuzz/fuzz_native_module.h),
//   - and, when that succeeds, calls every exported function that takes no refs with zero
//     arguments -- but only when the function's execution is bounded by its length (no
//     branch goes backwards, no call goes to another bytecode function) and its lists fit a
//     memory budget. Verified bytecode may loop forever or allocate without bound by
//     design; the fuzzer should not report those. (Lists cannot form reference cycles:
//     List::SetRef refuses them, so functions using list.set.ref run too.)
//
// Build and run: scripts/fuzz.sh [seconds] (preset "fuzz", clang-22).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_native_module.h"
#include "vm/bytecode.h"
#include "vm/context.h"
#include "vm/disassembler.h"
#include "vm/module.h"
#include "vm/module_generated.h"

namespace kiln::vm::fuzz {
namespace {

// What running a function can cost, from its bytecode.
struct Cost {
  // At most one pass over the bytecode plus imports: no branch goes backwards and no call
  // goes to another bytecode function.
  bool bounded = true;
  // list.alloc and list.resize instructions: each may allocate up to List::kMaxListSize
  // elements (256 MiB of refs), which lists in globals keep across calls.
  int list_allocations = 0;
};
Cost CostOf(const Module& module, uint32_t ordinal) {
  const FunctionInfo& fn = module.functions()[ordinal];
  Cost cost;
  uint32_t offset = 0;
  while (offset < fn.code.size()) {
    StatusOr<Instruction> inst = DecodeInstruction(fn.code, offset);
    if (!inst.ok()) return {false, 0};  // cannot happen after verification
    if (inst->opcode == Opcode::kListAlloc || inst->opcode == Opcode::kListResize) ++cost.list_allocations;
    for (const Operand& op : inst->operands) {
      if (op.kind == 'b' && (op.value >= fn.block_offsets.size() || fn.block_offsets[op.value] <= offset)) {
        cost.bounded = false;
      }
      if (op.kind == 'c' && !(op.value & kImportCalleeBit)) cost.bounded = false;
    }
    offset += inst->length;
  }
  return cost;
}

// Lists one input may allocate in all the calls it makes: 4 x 256 MiB stays well inside
// scripts/fuzz.sh's -rss_limit_mb=2048 with ASan's quarantine. (A VM program can allocate
// without bound -- a context has no memory budget -- so the fuzzer must not report that.)
constexpr int kListAllocationBudget = 4;

Value ZeroOf(ValueKind kind) {
  Value v;
  v.kind = kind;
  return v;
}

void Exercise(const Ref<Module>& module) {
  // Listings of everything the module holds.
  DumpOptions headers_only;
  headers_only.disassemble = false;
  std::string text = DumpModule(*module, headers_only);
  for (uint32_t i = 0; i < module->functions().size(); ++i) text += DisassembleFunction(*module, i);

  uint32_t segments = module->def().rodata() ? module->def().rodata()->size() : 0;
  for (uint32_t i = 0; i < segments; ++i) {
    StatusOr<std::span<const uint8_t>> bytes = module->Rodata(i);
    if (bytes.ok() && !bytes->empty()) text.push_back(static_cast<char>((*bytes)[bytes->size() - 1]));
  }

  static FuzzNativeModule native;
  NativeModule* natives[] = {&native};
  StatusOr<Ref<Context>> context = Context::Create(module, natives);
  if (!context.ok()) return;
  int list_allocations = 0;
  for (const ExportInfo& e : module->exports()) {
    const FunctionInfo& fn = module->functions()[e.function_ordinal];
    std::vector<Value> args;
    bool takes_refs = false;
    for (ValueKind kind : fn.signature.args) {
      takes_refs |= kind == ValueKind::kRef;
      args.push_back(ZeroOf(kind));
    }
    if (takes_refs) continue;
    Cost cost = CostOf(*module, e.function_ordinal);
    if (!cost.bounded || list_allocations + cost.list_allocations > kListAllocationBudget) continue;
    list_allocations += cost.list_allocations;
    StatusOr<std::vector<Value>> results = (*context)->Call(e.function_ordinal, args);
    if (!results.ok()) text += results.status().ToString();
  }
}

}  // namespace
}  // namespace kiln::vm::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kiln::StatusOr<kiln::Ref<kiln::vm::Module>> module =
      kiln::vm::Module::LoadFromMemory(std::span<const uint8_t>(data, size), "fuzz");
  if (!module.ok()) {
    // Error messages are built from the input too: format them.
    std::string message = module.status().ToString();
    (void)message;
    return 0;
  }
  kiln::vm::fuzz::Exercise(*module);
  return 0;
}
