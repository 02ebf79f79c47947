// LDS: ds_read*, ds_write* (and the _d16_hi writes), ds_read2/ds_write2 (and their st64 forms), ds_add_u32/ds_add_rtn_u32
// and ds_bpermute_b32 (CDNA3 ISA, "Data Share Operations"). Each active lane's address is its
// ADDR VGPR plus the instruction offset (read2/write2: ADDR + OFFSET0/OFFSET1 times the element
// size, times 64 more for st64), a byte address in the workgroup's group segment. gfx9 LDS
// instructions do not use M0. The waves of a workgroup run on one thread, so these accesses
// are atomic with respect to each other.
//
// An access outside the dispatch's group segment fails the dispatch naming the lane and the
// address: stricter than the hardware (which returns 0 for such reads and drops such writes),
// because it is a kernel bug. GDS is not modelled. Reads read at issue and land when they
// retire (LGKM_CNT, waitcnt.h); writes write at issue. With the race detector on, every
// lane's access is checked against the other waves' accesses since the last s_barrier
// (lds_races.h).
// Operands: reads dst[0] VDST, src[0] ADDR; writes src[0] ADDR, src[1] DATA0, src[2] DATA1;
// imm[0] OFFSET (OFFSET0, then imm[1] OFFSET1 for read2/write2), then GDS.
#include <cstring>

#include "drivers/hip/sim/isa/lds_races.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

// The group segment bytes of lane `lane`'s access, or null after failing the dispatch. ADDR +
// offset is a 32-bit sum: LLVM folds a constant into the offset field whatever the base's sign
// on gfx9 (hasUsableDSOffset), so ADDR = -4 with OFFSET 16 is byte 12. Null too when the
// access races with another wave's (lds_races.h).
uint8_t* LdsBytes(Wave& w, const Instruction& i, uint32_t lane, uint64_t address, uint32_t size, LdsAccessKind kind) {
  WorkgroupContext& c = *w.context;
  address &= 0xffffffffu;
  if (address > c.group_segment_size || size > c.group_segment_size - address) {
    w.Fail(i, StrCat("lane ", lane, " accesses LDS bytes [", Hex(address), ", +", size, ") outside the dispatch's ",
                     c.group_segment_size, "-byte group segment"));
    return nullptr;
  }
  if (c.lds_races) {
    if (!CheckLdsAccess(w, i, lane, static_cast<uint32_t>(address), size, kind)) return nullptr;
    if (kind != LdsAccessKind::kRead) {  // until an s_waitcnt retires it (wave.h)
      w.unretired_lds_writes.push_back(
          {static_cast<uint32_t>(address), size, w.pc - 1, static_cast<uint8_t>(lane), kind == LdsAccessKind::kAtomic});
      ++w.lds_writes_of_op;
    }
  }
  if (kind != LdsAccessKind::kWrite) c.counts.lds_read_bytes += size;
  if (kind != LdsAccessKind::kRead) c.counts.lds_written_bytes += size;
  return c.group_segment + address;
}

bool NoGds(Wave& w, const Instruction& i, int gds_index) {
  if (i.num_imm > gds_index && i.imm[gds_index] != 0) {
    w.Fail(i, "GDS is not modelled");
    return false;
  }
  return true;
}

// ds_read_*: kBytes per lane, sub-dword reads zero- or sign-extended to 32 bits.
template <uint32_t kBytes, bool kSigned>
void DsRead(Wave& w, const Instruction& i) {
  if (!NoGds(w, i, 1)) return;
  constexpr uint32_t kDwords = kBytes < 4 ? 1 : kBytes / 4;
  const uint32_t* addr = w.v(i.src[0].index);
  uint64_t offset = static_cast<uint64_t>(i.imm[0]), exec = w.exec();
  std::vector<uint32_t> data = TakeBuffer(w, size_t{kDwords} * kLanes);
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    const uint8_t* bytes = LdsBytes(w, i, l, uint64_t{addr[l]} + offset, kBytes, LdsAccessKind::kRead);
    if (!bytes) return;
    CopyLoadedLane<kBytes, kSigned>(bytes, l, data);
  }
  IssueLdsLoad(w, i.dst[0].index, kDwords, exec, std::move(data));
}

// ds_write_*: kBytes per lane from DATA0 (and the registers after it); the _d16_hi forms
// (kHigh) store the byte or short from bits 31:16 of DATA0 instead of the low bits.
template <uint32_t kBytes, bool kHigh = false>
void DsWrite(Wave& w, const Instruction& i) {
  if (!NoGds(w, i, 1)) return;
  const uint32_t* addr = w.v(i.src[0].index);
  uint64_t offset = static_cast<uint64_t>(i.imm[0]), exec = w.exec();
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint8_t* bytes = LdsBytes(w, i, l, uint64_t{addr[l]} + offset, kBytes, LdsAccessKind::kWrite);
    if (!bytes) return;
    if constexpr (kHigh) {
      uint32_t high = w.v(i.src[1].index)[l] >> 16;
      std::memcpy(bytes, &high, kBytes);
    } else {
      for (uint32_t d = 0; d < (kBytes + 3) / 4; ++d) {
        std::memcpy(bytes + 4 * d, &w.v(i.src[1].index + d)[l], kBytes < 4 ? kBytes : 4);
      }
    }
  }
  IssueLdsStore(w);
}

