// RUN: kiln-opt %s -split-input-file -verify-diagnostics
// Invalid input gets MLIR's diagnostic at its location and kiln-opt exits 1 (here, with
// -verify-diagnostics, the expected diagnostics are checked instead).

#map_a = affine_map<(b, m, n, k) -> (b, m, k)>
#map_b = affine_map<(b, m, n, k) -> (b, k, n)>
#map_c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_matmul_rank_disagrees_with_map(%a: tensor<4x8xf32>, %b: tensor<2x8x16xf32>,
                                                %c: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  // expected-error @+1 {{'linalg.batch_matmul' op expected operand #0 rank (2) to match the result rank of indexing_map (3)}}
  %r = linalg.batch_matmul indexing_maps = [#map_a, #map_b, #map_c]
         ins(%a, %b : tensor<4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// -----

func.func @unknown_dialect() {
  // expected-error @+1 {{operation being parsed with an unregistered dialect}}
  %x = "foo.bar"() : () -> i32
  return
}

// -----

func.func @type_mismatch(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{type of return operand 0 ('tensor<4xf32>') doesn't match function result type ('tensor<4xi32>')}}
  return %a : tensor<4xf32>
}
