// RUN: kiln-opt %s -kiln-cpu-load-bf16-as-bits | FileCheck %s

// A bf16 copied through memory moves as i16; a vector of bf16 too. The module defines
// __truncsfbf2 (weak, hidden) for the backend's own calls: round to nearest even.
// CHECK-LABEL: llvm.func @copy
// CHECK: %[[BITS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK-NEXT: llvm.store %[[BITS]], %{{.*}} : i16, !llvm.ptr
// CHECK: %[[VECTOR:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<8xi16>
// CHECK-NEXT: llvm.store %[[VECTOR]], %{{.*}} : vector<8xi16>, !llvm.ptr
// CHECK: llvm.func weak hidden @__truncsfbf2(%[[X:.*]]: f32) -> bf16
// CHECK: llvm.bitcast %[[X]] : f32 to i32
// CHECK: llvm.add
// CHECK: llvm.icmp "ugt"
// CHECK: llvm.select
// CHECK: llvm.trunc {{.*}} : i32 to i16
// CHECK: llvm.bitcast {{.*}} : i16 to bf16
llvm.func @copy(%from: !llvm.ptr, %to: !llvm.ptr) {
  %v = llvm.load %from : !llvm.ptr -> bf16
  llvm.store %v, %to : bf16, !llvm.ptr
  %w = llvm.load %from : !llvm.ptr -> vector<8xbf16>
  llvm.store %w, %to : vector<8xbf16>, !llvm.ptr
  llvm.return
}
