// RUN: kiln-opt %s -split-input-file -kiln-cpu-linalg-ext-to-loops -canonicalize -cse | FileCheck %s

// A sort by one plain comparison takes the radix path, lines of 2^31 elements or more the
// merge sort. Their scratch is one block: two lines per operand (the merge sort's; empty
// when the radix path runs), the digit histograms, and two lines of i64 (empty when the
// merge sort runs) that the radix passes move the operands through, packed (f32 bits
// low, the i32 above): the first pass packs, the middle ones move the packed element, the
// last unpacks.
// CHECK-LABEL: func.func @sort_radix
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi ugt, %[[N]], %c0 : index
// CHECK: %[[SHORT:.*]] = arith.cmpi ult, %[[N]], %c2147483648 : index
// CHECK: %[[FITS:.*]] = arith.andi %[[SHORT]], %[[NONEMPTY]]
// CHECK: %[[OPERAND_LENGTH:.*]] = arith.select %[[FITS]], %c0, %[[N]] : index
// CHECK: %[[RADIX_LENGTH:.*]] = arith.select %[[FITS]], %[[N]], %c0 : index
// CHECK: %[[BLOCK:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi8>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%[[OPERAND_LENGTH]]] : memref<?xi8> to memref<?xf32>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%[[OPERAND_LENGTH]]] : memref<?xi8> to memref<?xi32>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%[[OPERAND_LENGTH]]] : memref<?xi8> to memref<?xf32>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%[[OPERAND_LENGTH]]] : memref<?xi8> to memref<?xi32>
// CHECK: %[[HISTOGRAMS:.*]] = memref.view %[[BLOCK]][%{{.*}}][] : memref<?xi8> to memref<6144xi32>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%[[RADIX_LENGTH]]] : memref<?xi8> to memref<?xi64>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%[[RADIX_LENGTH]]] : memref<?xi8> to memref<?xi64>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.view
// CHECK: scf.if %[[FITS]]
// Lines of 64K elements or more: three digits of 11 bits; shorter ones: four of 8 bits.
// CHECK: %[[WIDE:.*]] = arith.cmpi uge, %{{.*}}, %c65536 : index
// CHECK: scf.if %[[WIDE]]
// CHECK: arith.shrui %{{.*}}, %c11_i32
// CHECK: arith.andi %{{.*}}, %c2047_i32
// CHECK: arith.shrui %{{.*}}, %c22_i32
// CHECK-NOT: %c24_i32
// The first pass packs each element (scattered or, when trivial, copied).
// CHECK: %[[LOW:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[HIGH:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[HIGH]], %c32_i64 : i64
// CHECK: %[[PACKED:.*]] = arith.ori %[[LOW]], %[[SHIFTED]] : i64
// CHECK: memref.store %[[PACKED]], %{{.*}} : memref<?xi64>
// Later passes take the key from the packed element's low bits.
// CHECK: arith.trunci %{{.*}} : i64 to i32
// The last pass (digit 2, from bit 22) unpacks into the operands; its trivial branch
// copies, unpacking the same way.
// CHECK: arith.shrui %{{.*}}, %c22_i32
// CHECK: %[[ELEMENT:.*]] = memref.load %{{.*}} : memref<?xi64>
// CHECK-NEXT: %[[KEY_BITS:.*]] = arith.trunci %[[ELEMENT]] : i64 to i32
// CHECK-NEXT: %[[KEY:.*]] = arith.bitcast %[[KEY_BITS]] : i32 to f32
// CHECK-NEXT: %[[ABOVE:.*]] = arith.shrui %[[ELEMENT]], %c32_i64 : i64
// CHECK-NEXT: %[[INDEX:.*]] = arith.trunci %[[ABOVE]] : i64 to i32
// CHECK-NEXT: memref.store %[[KEY]], %arg0
// CHECK-NEXT: memref.store %[[INDEX]], %arg1
// CHECK: } else {
// CHECK: arith.shrui %{{.*}}, %c8_i32
// CHECK: arith.andi %{{.*}}, %c255_i32
// CHECK: arith.shrui %{{.*}}, %c24_i32
// CHECK: } else {
// CHECK: scf.while
// CHECK: memref.dealloc %[[BLOCK]]
// CHECK-NOT: memref.dealloc
// CHECK-NOT: iree_linalg_ext
func.func @sort_radix(%keys: memref<?xf32>, %perm: memref<?xi32>) {
  iree_linalg_ext.sort dimension(0) outs(%keys, %perm : memref<?xf32>, memref<?xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }
  return
}

