// iree_linalg_ext.sort of one long line on the CPU (cpu: 2 workers, cpu-sync: 1), against
// numpy's stable sorts (ties keep their order): 1M f32 ascending with -0.0 beside +0.0, an
// odd length (1000003) ascending and descending, i32 keys descending, and with i64
// payloads: rows of 50001 (in place; 20 bytes an element, the radix sort's keys and ranks)
// and the odd line (16 bytes, moved through the passes); narrow operands packed into one
// integer through the passes: f16 keys with i16 and i32 payloads (an i64) on the odd
// line, i16 keys descending with f16 payloads (an i32) on rows of 40001 (8-bit digits),
// non-negative i16 keys with i1 and i8 payloads (an i32; trivial last passes). Every sort
// here has a plain comparator (the radix path, RadixSort.h).
// RUN: rm -rf %t && %python %S/Inputs/sort_cpu_line_operands.py %t
// RUN: kiln-compile --target=cpu %s -o %t/cpu.kiln
// RUN: for device in cpu cpu-sync; do \
// RUN:   run() { kiln-run --module=%t/cpu.kiln --device=$device --atol=0 --rtol=0 "$@" > /dev/null || exit 1; }; \
// RUN:   run --function=million_ascending --input=@%t/million.npy --expected_output=@%t/million_ascending_keys.npy --expected_output=@%t/million_ascending_indices.npy; \
// RUN:   run --function=odd_ascending --input=@%t/odd.npy --expected_output=@%t/odd_ascending_keys.npy --expected_output=@%t/odd_ascending_indices.npy; \
// RUN:   run --function=odd_descending --input=@%t/odd.npy --expected_output=@%t/odd_descending_keys.npy --expected_output=@%t/odd_descending_indices.npy; \
// RUN:   run --function=ints_descending --input=@%t/ints.npy --expected_output=@%t/ints_descending_keys.npy --expected_output=@%t/ints_descending_indices.npy; \
// RUN:   run --function=rows_wide --input=@%t/rows.npy --input=@%t/rows_wide_a.npy --input=@%t/rows_wide_b.npy --expected_output=@%t/rows_sorted.npy --expected_output=@%t/rows_sorted_a.npy --expected_output=@%t/rows_sorted_b.npy; \
// RUN:   run --function=odd_mixed --input=@%t/odd.npy --input=@%t/odd_wide.npy --expected_output=@%t/odd_mixed_keys.npy --expected_output=@%t/odd_mixed_wide.npy --expected_output=@%t/odd_mixed_indices.npy; \
// RUN:   run --function=half_packed --input=@%t/half.npy --input=@%t/half_short.npy --input=@%t/half_word.npy --expected_output=@%t/half_sorted.npy --expected_output=@%t/half_sorted_short.npy --expected_output=@%t/half_sorted_word.npy; \
// RUN:   run --function=shorts_packed --input=@%t/shorts.npy --input=@%t/shorts_halves.npy --expected_output=@%t/shorts_sorted.npy --expected_output=@%t/shorts_sorted_halves.npy; \
// RUN:   run --function=positive_packed --input=@%t/positive.npy --input=@%t/positive_flags.npy --input=@%t/positive_bytes.npy --expected_output=@%t/positive_sorted.npy --expected_output=@%t/positive_sorted_flags.npy --expected_output=@%t/positive_sorted_bytes.npy; \
// RUN: done

#id = affine_map<(d0) -> (d0)>

func.func @million_ascending(%keys: tensor<1048576xf32>) -> (tensor<1048576xf32>, tensor<1048576xi32>) {
  %e = tensor.empty() : tensor<1048576xi32>
  %indices = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<1048576xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<1048576xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %indices : tensor<1048576xf32>, tensor<1048576xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %before = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %before : i1
  } -> tensor<1048576xf32>, tensor<1048576xi32>
  return %r#0, %r#1 : tensor<1048576xf32>, tensor<1048576xi32>
}

func.func @odd_ascending(%keys: tensor<1000003xf32>) -> (tensor<1000003xf32>, tensor<1000003xi32>) {
  %e = tensor.empty() : tensor<1000003xi32>
  %indices = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<1000003xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<1000003xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %indices : tensor<1000003xf32>, tensor<1000003xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %before = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %before : i1
  } -> tensor<1000003xf32>, tensor<1000003xi32>
  return %r#0, %r#1 : tensor<1000003xf32>, tensor<1000003xi32>
}

func.func @odd_descending(%keys: tensor<1000003xf32>) -> (tensor<1000003xf32>, tensor<1000003xi32>) {
  %e = tensor.empty() : tensor<1000003xi32>
  %indices = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<1000003xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<1000003xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %indices : tensor<1000003xf32>, tensor<1000003xi32>) {
  ^bb0(%a: f32, %b: f32, %x: i32, %y: i32):
    %before = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %before : i1
  } -> tensor<1000003xf32>, tensor<1000003xi32>
  return %r#0, %r#1 : tensor<1000003xf32>, tensor<1000003xi32>
}

