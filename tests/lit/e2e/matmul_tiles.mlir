// Matmuls large enough for the vectorised register tiles (kiln-cpu-tile-contractions),
// with remainders in every dimension and k spanning two cache blocks, in f32 and f64,
// batched, and with a dynamic row count. Each function builds its operands from their
// indices (small integers, so every product and sum is exact), and returns
//   - the number of elements that differ from a reference computed by a loop nest that
//     is not a contraction (math.fma body), and
//   - a weighted checksum of the result, sum C[i, j] * ((3i + j) mod 7 + 1), compared with
//     the value computed independently in Python:
//       A[i, k] = (7i + 3k) mod 11 - 2, B[k, j] = (5k + 2j) mod 13 - 3,
//       batch b uses A[i + b, k] and B[k, j + b].
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_67x300x77 --expected_output=i64=0 --expected_output=i64=55708249
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f32_67x300x77 --expected_output=i64=0 --expected_output=i64=55708249
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f64_67x300x45 --expected_output=i64=0 --expected_output=i64=32543928
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f64_67x300x45 --expected_output=i64=0 --expected_output=i64=32543928
// RUN: kiln-run --module=%t.kiln --device=cpu --function=batch_3x20x300x40 --expected_output=i64=0 --expected_output=i64=25914689
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=batch_3x20x300x40 --expected_output=i64=0 --expected_output=i64=25914689
// 80 columns: a tile of 64 and a remainder of 16, vectorised masked (AVX-512).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=batch_3x20x300x80 --expected_output=i64=0 --expected_output=i64=51787824
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=batch_3x20x300x80 --expected_output=i64=0 --expected_output=i64=51787824
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_dynamic_rows --input=67 --expected_output=i64=0 --expected_output=i64=55708249
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f32_dynamic_rows --input=9 --expected_output=i64=0 --expected_output=i64=7484074
// The rows after a block's last 6-row tile, a dynamic count: a tile of 4 rows, of 2 and of
// 1, each when its rows are there (60 + 5, 60 + 4, 60 + 2, 6 + 5).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_dynamic_rows --input=65 --expected_output=i64=0 --expected_output=i64=54045704
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f32_dynamic_rows --input=64 --expected_output=i64=0 --expected_output=i64=53217321
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_dynamic_rows --input=62 --expected_output=i64=0 --expected_output=i64=51558965
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f32_dynamic_rows --input=11 --expected_output=i64=0 --expected_output=i64=9148286
// B of 16 MiB or more (beyond the last-level cache): the register tiles of each packed
// block prefetch the next block of B (3 tiles of rows and 3 one-row tiles).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_21x2050x2050 --expected_output=i64=0 --expected_output=i64=3177014186
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f32_21x2050x2050 --expected_output=i64=0 --expected_output=i64=3177014186
// An output of 16 MiB or more (beyond the last-level cache): two blocks of k 512 deep,
// register tiles that prefetch their output in the first steps of the k loop, which then
// splits (kiln-cpu-vectorize-contractions); rows and columns
// with remainders. Only the checksum (its reference loop nest would take seconds).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=f32_2050x1024x2050 --expected_output=i64=154920839849
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=f32_2050x1024x2050 --expected_output=i64=154920839849
// Empty loops (0 rows; 0 depth, so the output keeps its fill) compile and run: no tiling.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=no_rows --input=0x64xf32= --input=64x32xf32=1 --expected_output=0x32xf32=
// RUN: kiln-run --module=%t.kiln --device=cpu --function=no_depth --input=20x0xf32= --input=0x40xf32= --expected_output=20x40xf32=1
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=no_depth --input=20x0xf32= --input=0x40xf32= --expected_output=20x40xf32=1
// A product with a negated factor in its body is no plain matmul: the register tiles,
// written for out + a * b, must not take it (before, the packed path and the bounded
// remainder tiles dropped the negation). 13 rows read B in place, 40 rows pack it; 70
// columns leave a remainder. Every output is -300.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=negated_13x300x70 --input=13x300xf32=1 --input=300x70xf32=1 --expected_output=13x70xf32=-300
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=negated_13x300x70 --input=13x300xf32=1 --input=300x70xf32=1 --expected_output=13x70xf32=-300
// RUN: kiln-run --module=%t.kiln --device=cpu --function=negated_40x300x70 --input=40x300xf32=1 --input=300x70xf32=1 --expected_output=40x70xf32=-300
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=negated_40x300x70 --input=40x300xf32=1 --input=300x70xf32=1 --expected_output=40x70xf32=-300
// AVX2 (6 x 16 register tiles) and SSE (4 x 8) targets, both of which this machine runs.
// RUN: kiln-compile %s -o %t.avx2.kiln --target-cpu=haswell
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu --function=f32_67x300x77 --expected_output=i64=0 --expected_output=i64=55708249
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu --function=batch_3x20x300x40 --expected_output=i64=0 --expected_output=i64=25914689
// RUN: kiln-compile %s -o %t.sse.kiln --target-cpu=x86-64
// RUN: kiln-run --module=%t.sse.kiln --device=cpu --function=f64_67x300x45 --expected_output=i64=0 --expected_output=i64=32543928
// The same on the AMD GPU path: compiled for gfx942, run on hip-sim (the host twin).
// RUN: kiln-compile --target=gfx942 %s -o %t.gpu.kiln
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=f32_67x300x77 --expected_output=i64=0 --expected_output=i64=55708249
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=f64_67x300x45 --expected_output=i64=0 --expected_output=i64=32543928
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=no_depth --input=20x0xf32= --input=0x40xf32= --expected_output=20x40xf32=1
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=batch_3x20x300x40 --expected_output=i64=0 --expected_output=i64=25914689
// RUN: kiln-run --module=%t.gpu.kiln --device=hip-sim --function=f32_dynamic_rows --input=67 --expected_output=i64=0 --expected_output=i64=55708249

