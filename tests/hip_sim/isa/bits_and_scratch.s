// Checks of the bitfield, bit-count, class, 24/16-bit and mixed-precision multiply-add additions
// of private memory (scratch_*), s_getpc_b64 to a constant, flat loads and v_dot4c_i32_i8 for isa_executor_test.cc (BitfieldsClassesAndPrivateMemory): `bits(out)`
// runs one wave; row r of results goes to out[64 * r + lane] (STOREV/STORES,
// store_macros.inc); the test lists each row's hand-computed value.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.include "store_macros.inc"

.macro VOP3_ROW op, a, b, c, row
  v_mov_b32_e32 v1, \a
  v_mov_b32_e32 v2, \b
  v_mov_b32_e32 v3, \c
  \op v4, v1, v2, v3
  STOREV v4, \row
.endm
.macro VOP1_ROW op, a, row
  v_mov_b32_e32 v1, \a
  \op v4, v1
  STOREV v4, \row
.endm
.macro CLASS_ROW value, mask, row
  v_mov_b32_e32 v1, \value
  v_mov_b32_e32 v2, \mask
  v_cmp_class_f32_e32 vcc, v1, v2
  v_cndmask_b32_e64 v4, 0, 1, vcc
  STOREV v4, \row
.endm

.globl bits
.p2align 8
.type bits,@function
bits:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v20, 2, v0                 // lane * 4
  s_waitcnt lgkmcnt(0)
  VOP3_ROW v_bfe_i32, 0xf0, 4, 4, 0            // field 0xf, sign-extended
  VOP3_ROW v_bfe_i32, 0x70, 4, 4, 1            // field 7
  s_mov_b32 s4, 0xf00
  s_bfe_i32 s5, s4, 0x40008                    // width 4 at 8: 0xf
  STORES s5, 2
  s_brev_b32 s5, 1
  STORES s5, 3
  s_sext_i32_i16 s5, 0x8001
  STORES s5, 4
  VOP3_ROW v_alignbit_b32, 0x12345678, 0x9abcdef0, 8, 5
  VOP1_ROW v_ffbh_i32_e32, 1, 6
  VOP1_ROW v_ffbh_i32_e32, -1, 7
  VOP1_ROW v_ffbh_i32_e32, 0xbfffffff, 8       // sign 1, then a 0 at bit 30
  v_mov_b32_e32 v1, 0xff000003                 // low 24 bits: 3
  v_mov_b32_e32 v3, 5
  v_mad_u32_u24 v4, v1, v0, v3                 // 3 * lane + 5
  STOREV v4, 9
  CLASS_ROW 1, 0x80, 10                        // the smallest denormal is +denormal
  CLASS_ROW 0x80000000, 0x20, 11               // -0 is -0
  CLASS_ROW 0x80000000, 0x40, 12               // ... and not +0
  VOP3_ROW v_mad_legacy_u16, 0xffff, 2, 3, 13  // 16 bits of 0x1ffff
  // Private memory: each lane its own; lanes 0..31 overwrite, VADDR + OFFSET reads back.
  scratch_store_dword off, v0, off offset:8
  v_mov_b32_e32 v1, 100
  s_mov_b64 exec, 0xffffffff
  scratch_store_dword off, v1, off offset:8
  s_mov_b64 exec, -1
  v_mov_b32_e32 v2, 4
  scratch_load_dword v4, v2, off offset:4
  s_waitcnt vmcnt(0)
  STOREV v4, 14
  v_mov_b32_e32 v6, 0x11
  v_add_u32_e32 v7, 0x22, v0
  s_mov_b32 s6, 16
  scratch_store_dwordx2 off, v[6:7], s6
  scratch_load_dwordx2 v[8:9], off, s6
  s_waitcnt vmcnt(0)
  STOREV v9, 15
  s_add_u32 s14, s2, 0x1000
  s_addc_u32 s15, s3, 0
  v_mov_b32_e32 v1, 0x3e00                     // f16 1.5 in the low half
  v_mov_b32_e32 v2, 0x40400000                 // f32 3.0
  v_mov_b32_e32 v3, 0.25
  v_mov_b32_e32 v4, 0x12340000
  v_fma_mixlo_f16 v4, v1, v2, v3 op_sel_hi:[1,0,0]
  STOREV v4, 16
  // A constant of the code object, through s_getpc_b64 (PC-relative) and then a scalar and a flat load.
  s_getpc_b64 s[8:9]
  s_add_u32 s8, s8, konst@rel32@lo+4
  s_addc_u32 s9, s9, konst@rel32@hi+12
  s_load_dword s10, s[8:9], 0x0
  v_mov_b64_e32 v[10:11], s[8:9]
  flat_load_dword v12, v[10:11]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  STORES s10, 17
  STOREV v12, 18
  v_mov_b32_e32 v1, 0x0102ff80                 // bytes -128, -1, 2, 1
  v_mov_b32_e32 v2, 0x03040502                 // bytes 2, 5, 4, 3
  v_mov_b32_e32 v4, 10
  v_dot4c_i32_i8_e32 v4, v1, v2                // 10 - 256 - 5 + 8 + 3
  STOREV v4, 19
  s_endpgm
.Lbits_end:
.size bits, .Lbits_end-bits

.section .rodata.konst,"a"
.p2align 2
konst:
  .long 0xc0ffee01

.rodata
.p2align 6
.amdhsa_kernel bits
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_enable_private_segment 1
  .amdhsa_private_segment_fixed_size 32
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 24
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 24
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: bits
    .symbol: bits.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 32
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 24
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