// -----

// Three narrow operands (f16, i16, i32: 64 bits) pack into an i64 at bit offsets 0, 16
// and 32; two of 16 bits (i16 keys, f16 values) into an i32. Operands that would take more
// bytes packed than in their own lines (f16 with i8: 3 bytes into an i32) and those with
// an operand wider than 32 bits (f32 with i64) move through the passes in lines of their
// own, n long, with no packed lines.
// CHECK-LABEL: func.func @sort_radix_packed_narrow
// CHECK: memref.view %{{.*}} : memref<?xi8> to memref<6144xi32>
// CHECK-COUNT-2: memref.view %{{.*}} : memref<?xi8> to memref<?xi64>
// CHECK-NOT: memref.view
// CHECK-DAG: arith.shli %{{.*}}, %c16_i64 : i64
// CHECK-DAG: arith.shli %{{.*}}, %c32_i64 : i64
// CHECK: arith.shrui %{{.*}}, %c16_i64 : i64
// CHECK: arith.trunci %{{.*}} : i64 to i16
// CHECK: arith.shrui %{{.*}}, %c32_i64 : i64
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK-LABEL: func.func @sort_radix_packed_i32
// CHECK: memref.view %{{.*}} : memref<?xi8> to memref<6144xi32>
// CHECK-COUNT-2: memref.view %{{.*}} : memref<?xi8> to memref<?xi32>
// CHECK-NOT: memref.view
// CHECK: arith.shli %{{.*}}, %c16_i32 : i32
// CHECK-LABEL: func.func @sort_radix_not_packed
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: memref.view %{{.*}}[%{{.*}}][%[[N]]] : memref<?xi8> to memref<?xf16>
// CHECK: memref.view %{{.*}}[%{{.*}}][%[[N]]] : memref<?xi8> to memref<?xi8>
// CHECK: memref.view %{{.*}}[%{{.*}}][%[[N]]] : memref<?xi8> to memref<?xf16>
// CHECK: memref.view %{{.*}}[%{{.*}}][%[[N]]] : memref<?xi8> to memref<?xi8>
// CHECK: memref.view %{{.*}} : memref<?xi8> to memref<6144xi32>
// CHECK-NOT: memref.view
// CHECK-NOT: arith.shli
// CHECK-LABEL: func.func @sort_radix_i64_payload
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK-COUNT-2: memref.view %{{.*}}[%{{.*}}][%[[N]]] : memref<?xi8> to memref<?x{{f32|i64}}>
// CHECK: memref.view %{{.*}} : memref<?xi8> to memref<6144xi32>
// CHECK-NOT: memref.view
// CHECK-NOT: arith.shli
func.func @sort_radix_packed_narrow(%keys: memref<?xf16>, %a: memref<?xi16>, %b: memref<?xi32>) {
  iree_linalg_ext.sort dimension(0) outs(%keys, %a, %b : memref<?xf16>, memref<?xi16>, memref<?xi32>) {
  ^bb0(%x: f16, %y: f16, %p: i16, %q: i16, %r: i32, %s: i32):
    %lt = arith.cmpf olt, %x, %y : f16
    iree_linalg_ext.yield %lt : i1
  }
  return
}
func.func @sort_radix_packed_i32(%keys: memref<?xi16>, %v: memref<?xf16>) {
  iree_linalg_ext.sort dimension(0) outs(%keys, %v : memref<?xi16>, memref<?xf16>) {
  ^bb0(%x: i16, %y: i16, %p: f16, %q: f16):
    %gt = arith.cmpi sgt, %x, %y : i16
    iree_linalg_ext.yield %gt : i1
  }
  return
}
func.func @sort_radix_not_packed(%keys: memref<?xf16>, %v: memref<?xi8>) {
  iree_linalg_ext.sort dimension(0) outs(%keys, %v : memref<?xf16>, memref<?xi8>) {
  ^bb0(%x: f16, %y: f16, %p: i8, %q: i8):
    %lt = arith.cmpf olt, %x, %y : f16
    iree_linalg_ext.yield %lt : i1
  }
  return
}
func.func @sort_radix_i64_payload(%keys: memref<?xf32>, %v: memref<?xi64>) {
  iree_linalg_ext.sort dimension(0) outs(%keys, %v : memref<?xf32>, memref<?xi64>) {
  ^bb0(%x: f32, %y: f32, %p: i64, %q: i64):
    %lt = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %lt : i1
  }
  return
}