func.func @f32_67x300x77() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<67x300xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<67x300xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %t0 = arith.muli %i, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c2 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<67x300xf32>
  %eb = tensor.empty() : tensor<300x77xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<300x77xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c13 = arith.constant 13 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %j, %c2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c13 : index
    %t4 = arith.subi %t3, %c3 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<300x77xf32>
  %ec = tensor.empty() : tensor<67x77xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<67x77xf32>) -> tensor<67x77xf32>
  %c = linalg.matmul ins(%a, %b : tensor<67x300xf32>, tensor<300x77xf32>) outs(%fc : tensor<67x77xf32>) -> tensor<67x77xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<67x300xf32>, tensor<300x77xf32>) outs(%fc : tensor<67x77xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<67x77xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<67x77xf32>, tensor<67x77xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %bad: i64, %sum: i64):
    %ne = arith.cmpf une, %x, %y : f32
    %ne64 = arith.extui %ne : i1 to i64
    %bad2 = arith.addi %bad, %ne64 : i64
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %w0 = arith.muli %i, %c3 : index
    %w1 = arith.addi %w0, %j : index
    %w2 = arith.remui %w1, %c7 : index
    %w3 = arith.addi %w2, %c1 : index
    %w = arith.index_cast %w3 : index to i64
    %xi = arith.fptosi %x : f32 to i64
    %xw = arith.muli %xi, %w : i64
    %sum2 = arith.addi %sum, %xw : i64
    linalg.yield %bad2, %sum2 : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %bad = tensor.extract %sums#0[] : tensor<i64>
  %checksum = tensor.extract %sums#1[] : tensor<i64>
  return %bad, %checksum : i64, i64
}

