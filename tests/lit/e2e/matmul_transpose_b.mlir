// y = x W^T with the weights in a linear layer's layout W[N, K] (linalg.matmul with the
// right-hand indexing map (n, k), the same contraction as a linalg.generic, and
// batch_matmul with a transposed right-hand operand): the dot-product kernel for few rows
// (M <= 8), the packed outer-product kernel otherwise, with remainders in every dimension,
// k and n spanning several cache blocks, and dynamic sizes. Each function builds its
// operands from their indices (small integers, so every product and sum is exact) and
// returns
//   - the number of elements that differ from a reference computed by a loop nest that
//     is not a contraction (math.fma body), and
//   - a weighted checksum of the result, sum C[i, j] * ((3i + j) mod 7 + 1), computed
//     independently with NumPy:
//       x[i, k] = (7i + 3k) mod 11 - 2, W[j, k] = (5k + 2j) mod 13 - 3,
//       batch b uses x[i + b, k] and W[j + b, k].
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_1x7x13 --expected_output=i64=0 --expected_output=i64=2804
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_1x7x13 --expected_output=i64=0 --expected_output=i64=2804
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_8x300x77 --expected_output=i64=0 --expected_output=i64=6652008
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_8x300x77 --expected_output=i64=0 --expected_output=i64=6652008
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_33x65x17 --expected_output=i64=0 --expected_output=i64=1312737
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_33x65x17 --expected_output=i64=0 --expected_output=i64=1312737
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_67x300x520 --expected_output=i64=0 --expected_output=i64=376240805
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_67x300x520 --expected_output=i64=0 --expected_output=i64=376240805
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_f64_20x40x300 --expected_output=i64=0 --expected_output=i64=8640594
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_f64_20x40x300 --expected_output=i64=0 --expected_output=i64=8640594
// RUN: kiln-run --module=%t.kiln --device=cpu --function=generic_nt_20x40x300 --expected_output=i64=0 --expected_output=i64=8640594
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=generic_nt_20x40x300 --expected_output=i64=0 --expected_output=i64=8640594
// RUN: kiln-run --module=%t.kiln --device=cpu --function=batch_nt_3x20x40x300 --expected_output=i64=0 --expected_output=i64=25914689
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=batch_nt_3x20x40x300 --expected_output=i64=0 --expected_output=i64=25914689
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_dynamic_rows --input=67 --expected_output=i64=0 --expected_output=i64=55708249
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_dynamic_rows --input=5 --expected_output=i64=0 --expected_output=i64=4161809
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_dynamic_all --input=33 --input=65 --input=17 --expected_output=i64=0 --expected_output=i64=1312737
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_dynamic_all --input=1 --input=7 --input=13 --expected_output=i64=0 --expected_output=i64=2804
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_4_dynamic_nk --input=45 --input=70 --expected_output=i64=0 --expected_output=i64=456205
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_4_dynamic_nk --input=45 --input=70 --expected_output=i64=0 --expected_output=i64=456205
// An output of 16 MiB or more (beyond the last-level cache): blocks of k 512 deep (one
// full block and a remainder), output tiles prefetched for writing, a remainder of rows.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_2050x2048x530 --expected_output=i64=0 --expected_output=i64=80105533281
// W of 16 MiB or more (beyond the last-level cache): the register tiles of each packed
// block prefetch the next block of W (25 tiles of rows, more than the 16 the prefetches
// are spread over; remainders in every dimension).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_203x2050x2050 --expected_output=i64=0 --expected_output=i64=30711990400
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_203x2050x2050 --expected_output=i64=0 --expected_output=i64=30711990400
// Few rows and fewer than 64 columns: split across workgroups by rows, whose dynamic count
// takes the packed kernels (long depths, remainders in k and n).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_8x37x2100 --expected_output=i64=0 --expected_output=i64=22283202
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_8x37x2100 --expected_output=i64=0 --expected_output=i64=22283202
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_3x50x3000 --expected_output=i64=0 --expected_output=i64=16203561
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_f64_5x19x1300 --expected_output=i64=0 --expected_output=i64=4436680
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_4_dynamic_nk --input=45 --input=2500 --expected_output=i64=0 --expected_output=i64=16092979
// Decode-shaped products (64 columns or more) whose rows of x exceed the L1 budget: blocks
// of 4 KiB of each row with AVX-512 (remainders of k and of one column), W prefetched a few
// rows ahead (clamped at its last row); tiles whose vectors of partial sums number at most
// the lanes of one vector sum them across the vectors (on an AVX-512 machine: 8 x 2 and
// 4 x 2 f32 tiles on blocks of 1024 k; f64 4 x 2 on blocks of 512 k, and 1 x 8 over the
// whole depth; with AVX2 and SSE, the 1- and 2-column remainder tiles).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_8x71x2100 --expected_output=i64=0 --expected_output=i64=42884090
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_8x71x2100 --expected_output=i64=0 --expected_output=i64=42884090
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_4x71x2500 --expected_output=i64=0 --expected_output=i64=25540762
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_4x71x2500 --expected_output=i64=0 --expected_output=i64=25540762
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_f64_4x70x1300 --expected_output=i64=0 --expected_output=i64=13107024
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_f64_4x70x1300 --expected_output=i64=0 --expected_output=i64=13107024
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_f64_1x70x1300 --expected_output=i64=0 --expected_output=i64=3270767
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_f64_1x70x1300 --expected_output=i64=0 --expected_output=i64=3270767
// With a 32 KiB L1 (this machine's L1DataCacheBytes, or any other size: the results do not
// depend on it), 6 or 8 rows take blocks of 2 KiB of each row, read from a copy of x whose
// rows are spread over L1's sets: a dynamic depth (the copy's row length computed at run
// time) and f64.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_6_dynamic_nk --input=70 --input=2100 --expected_output=i64=0 --expected_output=i64=31750164
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_6_dynamic_nk --input=70 --input=2100 --expected_output=i64=0 --expected_output=i64=31750164
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_f64_8x70x1300 --expected_output=i64=0 --expected_output=i64=26215300
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_f64_8x70x1300 --expected_output=i64=0 --expected_output=i64=26215300
// Static depths then take W's rows in chunks of 256 KiB (30 rows of 2100 f32, 24 of 1300
// f64), each chunk's tiles prefetching the next one: 301 rows make several chunks per
// workgroup, an odd last one (a tile of one column) and a last block of 52 k.
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_8x301x2100 --expected_output=i64=0 --expected_output=i64=182045035
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_8x301x2100 --expected_output=i64=0 --expected_output=i64=182045035
// A W beyond the core's L2 (2 MiB or more) and 1 to 4 rows: tiles over the whole depth
// reading W's rows in order, each prefetching the next tile's rows (on an AVX-512 machine:
// 1 x 8, 2 x 8, 3 x 8 and 4 x 6 f32 tiles and f64 2 x 8, with remainders of columns and of
// k; tiles take the rows of both workers' halves of W).
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_1x601x1000 --expected_output=i64=0 --expected_output=i64=21586509
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_1x601x1000 --expected_output=i64=0 --expected_output=i64=21586509
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_2x530x1003 --expected_output=i64=0 --expected_output=i64=38256854
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_2x530x1003 --expected_output=i64=0 --expected_output=i64=38256854
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_3x515x1100 --expected_output=i64=0 --expected_output=i64=61152431
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_3x515x1100 --expected_output=i64=0 --expected_output=i64=61152431
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_4x607x1000 --expected_output=i64=0 --expected_output=i64=87415054
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_4x607x1000 --expected_output=i64=0 --expected_output=i64=87415054
// RUN: kiln-run --module=%t.kiln --device=cpu --function=nt_f64_2x301x1001 --expected_output=i64=0 --expected_output=i64=21693672
// RUN: kiln-run --module=%t.kiln --device=cpu-sync --function=nt_f64_2x301x1001 --expected_output=i64=0 --expected_output=i64=21693672
// AVX2 and SSE targets, both of which this machine runs.
// RUN: kiln-compile %s -o %t.avx2.kiln --target-cpu=haswell
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu --function=nt_8x300x77 --expected_output=i64=0 --expected_output=i64=6652008
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu --function=nt_67x300x520 --expected_output=i64=0 --expected_output=i64=376240805
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu --function=nt_8x37x2100 --expected_output=i64=0 --expected_output=i64=22283202
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu --function=nt_8x71x2100 --expected_output=i64=0 --expected_output=i64=42884090
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu-sync --function=nt_4x71x2500 --expected_output=i64=0 --expected_output=i64=25540762
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu-sync --function=nt_3x50x3000 --expected_output=i64=0 --expected_output=i64=16203561
// RUN: kiln-run --module=%t.avx2.kiln --device=cpu --function=nt_f64_5x19x1300 --expected_output=i64=0 --expected_output=i64=4436680
// RUN: kiln-compile %s -o %t.sse.kiln --target-cpu=x86-64
// RUN: kiln-run --module=%t.sse.kiln --device=cpu --function=nt_1x7x13 --expected_output=i64=0 --expected_output=i64=2804
// RUN: kiln-run --module=%t.sse.kiln --device=cpu --function=nt_33x65x17 --expected_output=i64=0 --expected_output=i64=1312737
// RUN: kiln-run --module=%t.sse.kiln --device=cpu --function=nt_8x37x2100 --expected_output=i64=0 --expected_output=i64=22283202
// RUN: kiln-run --module=%t.sse.kiln --device=cpu --function=nt_4x71x2500 --expected_output=i64=0 --expected_output=i64=25540762

