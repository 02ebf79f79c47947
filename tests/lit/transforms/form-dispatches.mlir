// RUN: kiln-opt %s -split-input-file -kiln-form-dispatches -cse | FileCheck %s

// A fill feeding a matmul is cloned into the matmul's dispatch and not dispatched alone;
// the dynamic row count reaches the kernel as a push constant and sizes the result.
// CHECK-LABEL: func.func @matmul_relu
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf32>, %[[B:.*]]: tensor<8x16xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[MM:.*]] = kiln.dispatch @kiln_executable::@matmul_relu_dispatch_1_matmul(%[[A]], %[[B]]) constants(%[[N]], %[[N]] : index, index) result_dims(%[[N]])
// CHECK: %[[R:.*]] = kiln.dispatch @kiln_executable::@matmul_relu_dispatch_2_generic(%[[MM]]) constants(%[[N]] : index) result_dims(%[[N]])
// CHECK: return %[[R]]
// CHECK-NOT: linalg.fill
// CHECK: module @kiln_executable attributes {kiln.executable}
// CHECK: func.func @matmul_relu_dispatch_2_generic(%{{.*}}: memref<?x16xf32>, %[[OUT:.*]]: memref<?x16xf32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME: kiln.binding_dims = [array<i64: 0, -1>, array<i64: 0, -1>], kiln.input_count = 1
// CHECK: linalg.generic {{.*}} attrs = {kiln.root}
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[OUT]]
// CHECK: func.func @matmul_relu_dispatch_1_matmul(%[[IA:.*]]: memref<?x8xf32>, %[[IB:.*]]: memref<8x16xf32>, %[[MOUT:.*]]: memref<?x16xf32>, %[[ROWS:[a-z0-9]+]]: index
// CHECK-DAG: bufferization.to_tensor %[[IA]] restrict
// CHECK-DAG: tensor.empty(%[[ROWS]])
// CHECK: linalg.fill
// CHECK: linalg.matmul {kiln.root}
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[MOUT]]
func.func @matmul_relu(%a: tensor<?x8xf32>, %b: tensor<8x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// A slice feeding a consumer is read through the view inside the consumer's kernel: the
// whole source is the binding, and the slice offset is a push constant.
// CHECK-LABEL: func.func @slice_then_negate
// CHECK-SAME: (%[[SRC:.*]]: tensor<16x4xf32>, %[[OFF:.*]]: index)
// CHECK: kiln.dispatch @kiln_executable::@slice_then_negate_dispatch_1_negf(%[[SRC]]) constants(%[[OFF]] : index) : (tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-NOT: kiln.dispatch
// CHECK: func.func @slice_then_negate_dispatch_1_negf
// CHECK: tensor.extract_slice
// CHECK: linalg.negf {kiln.root}
func.func @slice_then_negate(%src: tensor<16x4xf32>, %off: index) -> tensor<8x4xf32> {
  %s = tensor.extract_slice %src[%off, 0] [8, 4] [1, 1] : tensor<16x4xf32> to tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %n = linalg.negf ins(%s : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}

// -----

// Host-only code (shapes, reshapes) stays on the host.
// CHECK-LABEL: func.func @reshape_only
// CHECK-NOT: kiln.dispatch
// CHECK: tensor.collapse_shape
func.func @reshape_only(%a: tensor<2x3xf32>) -> tensor<6xf32> {
  %r = tensor.collapse_shape %a [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Row fusion: the max, exp, sum and divide of a softmax read each other's rows in step
// with their outer parallel loop, so they form one dispatch. The max has a user outside
// the group in @max_also_returned, so there it keeps a dispatch of its own.
// CHECK-LABEL: func.func @softmax_rows
// CHECK: kiln.dispatch @kiln_executable::@softmax_rows_dispatch_5_generic(%arg0)
// CHECK-NOT: kiln.dispatch
// CHECK: return
// CHECK-LABEL: func.func @max_also_returned
// CHECK: %[[MAX:.*]] = kiln.dispatch @kiln_executable::@max_also_returned_dispatch_1_generic(%arg0)
// CHECK: kiln.dispatch @kiln_executable::@max_also_returned_dispatch_2_generic(%arg0, %[[MAX]])
// CHECK: return
// CHECK: func.func @softmax_rows_dispatch_5_generic
// CHECK-COUNT-3: linalg.generic
// CHECK: linalg.generic {{.*}} attrs = {kiln.root}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// CHECK-NOT: linalg.generic
// CHECK: return
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
func.func @softmax_rows(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%minit : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %exp = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x64xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x64xf32>) outs(%sinit : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %div = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<4x64xf32>
  return %div : tensor<4x64xf32>
}

func.func @max_also_returned(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%minit : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %sub = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x64xf32>, tensor<4xf32>) outs(%e2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x64xf32>
  return %sub, %max : tensor<4x64xf32>, tensor<4xf32>
}

// -----

// A topk whose indices nothing reads: the dispatch has one result (the values) and the
// indices live in the kernel only, their fill cloned in; no binding, no host allocation.
// CHECK-LABEL: func.func @topk_values_only
// CHECK: %[[V:.*]] = kiln.dispatch @kiln_executable::@topk_values_only_dispatch_{{[0-9]+}}_topk(%{{.*}}) : (tensor<4x16xf32>) -> tensor<4x2xf32>
// CHECK: return %[[V]]
// CHECK: func.func @topk_values_only_dispatch_{{[0-9]+}}_topk(%{{.*}}: memref<4x16xf32>, %[[OUT:.*]]: memref<4x2xf32>, %{{.*}}: index, %{{.*}}: index)
// CHECK: %[[IDX:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<4x2xi32>)
// CHECK: %[[TOP:.*]]:2 = iree_linalg_ext.topk {{.*}} outs(%{{.*}}, %[[IDX]] : tensor<4x2xf32>, tensor<4x2xi32>)
// CHECK: bufferization.materialize_in_destination %[[TOP]]#0 in restrict writable %[[OUT]]
// CHECK-NOT: materialize_in_destination
func.func @topk_values_only(%x: tensor<4x16xf32>) -> tensor<4x2xf32> {
  %minus_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<4x2xf32>
  %ei = tensor.empty() : tensor<4x2xi32>
  %v = linalg.fill ins(%minus_inf : f32) outs(%ev : tensor<4x2xf32>) -> tensor<4x2xf32>
  %i = linalg.fill ins(%zero : i32) outs(%ei : tensor<4x2xi32>) -> tensor<4x2xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<4x16xf32>) outs(%v, %i : tensor<4x2xf32>, tensor<4x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<4x2xf32>, tensor<4x2xi32>
  return %r#0 : tensor<4x2xf32>
}

// -----

// A reshape of a slice is cloned into its consumer's dispatch with the slice: the kernel
// reads through both views, and the slice is not copied by a dispatch of its own.
// CHECK-LABEL: func.func @reshaped_slice
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>, %[[N:.*]]: index, %[[C:.*]]: index)
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[R:.*]] = kiln.dispatch @kiln_executable::@reshaped_slice_dispatch_{{[0-9]+}}_reduce(%[[X]])
// CHECK-NOT: kiln.dispatch
// CHECK: return %[[R]]
// CHECK: func.func @reshaped_slice_dispatch_{{[0-9]+}}_reduce
// CHECK: %[[SLICE:.*]] = tensor.extract_slice
// CHECK: tensor.expand_shape %[[SLICE]]
func.func @reshaped_slice(%x: tensor<?xf32>, %n: index, %c: index) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %head = tensor.extract_slice %x[0] [%n] [1] : tensor<?xf32> to tensor<?xf32>
  %rows = tensor.expand_shape %head [[0, 1]] output_shape [%c, 64] : tensor<?xf32> into tensor<?x64xf32>
  %e = tensor.empty(%c) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%rows : tensor<?x64xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<?xf32>
}
