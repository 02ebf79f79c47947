// RUN: kiln-opt %s -split-input-file -kiln-gpu-select-workgroup-strategies -verify-diagnostics | FileCheck %s

// A fill and a matmul on bindings: the workgroup contraction strategy takes it.
// CHECK-LABEL: func.func @mm(
// CHECK-SAME: kiln.workgroup_strategy = "gpu.workgroup_contraction"
module @kiln_executable attributes {kiln.executable} {
  func.func @mm(%a: memref<130x70xf32>, %b: memref<70x100xf32>, %c: memref<130x100xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %a restrict : memref<130x70xf32> to tensor<130x70xf32>
    %1 = bufferization.to_tensor %b restrict : memref<70x100xf32> to tensor<70x100xf32>
    %e = tensor.empty() : tensor<130x100xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<130x100xf32>) -> tensor<130x100xf32>
    %r = linalg.matmul {kiln.root} ins(%0, %1 : tensor<130x70xf32>, tensor<70x100xf32>) outs(%f : tensor<130x100xf32>) -> tensor<130x100xf32>
    bufferization.materialize_in_destination %r in restrict writable %c : (tensor<130x100xf32>, memref<130x100xf32>) -> ()
    return
  }
}

// -----

// A product with an elementwise consumer fused into the dispatch: the contraction strategy
// computes the consumer as its epilogue.
// CHECK-LABEL: func.func @mm_relu(
// CHECK-SAME: kiln.workgroup_strategy = "gpu.workgroup_contraction"
module @kiln_executable attributes {kiln.executable} {
  func.func @mm_relu(%a: memref<8x4xf32>, %b: memref<4x8xf32>, %c: memref<8x8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %a restrict : memref<8x4xf32> to tensor<8x4xf32>
    %1 = bufferization.to_tensor %b restrict : memref<4x8xf32> to tensor<4x8xf32>
    %e = tensor.empty() : tensor<8x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %r = linalg.matmul ins(%0, %1 : tensor<8x4xf32>, tensor<4x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) attrs = {kiln.root} {
    ^bb0(%x: f32, %y: f32):
      %m = arith.maximumf %x, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x8xf32>
    bufferization.materialize_in_destination %s in restrict writable %c : (tensor<8x8xf32>, memref<8x8xf32>) -> ()
    return
  }
}

// -----

// A consumer that reads the product transposed is no epilogue (a work-item's register tile
// is not the consumer's elements): the per-work-item distribution, with a remark.
// CHECK-LABEL: func.func @mm_transposed(
// CHECK-NOT: kiln.workgroup_strategy
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'mm_transposed' computes its 'linalg.matmul' per work-item, without LDS tiles or matrix instructions: the contraction is fused with its consumer 'linalg.generic', which is not an elementwise epilogue the strategy computes}}
  func.func @mm_transposed(%a: memref<8x4xf32>, %b: memref<4x8xf32>, %c: memref<8x8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 2 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %a restrict : memref<8x4xf32> to tensor<8x4xf32>
    %1 = bufferization.to_tensor %b restrict : memref<4x8xf32> to tensor<4x8xf32>
    %e = tensor.empty() : tensor<8x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %r = linalg.matmul ins(%0, %1 : tensor<8x4xf32>, tensor<4x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) attrs = {kiln.root} {
    ^bb0(%x: f32, %y: f32):
      %m = arith.maximumf %x, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x8xf32>
    bufferization.materialize_in_destination %s in restrict writable %c : (tensor<8x8xf32>, memref<8x8xf32>) -> ()
    return
  }
}

// -----

// A row reduction with one combiner: the reduction strategy.
// CHECK-LABEL: func.func @row_max(
// CHECK-SAME: kiln.workgroup_strategy = "gpu.workgroup_reduction"
module @kiln_executable attributes {kiln.executable} {
  func.func @row_max(%a: memref<8x100xf32>, %c: memref<8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
    %low = arith.constant -1.0e+30 : f32
    %0 = bufferization.to_tensor %a restrict : memref<8x100xf32> to tensor<8x100xf32>
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%low : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %r = linalg.reduce ins(%0 : tensor<8x100xf32>) outs(%f : tensor<8xf32>) dimensions = [1] {kiln.root}
      (%x: f32, %y: f32) { %m = arith.maximumf %x, %y : f32
        linalg.yield %m : f32 }
    bufferization.materialize_in_destination %r in restrict writable %c : (tensor<8xf32>, memref<8xf32>) -> ()
    return
  }
}

