// The whole compiler as a library call: MLIR source to a .kiln module (DESIGN.md
// section 7). tools/kiln-compile is a thin main around it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/pipeline/DispatchBenchmarks.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

namespace kiln::compiler {

struct CompileOptions {
  // "cpu", or an AMD GPU chip: "gfx942" (MI300), "gfx90a" (MI200), "gfx1100" (RDNA3).
  std::string target = "cpu";
  std::string target_cpu;  // empty: the host CPU and its features
  // Print the IR after the named pass ("all" for every pass) to stderr.
  std::string dump_ir_after;
  // When set, every executable function is written to DIR/NAME.mlir before code generation.
  std::string dump_dispatches_dir;
  // When set, every dispatch is written to DIR/NAME.mlir as a program of its own that
  // kiln-benchmark-module times (DispatchBenchmarks.h).
  std::string dump_dispatch_benchmarks_dir;
  // When set, per-dispatch resources of GPU code (registers, LDS, scratch, occupancy) are
  // written to this file, or to stdout for "-".
  std::string report;
  // Checked mode: gather, scatter and tensor.extract-in-generic indices are checked, and
  // a dispatch meeting an out-of-range one fails naming the first (kiln.index_check). Off, they follow the ops'
  // defined out-of-range behaviour silently (docs/iree-compatibility.md).
  bool check_indices = false;
  // Whether the compiler's remarks ("dispatch 'f' runs as one workgroup: ...") reach the
  // context's diagnostic handlers; off, they are dropped. Warnings and errors always do.
  bool remarks = false;
  // Long float sums on the CPU in blocks (kiln-cpu-block-reductions); off: the lowering
  // without them, kept for same-run comparisons (bench/programs/reductions.mlir).
  bool block_reductions = true;
  // When set, constants of at least export_parameters_minimum_size bytes move into this
  // parameter archive, bound from scope export_parameters_scope (kiln-export-parameters).
  std::string export_parameters_path;
  std::string export_parameters_scope;
  int64_t export_parameters_minimum_size = 256;
  // When set, a zero splat of every parameter the module binds is written to this archive
  // (kiln-splat-parameters).
  std::string splat_parameters_path;
};

// Registers every pass (upstream and kiln's) by name, once; the pipelines are built from
// pass names.
void RegisterCompilerPasses();

// Every dialect, interface model and translation the compiler uses.
void RegisterCompilerDialects(mlir::DialectRegistry& registry);

// Parses the module held by `sources` (its main buffer) and compiles it. Diagnostics go to
// the context's handlers (remarks only with options.remarks); failure means at least one
// error was emitted.
mlir::FailureOr<std::vector<uint8_t>> CompileSource(mlir::MLIRContext& context, llvm::SourceMgr& sources,
                                                    const CompileOptions& options);

// Compiles the module held by `sources` up to dispatch formation and writes the dispatches
// one call made, with the push constants they ran with, to
// options.dump_dispatch_benchmarks_dir (DumpDispatchBenchmarksOfRun in
// DispatchBenchmarks.h). `options` must be the ones the running module was compiled with.
mlir::LogicalResult DumpDispatchBenchmarksOfRun(mlir::MLIRContext& context, llvm::SourceMgr& sources,
                                                const CompileOptions& options, const DispatchRuns& runs);

}  // namespace kiln::compiler
