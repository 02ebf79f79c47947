// Processor state a CPU executable may need beyond what every process has
// (KILN_EXECUTABLE_NEEDS_* in hal/abi/executable_abi.h), obtained from the operating system
// before the executable's code runs.
#pragma once

#include <cstdint>

#include "base/status.h"

namespace kiln::cpu {

// Makes every KILN_EXECUTABLE_NEEDS_* bit of `needs` usable by all threads of this process,
// or says which one cannot be: the CPU lacks it, the kernel refuses it, or the bit is
// unknown to this runtime. AMX tile registers are requested once per process (Linux keeps
// the grant for the process's lifetime); later calls cost an atomic load.
Status ObtainProcessorState(uint32_t needs);

}  // namespace kiln::cpu