func.func @f64_67x300x45() -> (i64, i64) {
  %zero = arith.constant 0.0 : f64
  %ea = tensor.empty() : tensor<67x300xf64>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<67x300xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %t0 = arith.muli %i, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c2 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<67x300xf64>
  %eb = tensor.empty() : tensor<300x45xf64>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<300x45xf64>) {
  ^bb0(%o: f64):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c13 = arith.constant 13 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %j, %c2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c13 : index
    %t4 = arith.subi %t3, %c3 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<300x45xf64>
  %ec = tensor.empty() : tensor<67x45xf64>
  %fc = linalg.fill ins(%zero : f64) outs(%ec : tensor<67x45xf64>) -> tensor<67x45xf64>
  %c = linalg.matmul ins(%a, %b : tensor<67x300xf64>, tensor<300x45xf64>) outs(%fc : tensor<67x45xf64>) -> tensor<67x45xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<67x300xf64>, tensor<300x45xf64>) outs(%fc : tensor<67x45xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %s = math.fma %x, %y, %acc : f64
    linalg.yield %s : f64
  } -> tensor<67x45xf64>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<67x45xf64>, tensor<67x45xf64>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
  ^bb0(%x: f64, %y: f64, %bad: i64, %sum: i64):
    %ne = arith.cmpf une, %x, %y : f64
    %ne64 = arith.extui %ne : i1 to i64
    %bad2 = arith.addi %bad, %ne64 : i64
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %w0 = arith.muli %i, %c3 : index
    %w1 = arith.addi %w0, %j : index
    %w2 = arith.remui %w1, %c7 : index
    %w3 = arith.addi %w2, %c1 : index
    %w = arith.index_cast %w3 : index to i64
    %xi = arith.fptosi %x : f64 to i64
    %xw = arith.muli %xi, %w : i64
    %sum2 = arith.addi %sum, %xw : i64
    linalg.yield %bad2, %sum2 : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %bad = tensor.extract %sums#0[] : tensor<i64>
  %checksum = tensor.extract %sums#1[] : tensor<i64>
  return %bad, %checksum : i64, i64
}

func.func @batch_3x20x300x40() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x20x300xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%ea : tensor<3x20x300xf32>) {
  ^bb0(%o: f32):
    %bi = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %ib = arith.addi %i, %bi : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %t0 = arith.muli %ib, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c2 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x20x300xf32>
  %eb = tensor.empty() : tensor<3x300x40xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%eb : tensor<3x300x40xf32>) {
  ^bb0(%o: f32):
    %bi = linalg.index 0 : index
    %k = linalg.index 1 : index
    %j = linalg.index 2 : index
    %jb = arith.addi %j, %bi : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c13 = arith.constant 13 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %jb, %c2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c13 : index
    %t4 = arith.subi %t3, %c3 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x300x40xf32>
  %ec = tensor.empty() : tensor<3x20x40xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<3x20x40xf32>) -> tensor<3x20x40xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x20x300xf32>, tensor<3x300x40xf32>) outs(%fc : tensor<3x20x40xf32>) -> tensor<3x20x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<3x20x300xf32>, tensor<3x300x40xf32>) outs(%fc : tensor<3x20x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x20x40xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%c, %r : tensor<3x20x40xf32>, tensor<3x20x40xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %bad: i64, %sum: i64):
    %ne = arith.cmpf une, %x, %y : f32
    %ne64 = arith.extui %ne : i1 to i64
    %bad2 = arith.addi %bad, %ne64 : i64
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %w0 = arith.muli %i, %c3 : index
    %w1 = arith.addi %w0, %j : index
    %w2 = arith.remui %w1, %c7 : index
    %w3 = arith.addi %w2, %c1 : index
    %w = arith.index_cast %w3 : index to i64
    %xi = arith.fptosi %x : f32 to i64
    %xw = arith.muli %xi, %w : i64
    %sum2 = arith.addi %sum, %xw : i64
    linalg.yield %bad2, %sum2 : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %bad = tensor.extract %sums#0[] : tensor<i64>
  %checksum = tensor.extract %sums#1[] : tensor<i64>
  return %bad, %checksum : i64, i64
}

