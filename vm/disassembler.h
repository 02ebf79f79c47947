// Human-readable listings of a loaded module: what tools/kiln-dump prints.
//
// A function's bytecode is one instruction per line, its offset (decimal, as in verifier
// and interpreter errors) then the mnemonic and operands:
//   ^bb1:
//     0012: add.i32 %i3, %i1, %i2  // model.mlir:4:7
//     0020: cond_br %i3, ^bb1(%i3 -> %i1, %l4 -> %l2), ^bb2
//     0044: call @hal.buffer.length(%r0) -> (%l6)
// Registers: %iN a 32-bit slot, %lN the 64-bit pair starting at slot N, %rN a ref.
// Strings print as quoted text, rodata as rodata[N], globals as global[N] (32-bit slot or
// pair) and global.ref[N]. A source location prints as a trailing comment where it changes.
//
// The input is a verified module (Module::Load*); the listing code still checks every
// ordinal it follows so that a bug elsewhere prints "<bad ...>" rather than crashing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "vm/module.h"

namespace kiln::vm {

struct DumpOptions {
  // Print each function's bytecode (otherwise only its signature, registers and blocks).
  bool disassemble = true;
  // Trailing "// file:line:col" comments where an instruction's source location changes.
  bool source_locations = true;
};

// One function: its header (signature, registers, blocks, export names) and, unless
// options.disassemble is false, its bytecode.
std::string DisassembleFunction(const Module& module, uint32_t ordinal, const DumpOptions& options);
std::string DisassembleFunction(const Module& module, uint32_t ordinal);

// The whole module: name, ABI version, producer and counts; imports with signatures;
// exports; globals; strings; rodata segments; executables; then every function.
std::string DumpModule(const Module& module, const DumpOptions& options = {});

// The ordinal of the function named `name`; NOT_FOUND lists the functions there are.
StatusOr<uint32_t> FindFunction(const Module& module, std::string_view name);

// "(i32, ref, [i64]...) -> (f32)" for a signature.
std::string FormatSignature(const Signature& signature);

}  // namespace kiln::vm