func.func @nt_1x7x13() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<1x13xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<1x13xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<1x13xf32>
  %ewt = tensor.empty() : tensor<7x13xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<7x13xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<7x13xf32>
  %ec = tensor.empty() : tensor<1x7xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x7xf32>) -> tensor<1x7xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<1x13xf32>, tensor<7x13xf32>) outs(%fc : tensor<1x7xf32>) -> tensor<1x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<1x13xf32>, tensor<7x13xf32>) outs(%fc : tensor<1x7xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x7xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<1x7xf32>, tensor<1x7xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_8x300x77() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x77xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<8x77xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<8x77xf32>
  %ewt = tensor.empty() : tensor<300x77xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<300x77xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<300x77xf32>
  %ec = tensor.empty() : tensor<8x300xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<8x300xf32>) -> tensor<8x300xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<8x77xf32>, tensor<300x77xf32>) outs(%fc : tensor<8x300xf32>) -> tensor<8x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<8x77xf32>, tensor<300x77xf32>) outs(%fc : tensor<8x300xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x300xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<8x300xf32>, tensor<8x300xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_33x65x17() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<33x17xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<33x17xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<33x17xf32>
  %ewt = tensor.empty() : tensor<65x17xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<65x17xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<65x17xf32>
  %ec = tensor.empty() : tensor<33x65xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<33x65xf32>) -> tensor<33x65xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<33x17xf32>, tensor<65x17xf32>) outs(%fc : tensor<33x65xf32>) -> tensor<33x65xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<33x17xf32>, tensor<65x17xf32>) outs(%fc : tensor<33x65xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<33x65xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<33x65xf32>, tensor<33x65xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_67x300x520() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<67x520xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<67x520xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<67x520xf32>
  %ewt = tensor.empty() : tensor<300x520xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<300x520xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<300x520xf32>
  %ec = tensor.empty() : tensor<67x300xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<67x300xf32>) -> tensor<67x300xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<67x520xf32>, tensor<300x520xf32>) outs(%fc : tensor<67x300xf32>) -> tensor<67x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<67x520xf32>, tensor<300x520xf32>) outs(%fc : tensor<67x300xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<67x300xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<67x300xf32>, tensor<67x300xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_f64_20x40x300() -> (i64, i64) {
  %zero = arith.constant 0.0 : f64
  %ea = tensor.empty() : tensor<20x300xf64>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<20x300xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<20x300xf64>
  %ewt = tensor.empty() : tensor<40x300xf64>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<40x300xf64>) {
  ^bb0(%o: f64):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<40x300xf64>
  %ec = tensor.empty() : tensor<20x40xf64>
  %fc = linalg.fill ins(%zero : f64) outs(%ec : tensor<20x40xf64>) -> tensor<20x40xf64>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<20x300xf64>, tensor<40x300xf64>) outs(%fc : tensor<20x40xf64>) -> tensor<20x40xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<20x300xf64>, tensor<40x300xf64>) outs(%fc : tensor<20x40xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %s = math.fma %x, %y, %acc : f64
    linalg.yield %s : f64
  } -> tensor<20x40xf64>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<20x40xf64>, tensor<20x40xf64>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @generic_nt_20x40x300() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<20x300xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<20x300xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<20x300xf32>
  %ewt = tensor.empty() : tensor<40x300xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<40x300xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<40x300xf32>
  %ec = tensor.empty() : tensor<20x40xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<20x40xf32>) -> tensor<20x40xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<20x300xf32>, tensor<40x300xf32>) outs(%fc : tensor<20x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<20x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<20x300xf32>, tensor<40x300xf32>) outs(%fc : tensor<20x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<20x40xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<20x40xf32>, tensor<20x40xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @batch_nt_3x20x40x300() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x20x300xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%ea : tensor<3x20x300xf32>) {
  ^bb0(%o: f32):
    %bi = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %ib = arith.addi %i, %bi : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %ib, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x20x300xf32>
  %ewt = tensor.empty() : tensor<3x40x300xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%ewt : tensor<3x40x300xf32>) {
  ^bb0(%o: f32):
    %bi = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %jb = arith.addi %j, %bi : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %jb, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x40x300xf32>
  %ec = tensor.empty() : tensor<3x20x40xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<3x20x40xf32>) -> tensor<3x20x40xf32>
  %c = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %wt : tensor<3x20x300xf32>, tensor<3x40x300xf32>) outs(%fc : tensor<3x20x40xf32>) -> tensor<3x20x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<3x20x300xf32>, tensor<3x40x300xf32>) outs(%fc : tensor<3x20x40xf32>) {
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

func.func @nt_dynamic_rows(%rows: index) -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty(%rows) : tensor<?x300xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<?x300xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<?x300xf32>
  %ewt = tensor.empty() : tensor<77x300xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<77x300xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<77x300xf32>
  %ec = tensor.empty(%rows) : tensor<?x77xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x77xf32>) -> tensor<?x77xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<?x300xf32>, tensor<77x300xf32>) outs(%fc : tensor<?x77xf32>) -> tensor<?x77xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<?x300xf32>, tensor<77x300xf32>) outs(%fc : tensor<?x77xf32>) {
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

func.func @nt_dynamic_all(%rows: index, %cols: index, %depth: index) -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty(%rows, %depth) : tensor<?x?xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %ewt = tensor.empty(%cols, %depth) : tensor<?x?xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %ec = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<?x?xf32>, tensor<?x?xf32>) outs(%fc : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<?x?xf32>, tensor<?x?xf32>) outs(%fc : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<?x?xf32>, tensor<?x?xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_4_dynamic_nk(%cols: index, %depth: index) -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty(%depth) : tensor<4x?xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<4x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<4x?xf32>
  %ewt = tensor.empty(%cols, %depth) : tensor<?x?xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %ec = tensor.empty(%cols) : tensor<4x?xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<4x?xf32>) -> tensor<4x?xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<4x?xf32>, tensor<?x?xf32>) outs(%fc : tensor<4x?xf32>) -> tensor<4x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<4x?xf32>, tensor<?x?xf32>) outs(%fc : tensor<4x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x?xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<4x?xf32>, tensor<4x?xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_8x37x2100() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x2100xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<8x2100xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<8x2100xf32>
  %ewt = tensor.empty() : tensor<37x2100xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<37x2100xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<37x2100xf32>
  %ec = tensor.empty() : tensor<8x37xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<8x37xf32>) -> tensor<8x37xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<8x2100xf32>, tensor<37x2100xf32>) outs(%fc : tensor<8x37xf32>) -> tensor<8x37xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<8x2100xf32>, tensor<37x2100xf32>) outs(%fc : tensor<8x37xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x37xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<8x37xf32>, tensor<8x37xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_3x50x3000() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x3000xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<3x3000xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x3000xf32>
  %ewt = tensor.empty() : tensor<50x3000xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<50x3000xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<50x3000xf32>
  %ec = tensor.empty() : tensor<3x50xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<3x50xf32>) -> tensor<3x50xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<3x3000xf32>, tensor<50x3000xf32>) outs(%fc : tensor<3x50xf32>) -> tensor<3x50xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<3x3000xf32>, tensor<50x3000xf32>) outs(%fc : tensor<3x50xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x50xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<3x50xf32>, tensor<3x50xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_f64_5x19x1300() -> (i64, i64) {
  %zero = arith.constant 0.0 : f64
  %ea = tensor.empty() : tensor<5x1300xf64>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<5x1300xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<5x1300xf64>
  %ewt = tensor.empty() : tensor<19x1300xf64>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<19x1300xf64>) {
  ^bb0(%o: f64):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<19x1300xf64>
  %ec = tensor.empty() : tensor<5x19xf64>
  %fc = linalg.fill ins(%zero : f64) outs(%ec : tensor<5x19xf64>) -> tensor<5x19xf64>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<5x1300xf64>, tensor<19x1300xf64>) outs(%fc : tensor<5x19xf64>) -> tensor<5x19xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<5x1300xf64>, tensor<19x1300xf64>) outs(%fc : tensor<5x19xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %s = math.fma %x, %y, %acc : f64
    linalg.yield %s : f64
  } -> tensor<5x19xf64>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<5x19xf64>, tensor<5x19xf64>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_8x71x2100() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x2100xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<8x2100xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<8x2100xf32>
  %ewt = tensor.empty() : tensor<71x2100xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<71x2100xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<71x2100xf32>
  %ec = tensor.empty() : tensor<8x71xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<8x71xf32>) -> tensor<8x71xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<8x2100xf32>, tensor<71x2100xf32>) outs(%fc : tensor<8x71xf32>) -> tensor<8x71xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<8x2100xf32>, tensor<71x2100xf32>) outs(%fc : tensor<8x71xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x71xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<8x71xf32>, tensor<8x71xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_8x301x2100() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x2100xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<8x2100xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<8x2100xf32>
  %ewt = tensor.empty() : tensor<301x2100xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<301x2100xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<301x2100xf32>
  %ec = tensor.empty() : tensor<8x301xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<8x301xf32>) -> tensor<8x301xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<8x2100xf32>, tensor<301x2100xf32>) outs(%fc : tensor<8x301xf32>) -> tensor<8x301xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<8x2100xf32>, tensor<301x2100xf32>) outs(%fc : tensor<8x301xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x301xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<8x301xf32>, tensor<8x301xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_4x71x2500() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<4x2500xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<4x2500xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<4x2500xf32>
  %ewt = tensor.empty() : tensor<71x2500xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<71x2500xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<71x2500xf32>
  %ec = tensor.empty() : tensor<4x71xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<4x71xf32>) -> tensor<4x71xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<4x2500xf32>, tensor<71x2500xf32>) outs(%fc : tensor<4x71xf32>) -> tensor<4x71xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<4x2500xf32>, tensor<71x2500xf32>) outs(%fc : tensor<4x71xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x71xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<4x71xf32>, tensor<4x71xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_f64_4x70x1300() -> (i64, i64) {
  %zero = arith.constant 0.0 : f64
  %ea = tensor.empty() : tensor<4x1300xf64>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<4x1300xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<4x1300xf64>
  %ewt = tensor.empty() : tensor<70x1300xf64>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<70x1300xf64>) {
  ^bb0(%o: f64):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<70x1300xf64>
  %ec = tensor.empty() : tensor<4x70xf64>
  %fc = linalg.fill ins(%zero : f64) outs(%ec : tensor<4x70xf64>) -> tensor<4x70xf64>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<4x1300xf64>, tensor<70x1300xf64>) outs(%fc : tensor<4x70xf64>) -> tensor<4x70xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<4x1300xf64>, tensor<70x1300xf64>) outs(%fc : tensor<4x70xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %s = math.fma %x, %y, %acc : f64
    linalg.yield %s : f64
  } -> tensor<4x70xf64>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<4x70xf64>, tensor<4x70xf64>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_f64_1x70x1300() -> (i64, i64) {
  %zero = arith.constant 0.0 : f64
  %ea = tensor.empty() : tensor<1x1300xf64>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<1x1300xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<1x1300xf64>
  %ewt = tensor.empty() : tensor<70x1300xf64>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<70x1300xf64>) {
  ^bb0(%o: f64):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<70x1300xf64>
  %ec = tensor.empty() : tensor<1x70xf64>
  %fc = linalg.fill ins(%zero : f64) outs(%ec : tensor<1x70xf64>) -> tensor<1x70xf64>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<1x1300xf64>, tensor<70x1300xf64>) outs(%fc : tensor<1x70xf64>) -> tensor<1x70xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<1x1300xf64>, tensor<70x1300xf64>) outs(%fc : tensor<1x70xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %s = math.fma %x, %y, %acc : f64
    linalg.yield %s : f64
  } -> tensor<1x70xf64>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<1x70xf64>, tensor<1x70xf64>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_6_dynamic_nk(%cols: index, %depth: index) -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty(%depth) : tensor<6x?xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<6x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<6x?xf32>
  %ewt = tensor.empty(%cols, %depth) : tensor<?x?xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %ec = tensor.empty(%cols) : tensor<6x?xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<6x?xf32>) -> tensor<6x?xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<6x?xf32>, tensor<?x?xf32>) outs(%fc : tensor<6x?xf32>) -> tensor<6x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<6x?xf32>, tensor<?x?xf32>) outs(%fc : tensor<6x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6x?xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<6x?xf32>, tensor<6x?xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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


func.func @nt_f64_8x70x1300() -> (i64, i64) {
  %zero = arith.constant 0.0 : f64
  %ea = tensor.empty() : tensor<8x1300xf64>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<8x1300xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<8x1300xf64>
  %ewt = tensor.empty() : tensor<70x1300xf64>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<70x1300xf64>) {
  ^bb0(%o: f64):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<70x1300xf64>
  %ec = tensor.empty() : tensor<8x70xf64>
  %fc = linalg.fill ins(%zero : f64) outs(%ec : tensor<8x70xf64>) -> tensor<8x70xf64>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<8x1300xf64>, tensor<70x1300xf64>) outs(%fc : tensor<8x70xf64>) -> tensor<8x70xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<8x1300xf64>, tensor<70x1300xf64>) outs(%fc : tensor<8x70xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %s = math.fma %x, %y, %acc : f64
    linalg.yield %s : f64
  } -> tensor<8x70xf64>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<8x70xf64>, tensor<8x70xf64>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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


