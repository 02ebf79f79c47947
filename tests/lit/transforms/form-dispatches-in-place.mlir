// RUN: kiln-opt %s -split-input-file -kiln-form-dispatches -cse | FileCheck %s

// A KV-cache append: the insert into the loaded global, stored back, is written in place.
// The cache is not an input binding; the kernel writes the slice into its output binding.
// CHECK-LABEL: func.func @append
// CHECK: %[[C:.*]] = util.global.load @cache
// CHECK: %[[U:.*]] = kiln.dispatch @kiln_executable::@append_dispatch_0_insert_slice(%arg0) constants(%arg1 : index) in_place(%[[C]] : tensor<4x16x8xf16>) {tied_results = array<i64: 0>}
// CHECK: util.global.store %[[U]], @cache
// CHECK: func.func @append_dispatch_0_insert_slice(%{{.*}}: memref<4x1x8xf16>, %[[OUT:.*]]: memref<4x16x8xf16>, {{.*}} kiln.in_place_results = array<i64: 0>, kiln.input_count = 1
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
util.global private mutable @cache = dense<0.0> : tensor<4x16x8xf16>
func.func @append(%rows: tensor<4x1x8xf16>, %pos: index) {
  %c = util.global.load @cache : tensor<4x16x8xf16>
  %u = tensor.insert_slice %rows into %c[0, %pos, 0] [4, 1, 8] [1, 1, 1] : tensor<4x1x8xf16> into tensor<4x16x8xf16>
  util.global.store %u, @cache : tensor<4x16x8xf16>
  return
}

// -----

// Two appends in a row (two layers' caches in one tensor): the chain is in place.
// CHECK-LABEL: func.func @append_two
// CHECK: %[[C:.*]] = util.global.load @cache
// CHECK: %[[A:.*]] = kiln.dispatch {{.*}} in_place(%[[C]] : tensor<2x16x8xf32>)
// CHECK: %[[B:.*]] = kiln.dispatch {{.*}} in_place(%[[A]] : tensor<2x16x8xf32>)
// CHECK: util.global.store %[[B]], @cache
util.global private mutable @cache = dense<0.0> : tensor<2x16x8xf32>
func.func @append_two(%k: tensor<1x1x8xf32>, %v: tensor<1x1x8xf32>, %pos: index) {
  %c = util.global.load @cache : tensor<2x16x8xf32>
  %a = tensor.insert_slice %k into %c[0, %pos, 0] [1, 1, 8] [1, 1, 1] : tensor<1x1x8xf32> into tensor<2x16x8xf32>
  %b = tensor.insert_slice %v into %a[1, %pos, 0] [1, 1, 8] [1, 1, 1] : tensor<1x1x8xf32> into tensor<2x16x8xf32>
  util.global.store %b, @cache : tensor<2x16x8xf32>
  return
}

// -----

// The old value is read after the insert: the copy stays (the cache is an input binding).
// CHECK-LABEL: func.func @old_value_read_later
// CHECK: kiln.dispatch @kiln_executable::@old_value_read_later_dispatch_{{.*}}_insert_slice(%{{.*}}, %{{.*}}) constants
// CHECK-NOT: in_place
// CHECK: util.global.store
util.global private mutable @g = dense<0.0> : tensor<16xf32>
func.func @old_value_read_later(%x: tensor<1xf32>, %pos: index) -> tensor<16xf32> {
  %c = util.global.load @g : tensor<16xf32>
  %c2 = util.global.load @g : tensor<16xf32>
  %u = tensor.insert_slice %x into %c2[%pos] [1] [1] : tensor<1xf32> into tensor<16xf32>
  util.global.store %u, @g : tensor<16xf32>
  %d = arith.subf %u, %c : tensor<16xf32>
  return %d : tensor<16xf32>
}

// -----

// Not stored back: the global keeps its value, so the insert copies.
// CHECK-LABEL: func.func @not_stored
// CHECK-NOT: in_place
util.global private mutable @g = dense<0.0> : tensor<16xf32>
func.func @not_stored(%x: tensor<1xf32>) -> tensor<16xf32> {
  %c = util.global.load @g : tensor<16xf32>
  %u = tensor.insert_slice %x into %c[3] [1] [1] : tensor<1xf32> into tensor<16xf32>
  return %u : tensor<16xf32>
}

// -----

// The global's buffer escapes (returned by another function, a function argument stored
// into it, or live across a call): every insert into it copies.
// CHECK-LABEL: func.func @append_returned
// CHECK-NOT: in_place
// CHECK-LABEL: func.func @peek
util.global private mutable @g = dense<0.0> : tensor<16xf32>
func.func @append_returned(%x: tensor<1xf32>) {
  %c = util.global.load @g : tensor<16xf32>
  %u = tensor.insert_slice %x into %c[3] [1] [1] : tensor<1xf32> into tensor<16xf32>
  util.global.store %u, @g : tensor<16xf32>
  return
}
func.func @peek() -> tensor<16xf32> {
  %c = util.global.load @g : tensor<16xf32>
  return %c : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @append_argument_stored
// CHECK-NOT: in_place
// CHECK-LABEL: func.func @set
util.global private mutable @g = dense<0.0> : tensor<16xf32>
func.func @append_argument_stored(%x: tensor<1xf32>) {
  %c = util.global.load @g : tensor<16xf32>
  %u = tensor.insert_slice %x into %c[3] [1] [1] : tensor<1xf32> into tensor<16xf32>
  util.global.store %u, @g : tensor<16xf32>
  return
}
func.func @set(%v: tensor<16xf32>) {
  util.global.store %v, @g : tensor<16xf32>
  return
}

// -----

// CHECK-LABEL: func.func @live_across_call
// CHECK-NOT: in_place
// CHECK-LABEL: func.func @append_in_callee
// CHECK-NOT: in_place
// CHECK: return
util.global private mutable @g = dense<0.0> : tensor<16xf32>
func.func @live_across_call(%x: tensor<1xf32>) -> tensor<16xf32> {
  %c = util.global.load @g : tensor<16xf32>
  call @append_in_callee(%x) : (tensor<1xf32>) -> ()
  %d = arith.addf %c, %c : tensor<16xf32>
  return %d : tensor<16xf32>
}
func.func @append_in_callee(%x: tensor<1xf32>) {
  %c = util.global.load @g : tensor<16xf32>
  %u = tensor.insert_slice %x into %c[3] [1] [1] : tensor<1xf32> into tensor<16xf32>
  util.global.store %u, @g : tensor<16xf32>
  return
}

// -----

// A scatter into the global (a KV cache written at token positions): in place too.
// CHECK-LABEL: func.func @put
// CHECK: %[[C:.*]] = util.global.load @cache
// CHECK: kiln.dispatch @kiln_executable::@put_dispatch_0_scatter(%arg0, %arg1) in_place(%[[C]] : tensor<16x8xf32>)
util.global private mutable @cache = dense<0.0> : tensor<16x8xf32>
func.func @put(%rows: tensor<2x8xf32>, %idx: tensor<2x1xi32>) {
  %c = util.global.load @cache : tensor<16x8xf32>
  %u = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%rows, %idx : tensor<2x8xf32>, tensor<2x1xi32>) outs(%c : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<16x8xf32>
  util.global.store %u, @cache : tensor<16x8xf32>
  return
}
