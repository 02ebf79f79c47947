// RUN: kiln-opt %s -split-input-file -kiln-gpu-finalize-kernels=chip=gfx942 -verify-diagnostics | FileCheck %s

// Allocas move to the private address space, cast back to flat pointers for their users.
// CHECK-LABEL: llvm.func @body
// CHECK: %[[PRIVATE:.*]] = llvm.alloca %{{.*}} x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr<5>
// CHECK: %[[FLAT:.*]] = llvm.addrspacecast %[[PRIVATE]] : !llvm.ptr<5> to !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[FLAT]]
module {
  gpu.module @kiln_kernels {
    llvm.func @body(%v: f32) {
      %n = llvm.mlir.constant(4 : i64) : i64
      %p = llvm.alloca %n x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// A loop annotation left on a back edge as a discardable attribute (by convert-scf-to-cf
// and convert-cf-to-llvm) becomes the branch's own, which LLVM IR translation reads.
// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[LOOP:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @loop
// CHECK: llvm.br ^bb1(%{{.*}} : i64) {loop_annotation = #[[LOOP]]}
// CHECK-NOT: llvm.loop_annotation
#unroll = #llvm.loop_unroll<disable = true>
#loop = #llvm.loop_annotation<unroll = #unroll>
module {
  gpu.module @kiln_kernels {
    llvm.func @loop(%n: i64) {
      %zero = llvm.mlir.constant(0 : i64) : i64
      %one = llvm.mlir.constant(1 : i64) : i64
      llvm.br ^bb1(%zero : i64)
    ^bb1(%i: i64):
      %more = llvm.icmp "slt" %i, %n : i64
      llvm.cond_br %more, ^bb2, ^bb3
    ^bb2:
      %next = llvm.add %i, %one : i64
      llvm.br ^bb1(%next : i64) {llvm.loop_annotation = #loop}
    ^bb3:
      llvm.return
    }
  }
}

// -----

// A call to a function without a body cannot be linked into a kernel.
module {
  gpu.module @kiln_kernels {
    llvm.func @malloc(i64) -> !llvm.ptr
    llvm.func @grow_body(%n: i64) {
      // expected-error @+1 {{dispatch 'grow' calls 'malloc', which a kernel for gfx942 cannot link: it needs a temporary buffer of dynamic size}}
      %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
      llvm.return
    }
  }
}

// -----

module {
  gpu.module @kiln_kernels {
    llvm.func @__ocml_pow_f32(f32, f32) -> f32
    llvm.func @power_body(%x: f32) {
      // expected-error @+1 {{dispatch 'power' calls '__ocml_pow_f32', which a kernel for gfx942 cannot link: kiln has no GPU implementation of this function}}
      %p = llvm.call @__ocml_pow_f32(%x, %x) : (f32, f32) -> f32
      llvm.return
    }
  }
}
