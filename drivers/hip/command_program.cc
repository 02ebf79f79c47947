#include "drivers/hip/command_program.h"

#include <algorithm>
#include <cstring>

#include "hal/abi/gpu_kernel_abi.h"

namespace kiln::hip {
namespace {

// Fills larger than this copy the same staged pattern repeatedly.
constexpr size_t kMaxFillStagingBytes = size_t{1} << 20;

uint32_t AlignUp(uint32_t value, uint32_t alignment) { return (value + alignment - 1) / alignment * alignment; }

uint64_t Workgroups(const hal::DispatchCommand& d) {
  return uint64_t{d.workgroup_count[0]} * d.workgroup_count[1] * d.workgroup_count[2];
}

}  // namespace

std::optional<IndexCheckHit> Program::FirstIndexCheck() const {
  for (const Step& step : steps_) {
    const auto* d = std::get_if<DispatchStep>(&step.op);
    if (!d || !d->index_checks) continue;
    for (uint64_t id = 0, n = Workgroups(*d->command); id < n; ++id) {
      // Written by the GPU; read once the dispatch retired (its completion acquired them).
      if (d->index_checks[id].site != 0) return IndexCheckHit{d->command, id, d->index_checks[id]};
    }
  }
  return std::nullopt;
}

StatusOr<Ref<Program>> Program::Build(const hal::CommandBuffer& cb, HostArena& arena) {
  Ref<Program> program(new Program());
  auto use = [&](hal::Buffer* buffer) {
    hal::BufferStorage* storage = buffer->storage();
    if (std::find(program->storages_.begin(), program->storages_.end(), storage) == program->storages_.end()) {
      program->storages_.push_back(storage);
    }
  };
  auto host_staging = [&](size_t size) -> StatusOr<uint8_t*> {
    KILN_ASSIGN_OR_RETURN(HostBlock block, arena.Allocate(size));
    uint8_t* address = block.data();
    program->staging_.push_back(std::move(block));
    return address;
  };

  // One kernarg block for every dispatch, each entry aligned for the ABI.
  uint32_t kernarg_bytes = 0;
  for (const hal::Command& command : cb.commands()) {
    if (const auto* d = std::get_if<hal::DispatchCommand>(&command)) {
      const hal::ExportInfo& info = d->executable->exports()[d->export_ordinal];
      kernarg_bytes += AlignUp(kiln_gpu_kernarg_size(info.binding_count, info.constant_count, !info.index_check_sites.empty()),
                               KILN_GPU_KERNARG_ALIGNMENT);
    }
  }
  uint8_t* kernargs = nullptr;
  if (kernarg_bytes > 0) {
    KILN_ASSIGN_OR_RETURN(program->kernargs_, arena.Allocate(kernarg_bytes));
    kernargs = program->kernargs_.data();
  }

  program->steps_.reserve(cb.commands().size());  // fills of more than a staging block add more
  bool barrier = false;
  for (size_t i = 0; i < cb.commands().size(); ++i) {
    const hal::Command& command = cb.commands()[i];
    if (std::holds_alternative<hal::BarrierCommand>(command)) {
      barrier = true;
      continue;
    }
    // A command that does nothing (zero workgroups or bytes) is skipped and leaves a barrier
    // before it for the next command that does something.
    Step step{barrier, CopyStep{}};
    if (const auto* d = std::get_if<hal::DispatchCommand>(&command)) {
      if (d->workgroup_count[0] == 0 || d->workgroup_count[1] == 0 || d->workgroup_count[2] == 0) continue;
      const auto& exe = static_cast<const HipExecutable&>(*d->executable);
      const hal::ExportInfo& info = exe.exports()[d->export_ordinal];
      const KernelInfo& kernel = exe.kernel(d->export_ordinal);
      DispatchStep dispatch{};
      dispatch.command = d;
      hsa_kernel_dispatch_packet_t& p = dispatch.packet;
      uint32_t grid[3];
      for (int k = 0; k < 3; ++k) {
        uint64_t items = uint64_t{d->workgroup_count[k]} * info.workgroup_size[k];
        if (items > UINT32_MAX) {
          return InvalidArgumentError("command ", i, " dispatches ", d->workgroup_count[k], " workgroups of ",
                                      info.workgroup_size[k], " work-items in dimension ", k,
                                      "; an AQL grid holds at most 2^32-1 work-items per dimension");
        }
        grid[k] = static_cast<uint32_t>(items);
      }
      dispatch.setup = static_cast<uint16_t>((grid[2] > 1 || info.workgroup_size[2] > 1)   ? 3
                                             : (grid[1] > 1 || info.workgroup_size[1] > 1) ? 2
                                                                                           : 1)
                       << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
      p.workgroup_size_x = static_cast<uint16_t>(info.workgroup_size[0]);
      p.workgroup_size_y = static_cast<uint16_t>(info.workgroup_size[1]);
      p.workgroup_size_z = static_cast<uint16_t>(info.workgroup_size[2]);
      p.grid_size_x = grid[0];
      p.grid_size_y = grid[1];
      p.grid_size_z = grid[2];
      p.private_segment_size = kernel.private_segment_size;
      p.group_segment_size = std::max(kernel.group_segment_size, info.local_memory_bytes);
      p.kernel_object = kernel.kernel_object;
      p.kernarg_address = kernargs;
      // Arguments as gpu_kernel_abi.h lays them out.
      for (uint32_t b = 0; b < info.binding_count; ++b) {
        const hal::BufferBinding& binding = d->bindings[b];
        use(binding.buffer.get());
        uint64_t address = reinterpret_cast<uint64_t>(binding.buffer->storage()->device_address()) +
                           binding.buffer->byte_offset() + binding.offset;
        std::memcpy(kernargs + 8 * b, &address, 8);
      }
      if (!d->constants.empty()) {  // an empty vector's data() may be null, which memcpy must not get
        std::memcpy(kernargs + kiln_gpu_kernarg_constants_offset(info.binding_count), d->constants.data(),
                    4 * d->constants.size());
      }
      std::memcpy(kernargs + kiln_gpu_kernarg_workgroup_count_offset(info.binding_count, info.constant_count),
                  d->workgroup_count.data(), 12);
      if (!info.index_check_sites.empty()) {
        size_t bytes = Workgroups(*d) * sizeof(kiln_index_check_record_v2_t);
        KILN_ASSIGN_OR_RETURN(HostBlock records, arena.Allocate(bytes), "for the index check records of command ", i,
                              " (", Workgroups(*d), " workgroups)");
        std::memset(records.data(), 0, bytes);
        dispatch.index_checks = reinterpret_cast<const kiln_index_check_record_v2_t*>(records.data());
        uint64_t address = reinterpret_cast<uint64_t>(records.data());
        std::memcpy(kernargs + kiln_gpu_kernarg_index_checks_offset(info.binding_count, info.constant_count), &address, 8);
        program->index_checks_.push_back(std::move(records));
      }
      kernargs += AlignUp(kernel.kernarg_size, KILN_GPU_KERNARG_ALIGNMENT);
      step.op = dispatch;
    } else if (const auto* c = std::get_if<hal::CopyCommand>(&command)) {
      if (c->source.length == 0) continue;
      use(c->source.buffer.get());
      use(c->target.buffer.get());
      step.op = CopyStep{c->source.buffer.get(), c->source.offset, nullptr, c->target.buffer.get(), c->target.offset,
                         c->source.length};
    } else if (const auto* u = std::get_if<hal::UpdateCommand>(&command)) {
      if (u->data.empty()) continue;
      use(u->target.buffer.get());
      KILN_ASSIGN_OR_RETURN(uint8_t* staging, host_staging(u->data.size()));
      std::memcpy(staging, u->data.data(), u->data.size());
      step.op = CopyStep{nullptr, 0, staging, u->target.buffer.get(), u->target.offset, u->data.size()};
    } else if (const auto* f = std::get_if<hal::FillCommand>(&command)) {
      if (f->target.length == 0) continue;
      use(f->target.buffer.get());
      // The staged block is a whole number of patterns, so every chunk starts in phase.
      size_t block = std::min(f->target.length, kMaxFillStagingBytes / 8 * 8);
      KILN_ASSIGN_OR_RETURN(uint8_t* staging, host_staging(block));
      for (size_t at = 0; at < block; at += f->pattern_length) std::memcpy(staging + at, &f->pattern, f->pattern_length);
      for (size_t at = 0; at < f->target.length; at += block) {
        size_t length = std::min(block, f->target.length - at);
        program->steps_.push_back(
            {at == 0 && step.barrier_before, CopyStep{nullptr, 0, staging, f->target.buffer.get(), f->target.offset + at, length}});
      }
      barrier = false;
      continue;
    }
    program->steps_.push_back(std::move(step));
    barrier = false;
  }
  return program;
}

Status Program::CheckCommitted() const {
  for (hal::BufferStorage* storage : storages_) {
    if (!storage->device_address()) {
      return FailedPreconditionError("a command uses a transient buffer that is not allocated (its queue_dealloca has completed)");
    }
  }
  return OkStatus();
}

}  // namespace kiln::hip