// -----

// Operands of more than 16 bytes an element in all: the passes move 32-bit keys and their
// ranks, each pair one i64 (two more lines in the block), then a gather through the ranks
// (the pairs' high halves) permutes every operand (in place: through a copy in the
// operands' first scratch lines).
// CHECK-LABEL: func.func @sort_radix_wide
// CHECK: %[[BLOCK:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi8>
// CHECK-COUNT-6: memref.view %[[BLOCK]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?x{{f32|i64}}>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][] : memref<?xi8> to memref<6144xi32>
// CHECK-COUNT-2: memref.view %[[BLOCK]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xi64>
// CHECK-NOT: memref.view
// CHECK-NOT: memref.alloc
// CHECK: scf.if
// The first read pairs each key with its position.
// CHECK: %[[POSITION:.*]] = arith.index_cast{{.*}} : index to i64
// CHECK: %[[RANK:.*]] = arith.shli %[[POSITION]], %c32_i64 : i64
// CHECK: %[[WIDE_KEY:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: arith.ori %[[WIDE_KEY]], %[[RANK]] : i64
// CHECK: %[[KEY:.*]] = memref.load %view{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NEXT: memref.store %[[KEY]], %arg0[
// CHECK: %[[FINAL_RANK:.*]] = arith.shrui %{{.*}}, %c32_i64 : i64
// CHECK: arith.index_cast{{.*}} %[[FINAL_RANK]] : i64 to index
// CHECK: } else {
// CHECK: memref.dealloc %[[BLOCK]]
// CHECK-NOT: memref.dealloc
func.func @sort_radix_wide(%keys: memref<?xf32>, %a: memref<?xi64>, %b: memref<?xi64>) {
  iree_linalg_ext.sort dimension(0) outs(%keys, %a, %b : memref<?xf32>, memref<?xi64>, memref<?xi64>) {
  ^bb0(%x: f32, %y: f32, %p: i64, %q: i64, %r: i64, %s: i64):
    %gt = arith.cmpf ogt, %x, %y : f32
    iree_linalg_ext.yield %gt : i1
  }
  return
}

// -----

// Lines of elements other than integers, floats or indices (complex here) get their own
// allocations beside the block; a complex operand takes the keys and ranks. All are freed.
// CHECK-LABEL: func.func @sort_complex_payload
// CHECK: %[[BLOCK:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi8>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xf32>
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?xcomplex<f32>>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xf32>
// CHECK: %[[B:.*]] = memref.alloc(%{{.*}}) : memref<?xcomplex<f32>>
// CHECK: memref.view %[[BLOCK]][%{{.*}}][] : memref<?xi8> to memref<6144xi32>
// CHECK-COUNT-2: memref.view %[[BLOCK]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xi64>
// CHECK-DAG: memref.dealloc %[[BLOCK]]
// CHECK-DAG: memref.dealloc %[[A]]
// CHECK-DAG: memref.dealloc %[[B]]
// CHECK-NOT: memref.dealloc
func.func @sort_complex_payload(%keys: memref<?xf32>, %payload: memref<?xcomplex<f32>>) {
  iree_linalg_ext.sort dimension(0) outs(%keys, %payload : memref<?xf32>, memref<?xcomplex<f32>>) {
  ^bb0(%a: f32, %b: f32, %x: complex<f32>, %y: complex<f32>):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }
  return
}

// -----

