// kiln-run --module=FILE.kiln [--function=main] [--device=cpu] [--input=VALUE]...
//          [--expected_output=VALUE]... [--atol=1e-5] [--rtol=1e-6]
// Calls one function of a module and prints its results in iree-run-module's format
// (runtime/value_text.h). With expected outputs it compares them (NumPy isclose) and exits
// 1 naming the first mismatching element.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/session.h"
#include "runtime/value_text.h"
#include "tools/load_module.h"

namespace {

struct Flags {
  std::string module, function = "main", device = "cpu";
  std::vector<std::string> inputs, expected;
  double atol = 1e-5, rtol = 1e-6;
};

bool StartsWith(const std::string& s, const char* prefix, std::string& value) {
  size_t n = std::char_traits<char>::length(prefix);
  if (s.compare(0, n, prefix) != 0) return false;
  value = s.substr(n);
  return true;
}

kiln::Status ParseFlags(int argc, char** argv, Flags& flags) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], v;
    if (StartsWith(arg, "--module=", v)) flags.module = v;
    else if (StartsWith(arg, "--function=", v)) flags.function = v;
    else if (StartsWith(arg, "--device=", v)) flags.device = v;
    else if (StartsWith(arg, "--input=", v)) flags.inputs.push_back(v);
    else if (StartsWith(arg, "--expected_output=", v)) flags.expected.push_back(v);
    else if (StartsWith(arg, "--atol=", v)) flags.atol = std::atof(v.c_str());
    else if (StartsWith(arg, "--rtol=", v)) flags.rtol = std::atof(v.c_str());
    else return kiln::InvalidArgumentError("unknown flag '", arg, "'; expected --module, --function, --device, --input, "
                                           "--expected_output, --atol, --rtol");
  }
  if (flags.module.empty()) return kiln::InvalidArgumentError("--module=FILE.kiln is required");
  return kiln::OkStatus();
}

kiln::Status Run(const Flags& flags, bool& matched) {
  KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::vm::Module> module, kiln::tools::LoadModule(flags.module));
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<kiln::runtime::Session> session,
                        kiln::runtime::Session::Create(flags.device, module));
  KILN_ASSIGN_OR_RETURN(kiln::vm::Signature signature, session->FunctionSignature(flags.function));
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
  KILN_ASSIGN_OR_RETURN(std::vector<kiln::vm::Value> results, session->Call(flags.function, args));
  std::printf("EXEC @%s\n", flags.function.c_str());
  for (size_t i = 0; i < results.size(); ++i) {
    KILN_ASSIGN_OR_RETURN(std::string text, kiln::runtime::FormatValue(results[i]));
    std::printf("result[%zu]: %s\n", i, text.c_str());
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
