// kiln-convert-parameters: converts parameter files (irpa, safetensors, sharded safetensors
// indexes, GGUF) into one IREE parameter archive, optionally editing it on the way, in the
// manner of iree-convert-parameters; or lists what a parameter file holds.
//
//   kiln-convert-parameters INPUT... -o OUT.irpa [--strip] [--splat=KEY[=TYPE=VALUE]]
//                           [--exclude=KEY] [--rename=OLD=NEW] [--alignment=N]
//   kiln-convert-parameters --list FILE...
//
// Errors print one line, "kiln-convert-parameters: <status>", to stderr and exit 1.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "io/format_util.h"
#include "io/irpa_writer.h"
#include "io/parameter_file.h"
#include "tools/flags.h"

namespace {

using kiln::Status;
using kiln::StatusOr;
using kiln::io::ParameterEntry;

constexpr std::string_view kTool = "kiln-convert-parameters";
constexpr std::string_view kUsage =
    "kiln-convert-parameters INPUT... -o OUT.irpa [--strip] [--splat=KEY[=TYPE=VALUE]] [--exclude=KEY]\n"
    "                               [--rename=OLD=NEW] [--alignment=N]\n"
    "       kiln-convert-parameters --list FILE...";

struct Flags {
  std::string output;
  bool list = false, strip = false;
  std::vector<std::string> splat, exclude, rename, inputs;
  size_t alignment = 64;
};

// "KEY<tab>TYPE<tab>SHAPE<tab>BYTES<tab>STORAGE": type and shape "-" when the format does
// not say; storage "data@OFFSET" (with ":PATH" when in another file) or "splat:0xPATTERN".
std::string DescribeEntry(const ParameterEntry& e, const std::string& listed) {
  std::string type = e.element_type.empty() ? "-" : e.element_type;
  std::string shape = e.element_type.empty() ? "-" : kiln::io::ShapeText(e.shape);
  std::string storage;
  if (e.kind == ParameterEntry::Kind::kSplat) {
    storage = "splat:0x";
    for (uint8_t b : e.pattern) {
      char hex[3];
      std::snprintf(hex, sizeof(hex), "%02x", b);
      storage += hex;
    }
  } else {
    storage = kiln::StrCat("data@", e.offset, e.file && e.file->path() != listed ? ":" + e.file->path() : "");
  }
  return kiln::StrCat(e.key, "\t", type, "\t", shape, "\t", e.length, "\t", storage, "\n");
}

StatusOr<int> List(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::io::ParameterIndex> index, kiln::io::OpenParameterFile(file));
    std::string text = kiln::StrCat("# ", file, ": ", index->entries().size(), " parameters\n");
    for (const ParameterEntry& e : index->entries()) text += DescribeEntry(e, file);
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
      return kiln::UnavailableError("cannot write the listing to stdout");
    }
  }
  return std::fflush(stdout) == 0 ? 0 : StatusOr<int>(kiln::UnavailableError("cannot write to stdout"));
}