func.func @batch_3x20x300x80() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x20x300xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%ea : tensor<3x20x300xf32>) {
  ^bb0(%o: f32):
    %bi = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %ib = arith.addi %i, %bi : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %t0 = arith.muli %ib, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c2 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x20x300xf32>
  %eb = tensor.empty() : tensor<3x300x80xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%eb : tensor<3x300x80xf32>) {
  ^bb0(%o: f32):
    %bi = linalg.index 0 : index
    %k = linalg.index 1 : index
    %j = linalg.index 2 : index
    %jb = arith.addi %j, %bi : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c13 = arith.constant 13 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %jb, %c2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c13 : index
    %t4 = arith.subi %t3, %c3 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x300x80xf32>
  %ec = tensor.empty() : tensor<3x20x80xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<3x20x80xf32>) -> tensor<3x20x80xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x20x300xf32>, tensor<3x300x80xf32>) outs(%fc : tensor<3x20x80xf32>) -> tensor<3x20x80xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<3x20x300xf32>, tensor<3x300x80xf32>) outs(%fc : tensor<3x20x80xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x20x80xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%c, %r : tensor<3x20x80xf32>, tensor<3x20x80xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %bad: i64, %sum: i64):
    %ne = arith.cmpf une, %x, %y : f32
    %ne64 = arith.extui %ne : i1 to i64
    %bad2 = arith.addi %bad, %ne64 : i64
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %w0 = arith.muli %i, %c3 : index
    %w1 = arith.addi %w0, %j : index
    %w2 = arith.remui %w1, %c7 : index
    %w3 = arith.addi %w2, %c1 : index
    %w = arith.index_cast %w3 : index to i64
    %xi = arith.fptosi %x : f32 to i64
    %xw = arith.muli %xi, %w : i64
    %sum2 = arith.addi %sum, %xw : i64
    linalg.yield %bad2, %sum2 : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %bad = tensor.extract %sums#0[] : tensor<i64>
  %checksum = tensor.extract %sums#1[] : tensor<i64>
  return %bad, %checksum : i64, i64
}

func.func @f32_dynamic_rows(%m: index) -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty(%m) : tensor<?x300xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<?x300xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %t0 = arith.muli %i, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c2 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<?x300xf32>
  %eb = tensor.empty() : tensor<300x77xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<300x77xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c13 = arith.constant 13 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %j, %c2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c13 : index
    %t4 = arith.subi %t3, %c3 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<300x77xf32>
  %ec = tensor.empty(%m) : tensor<?x77xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x77xf32>) -> tensor<?x77xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x300xf32>, tensor<300x77xf32>) outs(%fc : tensor<?x77xf32>) -> tensor<?x77xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<?x300xf32>, tensor<300x77xf32>) outs(%fc : tensor<?x77xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x77xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<?x77xf32>, tensor<?x77xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %bad: i64, %sum: i64):
    %ne = arith.cmpf une, %x, %y : f32
    %ne64 = arith.extui %ne : i1 to i64
    %bad2 = arith.addi %bad, %ne64 : i64
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %w0 = arith.muli %i, %c3 : index
    %w1 = arith.addi %w0, %j : index
    %w2 = arith.remui %w1, %c7 : index
    %w3 = arith.addi %w2, %c1 : index
    %w = arith.index_cast %w3 : index to i64
    %xi = arith.fptosi %x : f32 to i64
    %xw = arith.muli %xi, %w : i64
    %sum2 = arith.addi %sum, %xw : i64
    linalg.yield %bad2, %sum2 : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %bad = tensor.extract %sums#0[] : tensor<i64>
  %checksum = tensor.extract %sums#1[] : tensor<i64>
  return %bad, %checksum : i64, i64
}