// Any other comparator: merge sort only, the comparator inlined into the run insertion
// (a while loop) and into the merge steps: first chunks as long as neither run can end
// in them (the fewest elements left in A, in B, or outputs), whose loads are not
// clamped, then the rest with loads clamped into the runs.
// CHECK-LABEL: func.func @sort_by_two_keys
// CHECK-NOT: arith.shrui
// CHECK: scf.while
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi eq
// CHECK: %[[A_END:.*]] = arith.minui %{{.*}}, %c8 : index
// CHECK: %[[B_END:.*]] = arith.minui %{{.*}}, %c8 : index
// CHECK: scf.while (%[[DONE:.*]] = %c0, %[[I:.*]] = %{{.*}}, %[[J:.*]] = %[[A_END]])
// CHECK: %[[A_LEFT:.*]] = arith.subi %[[A_END]], %[[I]] : index
// CHECK: arith.minui %{{.*}}, %[[A_LEFT]] : index
// CHECK: %[[B_LEFT:.*]] = arith.subi %[[B_END]], %[[J]] : index
// CHECK: %[[CHUNK:.*]] = arith.minui %{{.*}}, %[[B_LEFT]] : index
// CHECK: scf.condition(%{{.*}}) %[[DONE]], %[[I]], %[[J]], %[[CHUNK]]
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%[[UI:.*]] = %{{.*}}, %[[UJ:.*]] = %{{.*}})
// CHECK-NOT: arith.minui
// CHECK: memref.load %{{.*}}[%[[UI]]]
// CHECK-NOT: arith.minui
// CHECK: memref.load %{{.*}}[%[[UJ]]]
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} iter_args(%[[CI:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: arith.minui %[[CI]], %{{.*}} : index
// CHECK-NOT: iree_linalg_ext
func.func @sort_by_two_keys(%a: memref<4x8xi32>, %b: memref<4x8xi32>) {
  iree_linalg_ext.sort dimension(1) outs(%a, %b : memref<4x8xi32>, memref<4x8xi32>) {
  ^bb0(%x: i32, %y: i32, %p: i32, %q: i32):
    %lt = arith.cmpi slt, %x, %y : i32
    %eq = arith.cmpi eq, %x, %y : i32
    %lt2 = arith.cmpi slt, %p, %q : i32
    %tie = arith.andi %eq, %lt2 : i1
    %r = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %r : i1
  }
  return
}

// -----

// topk: per row, an element better than the k-th is inserted after its equals. The
// insertion's condition loads position j - 1 only in bounds: at j = 0 it loads position 0
// (j - 1 wrapped to index -1 there once, a read before the output: a fault on the GPU).
// CHECK-LABEL: func.func @topk
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c4
// CHECK: scf.for %[[I:.*]] = %c0 to %c16
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[ROW]], %[[I]]]
// CHECK: %[[KTH:.*]] = memref.load %{{.*}}[%[[ROW]], %c2]
// CHECK: %[[BETTER:.*]] = arith.cmpf ogt, %[[X]], %[[KTH]]
// CHECK: scf.if %[[BETTER]]
// CHECK: scf.while (%[[J:.*]] = %c2)
// CHECK: %[[ABOVE:.*]] = arith.cmpi ugt, %[[J]], %c0 : index
// CHECK: %[[PREVIOUS:.*]] = arith.subi %[[J]], %c1 : index
// CHECK: %[[AT:.*]] = arith.select %[[ABOVE]], %[[PREVIOUS]], %c0 : index
// CHECK: memref.load %arg1[%[[ROW]], %[[AT]]] : memref<4x3xf32>
// CHECK: scf.condition
// CHECK-NOT: iree_linalg_ext
func.func @topk(%x: memref<4x16xf32>, %v: memref<4x3xf32>, %i: memref<4x3xi32>) {
  iree_linalg_ext.topk dimension(1) ins(%x : memref<4x16xf32>) outs(%v, %i : memref<4x3xf32>, memref<4x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  }
  return
}

// -----

// topk_v2: an element better than the heap's root (the worst kept) replaces it and sifts
// down; is_sorted heap-sorts the k at the end.
// CHECK-LABEL: func.func @topk_v2
// CHECK: scf.for
// CHECK: %[[ROOT:.*]] = memref.load %{{.*}}[%c0]
// CHECK: arith.cmpf olt, %{{.*}}, %[[ROOT]]
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %{{.*}}[%c0]
// CHECK: scf.while
// CHECK: scf.for
// CHECK: scf.while
// CHECK-NOT: iree_linalg_ext
func.func @topk_v2(%x: memref<?xf32>, %v: memref<?xf32>) {
  iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%x : memref<?xf32>) outs(%v : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }
  return
}

// -----

