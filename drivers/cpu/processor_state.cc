#include "drivers/cpu/processor_state.h"

#include <cerrno>
#include <cpuid.h>
#include <cstring>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

#include "hal/abi/executable_abi.h"

namespace kiln::cpu {
namespace {

// Linux's arch_prctl codes for extended processor state (asm/prctl.h, since Linux 5.16)
// and the XSAVE component of the AMX tile data.
constexpr int kArchRequestStatePermission = 0x1023;  // ARCH_REQ_XCOMP_PERM
constexpr int kTileDataComponent = 18;               // XFEATURE_XTILEDATA

bool CpuHasAmxTiles() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return (edx >> 24) & 1;  // CPUID.(EAX=7, ECX=0):EDX[24] = AMX-TILE
}

Status RequestAmxTiles() {
  if (!CpuHasAmxTiles()) {
    return FailedPreconditionError("the executable uses AMX tile registers, which this CPU does not have; compile it "
                                   "for this CPU (kiln-compile --target-cpu=host)");
  }
  if (syscall(SYS_arch_prctl, kArchRequestStatePermission, kTileDataComponent) != 0) {
    return FailedPreconditionError("the executable uses AMX tile registers and the kernel refused them to this process "
                                   "(arch_prctl ARCH_REQ_XCOMP_PERM: ",
                                   std::strerror(errno), ")");
  }
  return OkStatus();
}

}  // namespace

Status ObtainProcessorState(uint32_t needs) {
  if ((needs & ~KILN_EXECUTABLE_NEEDS_AMX_TILES) != 0) {
    return InvalidArgumentError("the executable needs processor state this runtime does not know ('",
                                KILN_EXECUTABLE_NEEDS_SYMBOL, "' is ", needs, "; known bits: ",
                                KILN_EXECUTABLE_NEEDS_AMX_TILES, ")");
  }
  if (needs & KILN_EXECUTABLE_NEEDS_AMX_TILES) {
    static std::once_flag once;
    static Status amx;
    std::call_once(once, [] { amx = RequestAmxTiles(); });
    if (!amx.ok()) return amx;
  }
  return OkStatus();
}

}  // namespace kiln::cpu