template <typename T>
std::vector<uint8_t> LittleEndian(T value) {
  std::vector<uint8_t> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

// TYPE=VALUE of --splat: i8 i16 i32 i64 (decimal), f32 f64 bf16, or x8 x16 x32 x64 (the
// element's bits in hex, e.g. x16=3C00 for f16 1.0).
StatusOr<std::vector<uint8_t>> ParsePattern(const std::string& flag, const std::string& type, const std::string& value) {
  auto bad = [&](std::string_view why) { return kiln::InvalidArgumentError("--splat=", flag, ": ", why); };
  char* end = nullptr;
  errno = 0;
  if (type.size() >= 2 && (type[0] == 'i' || type[0] == 'x')) {
    int bits = std::atoi(type.c_str() + 1);
    if (type != kiln::StrCat(type[0], bits) || (bits != 8 && bits != 16 && bits != 32 && bits != 64)) {
      return bad(kiln::StrCat("unknown type '", type, "'"));
    }
    bool hex = type[0] == 'x';
    uint64_t u = 0;
    if (!hex && value.starts_with("-")) {
      int64_t s = std::strtoll(value.c_str(), &end, 10);
      if (bits < 64 && s < -(int64_t{1} << (bits - 1))) errno = ERANGE;
      u = static_cast<uint64_t>(s);
    } else {
      u = std::strtoull(value.c_str(), &end, hex ? 16 : 10);
      if (bits < 64 && u >> bits) errno = ERANGE;
    }
    if (value.empty() || *end != '\0' || errno != 0) return bad(kiln::StrCat("'", value, "' is not a ", type, " value"));
    std::vector<uint8_t> bytes = LittleEndian(u);
    bytes.resize(static_cast<size_t>(bits / 8));
    return bytes;
  }
  double d = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0') return bad(kiln::StrCat("'", value, "' is not a number"));
  if (type == "f64") return LittleEndian(d);
  float f = static_cast<float>(d);
  if (type == "f32") return LittleEndian(f);
  if (type == "bf16") {
    uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    uint16_t half = std::isnan(f) ? uint16_t{0x7FC0} : static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    return LittleEndian(half);
  }
  return bad(kiln::StrCat("unknown type '", type, "' (i8 i16 i32 i64 f32 f64 bf16, or x8 x16 x32 x64 for hex bits)"));
}

// KEY -> pattern for every --splat.
StatusOr<std::map<std::string, std::vector<uint8_t>>> ParseSplats(const std::vector<std::string>& flags) {
  std::map<std::string, std::vector<uint8_t>> splats;
  for (const std::string& flag : flags) {
    size_t eq = flag.find('=');
    std::string key = flag.substr(0, eq);
    std::vector<uint8_t> pattern = {0};
    if (eq != std::string::npos) {
      std::string rest = flag.substr(eq + 1);
      size_t eq2 = rest.find('=');
      if (eq2 == std::string::npos) return kiln::InvalidArgumentError("--splat=", flag, ": expected KEY or KEY=TYPE=VALUE");
      KILN_ASSIGN_OR_RETURN(pattern, ParsePattern(flag, rest.substr(0, eq2), rest.substr(eq2 + 1)));
    }
    splats[key] = pattern;
  }
  return splats;
}

// Every key a flag names must be in the inputs (a typo is an error, not a no-op).
Status CheckKnown(const kiln::io::ParameterIndex& merged, std::string_view flag, const std::string& key) {
  if (merged.Find(key)) return kiln::OkStatus();
  return kiln::NotFoundError(flag, key, ": no parameter '", key, "' in the inputs");
}

StatusOr<int> Convert(const Flags& flags) {
  auto merged = kiln::MakeRef<kiln::io::ParameterIndex>("the inputs");
  for (const std::string& input : flags.inputs) {
    KILN_ASSIGN_OR_RETURN(kiln::Ref<kiln::io::ParameterIndex> index, kiln::io::OpenParameterFile(input));
    for (const ParameterEntry& e : index->entries()) KILN_RETURN_IF_ERROR(merged->Add(e));
  }
  KILN_ASSIGN_OR_RETURN(auto splats, ParseSplats(flags.splat));
  std::map<std::string, std::string> renames;
  for (const std::string& rename : flags.rename) {
    size_t eq = rename.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == rename.size()) {
      return kiln::InvalidArgumentError("--rename=", rename, ": expected OLD=NEW");
    }
    KILN_RETURN_IF_ERROR(CheckKnown(*merged, "--rename=", rename.substr(0, eq)));
    renames[rename.substr(0, eq)] = rename.substr(eq + 1);
  }
  std::set<std::string> excluded(flags.exclude.begin(), flags.exclude.end());
  for (const std::string& key : excluded) KILN_RETURN_IF_ERROR(CheckKnown(*merged, "--exclude=", key));
  for (const auto& [key, pattern] : splats) KILN_RETURN_IF_ERROR(CheckKnown(*merged, "--splat=", key));

  std::vector<ParameterEntry> out;
  for (const ParameterEntry& source : merged->entries()) {
    if (excluded.count(source.key)) continue;
    ParameterEntry e = source;
    auto splat = splats.find(e.key);
    if (splat != splats.end() || flags.strip) {
      e.kind = ParameterEntry::Kind::kSplat;
      e.pattern = splat != splats.end() ? splat->second : std::vector<uint8_t>{0};
      e.file = nullptr;
      e.offset = 0;
    }
    if (auto it = renames.find(e.key); it != renames.end()) e.key = it->second;
    out.push_back(std::move(e));
  }
  KILN_RETURN_IF_ERROR(kiln::io::WriteIrpa(flags.output, out, {.alignment = flags.alignment}));
  std::printf("wrote %zu parameters to %s\n", out.size(), flags.output.c_str());
  return std::fflush(stdout) == 0 ? 0 : StatusOr<int>(kiln::UnavailableError("cannot write to stdout"));
}

