// kiln-compile in.mlir [-o out.kiln|-] [--target=cpu|gfx942|gfx90a|gfx1100] [--target-cpu=NAME]
//              [--dump-ir-after=PASS|all] [--dump-dispatches=DIR] [--dump-dispatch-benchmarks=DIR]
//              [--check-indices] [--report=FILE|-] [--remarks] [--block-reductions=false]
//              [--export-parameters=[SCOPE=]FILE [--export-parameters-minimum-size=N]]
//              [--splat-parameters=FILE]
// (IREE's spellings too: --iree-parameter-export=, --iree-parameter-export-minimum-size=,
// --iree-parameter-splat=.)
// Compiles an MLIR program (linalg on tensors, TOSA) into a .kiln module, written to stdout
// without -o (or with -o -), as iree-compile does; a terminal is refused, not filled with
// binary. Diagnostics carry source locations; remarks only with --remarks; the exit code
// is 1 when anything fails.
#include "compiler/pipeline/Compile.h"
#include "io/parameter_provider.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace cl = llvm::cl;

namespace {

constexpr const char* kOverview =
    "kiln compiler: MLIR (linalg on tensors, TOSA, IREE's input ops) to a .kiln module\n"
    "\n"
    "The module goes to -o FILE, or to stdout without -o (or with -o -); a terminal is refused.\n"
    "Errors and warnings print with source locations; remarks only with --remarks.\n"
    "Exit code 0 on success, 1 on any error.\n"
    "\n"
    "Examples:\n"
    "  kiln-compile model.mlir -o model.kiln\n"
    "  kiln-compile model.mlir --target=gfx942 -o model.gpu.kiln\n"
    "  kiln-compile model.mlir | kiln-run --module=- --input=2x2xf32=[1 2][3 4]\n"
    "  kiln-compile model.mlir --remarks -o /dev/null\n"
    "  kiln-compile model.mlir --export-parameters=model=weights.irpa -o model.kiln\n"
    "      (then: kiln-run --module=model.kiln --parameters=model=weights.irpa ...)\n";

}  // namespace

