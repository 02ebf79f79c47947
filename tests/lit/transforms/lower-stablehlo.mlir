// kiln-lower-stablehlo: stablehlo ops become linalg / tensor / arith / math and
// iree_linalg_ext, computing what StableHLO's specification says.
// RUN: kiln-opt %s -split-input-file -kiln-lower-stablehlo | FileCheck %s

// Integer division guards x / 0 (-1) and INT_MIN / -1 (INT_MIN).
// CHECK-LABEL: func.func @divide
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[BY_ZERO:.*]] = arith.cmpi eq, %[[RHS:.*]], %[[ZERO]]
// CHECK: %[[SAFE:.*]] = arith.select %{{.*}}, %[[ONE]], %[[RHS]]
// CHECK: %[[Q:.*]] = arith.divsi %{{.*}}, %[[SAFE]]
// CHECK: %[[Q2:.*]] = arith.select %{{.*}}, %[[MIN]], %[[Q]]
// CHECK: arith.select %[[BY_ZERO]], %[[M1]], %[[Q2]]
// CHECK-NOT: stablehlo
func.func @divide(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %d = "stablehlo.divide"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %d : tensor<4xi32>
}

// -----

// A 0-d predicate is read at no position (broadcast); float compares are ordered.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @compare_select
// CHECK: arith.cmpf olt
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #{{.*}}, #{{.*}}, #{{.*}}]
// CHECK: arith.select
func.func @compare_select(%a: tensor<f32>, %b: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %p = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %r = "stablehlo.select"(%p, %x, %y) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @dot_general
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @dot_general(%x: tensor<2x3xf32>, %y: tensor<3x5xf32>) -> tensor<2x5xf32> {
  %m = "stablehlo.dot_general"(%x, %y) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
  } : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %m : tensor<2x5xf32>
}

// -----

// The init value fills the accumulator; the body's 0-d maximum becomes arith.maximumf.
// CHECK-LABEL: func.func @reduce
// CHECK: %[[INIT:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: linalg.fill ins(%[[INIT]] : f32)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: arith.maximumf %[[ACC]], %[[IN]] : f32
func.func @reduce(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  %r = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.maximum %p, %q : tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @sort
// CHECK: iree_linalg_ext.sort dimension(1) outs(%arg0 : tensor<2x4xi32>)
// CHECK: arith.cmpi sgt
// CHECK: iree_linalg_ext.yield %{{.*}} : i1
func.func @sort(%a: tensor<2x4xi32>) -> tensor<2x4xi32> {
  %s = "stablehlo.sort"(%a) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = -1 : i64} : (tensor<2x4xi32>) -> tensor<2x4xi32>
  return %s : tensor<2x4xi32>
}

// -----

