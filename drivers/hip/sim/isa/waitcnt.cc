// s_waitcnt and the outstanding-operation queues; the model is described in waitcnt.h.
#include "drivers/hip/sim/isa/waitcnt.h"

#include <algorithm>
#include <utility>

#include "drivers/hip/sim/isa/semantics.h"

namespace kiln::hsa_sim::isa {
namespace {

void Retire(Wave& w, PendingOp& op) {
  if (op.lds_writes) {
    auto begin = w.unretired_lds_writes.begin();
    w.unretired_lds_writes.erase(begin, begin + op.lds_writes);
  }
  if (op.dwords > 0) {
    if (op.vector) {
      for (uint32_t d = 0; d < op.dwords; ++d) {
        uint32_t* reg = w.v(op.reg + d);
        const uint32_t* data = op.data.data() + size_t{d} * kLanes;
        for (uint32_t l = 0; l < kLanes; ++l)
          if ((op.lanes >> l) & 1) reg[l] = data[l];
      }
    } else {
      for (uint32_t d = 0; d < op.dwords; ++d) w.s[op.reg + d] = op.data[d];
    }
  }
  if (op.data.capacity() > 0) w.spare_buffers.push_back(std::move(op.data));
}

void PoisonLanes(Wave& w, uint16_t reg, uint8_t dwords, uint64_t lanes) {
  for (uint32_t d = 0; d < dwords; ++d) {
    uint32_t* r = w.v(reg + d);
    for (uint32_t l = 0; l < kLanes; ++l)
      if ((lanes >> l) & 1) r[l] = kPoison;
  }
}

void RetireQueue(Wave& w, std::deque<PendingOp>& queue, uint32_t keep) {
  while (queue.size() > keep) {
    Retire(w, queue.front());
    queue.pop_front();
  }
}

// s_waitcnt simm16 on gfx9 (CDNA3 ISA, SOPP S_WAITCNT): vmcnt in bits 3:0 and 15:14,
// expcnt in 6:4, lgkmcnt in 11:8. Export/GDS (expcnt) operations do not exist in compute
// kernels here, so expcnt has nothing to wait for.
void SWaitcnt(Wave& w, const Instruction& inst) {
  uint32_t simm16 = static_cast<uint32_t>(inst.imm[0]) & 0xffff;
  uint32_t vmcnt = (simm16 & 0xf) | ((simm16 >> 14) & 3) << 4;
  uint32_t lgkmcnt = (simm16 >> 8) & 0xf;
  RetireVm(w, vmcnt);
  RetireLgkm(w, lgkmcnt);
  w.yielded = true;  // a wait is where the hardware switches to another wave
}

constexpr OpSemantics kWaitcnt[] = {
    {"s_waitcnt", &SWaitcnt},
};

}  // namespace

std::vector<uint32_t> TakeBuffer(Wave& w, size_t size) {
  std::vector<uint32_t> buffer;
  if (!w.spare_buffers.empty()) {
    buffer = std::move(w.spare_buffers.back());
    w.spare_buffers.pop_back();
  }
  buffer.resize(size);
  return buffer;
}

namespace {

// A load into VGPRs [reg, reg + dwords) of `lanes` on `queue` (VM_CNT or LGKM_CNT).
void IssueVgprLoad(Wave& w, PendingOp::Unit unit, uint16_t reg, uint8_t dwords, uint64_t lanes,
                   std::vector<uint32_t> data) {
  bool vm = unit == PendingOp::Unit::kVectorMemory;
  if (vm && w.vm_ops.size() >= kMaxVmCount) RetireVm(w, kMaxVmCount - 1);
  if (!vm && w.lgkm_ops.size() >= kMaxLgkmCount) RetireLgkm(w, kMaxLgkmCount - 1);
  PoisonLanes(w, reg, dwords, lanes);
  PendingOp& op = (vm ? w.vm_ops : w.lgkm_ops).emplace_back();
  op.unit = unit;
  op.vector = true;
  op.reg = reg;
  op.dwords = dwords;
  op.lanes = lanes;
  op.data = std::move(data);
  if (!vm) op.lds_writes = std::exchange(w.lds_writes_of_op, 0);
}

}  // namespace

void IssueVectorLoad(Wave& w, uint16_t reg, uint8_t dwords, uint64_t lanes, std::vector<uint32_t> data) {
  IssueVgprLoad(w, PendingOp::Unit::kVectorMemory, reg, dwords, lanes, std::move(data));
}

void IssueVectorStore(Wave& w) {
  if (w.vm_ops.size() >= kMaxVmCount) RetireVm(w, kMaxVmCount - 1);
  w.vm_ops.emplace_back();
}

void IssueLdsLoad(Wave& w, uint16_t reg, uint8_t dwords, uint64_t lanes, std::vector<uint32_t> data) {
  IssueVgprLoad(w, PendingOp::Unit::kLds, reg, dwords, lanes, std::move(data));
}

void IssueLdsStore(Wave& w) {
  if (w.lgkm_ops.size() >= kMaxLgkmCount) RetireLgkm(w, kMaxLgkmCount - 1);
  PendingOp& op = w.lgkm_ops.emplace_back();
  op.unit = PendingOp::Unit::kLds;
  op.lds_writes = std::exchange(w.lds_writes_of_op, 0);
}

void IssueScalarLoad(Wave& w, uint16_t slot, uint8_t dwords, std::vector<uint32_t> data) {
  if (w.lgkm_ops.size() >= kMaxLgkmCount) RetireLgkm(w, kMaxLgkmCount - 1);
  for (uint32_t d = 0; d < dwords; ++d) w.s[slot + d] = kPoison;
  PendingOp& op = w.lgkm_ops.emplace_back();
  op.unit = PendingOp::Unit::kScalarMemory;
  op.vector = false;
  op.reg = slot;
  op.dwords = dwords;
  op.data = std::move(data);
}

void RetireVm(Wave& w, uint32_t keep) { RetireQueue(w, w.vm_ops, keep); }
// LGKM_CNT counts scalar loads and LDS operations. LDS operations return in order; scalar
// loads may return in any order (CDNA3 ISA, S_WAITCNT: only lgkmcnt(0) is safe after several
// SMEM operations). So a partial wait retires the newest scalar load first, and the oldest LDS
// operation when no scalar load is outstanding: a kernel that relies on scalar loads returning
// in issue order reads a still-poisoned register.
void RetireLgkm(Wave& w, uint32_t keep) {
  if (keep == 0) return RetireQueue(w, w.lgkm_ops, 0);
  while (w.lgkm_ops.size() > keep) {
    auto newest_scalar = std::find_if(w.lgkm_ops.rbegin(), w.lgkm_ops.rend(),
                                      [](const PendingOp& op) { return op.unit == PendingOp::Unit::kScalarMemory; });
    auto it = newest_scalar != w.lgkm_ops.rend() ? std::prev(newest_scalar.base()) : w.lgkm_ops.begin();
    Retire(w, *it);
    w.lgkm_ops.erase(it);
  }
}

void RetireAll(Wave& w) {
  RetireVm(w, 0);
  RetireLgkm(w, 0);
}

std::span<const OpSemantics> WaitcntSemantics() { return kWaitcnt; }

}  // namespace kiln::hsa_sim::isa
