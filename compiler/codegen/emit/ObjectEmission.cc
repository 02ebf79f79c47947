#include "compiler/codegen/emit/ObjectEmission.h"

#include "lld/Common/Driver.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"

LLD_HAS_DRIVER(elf)

namespace kiln::compiler {

namespace {

// A temporary file removed when this goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty()) llvm::sys::fs::remove(path);
  }
};

}  // namespace

mlir::Operation* FindUnloweredOp(mlir::Operation* root, llvm::ArrayRef<llvm::StringRef> lowered_dialects) {
  mlir::Operation* unlowered = nullptr;
  root->walk([&](mlir::Operation* op) {
    if (op == root) return mlir::WalkResult::advance();
    mlir::Dialect* dialect = op->getDialect();
    if (dialect && llvm::is_contained(lowered_dialects, dialect->getNamespace())) return mlir::WalkResult::advance();
    unlowered = op;
    return mlir::WalkResult::interrupt();
  });
  return unlowered;
}

void OptimizeModule(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, mam);
}

mlir::FailureOr<llvm::SmallVector<char, 0>> EmitObjectFile(llvm::Module& module, llvm::TargetMachine& machine,
                                                           mlir::Location loc) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    return mlir::emitError(loc) << "the " << machine.getTargetTriple().str()
                                << " backend cannot emit an object file",
           mlir::failure();
  }
  codegen.run(module);
  return object;
}

mlir::FailureOr<std::vector<uint8_t>> LinkSharedObject(llvm::ArrayRef<char> object,
                                                       llvm::ArrayRef<const char*> extra_args, mlir::Location loc) {
  TempFile object_file, library_file;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("kiln-executable", "o", fd, object_file.path)) {
    return mlir::emitError(loc) << "cannot create a temporary object file: " << ec.message(), mlir::failure();
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
  }
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("kiln-executable", "so", library_file.path)) {
    return mlir::emitError(loc) << "cannot create a temporary library file: " << ec.message(), mlir::failure();
  }
  std::string lld_output;
  llvm::raw_string_ostream lld_os(lld_output);
  std::vector<const char*> args = {"ld.lld", "-shared"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  args.insert(args.end(), {"-o", library_file.path.c_str(), object_file.path.c_str()});
  lld::Result result = lld::lldMain(args, lld_os, lld_os, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode != 0) {
    return mlir::emitError(loc) << "lld failed to link the executable: " << lld_output, mlir::failure();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> library = llvm::MemoryBuffer::getFile(library_file.path);
  if (!library) {
    return mlir::emitError(loc) << "cannot read the linked executable: " << library.getError().message(),
           mlir::failure();
  }
  llvm::StringRef bytes = (*library)->getBuffer();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

}  // namespace kiln::compiler
