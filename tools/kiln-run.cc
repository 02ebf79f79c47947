// kiln-run --module=FILE.kiln|FILE.mlir [--function=main] [--device=cpu] [--input=VALUE]...
//          [--output=-|@F.npy|+F.npy|@F.bin]... [--expected_output=VALUE]... [--atol=1e-5]
//          [--rtol=1e-6] [--print_statistics] [--list] [--check_indices]
//        kiln-run --list_devices
// Calls one function of a module and prints its results in iree-run-module's format
// (runtime/value_text.h; files: runtime/value_files.h). With expected outputs it compares
// them (NumPy isclose; NaN matches only NaN) and exits 1 naming the first mismatching
// element. --list prints the exported functions and their signatures instead.
// --check_indices compiles a .mlir module in checked mode: the first out-of-range gather,
// scatter or tensor.extract index fails the call, naming the index, its range, the op and
// the dispatch. --list_devices prints every driver and its devices, or why it has none.
// The device is created before the module is loaded, so a missing one fails at once.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "runtime/session.h"
#include "runtime/value_files.h"
#include "runtime/value_text.h"
#include "tools/flags.h"
#include "tools/load_module.h"

namespace {

struct Flags {
  std::string module, function = "main", device = "cpu";
  std::vector<std::string> inputs, outputs, expected;
  double atol = 1e-5, rtol = 1e-6;
  bool print_statistics = false, list = false, check_indices = false, list_devices = false;
};

// Whether `arg` is `flag` (ending in '='), and its value.
using kiln::tools::FlagValue;

kiln::Status ParseTolerance(const std::string& flag, const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || value < 0) {
    return kiln::InvalidArgumentError(flag, "='", text, "': expected a non-negative number");
  }
  return kiln::OkStatus();
}

kiln::Status ParseFlags(int argc, char** argv, Flags& flags) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], v;
    if (FlagValue(arg, "--module=", v)) flags.module = v;
    else if (FlagValue(arg, "--function=", v)) flags.function = v;
    else if (FlagValue(arg, "--device=", v)) flags.device = v;
    else if (FlagValue(arg, "--input=", v)) flags.inputs.push_back(v);
    else if (FlagValue(arg, "--output=", v)) flags.outputs.push_back(v);
    else if (FlagValue(arg, "--expected_output=", v)) flags.expected.push_back(v);
    else if (FlagValue(arg, "--atol=", v)) KILN_RETURN_IF_ERROR(ParseTolerance("--atol", v, flags.atol));
    else if (FlagValue(arg, "--rtol=", v)) KILN_RETURN_IF_ERROR(ParseTolerance("--rtol", v, flags.rtol));
    else if (arg == "--print_statistics") flags.print_statistics = true;
    else if (arg == "--list") flags.list = true;
    else if (arg == "--check_indices") flags.check_indices = true;
    else if (arg == "--list_devices") flags.list_devices = true;
    else return kiln::InvalidArgumentError("unknown flag '", arg, "'; expected --module, --function, --device, --input, "
                                           "--output, --expected_output, --atol, --rtol, --print_statistics, --list, "
                                           "--check_indices, --list_devices");
  }
  if (flags.list_devices) return kiln::OkStatus();
  if (flags.module.empty()) return kiln::InvalidArgumentError("--module=FILE.kiln (or FILE.mlir) is required");
  return kiln::OkStatus();
}

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string KindList(const std::vector<kiln::vm::ValueKind>& kinds) {
  std::string out;
  for (kiln::vm::ValueKind kind : kinds) {
    if (!out.empty()) out += ", ";
    out += kind == kiln::vm::ValueKind::kRef ? "tensor" : std::string(kiln::vm::ValueKindName(kind));
  }
  return out;
}

// "@name(tensor, i32) -> (tensor)": tensors are buffer views of any shape at this level.
kiln::Status List(const kiln::vm::Module& module) {
  for (const kiln::vm::ExportInfo& e : module.exports()) {
    const kiln::vm::Signature& signature = module.functions()[e.function_ordinal].signature;
    std::printf("@%.*s(%s) -> (%s)\n", static_cast<int>(e.name.size()), e.name.data(),
                KindList(signature.args).c_str(), KindList(signature.results).c_str());
  }
  return kiln::OkStatus();
}