// -----

// A sum of squares folds a computed element (x * x) with one combiner: the reduction
// strategy.
// CHECK-LABEL: func.func @sum_squares(
// CHECK-SAME: kiln.workgroup_strategy = "gpu.workgroup_reduction"
module @kiln_executable attributes {kiln.executable} {
  func.func @sum_squares(%a: memref<8x100xf32>, %c: memref<8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %a restrict : memref<8x100xf32> to tensor<8x100xf32>
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %r = linalg.reduce ins(%0 : tensor<8x100xf32>) outs(%f : tensor<8xf32>) dimensions = [1] {kiln.root}
      (%x: f32, %y: f32) { %q = arith.mulf %x, %x : f32
        %s = arith.addf %q, %y : f32
        linalg.yield %s : f32 }
    bufferization.materialize_in_destination %r in restrict writable %c : (tensor<8xf32>, memref<8xf32>) -> ()
    return
  }
}

// -----

// A body that reads the accumulator twice is no combiner of (element, accumulator): no
// workgroup strategy.
// CHECK-LABEL: func.func @accumulator_twice(
// CHECK-NOT: kiln.workgroup_strategy
module @kiln_executable attributes {kiln.executable} {
  func.func @accumulator_twice(%a: memref<8x100xf32>, %c: memref<8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %a restrict : memref<8x100xf32> to tensor<8x100xf32>
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %r = linalg.reduce ins(%0 : tensor<8x100xf32>) outs(%f : tensor<8xf32>) dimensions = [1] {kiln.root}
      (%x: f32, %y: f32) { %q = arith.mulf %y, %y : f32
        %s = arith.addf %q, %x : f32
        linalg.yield %s : f32 }
    bufferization.materialize_in_destination %r in restrict writable %c : (tensor<8xf32>, memref<8xf32>) -> ()
    return
  }
}

// -----

// A convolution with input and output channels: the contraction strategy computes it as an
// implicit GEMM.
// CHECK-LABEL: func.func @conv(
// CHECK-SAME: kiln.workgroup_strategy = "gpu.workgroup_contraction"
module @kiln_executable attributes {kiln.executable} {
  func.func @conv(%i: memref<1x6x6x4xf32>, %k: memref<3x3x4x8xf32>, %o: memref<1x4x4x8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1, -1, -1>, array<i64: -1, -1, -1, -1>, array<i64: -1, -1, -1, -1>], kiln.input_count = 2 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %i restrict : memref<1x6x6x4xf32> to tensor<1x6x6x4xf32>
    %1 = bufferization.to_tensor %k restrict : memref<3x3x4x8xf32> to tensor<3x3x4x8xf32>
    %e = tensor.empty() : tensor<1x4x4x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    %r = linalg.conv_2d_nhwc_hwcf {kiln.root} ins(%0, %1 : tensor<1x6x6x4xf32>, tensor<3x3x4x8xf32>) outs(%f : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x4x4x8xf32>, memref<1x4x4x8xf32>) -> ()
    return
  }
}

// -----

// A depthwise convolution has no output channels to make the columns of a product: it runs
// per work-item, with a remark.
// CHECK-LABEL: func.func @depthwise(
// CHECK-NOT: kiln.workgroup_strategy
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'depthwise' computes its 'linalg.depthwise_conv_2d_nhwc_hwc' per work-item, without LDS tiles or matrix instructions}}
  func.func @depthwise(%i: memref<1x6x6x4xf32>, %k: memref<3x3x4xf32>, %o: memref<1x4x4x4xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1, -1, -1>, array<i64: -1, -1, -1>, array<i64: -1, -1, -1, -1>], kiln.input_count = 2 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %i restrict : memref<1x6x6x4xf32> to tensor<1x6x6x4xf32>
    %1 = bufferization.to_tensor %k restrict : memref<3x3x4xf32> to tensor<3x3x4xf32>
    %e = tensor.empty() : tensor<1x4x4x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %r = linalg.depthwise_conv_2d_nhwc_hwc {kiln.root} ins(%0, %1 : tensor<1x6x6x4xf32>, tensor<3x3x4xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x4x4x4xf32>, memref<1x4x4x4xf32>) -> ()
    return
  }
}

// -----

