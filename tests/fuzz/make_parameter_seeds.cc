// Writes the parameter fuzzers' seed corpora: small valid files of each format that between
// them use every feature the parsers read, into DIR/irpa, DIR/safetensors and DIR/gguf
// (argv[1]).
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "io/irpa_writer.h"
#include "tests/io/format_builders.h"

namespace kiln::io::testing {
namespace {

bool Put(const std::string& dir, const std::string& name, const Bytes& bytes) {
  mkdir(dir.c_str(), 0755);
  if (WriteFile(dir + "/" + name, bytes)) return true;
  std::fprintf(stderr, "make_parameter_seeds: cannot write %s/%s\n", dir.c_str(), name.c_str());
  return false;
}

bool IrpaSeeds(const std::string& dir) {
  mkdir(dir.c_str(), 0755);
  Ref<MappedFile> source = MappedFile::FromBytes(Iota(96), "seed");
  std::vector<ParameterEntry> entries = {DataEntry("weight", source, 0, 64), SplatEntry("zeros", 32, {0}),
                                         SplatEntry("ones.f32", 16, {0, 0, 0x80, 0x3f}),
                                         DataEntry("bias", source, 64, 32)};
  Status written = WriteIrpa(dir + "/written.irpa", entries);
  if (!written.ok()) {
    std::fprintf(stderr, "make_parameter_seeds: %s\n", written.ToString().c_str());
    return false;
  }
  return Put(dir, "empty.irpa", IrpaBuilder().Build()) &&
         Put(dir, "kinds.irpa",
             IrpaBuilder().Data("a", Iota(10)).Skip("gone").Splat("s", 64, {1, 2, 3, 4, 5, 6, 7, 8}).Build()) &&
         // An absolute path: the fuzzer resolves relative ones against its working directory.
         Put(dir, "external.irpa", IrpaBuilder().External("x", dir + "/written.irpa", 0, 16).Data("d", {1}, 0).Build());
}

bool SafetensorsSeeds(const std::string& dir) {
  return Put(dir, "dtypes.safetensors",
             SafetensorsFile({{"w", "F32", {2, 2}, Iota(16)},
                              {"h", "F16", {3}, Iota(6)},
                              {"b", "BF16", {1}, Iota(2)},
                              {"m", "BOOL", {2}, {0, 1}},
                              {"q", "F8_E4M3", {4}, Iota(4)},
                              {"u", "U8", {}, {7}},
                              {"l", "I64", {1}, Iota(8)},
                              {"f4", "F4", {3}, Iota(2)}})) &&
         Put(dir, "escapes.safetensors",
             SafetensorsFile(R"({"__metadata__": {"k": "v\u00e9\n"}, "n\"\\\/\b\f\r\t\ud83d\ude00": )"
                             R"({"dtype": "I8", "shape": [1, 1], "data_offsets": [0, 1], "extra": [null, true, -1.5e3]}})",
                             {9})) &&
         Put(dir, "empty.safetensors", SafetensorsFile("{}", {}));
}

bool GgufSeeds(const std::string& dir) {
  Bytes strings;
  Append<uint32_t>(strings, 8);
  Append<uint64_t>(strings, 2);
  for (const char* s : {"a", "bc"}) {
    Bytes b = GgufString(s);
    strings.insert(strings.end(), b.begin(), b.end());
  }
  Bytes nested;
  Append<uint32_t>(nested, 9);
  Append<uint64_t>(nested, 1);
  nested.insert(nested.end(), strings.begin(), strings.end());
  GgufBuilder all;
  all.KvString("general.architecture", "llama").Alignment(64).KvRaw("tokens", 9, strings).KvRaw("nested", 9, nested);
  const uint32_t sizes[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
  for (uint32_t type = 0; type <= 12; ++type) {
    if (sizes[type]) all.KvRaw("v" + std::to_string(type), type, Bytes(sizes[type], 1));
  }
  all.Tensor("f32", 0, {2, 2}, Iota(16))
      .Tensor("f16", 1, {4}, Iota(8))
      .Tensor("bf16", 30, {1}, Iota(2))
      .Tensor("q8_0", 8, {32}, Bytes(34, 1))
      .Tensor("q4_0", 2, {32, 1}, Bytes(18, 2))
      .Tensor("i32", 26, {}, Iota(4));
  return Put(dir, "all.gguf", all.Build()) && Put(dir, "v2.gguf", GgufBuilder(2).Tensor("x", 0, {1}, Iota(4)).Build()) &&
         Put(dir, "empty.gguf", GgufBuilder().Build());
}

}  // namespace
}  // namespace kiln::io::testing

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_parameter_seeds DIR\n");
    return 1;
  }
  std::string dir = argv[1];
  mkdir(dir.c_str(), 0755);
  using namespace kiln::io::testing;
  bool ok = IrpaSeeds(dir + "/irpa") && SafetensorsSeeds(dir + "/safetensors") && GgufSeeds(dir + "/gguf");
  return ok ? 0 : 1;
}
