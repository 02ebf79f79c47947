// The last step of CPU code generation: LLVM-dialect executables to one x86-64 ELF shared
// object implementing hal/abi/executable_abi.h, linked in-process with lld.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace llvm {
class Module;
}

namespace kiln::compiler::cpu {

// One entry of the executable's export table.
struct CpuExport {
  std::string name;          // the dispatch's name, as the host module refers to it
  std::string entry_symbol;  // the kiln_dispatch_fn_v2_t in the LLVM module
  uint32_t binding_count = 0;
  uint32_t constant_count = 0;  // 32-bit push-constant words
  std::string source_location;
  bool distributed = false;  // may run as any number of workgroups
  std::vector<std::string> check_sites;  // what each compiled-in index check guards
};

struct CpuTargetOptions {
  // An LLVM CPU name ("znver3", "x86-64-v3"); empty or "host" means this machine's CPU
  // with all of its features.
  std::string cpu;
};

// Translates `module` (LLVM dialect only) to LLVM IR, adds the library query function and
// its export table, optimises at -O3 for the target, emits an object and links it into a
// shared object. Errors are emitted as diagnostics on `module`.
mlir::FailureOr<std::vector<uint8_t>> EmitCpuElf(mlir::ModuleOp module, llvm::ArrayRef<CpuExport> exports,
                                                 const CpuTargetOptions& options);

// The steps of EmitCpuElf for any interface: translates `module`, checks that every one of
// `entry_symbols` is defined, makes every defined function internal, lets `add_interface`
// add the exported symbols (which must keep the entry points alive), optimises, emits and
// links. The GPU kernels' host twins are made with it.
mlir::FailureOr<std::vector<uint8_t>> EmitCpuSharedObject(mlir::ModuleOp module,
                                                          llvm::ArrayRef<std::string> entry_symbols,
                                                          llvm::function_ref<void(llvm::Module&)> add_interface,
                                                          const CpuTargetOptions& options);

// The width in bits of the widest vector registers of the target: 512 with AVX-512F,
// 256 with AVX, 128 otherwise.
int64_t VectorRegisterBits(const CpuTargetOptions& options);

// Whether the target has every one of `features` (LLVM's names, "+avx512bf16,+avx512vnni").
bool HasCpuFeatures(const CpuTargetOptions& options, llvm::StringRef features);

// Whether `name` is a CPU the x86-64 backend knows.
bool IsKnownCpu(llvm::StringRef name);

// The size in bytes of one core's L1 data cache on the target: this machine's (as the C
// library reports it) for the host, 48 KiB for the named CPUs that have it (Ice Lake and
// later Intel cores, Zen 5), 32 KiB otherwise and when unknown. LLVM does not model it.
int64_t L1DataCacheBytes(const CpuTargetOptions& options);

}  // namespace kiln::compiler::cpu
