// libFuzzer target for safetensors headers (ParseSafetensors: the JSON reader, dtypes, data_offsets):
// see tests/fuzz/parameter_fuzzer.h. Build and run: scripts/fuzz.sh (preset "fuzz").
#include "io/safetensors_format.h"
#include "tests/fuzz/parameter_fuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return kiln::io::fuzz::FuzzParameterParser(kiln::io::ParseSafetensors, data, size, "fuzz.safetensors");
}