func.func @f32_21x2050x2050() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<21x2050xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<21x2050xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %t0 = arith.muli %i, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c2 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<21x2050xf32>
  %eb = tensor.empty() : tensor<2050x2050xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<2050x2050xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c13 = arith.constant 13 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %j, %c2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c13 : index
    %t4 = arith.subi %t3, %c3 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<2050x2050xf32>
  %ec = tensor.empty() : tensor<21x2050xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<21x2050xf32>) -> tensor<21x2050xf32>
  %c = linalg.matmul ins(%a, %b : tensor<21x2050xf32>, tensor<2050x2050xf32>) outs(%fc : tensor<21x2050xf32>) -> tensor<21x2050xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<21x2050xf32>, tensor<2050x2050xf32>) outs(%fc : tensor<21x2050xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<21x2050xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<21x2050xf32>, tensor<21x2050xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %bad: i64, %sum: i64):
    %ne = arith.cmpf une, %x, %y : f32
    %ne64 = arith.extui %ne : i1 to i64
    %bad2 = arith.addi %bad, %ne64 : i64
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %w0 = arith.muli %i, %c3 : index
    %w1 = arith.addi %w0, %j : index
    %w2 = arith.remui %w1, %c7 : index
    %w3 = arith.addi %w2, %c1 : index
    %w = arith.index_cast %w3 : index to i64
    %xi = arith.fptosi %x : f32 to i64
    %xw = arith.muli %xi, %w : i64
    %sum2 = arith.addi %sum, %xw : i64
    linalg.yield %bad2, %sum2 : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  %bad = tensor.extract %sums#0[] : tensor<i64>
  %checksum = tensor.extract %sums#1[] : tensor<i64>
  return %bad, %checksum : i64, i64
}

func.func @f32_2050x1024x2050() -> i64 {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<2050x1024xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<2050x1024xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c2 = arith.constant 2 : index
    %t0 = arith.muli %i, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c2 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<2050x1024xf32>
  %eb = tensor.empty() : tensor<1024x2050xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<1024x2050xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c2 = arith.constant 2 : index
    %c13 = arith.constant 13 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %j, %c2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c13 : index
    %t4 = arith.subi %t3, %c3 : index
    %t5 = arith.index_cast %t4 : index to i64
    %v = arith.sitofp %t5 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<1024x2050xf32>
  %ec = tensor.empty() : tensor<2050x2050xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<2050x2050xf32>) -> tensor<2050x2050xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2050x1024xf32>, tensor<1024x2050xf32>) outs(%fc : tensor<2050x2050xf32>) -> tensor<2050x2050xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c : tensor<2050x2050xf32>) outs(%fz : tensor<i64>) {
  ^bb0(%x: f32, %acc: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c1 = arith.constant 1 : index
    %w0 = arith.muli %i, %c3 : index
    %w1 = arith.addi %w0, %j : index
    %w2 = arith.remui %w1, %c7 : index
    %w3 = arith.addi %w2, %c1 : index
    %w = arith.index_cast %w3 : index to i64
    %xi = arith.fptosi %x : f32 to i64
    %xw = arith.muli %xi, %w : i64
    %acc2 = arith.addi %acc, %xw : i64
    linalg.yield %acc2 : i64
  } -> tensor<i64>
  %checksum = tensor.extract %sum[] : tensor<i64>
  return %checksum : i64
}

func.func @no_rows(%a: tensor<0x64xf32>, %b: tensor<64x32xf32>) -> tensor<0x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<0x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<0x32xf32>) -> tensor<0x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<0x64xf32>, tensor<64x32xf32>) outs(%f : tensor<0x32xf32>) -> tensor<0x32xf32>
  return %r : tensor<0x32xf32>
}

func.func @no_depth(%a: tensor<20x0xf32>, %b: tensor<0x40xf32>) -> tensor<20x40xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<20x40xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<20x40xf32>) -> tensor<20x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<20x0xf32>, tensor<0x40xf32>) outs(%f : tensor<20x40xf32>) -> tensor<20x40xf32>
  return %r : tensor<20x40xf32>
}

func.func @negated_13x300x70(%a: tensor<13x300xf32>, %b: tensor<300x70xf32>) -> tensor<13x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<13x70xf32>) -> tensor<13x70xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<13x300xf32>, tensor<300x70xf32>) outs(%f : tensor<13x70xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %negated = arith.negf %x : f32
    %p = arith.mulf %negated, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<13x70xf32>
  return %r : tensor<13x70xf32>
}

func.func @negated_40x300x70(%a: tensor<40x300xf32>, %b: tensor<300x70xf32>) -> tensor<40x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x70xf32>) -> tensor<40x70xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<40x300xf32>, tensor<300x70xf32>) outs(%f : tensor<40x70xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %negated = arith.negf %x : f32
    %p = arith.mulf %negated, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<40x70xf32>
  return %r : tensor<40x70xf32>
}
