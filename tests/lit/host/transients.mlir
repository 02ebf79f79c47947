// Intermediates that die inside the block share one slab, placed by liveness: the three
// 4 KiB intermediates of a chain of four matmuls need two slots (ping-pong), not three. The returned result is
// allocated on its own, and the program still computes the right answer.
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-dump %t.kiln | FileCheck %s
// CHECK: const.i64 [[SLAB:%l[0-9]+]], 8192
// CHECK-NEXT: call @hal.allocator.allocate(%{{.*}}, %{{.*}}, [[SLAB]])
// CHECK: const.i64 [[OFF0:%l[0-9]+]], 0{{$}}
// CHECK-NEXT: call @hal.buffer.subspan(%{{.*}}, [[OFF0]],
// CHECK: const.i64 [[OFF1:%l[0-9]+]], 4096{{$}}
// CHECK-NEXT: call @hal.buffer.subspan(%{{.*}}, [[OFF1]],
// The third intermediate reuses the first one's slot (8192 bytes hold all three).
// CHECK: call @hal.buffer.subspan(
// CHECK-NOT: hal.buffer.subspan
// CHECK: call @hal.allocator.allocate
// RUN: kiln-run --module=%t.kiln --function=chain --input=32x32xf32=1 --input=32x32xf32=0.5 --expected_output=32x32xf32=65536
func.func @chain(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m1 = linalg.matmul ins(%x, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m2 = linalg.matmul ins(%m1, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m3 = linalg.matmul ins(%m2, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m4 = linalg.matmul ins(%m3, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %m4 : tensor<32x32xf32>
}
