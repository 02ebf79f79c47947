// Checks of the f64 group (valu_f64.cc, vopc.cc's f64 compares) and of v_bfi_b32,
// v_mul_legacy_f32, s_bitset0/1 and s_abs_i32 for isa_f64_test.cc: `f64_and_bits(out)` runs one wave;
// row r of results goes to out[64 * r + lane] (STOREV/STORES, store_macros.inc).
// v[2:3] is a double per lane: 1.0 (lanes 0-15), 64.0 (16-31), -2.0 (32-47), a quiet NaN
// (48-63); s[4:5] is 32.0. The rows hold the high dwords of f64 results.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.include "row_kernel.inc"

ROW_KERNEL_START f64_and_bits
  v_mov_b32_e32 v2, 0
  v_mov_b32_e32 v3, 0x3ff00000                 // 1.0
  v_mov_b32_e32 v4, 0x40500000                 // 64.0
  v_cmp_le_u32_e32 vcc, 16, v0
  v_cndmask_b32_e32 v3, v3, v4, vcc
  v_mov_b32_e32 v4, 0xc0000000                 // -2.0
  v_cmp_le_u32_e32 vcc, 32, v0
  v_cndmask_b32_e32 v3, v3, v4, vcc
  v_mov_b32_e32 v4, 0x7ff80000                 // quiet NaN
  v_cmp_le_u32_e32 vcc, 48, v0
  v_cndmask_b32_e32 v3, v3, v4, vcc
  s_mov_b32 s4, 0
  s_mov_b32 s5, 0x40400000                     // 32.0
  v_cmp_gt_f64_e32 vcc, s[4:5], v[2:3]         // 32 > x: x < 32
  v_cndmask_b32_e64 v5, 0, 1, vcc
  STOREV v5, 0
  v_cmp_nge_f64_e64 s[6:7], v[2:3], s[4:5]     // true when unordered
  v_cndmask_b32_e64 v5, 0, 1, s[6:7]
  STOREV v5, 1
  v_max_f64 v[6:7], v[2:3], s[4:5]
  STOREV v7, 2
  v_min_f64 v[6:7], v[2:3], s[4:5]
  STOREV v7, 3
  v_add_f64 v[6:7], v[2:3], s[4:5]
  STOREV v7, 4
  v_cmp_eq_f64_e64 s[6:7], -v[2:3], 2.0        // -(-2.0) == 2.0 in lanes 32-47
  v_cndmask_b32_e64 v5, 0, 1, s[6:7]
  STOREV v5, 5
  v_mov_b32_e32 v8, 0xff00ff00
  v_mov_b32_e32 v9, 0x12345678
  v_bfi_b32 v10, v8, v0, v9                    // lane's bits 15:8 and 31:24, 0x12345678's others
  STOREV v10, 6
  v_cvt_f32_u32_e32 v11, v0                    // lane as f32: 0 in lane 0
  v_mov_b32_e32 v12, 0x7f800000                // +inf
  v_mul_legacy_f32 v13, v11, v12               // 0 * inf = 0 in lane 0, inf elsewhere
  STOREV v13, 7
  s_mov_b32 s8, -1
  s_bitset0_b32 s8, 31
  STORES s8, 8
  s_mov_b32 s9, 0
  s_bitset1_b32 s9, 41                         // bit 41 & 31 = 9
  STORES s9, 9
  s_mov_b32 s10, -7
  s_abs_i32 s10, s10                           // 7, SCC = 1
  s_cselect_b32 s11, s10, 0
  STORES s11, 10
  s_brev_b32 s12, 1                            // 0x80000000
  s_abs_i32 s12, s12                           // stays 0x80000000
  STORES s12, 11
ROW_KERNEL_END f64_and_bits