func.func @ints_descending(%keys: tensor<1000003xi32>) -> (tensor<1000003xi32>, tensor<1000003xi32>) {
  %e = tensor.empty() : tensor<1000003xi32>
  %indices = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<1000003xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<1000003xi32>
  %r:2 = iree_linalg_ext.sort dimension(0) outs(%keys, %indices : tensor<1000003xi32>, tensor<1000003xi32>) {
  ^bb0(%a: i32, %b: i32, %x: i32, %y: i32):
    %before = arith.cmpi sgt, %a, %b : i32
    iree_linalg_ext.yield %before : i1
  } -> tensor<1000003xi32>, tensor<1000003xi32>
  return %r#0, %r#1 : tensor<1000003xi32>, tensor<1000003xi32>
}

func.func @rows_wide(%keys: tensor<4x50001xf32>, %a: tensor<4x50001xi64>, %b: tensor<4x50001xi64>)
    -> (tensor<4x50001xf32>, tensor<4x50001xi64>, tensor<4x50001xi64>) {
  %r:3 = iree_linalg_ext.sort dimension(1) outs(%keys, %a, %b : tensor<4x50001xf32>, tensor<4x50001xi64>, tensor<4x50001xi64>) {
  ^bb0(%x: f32, %y: f32, %p: i64, %q: i64, %s: i64, %t: i64):
    %before = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %before : i1
  } -> tensor<4x50001xf32>, tensor<4x50001xi64>, tensor<4x50001xi64>
  return %r#0, %r#1, %r#2 : tensor<4x50001xf32>, tensor<4x50001xi64>, tensor<4x50001xi64>
}

func.func @odd_mixed(%keys: tensor<1000003xf32>, %wide: tensor<1000003xi64>)
    -> (tensor<1000003xf32>, tensor<1000003xi64>, tensor<1000003xi32>) {
  %e = tensor.empty() : tensor<1000003xi32>
  %indices = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<1000003xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    linalg.yield %ii : i32
  } -> tensor<1000003xi32>
  %r:3 = iree_linalg_ext.sort dimension(0) outs(%keys, %wide, %indices : tensor<1000003xf32>, tensor<1000003xi64>, tensor<1000003xi32>) {
  ^bb0(%x: f32, %y: f32, %p: i64, %q: i64, %s: i32, %t: i32):
    %before = arith.cmpf ogt, %x, %y : f32
    iree_linalg_ext.yield %before : i1
  } -> tensor<1000003xf32>, tensor<1000003xi64>, tensor<1000003xi32>
  return %r#0, %r#1, %r#2 : tensor<1000003xf32>, tensor<1000003xi64>, tensor<1000003xi32>
}

func.func @half_packed(%keys: tensor<1000003xf16>, %short: tensor<1000003xi16>, %word: tensor<1000003xi32>)
    -> (tensor<1000003xf16>, tensor<1000003xi16>, tensor<1000003xi32>) {
  %r:3 = iree_linalg_ext.sort dimension(0) outs(%keys, %short, %word : tensor<1000003xf16>, tensor<1000003xi16>, tensor<1000003xi32>) {
  ^bb0(%x: f16, %y: f16, %p: i16, %q: i16, %s: i32, %t: i32):
    %before = arith.cmpf olt, %x, %y : f16
    iree_linalg_ext.yield %before : i1
  } -> tensor<1000003xf16>, tensor<1000003xi16>, tensor<1000003xi32>
  return %r#0, %r#1, %r#2 : tensor<1000003xf16>, tensor<1000003xi16>, tensor<1000003xi32>
}

func.func @shorts_packed(%keys: tensor<3x40001xi16>, %halves: tensor<3x40001xf16>)
    -> (tensor<3x40001xi16>, tensor<3x40001xf16>) {
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %halves : tensor<3x40001xi16>, tensor<3x40001xf16>) {
  ^bb0(%x: i16, %y: i16, %p: f16, %q: f16):
    %before = arith.cmpi sgt, %x, %y : i16
    iree_linalg_ext.yield %before : i1
  } -> tensor<3x40001xi16>, tensor<3x40001xf16>
  return %r#0, %r#1 : tensor<3x40001xi16>, tensor<3x40001xf16>
}

func.func @positive_packed(%keys: tensor<3x40001xi16>, %flags: tensor<3x40001xi1>, %bytes: tensor<3x40001xi8>)
    -> (tensor<3x40001xi16>, tensor<3x40001xi1>, tensor<3x40001xi8>) {
  %r:3 = iree_linalg_ext.sort dimension(1) outs(%keys, %flags, %bytes : tensor<3x40001xi16>, tensor<3x40001xi1>, tensor<3x40001xi8>) {
  ^bb0(%x: i16, %y: i16, %p: i1, %q: i1, %s: i8, %t: i8):
    %before = arith.cmpi slt, %x, %y : i16
    iree_linalg_ext.yield %before : i1
  } -> tensor<3x40001xi16>, tensor<3x40001xi1>, tensor<3x40001xi8>
  return %r#0, %r#1, %r#2 : tensor<3x40001xi16>, tensor<3x40001xi1>, tensor<3x40001xi8>
}