StatusOr<int> Run(const Flags& flags) {
  constexpr std::string_view kUsageLine = "usage: kiln-convert-parameters INPUT... -o OUT.irpa [flags] | --list FILE...";
  if (flags.inputs.empty()) return kiln::InvalidArgumentError("no input files given; ", kUsageLine);
  if (flags.list) {
    if (!flags.output.empty() || flags.strip || !flags.splat.empty() || !flags.exclude.empty() || !flags.rename.empty()) {
      return kiln::InvalidArgumentError("--list takes only files; it does not convert");
    }
    return List(flags.inputs);
  }
  if (flags.output.empty()) return kiln::InvalidArgumentError("no output given (-o OUT.irpa); ", kUsageLine);
  return Convert(flags);
}

}  // namespace

int main(int argc, char** argv) {
  // "-o FILE" is spelled "--output=FILE" for the flag parser.
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) {
    if (std::string_view(argv[i]) == "-o") {
      if (i + 1 == argc) {
        std::fprintf(stderr, "%s: INVALID_ARGUMENT: -o needs a file name\n", std::string(kTool).c_str());
        return 1;
      }
      args.push_back(kiln::StrCat("--output=", argv[++i]));
    } else {
      args.emplace_back(argv[i]);
    }
  }
  std::vector<char*> new_argv;
  for (std::string& arg : args) new_argv.push_back(arg.data());

  Flags flags;
  kiln::tools::FlagParser parser(
      kTool, kUsage,
      "Converts parameter files (IREE parameter archives, safetensors files, sharded safetensors\n"
      "indexes, GGUF files; the format is read from the bytes) into one IREE parameter archive,\n"
      "merging several inputs (a key in two of them is an error), or lists a parameter file:\n"
      "key, element type, shape, bytes and storage per line, tab-separated.\n",
      "  kiln-convert-parameters model.safetensors -o model.irpa\n"
      "  kiln-convert-parameters model.safetensors.index.json extra.gguf -o model.irpa --exclude=unused\n"
      "  kiln-convert-parameters model.irpa --strip --splat=norm.weight=f32=1.0 -o weightless.irpa\n"
      "  kiln-convert-parameters --list model.gguf\n");
  parser.String("--output", "OUT.irpa", &flags.output, "The archive to write (also -o OUT.irpa).");
  parser.Bool("--list", &flags.list, "Print the parameters of each file instead of converting.");
  parser.Bool("--strip", &flags.strip,
              "Replace every parameter with zeros of its length (a splat): a weightless archive.");
  parser.List("--splat", "KEY[=TYPE=VALUE]", &flags.splat,
              "Replace KEY with a splat of zeros, or of VALUE as TYPE: i8 i16 i32 i64 f32 f64 bf16,\n"
              "or x8 x16 x32 x64 for the element's bits in hex (x16=3C00 is f16 1.0). Repeatable.");
  parser.List("--exclude", "KEY", &flags.exclude, "Leave KEY out of the archive. Repeatable.");
  parser.List("--rename", "OLD=NEW", &flags.rename, "Store OLD under the key NEW. Repeatable.");
  parser.Number("--alignment", &flags.alignment, "Alignment of each parameter's data in the archive.");
  Status parsed = parser.Parse(static_cast<int>(new_argv.size()), new_argv.data(), &flags.inputs);
  if (parsed.ok() && parser.help_requested()) {
    std::fputs(parser.Help().c_str(), stdout);
    return 0;
  }
  StatusOr<int> code = parsed.ok() ? Run(flags) : StatusOr<int>(parsed);
  if (!code.ok()) {
    std::fprintf(stderr, "%s: %s\n", std::string(kTool).c_str(), code.status().ToString().c_str());
    return 1;
  }
  return *code;
}
