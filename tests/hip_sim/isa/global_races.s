// Global writes for the race detector, for isa_scheduling_test.cc (t is the work-item id in
// its workgroup, P(t) = (t + 64) % 128):
//   global_overlap(out):          out[t] = t, then out[P(t)] = t: with 128-work-item
//                                 workgroups wave 1's first store writes what wave 0's second
//                                 wrote, with no barrier between (a race)
//   global_overlap_barrier(out):  the same with s_waitcnt vmcnt(0) and s_barrier between the two
//                                 stores: ordered, out[i] = P(i)
//   global_per_workgroup(out):    out[t] = t: one workgroup is fine, two write the same bytes
//   global_atomic_overlap(out):   global_atomic_add out[t % 64] += 1 from every work-item: no
//                                 race, out[i] = work-items / 64
//   global_one_address(out):      every lane of one store writes out[0]
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

// s[2:3] = out (loaded), v1 = t * 4, v3 = P(t) * 4.
.macro GLOBAL_PROLOGUE
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  v_add_u32_e32 v3, 64, v0
  v_and_b32_e32 v3, 0x7f, v3
  v_lshlrev_b32_e32 v3, 2, v3
  s_waitcnt lgkmcnt(0)
.endm

.globl global_overlap
.p2align 8
.type global_overlap,@function
global_overlap:
  GLOBAL_PROLOGUE
  global_store_dword v1, v0, s[2:3]
  global_store_dword v3, v0, s[2:3]
  s_endpgm
.Lglobal_overlap_end:
.size global_overlap, .Lglobal_overlap_end-global_overlap

.globl global_overlap_barrier
.p2align 8
.type global_overlap_barrier,@function
global_overlap_barrier:
  GLOBAL_PROLOGUE
  global_store_dword v1, v0, s[2:3]
  s_waitcnt vmcnt(0)
  s_barrier
  global_store_dword v3, v0, s[2:3]
  s_endpgm
.Lglobal_overlap_barrier_end:
.size global_overlap_barrier, .Lglobal_overlap_barrier_end-global_overlap_barrier

.globl global_per_workgroup
.p2align 8
.type global_per_workgroup,@function
global_per_workgroup:
  GLOBAL_PROLOGUE
  global_store_dword v1, v0, s[2:3]
  s_endpgm
.Lglobal_per_workgroup_end:
.size global_per_workgroup, .Lglobal_per_workgroup_end-global_per_workgroup

.globl global_atomic_overlap
.p2align 8
.type global_atomic_overlap,@function
global_atomic_overlap:
  GLOBAL_PROLOGUE
  v_and_b32_e32 v4, 63, v0
  v_lshlrev_b32_e32 v4, 2, v4
  v_mov_b32_e32 v5, 1
  global_atomic_add v4, v5, s[2:3]
  s_endpgm
.Lglobal_atomic_overlap_end:
.size global_atomic_overlap, .Lglobal_atomic_overlap_end-global_atomic_overlap

.globl global_one_address
.p2align 8
.type global_one_address,@function
global_one_address:
  GLOBAL_PROLOGUE
  v_mov_b32_e32 v4, 0
  global_store_dword v4, v0, s[2:3]
  s_endpgm
.Lglobal_one_address_end:
.size global_one_address, .Lglobal_one_address_end-global_one_address

.rodata
.macro GLOBAL_RACE_DESCRIPTOR name
.p2align 6
.amdhsa_kernel \name
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_group_segment_fixed_size 0
  .amdhsa_next_free_vgpr 6
  .amdhsa_next_free_sgpr 4
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.endm
GLOBAL_RACE_DESCRIPTOR global_overlap
GLOBAL_RACE_DESCRIPTOR global_overlap_barrier
GLOBAL_RACE_DESCRIPTOR global_per_workgroup
GLOBAL_RACE_DESCRIPTOR global_atomic_overlap
GLOBAL_RACE_DESCRIPTOR global_one_address

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - { .name: global_overlap, .symbol: global_overlap.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: global_overlap_barrier, .symbol: global_overlap_barrier.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: global_per_workgroup, .symbol: global_per_workgroup.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: global_atomic_overlap, .symbol: global_atomic_overlap.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: global_one_address, .symbol: global_one_address.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
...
.end_amdgpu_metadata
