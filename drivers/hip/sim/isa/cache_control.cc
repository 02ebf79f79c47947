// Cache maintenance (CDNA3 ISA, MUBUF BUFFER_WBL2 and BUFFER_INV; LLVM's AMDGPUUsage memory
// model for gfx942 emits them around agent- and system-scope acquires and releases, with the
// sc0/sc1 scope bits): hip-sim's memory is coherent host memory with no caches, so neither
// moves data, but each is a vector memory operation that counts in VM_CNT until an s_waitcnt
// vmcnt retires it, as on hardware.
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"

namespace kiln::hsa_sim::isa {
namespace {

void CacheOperation(Wave& w, const Instruction&) { IssueVectorStore(w); }

constexpr OpSemantics kCacheControl[] = {
    {"buffer_wbl2", &CacheOperation},
    {"buffer_inv", &CacheOperation},
};

}  // namespace

std::span<const OpSemantics> CacheControlSemantics() { return kCacheControl; }

}  // namespace kiln::hsa_sim::isa
