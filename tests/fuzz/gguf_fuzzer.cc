// libFuzzer target for GGUF headers (ParseGguf: metadata of every type, tensor infos):
// see tests/fuzz/parameter_fuzzer.h. Build and run: scripts/fuzz.sh (preset "fuzz").
#include "io/gguf_format.h"
#include "tests/fuzz/parameter_fuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return kiln::io::fuzz::FuzzParameterParser(kiln::io::ParseGguf, data, size, "fuzz.gguf");
}