// Start indices are clamped so that the slice fits: into [0, 4 - 2].
// CHECK-LABEL: func.func @dynamic_slice
// CHECK: %[[LOW:.*]] = arith.constant 0 : index
// CHECK: %[[I:.*]] = arith.index_cast
// CHECK: %[[HIGH:.*]] = arith.constant 2 : index
// CHECK: %[[MAX:.*]] = arith.maxsi %[[I]], %[[LOW]]
// CHECK: %[[START:.*]] = arith.minsi %[[MAX]], %[[HIGH]]
// CHECK: tensor.extract_slice %arg0[%[[START]]] [2] [1]
func.func @dynamic_slice(%a: tensor<4xf32>, %i: tensor<i64>) -> tensor<2xf32> {
  %r = "stablehlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<i64>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Interior and negative padding: a fill, the kept operand elements, inserted with stride 2.
// CHECK-LABEL: func.func @pad_interior
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[KEPT:.*]] = tensor.extract_slice %arg0[1] [2] [1] : tensor<3xf32> to tensor<2xf32>
// CHECK: tensor.insert_slice %[[KEPT]] into %[[FILL]][1] [2] [2] : tensor<2xf32> into tensor<4xf32>
func.func @pad_interior(%a: tensor<3xf32>, %v: tensor<f32>) -> tensor<4xf32> {
  %r = "stablehlo.pad"(%a, %v) {edge_padding_low = array<i64: -1>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: 1>} : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Scatter: indices as [batch, depth], updates as [batch, window over every operand
// dimension], the body's (old, update) as the region's (update, old).
// CHECK-LABEL: func.func @scatter
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg2
// CHECK: %[[U:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [2, 1, 3] : tensor<6xi32> into tensor<2x1x3xi32>
// CHECK: iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%[[U]], %arg1 : tensor<2x1x3xi32>, tensor<2x1xi32>) outs(%arg0 : tensor<6x3xi32>)
// CHECK: ^bb0(%[[UPDATE:.*]]: i32, %[[OLD:.*]]: i32):
// CHECK: %[[SUM:.*]] = arith.subi %[[OLD]], %[[UPDATE]] : i32
// CHECK: iree_linalg_ext.yield %[[SUM]] : i32
func.func @scatter(%a: tensor<6x3xi32>, %i: tensor<2x1xi32>, %u: tensor<2x3xi32>) -> tensor<6x3xi32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%old: tensor<i32>, %update: tensor<i32>):
    %d = stablehlo.subtract %old, %update : tensor<i32>
    "stablehlo.return"(%d) : (tensor<i32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<6x3xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}

// -----

// reduce_window: the padded input read at position * stride + offset, a window-shaped
// empty tensor bounding the window loops.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1) -> (d0 * 2 + d1)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_window
// CHECK: %[[INIT:.*]] = tensor.extract %arg1[]
// CHECK: %[[PADDED:.*]] = tensor.pad %arg0 low[1] high[0]
// CHECK: tensor.yield %[[INIT]]
// CHECK: %[[SHAPE:.*]] = tensor.empty() : tensor<3xi1>
// CHECK: linalg.generic {indexing_maps = [#[[READ]], #[[WINDOW]], #[[OUT]]], iterator_types = ["parallel", "reduction"]} ins(%[[PADDED]], %[[SHAPE]] : tensor<7xf32>, tensor<3xi1>)
// CHECK: arith.addf
func.func @reduce_window(%x: tensor<6xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  %r = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<6xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// CHECK-DAG: #[[FEATURE:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @batch_norm_inference
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[FEATURE]], #[[FEATURE]], #[[FEATURE]], #[[FEATURE]], #{{.*}}]
// CHECK: ^bb0(%[[X:.*]]: f32, %[[SCALE:.*]]: f32, %[[OFFSET:.*]]: f32, %[[MEAN:.*]]: f32, %[[VAR:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK: %[[C:.*]] = arith.subf %[[X]], %[[MEAN]]
// CHECK: %[[V:.*]] = arith.addf %[[VAR]], %[[EPS]]
// CHECK: %[[S:.*]] = math.sqrt %[[V]]
// CHECK: %[[N:.*]] = arith.divf %[[C]], %[[S]]
// CHECK: %[[M:.*]] = arith.mulf %[[SCALE]], %[[N]]
// CHECK: arith.addf %[[M]], %[[OFFSET]]
func.func @batch_norm_inference(%x: tensor<2x4xf32>, %s: tensor<4xf32>, %o: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<2x4xf32> {
  %r = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @reverse
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[LAST:.*]] = arith.constant 2 : index
// CHECK: %[[J:.*]] = arith.subi %[[LAST]], %[[I]] : index
// CHECK: tensor.extract %arg0[%[[J]]] : tensor<3xf32>
func.func @reverse(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = "stablehlo.reverse"(%x) {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Convolution: the input transposed to [b, spatial..., f] and padded (interior padding for
// lhs dilation), batch and features split into groups, the kernel reversed where the window
// is; one generic sums over the window and the group's features; the result transposed back.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (0, d0, d1 * 2 + d4, 0, d5)>
// CHECK-DAG: #[[KERNEL:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @convolution
// CHECK: linalg.transpose ins(%arg0 : tensor<2x3x5xf32>) {{.*}} permutation = [0, 2, 1]
// CHECK: tensor.insert_slice {{.*}} [1, 2, 1] : tensor<2x5x3xf32> into tensor<2x12x3xf32>
// CHECK: tensor.expand_shape {{.*}} {{\[}}[0, 1], [2], [3, 4]] {{.*}} into tensor<1x2x12x1x3xf32>
// CHECK: linalg.transpose ins(%arg1 : tensor<4x3x3xf32>) {{.*}} permutation = [2, 1, 0]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3x4xf32>)
// CHECK: %[[W:.*]] = linalg.index 0 : index
// CHECK: arith.subi %{{.*}}, %[[W]] : index
// CHECK: tensor.expand_shape {{.*}} {{\[}}[0], [1], [2, 3]] {{.*}} into tensor<3x3x1x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[KERNEL]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.collapse_shape {{.*}} {{\[}}[0], [1], [2, 3]] {{.*}} into tensor<2x5x4xf32>
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 1]
func.func @convolution(%y: tensor<2x3x5xf32>, %v: tensor<4x3x3xf32>) -> tensor<2x4x5xf32> {
  %0 = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[1, 2]], lhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x5xf32>, tensor<4x3x3xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

// @shape_assertion: a true constant is dropped, a run-time predicate checked by cf.assert
// with the message.
// CHECK-LABEL: func.func @shape_assertion
// CHECK: %[[OK:.*]] = linalg.generic
// CHECK: %[[HOLDS:.*]] = tensor.extract %[[OK]][] : tensor<i1>
// CHECK: cf.assert %[[HOLDS]], "n must be below 4"
// CHECK-NOT: cf.assert
// CHECK-NOT: custom_call
func.func @shape_assertion(%n: tensor<i32>) {
  %four = stablehlo.constant dense<4> : tensor<i32>
  %ok = stablehlo.compare LT, %n, %four : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "n must be below 4", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %true = stablehlo.constant dense<true> : tensor<i1>
  stablehlo.custom_call @shape_assertion(%true) {error_message = "never", has_side_effect = true} : (tensor<i1>) -> ()
  return
}

// -----

// rng_bit_generator: one generic over the bits reading the state's words at fixed
// positions (Philox's multipliers in its body), one over the state advancing the counter.
// CHECK-DAG: #[[W0:.*]] = affine_map<(d0) -> (0)>
// CHECK-DAG: #[[W3:.*]] = affine_map<(d0) -> (3)>
// CHECK-LABEL: func.func @philox
// CHECK: linalg.generic {indexing_maps = [#[[W0]], #{{.*}}, #{{.*}}, #[[W3]], #{{.*}}]{{.*}} outs(%{{.*}} : tensor<6xi32>)
// CHECK: arith.constant 3528531795 : i64
// CHECK: arith.constant 3449720151 : i64
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4xi32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<2x3xi32>
func.func @philox(%s: tensor<4xi32>) -> (tensor<4xi32>, tensor<2x3xi32>) {
  %0:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<4xi32>) -> (tensor<4xi32>, tensor<2x3xi32>)
  return %0#0, %0#1 : tensor<4xi32>, tensor<2x3xi32>
}
