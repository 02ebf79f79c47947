// libFuzzer target for IREE parameter archives (ParseIrpa, linked headers, splat/data/skip/external entries):
// see tests/fuzz/parameter_fuzzer.h. Build and run: scripts/fuzz.sh (preset "fuzz").
#include "io/irpa_format.h"
#include "tests/fuzz/parameter_fuzzer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return kiln::io::fuzz::FuzzParameterParser(kiln::io::ParseIrpa, data, size, "fuzz.irpa");
}
