#include "tools/load_module.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <string_view>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "runtime/run_module.h"

#include "tools/compiler_plugin.h"

namespace kiln::tools {

std::string CompileTargetFor(const hal::DeviceInfo& device) {
  return device.architecture.empty() ? "cpu" : device.architecture;
}

namespace {

// The module piped to stdin (kiln-compile x.mlir | kiln-run --module=-).
StatusOr<Ref<vm::Module>> LoadModuleFromStdin(bool check_indices) {
  if (check_indices) {
    return InvalidArgumentError("index checks are compiled in: a module on stdin is already compiled; pass the .mlir "
                                "file, or compile it with kiln-compile --check-indices");
  }
  if (isatty(STDIN_FILENO)) {
    return InvalidArgumentError("--module=- reads a compiled module from stdin, but stdin is a terminal; pipe one in "
                                "(kiln-compile x.mlir | kiln-run --module=-) or redirect a file (< x.kiln)");
  }
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), stdin)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
  if (std::ferror(stdin)) return DataLossError("reading the module from stdin failed");
  if (bytes.empty()) {
    return InvalidArgumentError("--module=-: stdin is empty; expected a compiled module "
                                "(kiln-compile x.mlir | kiln-run --module=-)");
  }
  StatusOr<Ref<vm::Module>> module = vm::Module::LoadFromMemory(bytes, "<stdin>");
  if (module.ok()) return module;
  // MLIR text is the likeliest mistake: say so rather than only "no KILN identifier".
  std::string_view head(reinterpret_cast<const char*>(bytes.data()), std::min<size_t>(bytes.size(), 256));
  bool text = std::all_of(head.begin(), head.end(), [](char c) {
    return std::isprint(static_cast<unsigned char>(c)) || std::isspace(static_cast<unsigned char>(c));
  });
  if (text) {
    return InvalidArgumentError("--module=-: stdin holds text, not a compiled module; compile it first "
                                "(kiln-compile x.mlir | kiln-run --module=-) or pass the source as --module=x.mlir");
  }
  return module.status().With("--module=-: stdin is not a kiln module");
}

}  // namespace

StatusOr<Ref<vm::Module>> LoadModule(const std::string& path, bool check_indices, const std::string& target) {
  if (path == "-") return LoadModuleFromStdin(check_indices);
  if (!path.ends_with(".mlir")) {
    if (check_indices) {
      return InvalidArgumentError("index checks are compiled in: '", path, "' is a compiled module; pass its .mlir "
                                  "source, or compile it with kiln-compile --check-indices and run that without "
                                  "the flag");
    }
    return vm::Module::LoadFromFile(path);
  }
#if KILN_HAVE_COMPILER
  KILN_ASSIGN_OR_RETURN(const CompilerPlugin* plugin, LoadCompilerPlugin());
  PluginCompileOptions options;
  options.check_indices = check_indices;
  options.target = target;
  KILN_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, plugin->compile_file(path, options));
  return vm::Module::LoadFromMemory(bytes, path);
#else
  return UnimplementedError("'", path, "' is MLIR source, but this build has no compiler (KILN_BUILD_COMPILER=OFF); "
                            "compile it with kiln-compile and pass the .kiln file");
#endif
}

void AddParameterFlags(FlagParser& p, ParameterFlags& flags) {
  p.List("--parameters", "[SCOPE=]FILE", &flags.files,
         "A parameter file (IREE .irpa, safetensors or its model.safetensors.index.json, GGUF;\n"
         "the format is read from the contents) whose entries fill the globals bound to\n"
         "#stream.parameter.named<\"SCOPE\"::\"KEY\">. Repeatable; no SCOPE= is the unnamed scope.");
  p.String("--parameter_mode", "file|preload", &flags.mode,
           "file: use the mapped files in place where the device can (the CPU devices), else copy;\n"
           "preload: copy every parameter into device memory at load.");
}

StatusOr<runtime::SessionOptions> SessionOptionsFrom(const ParameterFlags& flags) {
  runtime::SessionOptions options;
  KILN_ASSIGN_OR_RETURN(options.parameter_mode, runtime::ParseParameterMode(flags.mode), "in --parameter_mode");
  if (flags.files.empty()) return options;
  options.parameters = MakeRef<io::ParameterProvider>();
  for (const std::string& file : flags.files) {
    KILN_RETURN_IF_ERROR(options.parameters->AddFlag(file), "in --parameters=", file);
  }
  return options;
}

void AddCallFlags(FlagParser& p, CallFlags& flags, std::string_view verb) {
  p.String("--module", "FILE", &flags.module,
           StrCat("The module: a compiled .kiln file, MLIR source (.mlir, compiled in-process for the\n"
                  "device), or '-' for a .kiln module on stdin (kiln-compile x.mlir | ",
                  p.tool(), " --module=-)."));
  p.String("--function", "NAME", &flags.function,
           StrCat("The exported function to ", verb, "; may be omitted when the module exports only one."));
  p.String("--device", "NAME", &flags.device,
           "cpu, cpu-sync, hip or hip-sim, optionally with a device index (hip:1). IREE's names\n"
           "work too: local-task (cpu), local-sync (cpu-sync), amdgpu (hip), and hip://1.");
  p.List("--input", "VALUE", &flags.inputs, "One argument, in order (see Values above).");
  AddParameterFlags(p, flags.parameters);
}

StatusOr<PreparedCall> PrepareCall(const CallFlags& flags, bool check_indices) {
  auto start = std::chrono::steady_clock::now();
  KILN_ASSIGN_OR_RETURN(Ref<hal::Device> device, BuiltinDriverRegistry().CreateDevice(flags.device));
  KILN_ASSIGN_OR_RETURN(runtime::SessionOptions options, SessionOptionsFrom(flags.parameters));
  KILN_ASSIGN_OR_RETURN(Ref<vm::Module> module,
                        LoadModule(flags.module, check_indices, CompileTargetFor(device->info())));
  PreparedCall call;
  KILN_ASSIGN_OR_RETURN(call.function, runtime::SelectFunction(*module, flags.function));
  KILN_ASSIGN_OR_RETURN(call.session, runtime::Session::Create(std::move(device), module, {}, options));
  call.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  KILN_ASSIGN_OR_RETURN(const vm::Signature* signature, call.session->FunctionSignature(call.function));
  KILN_ASSIGN_OR_RETURN(call.args, runtime::ParseInputs(flags.inputs, *signature, call.session->device().allocator()),
                        "for function '", call.function, "'");
  return call;
}

}  // namespace kiln::tools
