// RUN: kiln-opt %s -kiln-cpu-vectorize-dequantizing-products="vector-bits=512" | FileCheck %s
// RUN: kiln-opt %s -kiln-cpu-vectorize-dequantizing-products="vector-bits=256" | FileCheck %s --check-prefix=AVX2

// Unsigned nibbles taken by a mask (andi 15) with a zero point of 8 subtracted in f32:
// with 512-bit vectors the nibble's value, (q - 8) as f32 after uitofp, is one table
// (0 - 8 .. 15 - 8) looked up by vpermps; the low nibble needs no shift. With 256-bit
// vectors (no vpermps over 16 floats) the body's own ops are vectorized.
// CHECK-LABEL: func.func @masked_nibbles
// CHECK: %[[BYTES:.*]] = vector.load %{{.*}} : memref<?x32xi8>, vector<16xi8>
// CHECK: %[[WIDE:.*]] = arith.extui %[[BYTES]] : vector<16xi8> to vector<16xi32>
// CHECK: %[[TABLE:.*]] = arith.constant dense<[-8.000000e+00, -7.000000e+00, -6.000000e+00, -5.000000e+00, -4.000000e+00, -3.000000e+00, -2.000000e+00, -1.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : vector<16xf32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[WIDE]])
// CHECK-NOT: arith.andi
// CHECK-NOT: arith.uitofp
// AVX2-LABEL: func.func @masked_nibbles
// AVX2-NOT: llvm.call_intrinsic
// AVX2: arith.andi %{{.*}} : vector<8xi8>
// AVX2: arith.uitofp
func.func @masked_nibbles(%x: memref<1x32xf32>, %w: memref<?x32xi8>, %s: memref<?xf32>, %out: memref<1x?xf32>) {
  %c15 = arith.constant 15 : i8
  %eight = arith.constant 8.0 : f32
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w, %s : memref<1x32xf32>, memref<?x32xi8>, memref<?xf32>) outs(%out : memref<1x?xf32>) {
  ^bb0(%in: f32, %byte: i8, %scale: f32, %acc: f32):
    %q = arith.andi %byte, %c15 : i8
    %f = arith.uitofp %q : i8 to f32
    %centered = arith.subf %f, %eight : f32
    %w8 = arith.mulf %centered, %scale : f32
    %p = arith.mulf %in, %w8 : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}