kiln::Status Run(const Flags& flags, bool& matched) {
  if (flags.list_devices) {
    matched = true;
    std::fputs(kiln::DescribeDevices(kiln::BuiltinDriverRegistry()).c_str(), stdout);
    return kiln::OkStatus();
  }
  auto load_start = std::chrono::steady_clock::now();
  kiln::Ref<kiln::hal::Device> device;
  if (!flags.list) {
    KILN_ASSIGN_OR_RETURN(device, kiln::BuiltinDriverRegistry().CreateDevice(flags.device));
  }
  // A .mlir module is compiled for the device's target (the CPU when only listing).
  std::string target = device ? kiln::tools::CompileTargetFor(device->info()) : "cpu";
  KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::vm::Module> module,
                        kiln::tools::LoadModule(flags.module, flags.check_indices, target));
  if (flags.list) {
    matched = true;
    return List(*module);
  }
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<kiln::runtime::Session> session,
                        kiln::runtime::Session::Create(std::move(device), module));
  double load_ms = MillisecondsSince(load_start);
  KILN_ASSIGN_OR_RETURN(const kiln::vm::Signature* found, session->FunctionSignature(flags.function));
  const kiln::vm::Signature& signature = *found;
  if (flags.inputs.size() != signature.args.size()) {
    return kiln::InvalidArgumentError("function '", flags.function, "' takes ", signature.args.size(),
                                      " inputs (", signature.ToString(), "), ", flags.inputs.size(), " were given");
  }
  std::vector<kiln::vm::Value> args;
  for (size_t i = 0; i < flags.inputs.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(kiln::vm::Value v,
                          kiln::runtime::ParseValue(flags.inputs[i], signature.args[i], session->device().allocator()),
                          "in --input ", i);
    args.push_back(std::move(v));
  }
  auto call_start = std::chrono::steady_clock::now();
  KILN_ASSIGN_OR_RETURN(std::vector<kiln::vm::Value> results, session->Call(flags.function, args));
  double call_ms = MillisecondsSince(call_start);
  if (!flags.outputs.empty() && flags.outputs.size() != results.size()) {
    return kiln::InvalidArgumentError(flags.outputs.size(), " --output flags given for ", results.size(), " results");
  }
  std::printf("EXEC @%s\n", flags.function.c_str());
  for (size_t i = 0; i < results.size(); ++i) {
    if (!flags.outputs.empty() && flags.outputs[i] != "-") {
      KILN_RETURN_IF_ERROR(kiln::runtime::WriteOutput(flags.outputs[i], results[i]), "for result ", i);
      continue;
    }
    KILN_ASSIGN_OR_RETURN(std::string text, kiln::runtime::FormatValue(results[i]));
    std::printf("result[%zu]: %s\n", i, text.c_str());
  }
  if (flags.print_statistics) {
    kiln::hal::QueueStatistics queue = session->device().queue_statistics();
    kiln::hal::AllocatorStatistics memory = session->device().allocator().statistics();
    std::printf("[statistics] dispatches: %llu, submissions: %llu, allocations: %zu, bytes live: %zu, bytes peak: %zu, "
                "load+link: %.3f ms, call: %.3f ms\n",
                static_cast<unsigned long long>(queue.dispatches), static_cast<unsigned long long>(queue.submissions),
                memory.allocation_count, memory.bytes_allocated, memory.peak_bytes_allocated, load_ms, call_ms);
  }
  matched = true;
  if (flags.expected.empty()) return kiln::OkStatus();
  if (flags.expected.size() != results.size()) {
    return kiln::InvalidArgumentError(flags.expected.size(), " expected outputs given for ", results.size(), " results");
  }
  for (size_t i = 0; i < results.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(kiln::vm::Value expected,
                          kiln::runtime::ParseValue(flags.expected[i], results[i].kind, session->device().allocator()),
                          "in --expected_output ", i);
    kiln::Status compared = kiln::runtime::CompareValues(results[i], expected, flags.atol, flags.rtol);
    if (!compared.ok()) {
      std::printf("[FAILED] result[%zu]: %s\n", i, std::string(compared.message()).c_str());
      matched = false;
      return kiln::OkStatus();
    }
    std::printf("[SUCCESS] result[%zu] matches\n", i);
  }
  return kiln::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  kiln::Status status = ParseFlags(argc, argv, flags);
  bool matched = false;
  if (status.ok()) status = Run(flags, matched);
  if (!status.ok()) {
    std::fprintf(stderr, "kiln-run: %s\n", status.ToString().c_str());
    return 1;
  }
  return matched ? 0 : 1;
}
