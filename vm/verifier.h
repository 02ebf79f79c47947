// Load-time verification. After it passes, the interpreter runs without checks: every
// register, branch target, call, constant, global and rodata reference is in range.
#pragma once

#include <span>

#include "base/status.h"

namespace kiln::vm {

namespace fb {
struct Module;
}
class Module;

// The flatbuffer itself: identifier, table structure, offsets, sizes. Errors say what.
Status VerifyModuleBuffer(std::span<const uint8_t> bytes);
// Module-level invariants: ABI version, function bytecode ranges, ordinals, sizes.
Status VerifyModuleStructure(const fb::Module& module);
// One function's bytecode: decodes every instruction and checks every operand.
Status VerifyFunction(const Module& module, uint32_t function_ordinal);

}  // namespace kiln::vm