func.func @nt_2050x2048x530() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<2050x530xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<2050x530xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<2050x530xf32>
  %ewt = tensor.empty() : tensor<2048x530xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<2048x530xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<2048x530xf32>
  %ec = tensor.empty() : tensor<2050x2048xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<2050x2048xf32>) -> tensor<2050x2048xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<2050x530xf32>, tensor<2048x530xf32>) outs(%fc : tensor<2050x2048xf32>) -> tensor<2050x2048xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<2050x530xf32>, tensor<2048x530xf32>) outs(%fc : tensor<2050x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2050x2048xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<2050x2048xf32>, tensor<2050x2048xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_203x2050x2050() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<203x2050xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<203x2050xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<203x2050xf32>
  %ewt = tensor.empty() : tensor<2050x2050xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<2050x2050xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<2050x2050xf32>
  %ec = tensor.empty() : tensor<203x2050xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<203x2050xf32>) -> tensor<203x2050xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<203x2050xf32>, tensor<2050x2050xf32>) outs(%fc : tensor<203x2050xf32>) -> tensor<203x2050xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<203x2050xf32>, tensor<2050x2050xf32>) outs(%fc : tensor<203x2050xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<203x2050xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<203x2050xf32>, tensor<203x2050xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_1x601x1000() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<1x1000xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<1x1000xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<1x1000xf32>
  %ewt = tensor.empty() : tensor<601x1000xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<601x1000xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<601x1000xf32>
  %ec = tensor.empty() : tensor<1x601xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x601xf32>) -> tensor<1x601xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<1x1000xf32>, tensor<601x1000xf32>) outs(%fc : tensor<1x601xf32>) -> tensor<1x601xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<1x1000xf32>, tensor<601x1000xf32>) outs(%fc : tensor<1x601xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x601xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<1x601xf32>, tensor<1x601xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_2x530x1003() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<2x1003xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<2x1003xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<2x1003xf32>
  %ewt = tensor.empty() : tensor<530x1003xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<530x1003xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<530x1003xf32>
  %ec = tensor.empty() : tensor<2x530xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<2x530xf32>) -> tensor<2x530xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<2x1003xf32>, tensor<530x1003xf32>) outs(%fc : tensor<2x530xf32>) -> tensor<2x530xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<2x1003xf32>, tensor<530x1003xf32>) outs(%fc : tensor<2x530xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x530xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<2x530xf32>, tensor<2x530xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_3x515x1100() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x1100xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<3x1100xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<3x1100xf32>
  %ewt = tensor.empty() : tensor<515x1100xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<515x1100xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<515x1100xf32>
  %ec = tensor.empty() : tensor<3x515xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<3x515xf32>) -> tensor<3x515xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<3x1100xf32>, tensor<515x1100xf32>) outs(%fc : tensor<3x515xf32>) -> tensor<3x515xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<3x1100xf32>, tensor<515x1100xf32>) outs(%fc : tensor<3x515xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x515xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<3x515xf32>, tensor<3x515xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_4x607x1000() -> (i64, i64) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<4x1000xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<4x1000xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<4x1000xf32>
  %ewt = tensor.empty() : tensor<607x1000xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<607x1000xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f32
    linalg.yield %v : f32
  } -> tensor<607x1000xf32>
  %ec = tensor.empty() : tensor<4x607xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<4x607xf32>) -> tensor<4x607xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<4x1000xf32>, tensor<607x1000xf32>) outs(%fc : tensor<4x607xf32>) -> tensor<4x607xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<4x1000xf32>, tensor<607x1000xf32>) outs(%fc : tensor<4x607xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = math.fma %x, %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x607xf32>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<4x607xf32>, tensor<4x607xf32>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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

func.func @nt_f64_2x301x1001() -> (i64, i64) {
  %zero = arith.constant 0.0 : f64
  %ea = tensor.empty() : tensor<2x1001xf64>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<2x1001xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %t1 = arith.muli %i, %c7 : index
    %c3 = arith.constant 3 : index
    %t2 = arith.muli %k, %c3 : index
    %t3 = arith.addi %t1, %t2 : index
    %c11 = arith.constant 11 : index
    %t4 = arith.remui %t3, %c11 : index
    %c2 = arith.constant 2 : index
    %t5 = arith.subi %t4, %c2 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<2x1001xf64>
  %ewt = tensor.empty() : tensor<301x1001xf64>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%ewt : tensor<301x1001xf64>) {
  ^bb0(%o: f64):
    %j = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %t1 = arith.muli %k, %c5 : index
    %c2 = arith.constant 2 : index
    %t2 = arith.muli %j, %c2 : index
    %t3 = arith.addi %t1, %t2 : index
    %c13 = arith.constant 13 : index
    %t4 = arith.remui %t3, %c13 : index
    %c3 = arith.constant 3 : index
    %t5 = arith.subi %t4, %c3 : index
    %t6 = arith.index_cast %t5 : index to i64
    %v = arith.sitofp %t6 : i64 to f64
    linalg.yield %v : f64
  } -> tensor<301x1001xf64>
  %ec = tensor.empty() : tensor<2x301xf64>
  %fc = linalg.fill ins(%zero : f64) outs(%ec : tensor<2x301xf64>) -> tensor<2x301xf64>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %wt : tensor<2x1001xf64>, tensor<301x1001xf64>) outs(%fc : tensor<2x301xf64>) -> tensor<2x301xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %wt : tensor<2x1001xf64>, tensor<301x1001xf64>) outs(%fc : tensor<2x301xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %s = math.fma %x, %y, %acc : f64
    linalg.yield %s : f64
  } -> tensor<2x301xf64>
  %zi = arith.constant 0 : i64
  %ez = tensor.empty() : tensor<i64>
  %fz = linalg.fill ins(%zi : i64) outs(%ez : tensor<i64>) -> tensor<i64>
  %sums:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c, %r : tensor<2x301xf64>, tensor<2x301xf64>) outs(%fz, %fz : tensor<i64>, tensor<i64>) {
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
