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
