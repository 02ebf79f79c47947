// Checks of the f16, SDWA, packed-math, VGPR-indexing, global-atomic and cache-operation groups
// for isa_executor_test.cc (SubDwordPackedIndexedAndAtomicGroups): `subdword(out)` runs one
// wave; row r of results goes to out[64 * r + lane] (STOREV/STORES, store_macros.inc); the test
// lists each row's hand-computed value.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.include "store_macros.inc"

.macro CVT_F16 bits, row
  v_mov_b32_e32 v1, \bits
  v_cvt_f16_f32_e32 v2, v1
  STOREV v2, \row
.endm
.macro F16_OP op, a, b, row
  v_mov_b32_e32 v1, \a
  v_mov_b32_e32 v2, \b
  \op v3, v1, v2
  STOREV v3, \row
.endm

.globl subdword
.p2align 8
.type subdword,@function
subdword:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v20, 2, v0                 // lane * 4
  s_waitcnt lgkmcnt(0)
  s_add_u32 s14, s2, 0x1000
  s_addc_u32 s15, s3, 0
  // f16 conversions: ties to even, denormals, overflow, NaN.
  CVT_F16 0x3f801000, 0                        // 1 + 2^-11: tie, to 1.0
  CVT_F16 0x3f803000, 1                        // 1 + 3 * 2^-11: tie, to 1 + 2^-9
  CVT_F16 0x35800000, 2                        // 2^-20: denormal 16 * 2^-24
  CVT_F16 0x477ff000, 3                        // 65520: rounds to infinity
  CVT_F16 0xffc00001, 4                        // -NaN
  v_mov_b32_e32 v1, 1                          // the smallest f16 denormal
  v_cvt_f32_f16_e32 v2, v1
  STOREV v2, 5
  v_mov_b32_e32 v1, 0xc5003c00                 // high half -5.0
  v_cvt_f32_f16_sdwa v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
  STOREV v2, 6
  F16_OP v_add_f16_e32, 0x6c00, 0x4001, 7      // 4096 + 2.001953125: above the tie, 4100
  F16_OP v_add_f16_e32, 0x6c00, 0x4000, 8      // 4096 + 2: tie, to 4096
  // SDWA: a preserved destination, a sign-extended byte, a byte select, a compare.
  v_mov_b32_e32 v1, 0x42000000                 // high half 3.0
  v_mov_b32_e32 v2, 0xc000                     // low half -2.0
  v_mov_b32_e32 v3, 0x12345678
  v_mul_f16_sdwa v3, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
  STOREV v3, 9
  v_mov_b32_e32 v1, 0xff
  v_mov_b32_e32 v2, 0xffff
  v_add_u32_sdwa v3, sext(v1), v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_1
  STOREV v3, 10
  v_mov_b32_e32 v1, 0xab0000
  v_mov_b32_e32 v2, 0x100
  v_or_b32_sdwa v3, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:DWORD
  STOREV v3, 11
  v_add_u32_e32 v1, 0x70, v0                   // bytes 0x70.. : negative from lane 16 on
  v_mov_b32_e32 v2, 0
  s_mov_b64 exec, 0xffffffff                   // lanes 0..31
  v_cmp_lt_i16_sdwa vcc, sext(v1), v2 src0_sel:BYTE_0 src1_sel:DWORD
  s_mov_b64 exec, -1
  v_cndmask_b32_e64 v3, 0, 1, vcc
  STOREV v3, 12
  // Packed f32: x = (2, 3), y = (5, 7), z = (1, 1).
  v_mov_b32_e32 v4, 2.0
  v_mov_b32_e32 v5, 0x40400000
  v_mov_b32_e32 v6, 0x40a00000
  v_mov_b32_e32 v7, 0x40e00000
  v_mov_b32_e32 v8, 1.0
  v_mov_b32_e32 v9, 1.0
  v_pk_mul_f32 v[10:11], v[4:5], v[6:7] op_sel_hi:[0,1]
  STOREV v10, 13
  STOREV v11, 14
  v_pk_add_f32 v[10:11], v[4:5], v[6:7] op_sel:[1,0] neg_hi:[0,1]
  STOREV v10, 15
  STOREV v11, 16
  v_pk_fma_f32 v[10:11], v[4:5], v[6:7], v[8:9]
  STOREV v10, 17
  STOREV v11, 18
  v_mov_b32_e32 v1, 0x44003c00                 // (1.0, 4.0)
  v_mov_b32_e32 v2, 0x4200c000                 // (-2.0, 3.0)
  v_pk_mul_f16 v3, v1, v2
  STOREV v3, 19
  v_pack_b32_f16 v3, v1, -v2 op_sel:[1,0]
  STOREV v3, 20
  // VGPR indexing: SRC0 and DST, and what M0 holds.
  v_mov_b32_e32 v30, 30
  v_mov_b32_e32 v31, 31
  v_mov_b32_e32 v32, 32
  v_mov_b32_e32 v33, 33
  s_mov_b32 m0, 0
  s_mov_b32 s5, 0x103                          // index 3 (bits 7:0 only)
  s_set_gpr_idx_on s5, gpr_idx(SRC0)
  v_mov_b32_e32 v3, v30                        // reads v33
  s_set_gpr_idx_off
  STOREV v3, 21
  STORES m0, 22
  s_set_gpr_idx_on s5, gpr_idx(DST)
  v_mov_b32_e32 v30, 77                        // writes v33
  s_set_gpr_idx_off
  STOREV v33, 23
  STOREV v30, 24
  // Atomics: an add with return by lanes 0..31 on out[64 * 25], in lane order.
  STOREV v0, 25
  v_mov_b32_e32 v1, 1
  v_mov_b32_e32 v3, 0xdead
  v_mov_b32_e32 v2, 0
  s_waitcnt vmcnt(0)
  s_mov_b64 exec, 0xffffffff
  global_atomic_add v3, v2, v1, s[14:15] offset:256*9 sc0
  s_mov_b64 exec, -1
  s_waitcnt vmcnt(0)
  STOREV v3, 26
  v_mov_b32_e32 v1, -5
  STOREV v1, 27
  v_subrev_u32_e32 v1, 40, v0                  // lane - 40
  v_mov_b32_e32 v2, 4
  s_waitcnt vmcnt(0)
  global_atomic_smax v2, v1, s[14:15] offset:256*11
  v_mov_b32_e32 v1, 1.5
  STOREV v1, 28
  v_mov_b32_e32 v1, 0.25
  v_mov_b32_e32 v2, 8
  s_waitcnt vmcnt(0)
  global_atomic_add_f32 v2, v1, s[14:15] offset:256*12
  v_mov_b32_e32 v1, 1                          // the smallest f32 denormal
  STOREV v1, 29
  v_mov_b32_e32 v2, 0
  s_waitcnt vmcnt(0)
  s_mov_b64 exec, 1
  global_atomic_add_f32 v2, v1, s[14:15] offset:256*13
  s_mov_b64 exec, -1
  buffer_wbl2 sc1
  buffer_inv sc1
  s_waitcnt vmcnt(0)
  // f16 compares: unordered with a NaN, and greater.
  v_mov_b32_e32 v1, 0x7e00
  v_mov_b32_e32 v2, 0x3c00
  v_cmp_o_f16_e32 vcc, v1, v2
  v_cndmask_b32_e64 v3, 0, 1, vcc
  STOREV v3, 30
  v_mov_b32_e32 v1, 0x4200
  v_mov_b32_e32 v2, 0xc000
  v_cmp_gt_f16_e64 s[6:7], v1, v2
  v_cndmask_b32_e64 v3, 0, 1, s[6:7]
  STOREV v3, 31
  s_endpgm
.Lsubdword_end:
.size subdword, .Lsubdword_end-subdword

.rodata
.p2align 6
.amdhsa_kernel subdword
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_next_free_vgpr 40
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 40
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: subdword
    .symbol: subdword.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 40
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
