// Host lowering (DESIGN.md section 7, stage 4): the host functions of a module after
// dispatch formation, to a VM module (.kiln) that drives the HAL through the "hal" native
// module (hal/module/hal_module.h).
//
// What the host program does, per function:
//   - tensor arguments are buffer views, checked on entry (element type, rank, static dims);
//   - index/integer/float scalars live in VM registers, with the arithmetic of shape math;
//   - each kiln.dispatch allocates its results, pushes its constants and records a
//     dispatch into the block's command buffer (a barrier separates consecutive
//     dispatches); the command buffer is submitted and awaited before anything that needs
//     results on the host (a host read, a call, a branch, a return);
//   - reshapes, casts and bitcasts are new views of the same buffer;
//   - dense constants too large to inline into kernels are read-only data, uploaded once
//     per context on first use and kept in a global.
#pragma once

#include "compiler/utils/WorkgroupBound.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "vm/builder.h"

namespace kiln::compiler {

struct HostExecutableExport {
  std::string name;
  uint32_t binding_count = 0;
  uint32_t constant_count = 0;  // 32-bit push-constant words
  bool distributed = false;     // may run as any number of workgroups
  std::optional<vm::DispatchCostSpec> cost = std::nullopt;  // kiln.cost of the dispatch function
  // Of a distributed export: at most this many workgroups have work (WorkgroupBound.h); the
  // host launches no more than that. None: a workgroup per worker.
  std::optional<WorkgroupBound> workgroup_bound = std::nullopt;
};

struct HostExecutable {
  std::string name;
  std::string format;  // "elf-x86_64", "amdgpu-hsaco"
  std::vector<uint8_t> data;
  std::vector<HostExecutableExport> exports;
};

// Writes the VM module for the host functions of `module` (every func.func outside the
// executable module; public ones are exported). Ops the host cannot run get a diagnostic
// naming them. `executables` (at least one) are the dispatch functions compiled for each
// target, with identical export tables (a dispatch one target runs as a single workgroup
// runs as one on every target); the module carries them all.
mlir::FailureOr<std::vector<uint8_t>> WriteHostModule(mlir::ModuleOp module, std::vector<HostExecutable> executables);

}  // namespace kiln::compiler
