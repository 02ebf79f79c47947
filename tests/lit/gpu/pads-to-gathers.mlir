// RUN: kiln-opt %s -split-input-file -kiln-gpu-pads-to-gathers | FileCheck %s

// A pad with dynamic sizes becomes one parallel op over the padded result: each element
// is read from the source where the shifted index lies inside it (one unsigned compare
// per dimension), and is the pad value elsewhere. No tensor.pad is left to bufferize
// into a temporary.
// CHECK-LABEL: func.func @dynamic_pad(
// CHECK-SAME: %[[SRC:[a-z0-9]+]]: tensor<?x?xi32>, %[[HIGH0:[a-z0-9]+]]: index, %[[HIGH1:[a-z0-9]+]]: index
// CHECK-NOT: tensor.pad
// CHECK: %[[EMPTY:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xi32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<?x?xi32>) attrs =  {kiln.root}
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[SI:.*]] = arith.subi %[[I]], %c1
// CHECK: %[[D0:.*]] = tensor.dim %[[SRC]], %c0
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[SI]], %[[D0]]
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[SJ:.*]] = arith.subi %[[J]], %c2
// CHECK: %[[IN1:.*]] = arith.cmpi ult, %[[SJ]]
// CHECK: %[[IN:.*]] = arith.andi %[[IN0]], %[[IN1]]
// CHECK: %[[V:.*]] = scf.if %[[IN]] -> (i32) {
// CHECK:   %[[E:.*]] = tensor.extract %[[SRC]][%[[SI]], %[[SJ]]]
// CHECK:   scf.yield %[[E]]
// CHECK: } else {
// CHECK:   scf.yield %c7_i32
// CHECK: linalg.yield %[[V]]
func.func @dynamic_pad(%src: tensor<?x?xi32>, %h0: index, %h1: index) -> tensor<?x?xi32> {
  %c7 = arith.constant 7 : i32
  %padded = tensor.pad %src low[1, 2] high[%h0, %h1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c7 : i32
  } {kiln.root} : tensor<?x?xi32> to tensor<?x?xi32>
  return %padded : tensor<?x?xi32>
}

// -----

// A pad region that depends on the result index is evaluated at that index.
// CHECK-LABEL: func.func @index_dependent_pad(
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: scf.if
// CHECK: tensor.extract
// CHECK: } else {
// CHECK:   %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   scf.yield %[[C]]
// CHECK: -> tensor<6xi32>
func.func @index_dependent_pad(%src: tensor<4xi32>) -> tensor<6xi32> {
  %padded = tensor.pad %src low[1] high[1] {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    tensor.yield %c : i32
  } : tensor<4xi32> to tensor<6xi32>
  return %padded : tensor<6xi32>
}
