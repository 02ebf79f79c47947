// LDS checks for isa_executor_test.cc, in a 256-work-item workgroup with a 2048-byte group
// segment: `lds(out)` stores row r of results to out[256 * r + t]:
//   0: the reverse of LDS written by every work-item (ds_write_b32, s_barrier, ds_read_b32)
//   1, 2: ds_read2_b32 of LDS[t % 64] and LDS[t % 64 + 64]
//   3: ds_bpermute_b32 from lane (lane + 1) % 64 of the same wave
//   4: a counter every work-item incremented with ds_add_u32 (256)
// `lds_oob(out)` writes LDS past the group segment.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

.globl lds
.p2align 8
.type lds,@function
lds:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0            // t * 4
  v_add_u32_e32 v2, 0x3e8, v0            // t + 1000
  ds_write_b32 v1, v2
  v_mov_b32_e32 v9, 0
  v_mov_b32_e32 v10, 0x400               // the counter at byte 1024
  ds_write_b32 v10, v9
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_mov_b32_e32 v11, 1
  ds_add_u32 v10, v11
  v_sub_u32_e32 v3, 0xff, v0
  v_lshlrev_b32_e32 v3, 2, v3            // (255 - t) * 4
  ds_read_b32 v4, v3
  v_and_b32_e32 v7, 63, v0
  v_lshlrev_b32_e32 v7, 2, v7            // (t % 64) * 4
  ds_read2_b32 v[14:15], v7 offset1:64      // even-aligned pair (gfx90a+)
  v_add_u32_e32 v12, 4, v7
  v_and_b32_e32 v12, 0xff, v12           // ((lane + 1) % 64) * 4
  ds_bpermute_b32 v8, v12, v0
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v13, v10
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v4, s[2:3]
  global_store_dword v1, v14, s[2:3] offset:1024
  global_store_dword v1, v15, s[2:3] offset:2048
  global_store_dword v1, v8, s[2:3] offset:3072
  s_add_u32 s2, s2, 0x1000
  s_addc_u32 s3, s3, 0
  global_store_dword v1, v13, s[2:3]
  s_endpgm
.Llds_end:
.size lds, .Llds_end-lds

.globl lds_oob
.p2align 8
.type lds_oob,@function
lds_oob:
  v_mov_b32_e32 v1, 0x800                // byte 2048: just past the group segment
  ds_write_b32 v1, v0
  s_endpgm
.Llds_oob_end:
.size lds_oob, .Llds_oob_end-lds_oob

.rodata
.macro LDS_DESCRIPTOR name
.p2align 6
.amdhsa_kernel \name
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_group_segment_fixed_size 2048
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 4
  .amdhsa_accum_offset 16
.end_amdhsa_kernel
.endm
LDS_DESCRIPTOR lds
LDS_DESCRIPTOR lds_oob

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: lds
    .symbol: lds.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 16
    .max_flat_workgroup_size: 256
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
  - .name: lds_oob
    .symbol: lds_oob.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 16
    .max_flat_workgroup_size: 256
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