// ds_read2_b32/b64 and ds_read2st64_*: two elements of kBytes at OFFSET0 and OFFSET1 (in
// elements, times 64 for st64) into VDST and VDST + kBytes / 4.
template <uint32_t kBytes, uint32_t kStride>
void DsRead2(Wave& w, const Instruction& i) {
  if (!NoGds(w, i, 2)) return;
  constexpr uint32_t kDwords = kBytes / 4;
  const uint32_t* addr = w.v(i.src[0].index);
  uint64_t exec = w.exec();
  std::vector<uint32_t> data = TakeBuffer(w, size_t{2 * kDwords} * kLanes);
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    for (uint32_t e = 0; e < 2; ++e) {
      uint64_t address = uint64_t{addr[l]} + static_cast<uint64_t>(i.imm[e]) * kBytes * kStride;
      const uint8_t* bytes = LdsBytes(w, i, l, address, kBytes, LdsAccessKind::kRead);
      if (!bytes) return;
      for (uint32_t d = 0; d < kDwords; ++d) std::memcpy(&data[size_t{e * kDwords + d} * kLanes + l], bytes + 4 * d, 4);
    }
  }
  IssueLdsLoad(w, i.dst[0].index, 2 * kDwords, exec, std::move(data));
}

template <uint32_t kBytes, uint32_t kStride>
void DsWrite2(Wave& w, const Instruction& i) {
  if (!NoGds(w, i, 2)) return;
  const uint32_t* addr = w.v(i.src[0].index);
  uint64_t exec = w.exec();
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    for (uint32_t e = 0; e < 2; ++e) {
      uint64_t address = uint64_t{addr[l]} + static_cast<uint64_t>(i.imm[e]) * kBytes * kStride;
      uint8_t* bytes = LdsBytes(w, i, l, address, kBytes, LdsAccessKind::kWrite);
      if (!bytes) return;
      for (uint32_t d = 0; d < kBytes / 4; ++d) std::memcpy(bytes + 4 * d, &w.v(i.src[1 + e].index + d)[l], 4);
    }
  }
  IssueLdsStore(w);
}

// DS_ADD_U32 / DS_ADD_RTN_U32: LDS[a] += DATA, the _rtn form returning the old value.
template <bool kReturn>
void DsAdd(Wave& w, const Instruction& i) {
  if (!NoGds(w, i, 1)) return;
  const Operand& address_op = i.src[0];
  const Operand& data_op = i.src[1];
  uint64_t offset = static_cast<uint64_t>(i.imm[0]), exec = w.exec();
  std::vector<uint32_t> old = TakeBuffer(w, kLanes);
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint8_t* bytes = LdsBytes(w, i, l, uint64_t{w.v(address_op.index)[l]} + offset, 4, LdsAccessKind::kAtomic);
    if (!bytes) return;
    uint32_t value;
    std::memcpy(&value, bytes, 4);
    old[l] = value;
    value += w.v(data_op.index)[l];
    std::memcpy(bytes, &value, 4);
  }
  if (kReturn) {
    IssueLdsLoad(w, i.dst[0].index, 1, exec, std::move(old));
  } else {
    IssueLdsStore(w);
  }
}

// DS_BPERMUTE_B32: VDST[lane] = DATA0[((ADDR[lane] + OFFSET) >> 2) & 63] for active lanes;
// reading a lane that is not active gives 0 (the ISA applies EXEC to the VGPR read too). It
// does not touch the group segment but counts in LGKM_CNT.
void DsBpermute(Wave& w, const Instruction& i) {
  const uint32_t* addr = w.v(i.src[0].index);
  const uint32_t* data = w.v(i.src[1].index);
  uint64_t offset = i.num_imm > 0 ? static_cast<uint64_t>(i.imm[0]) : 0, exec = w.exec();
  std::vector<uint32_t> out = TakeBuffer(w, kLanes);
  for (uint32_t l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1)) continue;
    uint32_t source = static_cast<uint32_t>(((uint64_t{addr[l]} + offset) >> 2) & 63);
    out[l] = (exec >> source) & 1 ? data[source] : 0;
  }
  IssueLdsLoad(w, i.dst[0].index, 1, exec, std::move(out));
}

constexpr OpSemantics kLds[] = {
    {"ds_read_u8", &DsRead<1, false>},
    {"ds_read_i8", &DsRead<1, true>},
    {"ds_read_u16", &DsRead<2, false>},
    {"ds_read_i16", &DsRead<2, true>},
    {"ds_read_b32", &DsRead<4, false>},
    {"ds_read_b64", &DsRead<8, false>},
    {"ds_read_b96", &DsRead<12, false>},
    {"ds_read_b128", &DsRead<16, false>},
    {"ds_write_b8", &DsWrite<1>},
    {"ds_write_b16", &DsWrite<2>},
    {"ds_write_b8_d16_hi", &DsWrite<1, true>},
    {"ds_write_b16_d16_hi", &DsWrite<2, true>},
    {"ds_write_b32", &DsWrite<4>},
    {"ds_write_b64", &DsWrite<8>},
    {"ds_write_b96", &DsWrite<12>},
    {"ds_write_b128", &DsWrite<16>},
    {"ds_read2_b32", &DsRead2<4, 1>},
    {"ds_read2_b64", &DsRead2<8, 1>},
    {"ds_read2st64_b32", &DsRead2<4, 64>},
    {"ds_read2st64_b64", &DsRead2<8, 64>},
    {"ds_write2_b32", &DsWrite2<4, 1>},
    {"ds_write2_b64", &DsWrite2<8, 1>},
    {"ds_write2st64_b32", &DsWrite2<4, 64>},
    {"ds_write2st64_b64", &DsWrite2<8, 64>},
    {"ds_add_u32", &DsAdd<false>},
    {"ds_add_rtn_u32", &DsAdd<true>},
    {"ds_bpermute_b32", &DsBpermute},
};

}  // namespace

std::span<const OpSemantics> LdsSemantics() { return kLds; }

}  // namespace kiln::hsa_sim::isa
