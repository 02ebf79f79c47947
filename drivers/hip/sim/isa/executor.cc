// The workgroup runner: initial wave state, the wave scheduler, failures and the kernarg
// check (see executor.h for the contract).
#include "drivers/hip/sim/isa/executor.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "drivers/hip/sim/isa/interleave.h"
#include "drivers/hip/sim/isa/lds_races.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/waitcnt.h"
#include "drivers/hip/sim/memory.h"
#include "drivers/hip/sim/sim_api.h"

namespace kiln::hsa_sim::isa {
namespace {

// The LDS race shadow of the thread that runs workgroups (lds_races.h).
LdsRaceShadow& ThreadLdsShadow() {
  thread_local LdsRaceShadow shadow;
  return shadow;
}

// Waves are reused by the thread that ran them: a wave's register file can be 128 KiB.
std::vector<std::unique_ptr<Wave>>& ThreadWaves() {
  thread_local std::vector<std::unique_ptr<Wave>> waves;
  return waves;
}

uint32_t Extent(const WorkgroupLaunch& l, int axis) {
  uint64_t start = uint64_t{l.workgroup_id[axis]} * l.workgroup_size[axis];
  return static_cast<uint32_t>(std::min<uint64_t>(l.workgroup_size[axis], l.grid_size[axis] - start));
}

// The initial state of wave `index` of the workgroup (see executor.h).
void InitializeWave(const WorkgroupLaunch& l, uint32_t index, const uint32_t extent[3], Wave* w) {
  const Program& p = *l.program;
  const KernelDescriptor& d = p.kernel.descriptor;
  w->pc = 0;
  w->ended = false;
  w->yielded = false;
  w->at_barrier = false;
  w->scc = false;
  w->wave_in_group = index;
  std::fill(std::begin(w->s), std::end(w->s), kPoison);
  w->vgprs.assign(size_t{p.vgpr_file + Program::kScratchVgprs} * kLanes, kPoison);
  w->gpr_idx_on = false;
  // Private memory (scratch_memory.cc): the descriptor's fixed size per work-item; its initial
  // contents are undefined, here 0xa5 as the group segment's.
  w->scratch_per_lane = d.private_segment_fixed_size;
  w->scratch.assign(size_t{w->scratch_per_lane} * kLanes, 0xa5);
  w->vm_ops.clear();
  w->lgkm_ops.clear();
  w->unretired_lds_writes.clear();
  w->lds_writes_of_op = 0;

  uint32_t sgpr = 0;
  auto put64 = [&](uint64_t value) {
    w->SetSgpr64(sgpr, value);
    sgpr += 2;
  };
  if (d.private_segment_buffer()) {
    for (int i = 0; i < 4; ++i) w->s[sgpr++] = 0;  // no scratch: a null buffer resource
  }
  if (d.dispatch_ptr()) put64(reinterpret_cast<uintptr_t>(l.dispatch_packet));
  if (d.queue_ptr()) put64(reinterpret_cast<uintptr_t>(l.queue));
  if (d.kernarg_segment_ptr()) put64(reinterpret_cast<uintptr_t>(l.kernarg));
  if (d.dispatch_id()) put64(l.dispatch_id);
  if (d.flat_scratch_init()) put64(0);
  if (d.private_segment_size()) w->s[sgpr++] = 0;
  // Preloaded kernarg dwords (code object v5, gfx940+): KERNARG_PRELOAD_SPEC_LENGTH dwords
  // from KERNARG_PRELOAD_SPEC_OFFSET (in dwords) of the kernarg segment.
  const auto* kernarg = static_cast<const uint8_t*>(l.kernarg);
  uint32_t preload_offset = d.kernarg_preload >> 7;
  for (uint32_t i = 0; i < d.kernarg_preload_length() && sgpr < kMaxAddressableSgprs; ++i) {
    std::memcpy(&w->s[sgpr++], kernarg + 4 * (preload_offset + i), 4);
  }
  sgpr = std::max(sgpr, p.first_system_sgpr);
  for (int axis = 0; axis < 3; ++axis) {
    if (d.workgroup_id(axis)) w->s[sgpr++] = l.workgroup_id[axis];
  }
  if (d.workgroup_info()) w->s[sgpr++] = 0;
  if (d.private_segment_wave_offset()) w->s[sgpr++] = 0;

  uint32_t items = extent[0] * extent[1] * extent[2];
  uint32_t* v0 = w->v(0);
  uint64_t exec = 0;
  uint32_t dims = d.workitem_id_dims();
  for (uint32_t lane = 0; lane < kLanes; ++lane) {
    uint32_t flat = index * kLanes + lane;
    if (flat >= items) continue;
    exec |= uint64_t{1} << lane;
    uint32_t x = flat % extent[0], y = flat / extent[0] % extent[1], z = flat / (extent[0] * extent[1]);
    v0[lane] = x | (dims >= 1 ? y << 10 : 0) | (dims >= 2 ? z << 20 : 0);
  }
  w->SetSgpr64(kExecLo, exec);
}

// Runs `w` until it ends, fails, yields at a wait or has run `budget` instructions.
void RunWave(Wave& w, uint32_t budget) {
  const std::vector<Instruction>& code = w.context->program->instructions;
  w.yielded = false;
  for (; budget > 0 && !w.stopped() && !w.yielded; --budget) {
    if (w.pc >= code.size()) {
      const Instruction& last = code.back();
      w.Fail(last, "execution ran past the end of the kernel's code (no s_endpgm)");
      return;
    }
    const Instruction& inst = code[w.pc++];
    ++w.context->counts.instructions[static_cast<int>(inst.op_class)];
    if (inst.op_class == OpClass::kMfma) ++w.context->counts.mfma_by_op[inst.mfma_op];
    if (w.gpr_idx_on && inst.valu) {
      RunIndexed(w, inst);
    } else {
      inst.handler(w, inst);
    }
  }
}

}  // namespace

void Wave::Fail(const Instruction& inst, const std::string& why) {
  if (context->failure.kind != Failure::Kind::kNone) return;
  context->failure.kind = Failure::Kind::kError;
  context->failure.message = StrCat("kernel ", context->program->kernel.name, ": ", inst.mnemonic, " at offset ",
                                    Hex(inst.offset), " (", inst.text, "), wave ", wave_in_group, ": ", why);
}

void Wave::Fault(const Instruction& inst, uint64_t address, const std::string& why) {
  if (context->failure.kind != Failure::Kind::kNone) return;
  context->failure.kind = Failure::Kind::kMemoryFault;
  context->failure.address = address;
  context->failure.message = StrCat("kernel ", context->program->kernel.name, ": ", inst.mnemonic, " at offset ",
                                    Hex(inst.offset), " (", inst.text, "), wave ", wave_in_group, ": ", why);
}

Failure RunWorkgroup(const WorkgroupLaunch& launch) {
  WorkgroupContext context;
  context.program = launch.program;
  context.memory = launch.memory;
  context.group_segment = static_cast<uint8_t*>(launch.group_segment);
  context.group_segment_size = launch.group_segment_size;
  std::copy(std::begin(launch.workgroup_id), std::end(launch.workgroup_id), context.workgroup_id);
  context.float_atomics = launch.float_atomics;
  if (launch.global_writes) {
    context.global_writes = launch.global_writes;
    context.lds_races = &ThreadLdsShadow();
    context.lds_races->BeginWorkgroup(launch.group_segment_size);
  }
  context.readable.push_back({reinterpret_cast<uintptr_t>(launch.dispatch_packet), 64});
  if (launch.queue) context.readable.push_back({reinterpret_cast<uintptr_t>(launch.queue), launch.queue_size});
  // The code object's sections (constants reached through s_getpc_b64).
  if (const auto& image = launch.program->kernel.loaded_image; image && !image->empty()) {
    context.readable.push_back({reinterpret_cast<uintptr_t>(image->data()), image->size()});
  }
  if (launch.program->instructions.empty()) {
    context.failure.kind = Failure::Kind::kError;
    context.failure.message = StrCat("kernel ", launch.program->kernel.name, " has no code");
    return context.failure;
  }
  uint32_t extent[3];
  for (int axis = 0; axis < 3; ++axis) extent[axis] = Extent(launch, axis);
  uint32_t items = extent[0] * extent[1] * extent[2];
  uint32_t count = (items + kLanes - 1) / kLanes;
  std::vector<std::unique_ptr<Wave>>& waves = ThreadWaves();
  while (waves.size() < count) waves.push_back(std::make_unique<Wave>());
  for (uint32_t i = 0; i < count; ++i) {
    waves[i]->context = &context;
    InitializeWave(launch, i, extent, waves[i].get());
  }
  // Every live wave waits in s_barrier: release them all.
  auto release_barrier = [&] {
    for (uint32_t i = 0; i < count; ++i) waves[i]->at_barrier = false;
    ++context.barriers;
    if (context.lds_races) {
      context.lds_races->Barrier();
      // LDS writes a wave had not waited for when it reached the barrier are not ordered by it.
      for (uint32_t i = 0; i < count; ++i) {
        for (const UnretiredLdsWrite& u : waves[i]->unretired_lds_writes) {
          LdsAccess late{u.instruction, static_cast<uint16_t>(i), u.lane, u.atomic, /*unwaited=*/true};
          context.lds_races->LateWrite(u.address, u.size, late);
        }
      }
    }
  };
  if (!launch.interleave) {
    // Round robin over the waves that can run, each until it yields.
    while (context.failure.kind == Failure::Kind::kNone) {
      bool live = false, ran = false;
      for (uint32_t i = 0; i < count && context.failure.kind == Failure::Kind::kNone; ++i) {
        Wave& w = *waves[i];
        if (w.ended) continue;
        live = true;
        if (w.at_barrier) continue;
        RunWave(w, UINT32_MAX);
        ran = true;
      }
      if (!live) break;
      if (!ran) release_barrier();
    }
  } else {
    // A random runnable wave for a random quantum, until it yields or the quantum ends.
    Interleaver interleaver(launch.interleave_seed, launch.dispatch_id, launch.workgroup_id);
    std::vector<uint32_t> runnable;
    runnable.reserve(count);
    while (context.failure.kind == Failure::Kind::kNone) {
      bool live = false;
      runnable.clear();
      for (uint32_t i = 0; i < count; ++i) {
        if (waves[i]->ended) continue;
        live = true;
        if (!waves[i]->at_barrier) runnable.push_back(i);
      }
      if (!live) break;
      if (runnable.empty()) {
        release_barrier();
        continue;
      }
      Wave& w = *waves[runnable[interleaver.Pick(static_cast<uint32_t>(runnable.size()))]];
      RunWave(w, interleaver.NextQuantum());
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    RetireAll(*waves[i]);
    waves[i]->context = nullptr;
  }
  context.counts.workgroups = 1;
  context.counts.waves = count;
  if (launch.counts) launch.counts->Add(context.counts);
  return context.failure;
}

Status CheckKernargs(const Program& program, const AllocationTable& memory, const void* kernarg) {
  const KernelCode& k = program.kernel;
  auto lock = memory.LockShared();
  for (size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& arg = k.args[i];
    auto name = [&] {
      return StrCat("argument ", i, arg.name.empty() ? "" : " '", arg.name, arg.name.empty() ? "" : "'", " (",
                    arg.value_kind, ", ", arg.size, " bytes at offset ", arg.offset, ")");
    };
    const auto* bytes = static_cast<const uint8_t*>(kernarg) + arg.offset;
    if (!memory.FindLocked(reinterpret_cast<uintptr_t>(bytes), arg.size)) {
      return InvalidArgumentError("kernel ", k.name, ": ", name(), " lies outside the kernarg block the driver wrote: ",
                                  memory.DescribeLocked(reinterpret_cast<uintptr_t>(bytes), arg.size));
    }
    if (arg.value_kind.rfind("hidden_", 0) == 0) {
      return InvalidArgumentError("kernel ", k.name, ": ", name(),
                                  " is a hidden argument, which a language runtime fills; the kernarg block the "
                                  "driver wrote has no such argument");
    }
    if (arg.value_kind == "global_buffer") {
      if (arg.size != 8) return InvalidArgumentError("kernel ", k.name, ": ", name(), " is not a 64-bit pointer");
      uint64_t pointer;
      std::memcpy(&pointer, bytes, 8);
      if (pointer != 0 && !memory.FindLocked(pointer, 1)) {
        return InvalidArgumentError("kernel ", k.name, ": ", name(), " holds ", Hex(pointer),
                                    ", which is not in any allocation: ", memory.DescribeLocked(pointer, 1));
      }
    }
  }
  return OkStatus();
}

}  // namespace kiln::hsa_sim::isa
