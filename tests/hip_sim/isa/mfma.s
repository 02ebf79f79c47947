// MFMA checks for isa_mfma_test.cc: `mfma(in, out)` runs one wave. Lane l loads 48 bytes from
// in + 48 * l, its operands as the test packed them by the ISA's layout: dwords 0-1 A and 2-3
// B of f16, dword 4 A and 5 B of f32, dwords 8-9 A and 10-11 B of i8. out gets result
// register r of each instruction in out[64 * (first row + r) + lane]:
//   rows  0..15: v_mfma_f32_32x32x8_f16 onto C = 0.5 (written with v_accvgpr_write_b32 into
//                a[0:15], read back with v_accvgpr_read_b32)
//   rows 16..31: v_mfma_f32_32x32x2_f32, C = 0 (an inline constant), D in VGPRs
//   rows 32..47: v_mfma_i32_32x32x16_i8 twice, the second onto the first's result (C = D)
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

.macro STORE16 first, row
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    global_store_dword v1, v[\first+\r], s[6:7] offset:256*(\r)
  .endr
  s_add_u32 s6, s6, 0x1000
  s_addc_u32 s7, s7, 0
.endm

.globl mfma
.p2align 8
.type mfma,@function
mfma:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_mul_lo_u32 v1, v0, 48                 // lane * 48
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[2:5], v1, s[4:5]
  global_load_dwordx4 v[6:9], v1, s[4:5] offset:16
  global_load_dwordx4 v[26:29], v1, s[4:5] offset:32
  v_lshlrev_b32_e32 v1, 2, v0            // lane * 4, for the stores
  v_mov_b32_e32 v6, 0.5
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    v_accvgpr_write_b32 a\r, v6
  .endr
  s_waitcnt vmcnt(0)
  v_mfma_f32_32x32x8_f16 a[0:15], v[2:3], v[4:5], a[0:15]
  v_mfma_f32_32x32x2_f32 v[10:25], v6, v7, 0
  v_mfma_i32_32x32x16_i8 v[60:75], v[26:27], v[28:29], 0
  s_nop 7
  s_nop 7
  v_mfma_i32_32x32x16_i8 v[60:75], v[26:27], v[28:29], v[60:75]
  s_nop 7
  s_nop 7
  s_nop 2
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    v_accvgpr_read_b32 v[40+\r], a\r
  .endr
  STORE16 40, 0
  STORE16 10, 16
  STORE16 60, 32
  s_endpgm
.Lmfma_end:
.size mfma, .Lmfma_end-mfma

.rodata
.p2align 6
.amdhsa_kernel mfma
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 16
  .amdhsa_next_free_vgpr 96
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 80
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: mfma
    .symbol: mfma.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 96
    .agpr_count: 16
    .max_flat_workgroup_size: 64
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
