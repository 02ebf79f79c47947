// LDS races and waits across the two waves of a 128-work-item workgroup, for
// isa_scheduling_test.cc (512-byte group segment; t is the work-item id, P(t) = (t + 64) % 128
// the work-item at the same lane of the other wave):
//   lds_exchange(out):                 LDS[t] = t + 1; wait; barrier; out[t] = LDS[P(t)]
//   lds_missing_barrier(out):          the same without the barrier: wave 0 reads what wave 1
//                                      wrote with no barrier between (read after write)
//   lds_two_steps(out):                two k-steps through the same LDS words: step 1 as
//                                      lds_exchange, then barrier; LDS[t] = v + 1000; wait;
//                                      barrier; out[t] = LDS[P(t)] (= t + 1001)
//   lds_missing_second_barrier(out):   the same without the barrier between step 1's reads and
//                                      step 2's writes (write after read: the k-loop bug)
//   lds_barrier_without_wait(out):     lds_exchange without the s_waitcnt lgkmcnt(0) between the
//                                      write and the barrier: the barrier does not order the
//                                      write, so the other wave's read races with it
//   lds_missing_wait(out):             lds_exchange adding 1 to the read value before the
//                                      s_waitcnt lgkmcnt that retires the read: out[t] is
//                                      kPoison + 1 (0x7fbadbae), not P(t) + 2
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text

// v1 = t * 4, v3 = P(t) * 4, s[2:3] = out; LDS[t] = t + 1 (its write retired, unless
// `wait` is 0: then the write is still outstanding).
.macro LDS_WRITE_OWN wait=1
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  v_add_u32_e32 v2, 1, v0
  v_add_u32_e32 v3, 64, v0
  v_and_b32_e32 v3, 0x7f, v3
  v_lshlrev_b32_e32 v3, 2, v3
.if \wait
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
.else
  s_waitcnt lgkmcnt(0)
  ds_write_b32 v1, v2
.endif
.endm
// out[t] = \vreg after every outstanding operation retired.
.macro LDS_STORE_OUT vreg
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dword v1, \vreg, s[2:3]
  s_endpgm
.endm

// Two k-steps through the same LDS words; `barrier` between step 1's reads and step 2's writes.
.macro LDS_TWO_STEPS barrier=1
  LDS_WRITE_OWN
  s_barrier
  ds_read_b32 v4, v3
  s_waitcnt lgkmcnt(0)
.if \barrier
  s_barrier
.endif
  v_add_u32_e32 v4, 0x3e8, v4
  ds_write_b32 v1, v4
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v5, v3
  LDS_STORE_OUT v5
.endm

.globl lds_exchange
.p2align 8
.type lds_exchange,@function
lds_exchange:
  LDS_WRITE_OWN
  s_barrier
  ds_read_b32 v4, v3
  LDS_STORE_OUT v4
.Llds_exchange_end:
.size lds_exchange, .Llds_exchange_end-lds_exchange

.globl lds_missing_barrier
.p2align 8
.type lds_missing_barrier,@function
lds_missing_barrier:
  LDS_WRITE_OWN
  ds_read_b32 v4, v3
  LDS_STORE_OUT v4
.Llds_missing_barrier_end:
.size lds_missing_barrier, .Llds_missing_barrier_end-lds_missing_barrier

.globl lds_two_steps
.p2align 8
.type lds_two_steps,@function
lds_two_steps:
  LDS_TWO_STEPS
.Llds_two_steps_end:
.size lds_two_steps, .Llds_two_steps_end-lds_two_steps

.globl lds_missing_second_barrier
.p2align 8
.type lds_missing_second_barrier,@function
lds_missing_second_barrier:
  LDS_TWO_STEPS barrier=0
.Llds_missing_second_barrier_end:
.size lds_missing_second_barrier, .Llds_missing_second_barrier_end-lds_missing_second_barrier

.globl lds_barrier_without_wait
.p2align 8
.type lds_barrier_without_wait,@function
lds_barrier_without_wait:
  LDS_WRITE_OWN wait=0
  s_barrier
  ds_read_b32 v4, v3
  LDS_STORE_OUT v4
.Llds_barrier_without_wait_end:
.size lds_barrier_without_wait, .Llds_barrier_without_wait_end-lds_barrier_without_wait

.globl lds_missing_wait
.p2align 8
.type lds_missing_wait,@function
lds_missing_wait:
  LDS_WRITE_OWN
  s_barrier
  ds_read_b32 v4, v3
  v_add_u32_e32 v5, 1, v4                // before the read retired
  LDS_STORE_OUT v5
.Llds_missing_wait_end:
.size lds_missing_wait, .Llds_missing_wait_end-lds_missing_wait

.rodata
.macro LDS_RACE_DESCRIPTOR name
.p2align 6
.amdhsa_kernel \name
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 0
  .amdhsa_kernarg_size 8
  .amdhsa_group_segment_fixed_size 512
  .amdhsa_next_free_vgpr 6
  .amdhsa_next_free_sgpr 4
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.endm
LDS_RACE_DESCRIPTOR lds_exchange
LDS_RACE_DESCRIPTOR lds_missing_barrier
LDS_RACE_DESCRIPTOR lds_two_steps
LDS_RACE_DESCRIPTOR lds_missing_second_barrier
LDS_RACE_DESCRIPTOR lds_missing_wait
LDS_RACE_DESCRIPTOR lds_barrier_without_wait

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - { .name: lds_exchange, .symbol: lds_exchange.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 512, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: lds_missing_barrier, .symbol: lds_missing_barrier.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 512, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: lds_two_steps, .symbol: lds_two_steps.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 512, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: lds_missing_second_barrier, .symbol: lds_missing_second_barrier.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 512, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: lds_missing_wait, .symbol: lds_missing_wait.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8,
      .group_segment_fixed_size: 512, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 4,
      .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
  - { .name: lds_barrier_without_wait, .symbol: lds_barrier_without_wait.kd, .kernarg_segment_size: 8,
      .kernarg_segment_align: 8, .group_segment_fixed_size: 512, .private_segment_fixed_size: 0, .wavefront_size: 64,
      .sgpr_count: 4, .vgpr_count: 6, .max_flat_workgroup_size: 256,
      .args: [ { .name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global } ] }
...
.end_amdgpu_metadata