int main(int argc, char** argv) {
  llvm::InitLLVM init(argc, argv);
  cl::OptionCategory category("kiln-compile options");
  cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"), cl::Required, cl::cat(category));
  cl::opt<std::string> output("o", cl::desc("Output module (.kiln); '-' (the default) is stdout"),
                              cl::value_desc("file"), cl::init("-"), cl::cat(category));
  cl::opt<std::string> target("target", cl::desc("Target: cpu, or an AMD GPU chip (gfx942, gfx90a, gfx1100)"), cl::init("cpu"), cl::cat(category));
  cl::opt<std::string> target_cpu("target-cpu", cl::desc("x86-64 CPU name for CPU code and GPU host twins (default: this machine's CPU)"),
                                  cl::cat(category));
  cl::opt<std::string> dump_ir_after("dump-ir-after", cl::desc("Print the IR after PASS (or 'all') to stderr"),
                                     cl::value_desc("PASS|all"), cl::cat(category));
  cl::opt<std::string> dump_dispatches("dump-dispatches", cl::desc("Write each dispatch function to DIR"),
                                       cl::value_desc("DIR"), cl::cat(category));
  cl::opt<std::string> dump_dispatch_benchmarks(
      "dump-dispatch-benchmarks",
      cl::desc("Write each dispatch to DIR/NAME.mlir as a program that kiln-benchmark-module times (dynamic "
               "shapes stay dynamic; kiln-benchmark-module --dump_dispatch_benchmarks gives them a run's values)"),
      cl::value_desc("DIR"), cl::cat(category));
  cl::opt<bool> check_indices("check-indices",
                              cl::desc("Checked mode: a dispatch meeting an out-of-range gather, scatter or "
                                       "tensor.extract index "
                                       "fails, naming the first one"),
                              cl::cat(category));
  cl::opt<std::string> report("report",
                               cl::desc("Write each GPU dispatch's registers, LDS, scratch and occupancy to FILE "
                                        "('-' for stdout)"),
                               cl::value_desc("FILE"), cl::cat(category));
  cl::opt<bool> remarks("remarks",
                        cl::desc("Print the compiler's remarks (why a dispatch runs as one workgroup, ...)"),
                        cl::cat(category));
  cl::opt<bool> block_reductions(
      "block-reductions",
      cl::desc("Sum long float reductions in blocks, error growing with log n (default); =false: one "
               "accumulator per output, as before (for comparisons)"),
      cl::init(true), cl::cat(category));
  cl::opt<std::string> export_parameters(
      "export-parameters",
      cl::desc("Move constants of at least --export-parameters-minimum-size bytes into the parameter archive FILE "
               "(IREE's .irpa); the module binds them by name from SCOPE (none: the unnamed scope)"),
      cl::value_desc("[SCOPE=]FILE"), cl::cat(category));
  cl::alias iree_export_parameters("iree-parameter-export", cl::desc("IREE's spelling of --export-parameters"),
                                   cl::aliasopt(export_parameters), cl::cat(category));
  cl::opt<int64_t> export_minimum_size("export-parameters-minimum-size",
                                       cl::desc("Constants of fewer bytes stay in the module (default 256)"),
                                       cl::value_desc("N"), cl::init(256), cl::cat(category));
  cl::alias iree_export_minimum_size("iree-parameter-export-minimum-size",
                                     cl::desc("IREE's spelling of --export-parameters-minimum-size"),
                                     cl::aliasopt(export_minimum_size), cl::cat(category));
  cl::opt<std::string> splat_parameters(
      "splat-parameters",
      cl::desc("Write FILE, an archive with a zero splat for every parameter the module binds (after "
               "--export-parameters): runs without the weights"),
      cl::value_desc("FILE"), cl::cat(category));
  cl::alias iree_splat_parameters("iree-parameter-splat", cl::desc("IREE's spelling of --splat-parameters"),
                                  cl::aliasopt(splat_parameters), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs())) return 1;

  // Copied now: the in-process lld link resets every llvm::cl option to its default.
  const std::string output_path = output;
  if (output_path == "-" && report == "-") {
    llvm::errs() << "kiln-compile: --report=- and the module would both go to stdout; give -o FILE or "
                    "--report=FILE\n";
    return 1;
  }
  if (output_path == "-" && llvm::sys::Process::StandardOutIsDisplayed()) {
    llvm::errs() << "kiln-compile: refusing to write a binary module to a terminal; give -o FILE.kiln or "
                    "redirect stdout (kiln-compile x.mlir | kiln-run --module=-)\n";
    return 1;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!file) {
    llvm::errs() << "kiln-compile: cannot read '" << input << "': " << file.getError().message() << "\n";
    return 1;
  }
  mlir::DialectRegistry registry;
  kiln::compiler::RegisterCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);  // diagnostics point at the source; no IR dumps
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sources, &context);

  kiln::compiler::CompileOptions options;
  options.target = target;
  options.target_cpu = target_cpu;
  options.dump_ir_after = dump_ir_after;
  options.dump_dispatches_dir = dump_dispatches;
  options.dump_dispatch_benchmarks_dir = dump_dispatch_benchmarks;
  options.check_indices = check_indices;
  options.report = report;
  options.remarks = remarks;
  options.block_reductions = block_reductions;
  if (!export_parameters.empty()) {
    auto [scope, path] = kiln::io::SplitScopedPath(export_parameters.getValue());
    options.export_parameters_scope = scope;
    options.export_parameters_path = path;
    if (options.export_parameters_path.empty()) {
      llvm::errs() << "kiln-compile: --export-parameters='" << export_parameters << "' names no file; expected [SCOPE=]FILE\n";
      return 1;
    }
  }
  if (export_minimum_size < 0) {
    llvm::errs() << "kiln-compile: --export-parameters-minimum-size=" << export_minimum_size << ": expected bytes >= 0\n";
    return 1;
  }
  options.export_parameters_minimum_size = export_minimum_size;
  options.splat_parameters_path = splat_parameters;
  mlir::FailureOr<std::vector<uint8_t>> module = kiln::compiler::CompileSource(context, sources, options);
  if (mlir::failed(module)) return 1;

  std::error_code ec;
  llvm::ToolOutputFile out(output_path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "kiln-compile: cannot write '" << output_path << "': " << ec.message() << "\n";
    return 1;
  }
  out.os().write(reinterpret_cast<const char*>(module->data()), module->size());
  out.os().flush();
  if (out.os().has_error()) {
    llvm::errs() << "kiln-compile: cannot write '" << output_path << "': " << out.os().error().message() << "\n";
    out.os().clear_error();
    return 1;
  }
  out.keep();
  return 0;
}
