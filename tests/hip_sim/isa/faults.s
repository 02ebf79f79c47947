// Kernels that must fail, for isa_executor_test.cc:
//   unimplemented(out): executes v_sin_f32, which the executor does not implement (yet)
//   store_oob(out):     stores 1 MiB past `out`, outside every allocation
//   uses_dpp(out):      a DPP move with row_newbcast (64-bit DP ALU DPP), a control the
//                       executor does not model (dpp.cc models the 32-bit gfx9 controls)
//   indexed_oob(out):   VGPR indexing moves a source past the kernel's VGPR allocation
//   smem_order(out):    waits lgkmcnt(1) after two scalar loads and uses the older one, as if
//                       scalar loads returned in order (they need not: only lgkmcnt(0) orders)
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

.globl unimplemented
.p2align 8
.type unimplemented,@function
unimplemented:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_mov_b32_e32 v1, 1.0
  v_sin_f32_e32 v1, v1
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v0, 0
  global_store_dword v0, v1, s[2:3]
  s_endpgm
.Lunimplemented_end:
.size unimplemented, .Lunimplemented_end-unimplemented

.globl store_oob
.p2align 8
.type store_oob,@function
store_oob:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_add_u32 s2, s2, 0x100000
  s_addc_u32 s3, s3, 0
  v_mov_b32_e32 v0, 0
  v_mov_b32_e32 v1, 42
  global_store_dword v0, v1, s[2:3]
  s_endpgm
.Lstore_oob_end:
.size store_oob, .Lstore_oob_end-store_oob

.globl uses_dpp
.p2align 8
.type uses_dpp,@function
uses_dpp:
  v_mov_b64_dpp v[2:3], v[0:1] row_newbcast:1 row_mask:0xf bank_mask:0xf
  s_endpgm
.Luses_dpp_end:
.size uses_dpp, .Luses_dpp_end-uses_dpp

.globl smem_order
.p2align 8
.type smem_order,@function
smem_order:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dword s4, s[0:1], 0x0
  s_waitcnt lgkmcnt(1)                   // BUG: the first load may still be outstanding
  v_mov_b32_e32 v0, 0
  v_mov_b32_e32 v1, s4
  global_store_dword v0, v1, s[2:3]
  s_endpgm
.Lsmem_order_end:
.size smem_order, .Lsmem_order_end-smem_order

.globl indexed_oob
.p2align 8
.type indexed_oob,@function
indexed_oob:
  s_mov_b32 s4, 200
  s_set_gpr_idx_on s4, gpr_idx(SRC0)
  v_mov_b32_e32 v1, v0
  s_set_gpr_idx_off
  s_endpgm
.Lindexed_oob_end:
.size indexed_oob, .Lindexed_oob_end-indexed_oob

.rodata
.macro FAULT_DESCRIPTOR name
.p2align 6
.amdhsa_kernel \name
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 5
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.endm
FAULT_DESCRIPTOR unimplemented
FAULT_DESCRIPTOR store_oob
FAULT_DESCRIPTOR uses_dpp
FAULT_DESCRIPTOR smem_order
FAULT_DESCRIPTOR indexed_oob

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: unimplemented
    .symbol: unimplemented.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: store_oob
    .symbol: store_oob.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: uses_dpp
    .symbol: uses_dpp.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: smem_order
    .symbol: smem_order.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 5
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: indexed_oob
    .symbol: indexed_oob.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
