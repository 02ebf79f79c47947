// Ill-formed iree_linalg_ext ops get a diagnostic naming the problem.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @sort_dimension(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'iree_linalg_ext.sort' op dimension 1 is out of range for rank 1}}
  %0 = iree_linalg_ext.sort dimension(1) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_comparator_arity(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'iree_linalg_ext.sort' op expects the comparator region to take 4 arguments, got 2}}
  %0:2 = iree_linalg_ext.sort dimension(0) outs(%x, %i : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<4xf32>, tensor<4xi32>
  return %0#0 : tensor<4xf32>
}

// -----

func.func @topk_shape(%x: tensor<4x8xf32>, %v: tensor<3x2xf32>, %i: tensor<3x2xi32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'iree_linalg_ext.topk' op operand of type 'tensor<3x2xf32>' does not match the values 'tensor<4x8xf32>' outside dimension 1}}
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%x : tensor<4x8xf32>) outs(%v, %i : tensor<3x2xf32>, tensor<3x2xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<3x2xf32>, tensor<3x2xi32>
  return %0#0 : tensor<3x2xf32>
}

// -----

func.func @scatter_map(%u: tensor<2xf32>, %i: tensor<2x1xi32>, %o: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'iree_linalg_ext.scatter' op dimension_map entry 1 is out of range or repeated for rank 1}}
  %0 = iree_linalg_ext.scatter dimension_map = [1] unique_indices(true) ins(%u, %i : tensor<2xf32>, tensor<2x1xi32>)
      outs(%o : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @gather_output(%s: tensor<4x8xf32>, %i: tensor<2xi32>, %o: tensor<2x8x3xf32>) -> tensor<2x8x3xf32> {
  // expected-error @+1 {{'iree_linalg_ext.gather' op slice dimension 1 of the output (size 8) exceeds dimension 0 of the source (size 4)}}
  %0 = iree_linalg_ext.gather dimension_map = [0] ins(%s, %i : tensor<4x8xf32>, tensor<2xi32>)
      outs(%o : tensor<2x8x3xf32>) -> tensor<2x8x3xf32>
  return %0 : tensor<2x8x3xf32>
}

// -----

func.func @scan_total(%x: tensor<4x3xi32>, %o: tensor<4x3xi32>, %t: tensor<4xi32>) -> tensor<4x3xi32> {
  // expected-error @+1 {{'iree_linalg_ext.scan' op expects the total 'tensor<4xi32>' to be the input 'tensor<4x3xi32>' without dimension 0}}
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<4x3xi32>) outs(%o, %t : tensor<4x3xi32>, tensor<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    iree_linalg_ext.yield %s : i32
  } -> tensor<4x3xi32>, tensor<4xi32>
  return %0#0 : tensor<4x3xi32>
}

// -----

func.func @attention_maps(%q: tensor<1x3x4xf32>, %o: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %s = arith.constant 1.0 : f32
  // expected-error @+1 {{'iree_linalg_ext.attention' op expects 5 indexing maps, got 1}}
  %0 = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}
      ins(%q, %q, %q, %s : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, f32)
      outs(%o : tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// -----

func.func @gather_depth(%s: tensor<4x8xf32>, %i: tensor<6x3xi32>, %o: tensor<6x3xf32>) -> tensor<6x3xf32> {
  // expected-error @+1 {{'iree_linalg_ext.gather' op expects the indices' last dimension to be the index depth 2}}
  %0 = iree_linalg_ext.gather dimension_map = [0, 1] ins(%s, %i : tensor<4x8xf32>, tensor<6x3xi32>)
      outs(%o : tensor<6x3xf32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// -----

func.func @scatter_mask_type(%u: tensor<2xf32>, %i: tensor<2x1xi32>, %m: tensor<2xi8>, %o: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'iree_linalg_ext.scatter' op expects an i1 mask over the 1 batch dimensions, got 'tensor<2xi8>'}}
  %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true) ins(%u, %i, %m : tensor<2xf32>, tensor<2x1xi32>, tensor<2xi8>)
      outs(%o : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    iree_linalg_ext.yield %a : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @attention_unused_loop(%q: tensor<1x3x4xf32>, %o: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %s = arith.constant 1.0 : f32
  // expected-error @+1 {{'iree_linalg_ext.attention' op expects indexing maps over the same loops, each loop indexing some operand}}
  %0 = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>,
                                                   affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d2)>,
                                                   affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4)>,
                                                   affine_map<(d0, d1, d2, d3, d4, d5) -> ()>,
                                                   affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4)>]}
      ins(%q, %q, %q, %s : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, f32)
      outs(%o : tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// -----

func.func @attention_mask_type(%q: tensor<1x3x4xf32>, %m: tensor<1x3x3xi8>, %o: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %s = arith.constant 1.0 : f32
  // expected-error @+1 {{'iree_linalg_ext.attention' op expects an i1 or float mask, got 'tensor<1x3x3xi8>'}}
  %0 = iree_linalg_ext.attention {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> ()>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>,
                                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>]}
      ins(%q, %q, %q, %s, %m : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, f32, tensor<1x3x3xi8>)
      outs(%o : tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}
