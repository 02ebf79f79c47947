// Bytecode programs built with vm::ModuleBuilder that several test binaries share (VM tests,
// the fuzzer's seed corpus).
#pragma once

#include "vm/builder.h"

namespace kiln::testing {

// Exports "sum": i32 n -> i64, the sum 0 + 1 + ... + n-1, as a loop whose counter and
// accumulator are carried by branch moves. Instructions carry source locations.
void AddLoopSum(vm::ModuleBuilder& builder);

}  // namespace kiln::testing