// A scatter of bindings into a fill: the scatter strategy.
// CHECK-LABEL: func.func @scatter(
// CHECK-SAME: kiln.workgroup_strategy = "gpu.workgroup_scatter"
module @kiln_executable attributes {kiln.executable} {
  func.func @scatter(%u: memref<?x2xf32>, %i: memref<?x2x2xi32>, %o: memref<?x4xf32>, %n: index, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: 0, -1>, array<i64: 0, -1, -1>, array<i64: 0, -1>], kiln.input_count = 2 : i64} {
    %zero = arith.constant 0.0 : f32
    %0 = bufferization.to_tensor %u restrict : memref<?x2xf32> to tensor<?x2xf32>
    %1 = bufferization.to_tensor %i restrict : memref<?x2x2xi32> to tensor<?x2x2xi32>
    %e = tensor.empty(%n) : tensor<?x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
    %r = iree_linalg_ext.scatter {kiln.root} dimension_map = [0, 1] unique_indices(true) ins(%0, %1 : tensor<?x2xf32>, tensor<?x2x2xi32>) outs(%f : tensor<?x4xf32>) {
    ^bb0(%a: f32, %b: f32):
      iree_linalg_ext.yield %a : f32
    } -> tensor<?x4xf32>
    bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x4xf32>, memref<?x4xf32>) -> ()
    return
  }
}

// -----

// Indices computed in the dispatch: the scatter stays on one work-item, with a remark.
// CHECK-LABEL: func.func @scatter_computed_indices(
// CHECK-NOT: kiln.workgroup_strategy
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'scatter_computed_indices' runs its scatter on one work-item: its updates, indices and mask are not all read from bindings}}
  func.func @scatter_computed_indices(%u: memref<3xf32>, %o: memref<8xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
    %zero = arith.constant 0.0 : f32
    %c2 = arith.constant 2 : i32
    %0 = bufferization.to_tensor %u restrict : memref<3xf32> to tensor<3xf32>
    %e = tensor.empty() : tensor<3x1xi32>
    %i = linalg.fill ins(%c2 : i32) outs(%e : tensor<3x1xi32>) -> tensor<3x1xi32>
    %oe = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%oe : tensor<8xf32>) -> tensor<8xf32>
    %r = iree_linalg_ext.scatter {kiln.root} dimension_map = [0] unique_indices(false) ins(%0, %i : tensor<3xf32>, tensor<3x1xi32>) outs(%f : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      iree_linalg_ext.yield %s : f32
    } -> tensor<8xf32>
    bufferization.materialize_in_destination %r in restrict writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
    return
  }
}

// -----

// A topk whose line does not fit in LDS keeps one line per work-item, with a remark.
// CHECK-LABEL: func.func @long_topk(
// CHECK-NOT: kiln.workgroup_strategy
module @kiln_executable attributes {kiln.executable} {
  // expected-remark @+1 {{dispatch 'long_topk' runs its 'iree_linalg_ext.topk' one line per work-item, without LDS: its topk's candidates (k + the line) exceed the}}
  func.func @long_topk(%x: memref<2x100000xf32>, %v: memref<2x8xf32>, %i: memref<2x8xi32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1, -1>, array<i64: -1, -1>, array<i64: -1, -1>], kiln.input_count = 1 : i64} {
    %low = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0 : i32
    %0 = bufferization.to_tensor %x restrict : memref<2x100000xf32> to tensor<2x100000xf32>
    %ev = tensor.empty() : tensor<2x8xf32>
    %ei = tensor.empty() : tensor<2x8xi32>
    %fv = linalg.fill ins(%low : f32) outs(%ev : tensor<2x8xf32>) -> tensor<2x8xf32>
    %fi = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x8xi32>) -> tensor<2x8xi32>
    %r:2 = iree_linalg_ext.topk {kiln.root} dimension(1) ins(%0 : tensor<2x100000xf32>) outs(%fv, %fi : tensor<2x8xf32>, tensor<2x8xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %c : i1
    } -> tensor<2x8xf32>, tensor<2x8xi32>
    bufferization.materialize_in_destination %r#0 in restrict writable %v : (tensor<2x8xf32>, memref<2x8xf32>) -> ()
    bufferization.materialize_in_destination %r#1 in restrict writable %i : (tensor<2x8xi32>, memref<2x8xi32>) -> ()
    return
  }
}