// Exclusive scan: the first output is the initial total; each next combines the previous
// output with the previous input; the last output becomes the total.
// CHECK-LABEL: func.func @scan_exclusive
// CHECK: %[[INIT:.*]] = memref.load %[[TOTAL:.*]][]
// CHECK: memref.store %[[INIT]], %{{.*}}[%c0]
// CHECK: %[[LAST:.*]] = scf.for %[[I:.*]] = %c1 to %{{.*}} step %c1 iter_args(%[[PREV:.*]] = %[[INIT]])
// CHECK: %[[BEFORE:.*]] = arith.subi %[[I]], %c1
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[BEFORE]]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[PREV]], %[[X]]
// CHECK: memref.store %[[LAST]], %{{.*}}[]
func.func @scan_exclusive(%x: memref<?xi32>, %out: memref<?xi32>, %total: memref<i32>) {
  iree_linalg_ext.scan dimension(0) inclusive(false) ins(%x : memref<?xi32>) outs(%out, %total : memref<?xi32>, memref<i32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    iree_linalg_ext.yield %s : i32
  }
  return
}

// -----

// scatter: mask, index and fit (0 <= index and index + window <= size) once per batch
// position; then every element of its slice is combined into the original.
// CHECK-LABEL: func.func @scatter_add
// CHECK: scf.for %[[B:.*]] = %c0 to %c2
// CHECK: %[[MASK:.*]] = memref.load %{{.*}}[%[[B]]] : memref<2xi1>
// CHECK: %[[IDX:.*]] = memref.load %{{.*}}[%[[B]], %c0] : memref<2x1xi32>
// CHECK: %[[OFF:.*]] = arith.index_cast %[[IDX]]
// CHECK: arith.cmpi sge, %[[OFF]], %c0
// CHECK: arith.cmpi sle, %[[OFF]], %c7
// CHECK: scf.if
// CHECK: scf.for %[[C:.*]] = %c0 to %c4
// CHECK: %[[OLD:.*]] = memref.load %{{.*}}[%[[OFF]], %[[C]]]
// CHECK: %[[NEW:.*]] = memref.load %{{.*}}[%[[B]], %[[C]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[NEW]], %[[OLD]]
// CHECK: memref.store %[[SUM]]
func.func @scatter_add(%u: memref<2x4xf32>, %i: memref<2x1xi32>, %m: memref<2xi1>, %o: memref<8x4xf32>) {
  iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%u, %i, %m : memref<2x4xf32>, memref<2x1xi32>, memref<2xi1>)
      outs(%o : memref<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    iree_linalg_ext.yield %s : f32
  }
  return
}

// -----

// A merge pass of a split sort in a dispatch function: this workgroup's block [lo, hi) of
// the line (chunk = ceil(n / count)), for each pair of runs it overlaps one merge-path
// binary search (scf.while) where the block starts, then the sequential merge (scf.for
// carrying the positions in both runs) writing the outputs from the inputs.
// CHECK-LABEL: func.func @sort_merge(
// CHECK-SAME: %[[IN:[a-z0-9]+]]: memref<300000xf32>, %[[OUT:[a-z0-9]+]]: memref<300000xf32>, %[[ID:[a-z0-9]+]]: index, %[[COUNT:[a-z0-9]+]]: index
// CHECK: %[[CHUNK0:.*]] = arith.ceildivui %{{.*}}, %[[COUNT]]
// CHECK: %[[CHUNK:.*]] = arith.maxui %[[CHUNK0]]
// CHECK: %[[LO0:.*]] = arith.muli %[[ID]], %[[CHUNK]]
// CHECK: %[[LO:.*]] = arith.minui %[[LO0]]
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[SPLIT:.*]]:2 = scf.while
// CHECK:     arith.cmpf olt
// CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK:     memref.load %[[IN]]
// CHECK:     arith.cmpf olt
// CHECK:     memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT: iree_linalg_ext.sort
func.func @sort_merge(%in: memref<300000xf32>, %out: memref<300000xf32>, %id: index, %count: index) attributes {kiln.binding_dims = [array<i64: -1>, array<i64: -1>], kiln.input_count = 1 : i64} {
  iree_linalg_ext.sort {kiln.sort_merge = array<i64: 2, 1>} dimension(0) ins(%in : memref<300000xf32>) outs(%out : memref<300000xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  }
  return
}

