// RUN: kiln-opt %s -split-input-file -kiln-form-dispatches -kiln-annotate-dispatch-costs | FileCheck %s

// Static shapes: exact numbers. A 32x64 by 64x16 matmul is 2*32*16*64 FLOPs (mulf and
// addf per point; the fill of its accumulator does no arithmetic); it reads both operands
// and writes the result. The relu reads and writes 32x16 floats and does one maximumf each.
// CHECK-LABEL: module @kiln_executable
// CHECK: func.func @static_mm_dispatch_{{[0-9]+}}_generic
// CHECK-SAME: kiln.cost = {bytes_read = [array<i64: 2048>], bytes_written = [array<i64: 2048>], flops = [array<i64: 512>]}
// CHECK: func.func @static_mm_dispatch_{{[0-9]+}}_matmul
// CHECK-SAME: kiln.cost = {bytes_read = [array<i64: 8192>, array<i64: 4096>], bytes_written = [array<i64: 2048>], flops = [array<i64: 65536>]}
func.func @static_mm(%a: tensor<32x64xf32>, %b: tensor<64x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// A dynamic row count: each formula term multiplies by the push-constant word holding it
// (array<i64: coefficient, word...>), so the runtime computes exact numbers from the
// dispatch's constants. The matmul's rows are those of its input binding (the same word).
// CHECK-LABEL: module @kiln_executable
// CHECK: func.func @dynamic_mm_dispatch_{{[0-9]+}}_matmul
// CHECK-SAME: kiln.cost = {bytes_read = [array<i64: 32, [[IN:[0-9]+]]>, array<i64: 512>], bytes_written = [array<i64: 64, {{[0-9]+}}>], flops = [array<i64: 256, [[IN]]>]}
func.func @dynamic_mm(%a: tensor<?x8xf32>, %b: tensor<8x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %m : tensor<?x16xf32>
}

// -----

// Bytes of other element types: f16 in, i8 out; an exp is one FLOP, casts none.
// CHECK-LABEL: module @kiln_executable
// CHECK: func.func @types_dispatch_{{[0-9]+}}_generic
// CHECK-SAME: kiln.cost = {bytes_read = [array<i64: 128>], bytes_written = [array<i64: 64>], flops = [array<i64: 64>]}
func.func @types(%a: tensor<64xf16>) -> tensor<64xi8> {
  %e = tensor.empty() : tensor<64xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<64xf16>) outs(%e : tensor<64xi8>) {
  ^bb0(%x: f16, %o: i8):
    %y = math.exp %x : f16
    %z = arith.fptosi %y : f16 to i8
    linalg.yield %z : i8
  } -> tensor<64xi8>
  return %r : tensor<64xi8>
}
