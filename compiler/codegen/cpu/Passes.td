// Passes of kiln's CPU code generation (compiler/codegen/cpu).
#ifndef KILN_COMPILER_CODEGEN_CPU_PASSES
#define KILN_COMPILER_CODEGEN_CPU_PASSES

include "mlir/Pass/PassBase.td"

def LinalgExtToLoops : Pass<"kiln-cpu-linalg-ext-to-loops", "mlir::ModuleOp"> {
  let summary = "Lowers bufferized sort, topk, topk_v2, scan and scatter to scf loops";
  let description = [{
    Runs after bufferization, on the iree_linalg_ext ops that are dispatch roots (the
    others were decomposed into linalg ops on tensors). Each line along the op's
    dimension gets its own loop: sort copies the line into a contiguous scratch line,
    insertion-sorts runs of 16 and merges them bottom-up between two scratch lines
    (stable; the scratch lines are allocated once per op); topk inserts an element that
    beats the current k-th after its equals; topk_v2 keeps a heap whose root is the worst
    of the k and heap-sorts it when `is_sorted`; scan carries the previous output.
    scatter visits every update element in order, skipping those whose mask is false or
    whose slice does not fit inside the original. The marked sorts of
    kiln-cpu-split-long-sorts (sorted runs, merge passes) do this workgroup's share of
    their line, from the dispatch's workgroup id and count (SortRunsAndMerges.h).

    With `vector-bits` (the CPU's register width), topk and topk_v2 lines that are
    contiguous and whose comparator is elementwise compare whole vectors with the current
    worst of the k first; only the lanes that beat it go through the insertion, in order,
    and the rest of the vector is compared again after each one (VectorTopk.h), so the
    result is the scalar loop's. With it, a topk with a static k of at most 16 also keeps
    the k in values through each line and inserts with selects.

    With `check-indices`, each scatter index whose mask is set is checked against the
    offsets that keep its slice inside the original (`kiln.index_check`).
  }];
  let options = [Option<"checkIndices", "check-indices", "bool", /*default=*/"false",
                        "Check scatter slice offsets (kiln.index_check)">,
                 Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
                        "The CPU's vector register width, for topk's vector filter (0: the plain loops)">];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect",
                           "::mlir::math::MathDialect", "::kiln::compiler::KilnDialect"];
}

def KeepFlashAttention : Pass<"kiln-cpu-keep-flash-attention", "mlir::ModuleOp"> {
  let summary = "Keeps the attention ops the CPU computes as flash attention whole";
  let description = [{
    Runs before kiln-decompose-linalg-ext when the CPU is the only target. Each
    iree_linalg_ext.attention that the CPU's flash lowering takes (FlashAttention.h:
    no mask, f32, f16 or bf16 operands, Q (batch..., m, k1), K (batch..., k2, k1),
    V (batch..., k2, n), output (batch..., m, n)) is marked `kiln.undecomposed`, so it
    becomes the root of its dispatch instead of generics whose [queries, keys] scores
    would be a temporary. The others are left to the decomposition.
  }];
}

def LowerFlashAttention : Pass<"kiln-cpu-lower-flash-attention", "mlir::ModuleOp"> {
  let summary = "Lowers bufferized attention ops to flash-attention loops of linalg ops";
  let description = [{
    Runs after bufferization, before kiln-cpu-tile-contractions. Each
    iree_linalg_ext.attention on memrefs (kept whole by kiln-cpu-keep-flash-attention and
    distributed among workgroups along a parallel loop) becomes, per batch position, a
    loop over blocks of 64 query rows and within it over blocks of 128 keys with an
    online softmax (FlashAttention.h): Q K^T and P V are linalg contractions that the
    matmul kernels tile and vectorise, the softmax updates generics over the block; the
    state (scaled Q rows, accumulator, maxima, sums) and one block of scores live on the
    stack (on the heap when the head sizes are dynamic). An attention it cannot lower is
    an error naming it.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def SplitLongSorts : Pass<"kiln-cpu-split-long-sorts", "mlir::ModuleOp"> {
  let summary = "Splits a long sort line into sorted runs and merge passes that CPU workers share";
  let description = [{
    Runs in the host pipeline, before dispatch formation, when every target is a CPU (a
    sort is otherwise one workgroup per line). Each iree_linalg_ext.sort on tensors with
    one line (every other dimension 1) whose length is dynamic or at least `min-length`
    becomes `runs` (K, a power of two) steps, each its own dispatch (SortRunsAndMerges.h):
    the sort marked `kiln.sort_run_count = K`, with `ins` (the original operands) and
    fresh outputs, which sorts each of K runs of ceil(n / K) elements on its own, the
    runs spread over the workgroups; then log2(K) merge passes marked `kiln.sort_merge =
    array<i64: K, m>` (runs of m * ceil(n / K) merged pairwise), each workgroup one block
    of outputs: a merge-path binary search for where the block starts in its pairs of runs,
    then a sequential stable merge (left run first on ties). The result is the stable order
    of the unsplit sort, for any comparator and length.
  }];
  let options = [Option<"runs", "runs", "int64_t", /*default=*/"2",
                        "Number of sorted runs (a power of two): each merge pass halves it">,
                 Option<"minLength", "min-length", "int64_t", /*default=*/"131072",
                        "Static lines shorter than this stay one sort">];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def HoistInputLoads : Pass<"kiln-cpu-hoist-input-loads", "mlir::ModuleOp"> {
  let summary = "Moves loop-invariant loads of input bindings out of loops";
  let description = [{
    Runs on loops after linalg becomes loops. A `memref.load` of (a view of) an input
    binding whose indices do not change in an `scf.for` that runs at least once (constant
    bounds) moves before the loop. Input bindings are never written by a dispatch and do
    not overlap its outputs (they are `llvm.noalias`), which upstream loop-invariant code
    motion cannot know: e.g. the row index of a gather, read once per row instead of once
    per element, which lets LLVM turn the row copy into vector code.
  }];
}

def WrapEntryPoints : Pass<"kiln-cpu-wrap-entry-points", "mlir::ModuleOp"> {
  let summary = "Adds the executable ABI entry point of every executable function";
  let description = [{
    Runs on the module marked `kiln.executable`, after bufferization. For each executable
    function `F` (memref bindings, push-constant scalars, workgroup id and count) it adds
    `F_entry(dispatch_state, workgroup_state) -> i32` implementing
    `kiln_dispatch_fn_v2_t` (hal/abi/executable_abi.h): it reads the binding pointers,
    builds identity-layout memref descriptors whose dynamic sizes come from the push
    constants named by `kiln.binding_dims`, decodes the scalar push constants (one 32-bit
    word per index or value of at most 32 bits, two words low-first for 64-bit values),
    reads the workgroup id and count along x, calls `F` and returns 0. `F` becomes private
    so that LLVM inlines it into its entry point.

    A function with `kiln.index_check` ops gets one more argument, its workgroup's index
    check record (`kiln.index_check_record`, a memref<3xi64> over the workgroup state's
    `index_check`), and its distinct check sites in `kiln.index_check_sites`; the entry
    point then returns KILN_DISPATCH_INDEX_OUT_OF_RANGE when the record was filled.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect"];
}

def LowerIndexChecks : Pass<"kiln-cpu-lower-index-checks", "mlir::ModuleOp"> {
  let summary = "Turns kiln.index_check ops into a compare and a store to the record";
  let description = [{
    Runs after kiln-cpu-wrap-entry-points and after linalg becomes loops. Each
    `kiln.index_check %i below %n for SITE` in an executable function becomes: when
    `%i < 0 or %i >= %n` and the record's site word is still 0, store 1 + the position of
    SITE in the function's `kiln.index_check_sites`, then `%i` and `%n`, into the
    argument marked `kiln.index_check_record`. Only the first failing check of a
    workgroup is kept, so the report is the first bad index in loop order.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def DistributeToWorkgroups : Pass<"kiln-cpu-distribute-to-workgroups", "mlir::ModuleOp"> {
  let summary = "Splits each executable function's root loop nest across workgroups";
  let description = [{
    Runs on the module marked `kiln.executable`, on tensors, before bufferization. The
    root op (`kiln.root`) is tiled along its first parallel loop whose extent is dynamic or
    at least 64 (else its first parallel loop: a decode step's [8, 4096] product splits
    its columns, so that each workgroup reads only its share of the weights) into one
    contiguous block of ceil(extent / workgroup_count) iterations per workgroup, and the producers it uses
    (fills, elementwise ops, slices) are fused into the tile, so that workgroups write
    disjoint parts of every output. Contractions choose their loop: a batched one splits
    along its batch from 8 matrices, one with fewer static rows than columns (a prefill's
    linear layer) along its columns, so that each workgroup packs only its part of the
    right-hand operand. A root `tensor.insert_slice` (a KV cache written to a new buffer)
    splits along a dimension its slice spans whole: each workgroup copies its block of
    the destination and inserts its block of the source. Functions where none of this is
    possible (no parallel loop, a root without the tiling interface, a tiling failure)
    are left whole and run as one workgroup, with a remark saying why. A function that was split is marked
    `kiln.distributed`: the host may then launch any number of workgroups. Functions
    marked `kiln.workgroup_strategy` are left to that strategy's own pass. A root that is
    a step of a split sort (kiln-cpu-split-long-sorts) shares its work out itself when it
    is lowered: its function is marked `kiln.distributed` and the root left whole.

    With `stride-tile=T` (the GPU's work-items) the root is tiled in blocks of T iterations
    instead, and worker `id` of `count` takes blocks id, id + count, ... (a grid-stride
    loop): tile-sized temporaries of fused producers then have static sizes (GPU kernels
    cannot allocate dynamic ones) and neighbouring workers touch neighbouring memory;
    contractions keep their rows and insert_slice roots stay one workgroup there.
    An elementwise root over one static dimension takes blocks of one 128-bit vector of its
    widest element instead (marked `kiln.register_tile`); when such vectors do not divide
    the extent and the root has no fused producers and writes one output binding whole, it
    is split (linalg's splitOp) into the whole vectors and a tail of the last 1 to V - 1
    elements, a second grid-stride loop of single elements, both writing the binding in
    place. When the split loop is not the root's first parallel loop (the loops before it are
    shorter than 64), each block is tiled again by 1 along those loops, so that a fused
    producer's temporary covers one of their iterations (one head's scores of a query
    row in decomposed attention) and fits in private memory.
  }];
  let options = [Option<"strideTile", "stride-tile", "int64_t", /*default=*/"0",
                        "Static block size of a grid-stride distribution (0: one contiguous block per worker)">];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def InterchangeForVectorization : Pass<"kiln-cpu-interchange-for-vectorization", "mlir::ModuleOp"> {
  let summary = "Moves the output's contiguous loop innermost in contractions";
  let description = [{
    Runs on buffers, before linalg ops become loops. For a linalg op with reduction loops
    whose output's innermost dimension is a parallel loop `d` that also indexes the
    innermost dimension of one of its inputs (j in a matmul's B[k, j] and C[i, j]), the
    op is generalised and `d` becomes the innermost loop (i, k, j for a matmul). The
    innermost loop then walks contiguous memory in the output and that input, so LLVM
    vectorises it with FMAs. Ops that do not fit (full reductions, reductions along rows)
    are left as they are.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ApproximateMath : Pass<"kiln-cpu-approximate-math", "mlir::ModuleOp"> {
  let summary = "Replaces f32 math functions by polynomial approximations";
  let description = [{
    exp, log, tanh, erf, sin, cos and friends on f32 become MLIR's polynomial
    approximations (plain arithmetic), so that loops using them vectorise instead of
    calling the C library once per element.
  }];
  let dependentDialects = ["::mlir::math::MathDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CopiesToLinalg : Pass<"kiln-cpu-copies-to-linalg", "mlir::ModuleOp"> {
  let summary = "Turns memref.copy into linalg.copy so that copies become loops in the kernel";
  let description = [{
    The upstream lowering of a `memref.copy` between strided views calls `memrefCopy`
    from MLIR's C runner library, which a kiln executable does not link. Every copy
    becomes a `linalg.copy` instead, which the kernel lowers to (vectorisable) loops like
    any other linalg op.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ExpandFloat8 : Pass<"kiln-cpu-expand-float8", "mlir::ModuleOp"> {
  let summary = "Implements f8E4M3FN, f8E4M3FNUZ, f8E5M2 and f8E5M2FNUZ with integer and f32 arithmetic";
  let description = [{
    LLVM has no types for these formats. After `arith-emulate-unsupported-floats` has
    moved their arithmetic to f32, this pass expands what is left: `arith.extf` from and
    `arith.truncf` to these formats become bit manipulation (compiler/utils/SmallFloats.h:
    round to nearest even, each format's NaN, infinity and zero rules), and constants
    become their i8 bit patterns. Values of these types then only move through memory,
    which LLVM sees as i8. A truncation from f64 first rounds to f32.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

def ExpandArith : Pass<"kiln-cpu-expand-arith", "mlir::ModuleOp"> {
  let summary = "Expands the arith ops LLVM has no instruction for, and nothing else";
  let description = [{
    Ceil and floor divisions, scaling extensions and truncations, and conversions from and
    to bf16, f8E8M0FNU and f4E2M1FN become plain arithmetic (no compiler-rt calls), and
    moves of bf16 values (select, vector broadcast, extract, insert, shuffle) work on
    their bits as i16 (LLVM would round them through `__truncsfbf2` without AVX512_BF16). Unlike upstream `arith-expand`,
    floating-point min and max stay whole, so that they lower to LLVM's `maxnum`/`minnum`
    and `maximum`/`minimum` intrinsics, which LLVM vectorises as reductions; the
    compare-and-select form they would expand to is not recognised as one.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def LoadBf16AsBits : Pass<"kiln-cpu-load-bf16-as-bits", "mlir::ModuleOp"> {
  let summary = "Moves bf16 values through memory as their i16 bits (LLVM dialect)";
  let description = [{
    Runs on the LLVM dialect. Each `llvm.load` of bf16 (or a vector of bf16) loads i16 and
    bitcasts, each `llvm.store` of one stores the bitcast i16; bitcast pairs fold. Without
    AVX512_BF16, LLVM's x86 backend keeps a loaded bf16 promoted to f32 and rounds it back
    through compiler-rt's `__truncsfbf2` (which kernels do not link) before a bitcast or a
    store: a topk of bf16 rows called it 138 times on an Intel Xeon without it. For the
    moves that remain (bf16 block arguments of masked loads), every module defines
    `__truncsfbf2` itself (weak, hidden: round to nearest even, NaN kept
    quiet), so the backend's calls bind inside the kernel. Kernels compute in f32, so bf16
    values are only moved and that rounding is exact.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ReassociateReductions : Pass<"kiln-cpu-reassociate-reductions", "mlir::ModuleOp"> {
  let summary = "Allows float reductions to be reassociated so that they vectorise";
  let description = [{
    Runs on linalg ops before they become loops. In a linalg op with reduction loops, the
    float `addf`, `mulf`, `maxnumf`, `minnumf`, `maximumf` and `minimumf` that combine an
    element with the accumulator (the output's block argument) get the `reassoc`
    fast-math flag. LLVM may then keep several partial accumulators in vector lanes and
    combine them at the end, as every BLAS and PyTorch do: a sum of n floats moves by a
    few ulps of its largest partial sums, no more. Other ops keep strict semantics.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BlockReductions : Pass<"kiln-cpu-block-reductions", "mlir::ModuleOp"> {
  let summary = "Splits long float sums into blocks so that rounding error grows with log n";
  let description = [{
    Runs on linalg ops on buffers before kiln-cpu-reassociate-reductions and the loop
    lowering. A float sum (one output, one reduction loop, a body yielding `addf` of the
    output's value and a value of the inputs; BlockReductions.h) whose reduction extent is
    dynamic or above 4096 is tiled along the reduction loop in levels: blocks of 4096
    elements innermost, 16 times more per level above, each block summed into a fresh
    zeroed accumulator on the stack that is then added to the level above, the op's output
    at the top. A sum of n floats in one accumulator (even one per vector lane) adds n
    values in sequence and its error grows with n; blocked, each accumulator adds at most
    4096 / (vector lanes) elements or 16 block sums, so the error grows with the number
    of levels, log n. Parallel loops outside the reduction loop are tiled by one (each line
    is its own sum), those inside it (a sum over rows, vectorised across columns) so that
    an accumulator holds at most 1024 elements.

    The sums are reassociated, as kiln-cpu-reassociate-reductions allows; other
    reductions (max, products, several outputs or reduction loops) are left alone.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect"];
}

def PlacePrivateBuffers : Pass<"kiln-cpu-place-private-buffers", "mlir::ModuleOp"> {
  let summary = "Moves small kernel temporaries from the heap to the stack";
  let description = [{
    Runs on executable functions right after bufferization, before deallocation is
    placed. A `memref.alloc` whose size has a constant upper bound (a static shape, or
    dynamic sizes bounded by tile sizes, e.g. `affine.min(16, n - i)`) of at most 64 KiB
    becomes private memory (DESIGN.md section 3): one `memref.alloca` of the bound in the
    function's entry block, viewed with the actual sizes through `memref.view` of a byte
    buffer when they are dynamic. The kernel then makes no heap call
    per tile, and LLVM sees stack memory that no binding aliases. Larger or unbounded
    allocations stay on the heap.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def ForwardOutputBuffers : Pass<"kiln-cpu-forward-output-buffers", "mlir::ModuleOp"> {
  let summary = "Lets an output binding stand in for a temporary copied whole into it";
  let description = [{
    Runs on dispatch functions right after bufferization. An op that updates its outputs
    in place (a topk whose outputs start as an input's contents, say) bufferizes to

      %t = memref.alloc(%k)           // a temporary as large as the output
      memref.copy %input, %t
      iree_linalg_ext.topk_v2 ... outs(%t ...)
      memref.copy %t, %output         // the output binding

    When the output binding is written by that last copy alone, and the temporary is not
    used after it, the binding replaces the temporary (through a memref.cast where their
    static sizes differ) and the copy goes: one copy and one allocation less, and no
    dynamically sized temporary, which a GPU kernel could not allocate. A dispatch that
    still copies into a whole binding (`%input` into `%output` above) runs on one worker
    (the entry points see to that), as it did before.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TileContractions : Pass<"kiln-cpu-tile-contractions", "mlir::ModuleOp"> {
  let summary = "Tiles matmul-like contractions into cache blocks and register tiles";
  let description = [{
    Runs on buffers, after the entry points. A contraction with one m, n and k dimension
    (any batch dimensions; f32 or f64, f16 or bf16 operands of an f32 linalg.matmul, f16
    with f16-vectors; n innermost and contiguous in the output; see ContractionTiling.h) is tiled for one of three register kernels, chosen by the layout
    of its right-hand operand:

    - [.., k, n] (matmul, batch_matmul): cache blocks, iterated n, k, m, so that a block of
      the right-hand operand stays in L2 while rows of the left-hand one stream past it,
      and within a block register tiles of rows x 2 vector registers of columns with
      k = 1 (outer products). The m and n loops of the register tiles are peeled, so that
      every tile but the remainders has static sizes. The register tile fits the target's
      vector registers: 8 rows of 2 vectors with 512-bit vectors (32 registers), 6 rows
      with 256-bit vectors and 4 rows with 128-bit vectors (16 registers).
    - [.., n, k] (a linear layer's weights, y = x W^T), many or dynamic rows: the same
      cache blocks, but each block of the right-hand operand is first transposed
      (`linalg.transpose`, in register tiles of L x L elements for vectors of L, peeled)
      into a [k, n] buffer on the stack, outside the loop over rows, and the block becomes
      a `linalg.matmul` (or `linalg.batch_matmul`) of that buffer, tiled as above. The
      copy is read once per block and reused by every row.
    - Packed products without batch, with 512-bit vectors: each block of k of the
      left-hand operand is copied, before its blocks of columns, into a heap buffer
      [m / r, kc, r] (whole groups of r = 8 rows, 16 for f16 with f16-vectors; a
      `linalg.generic`), and the r-row register tiles read their group through a
      `memref.transpose`d view ([r, kc], strides [1, r]); the last m % r rows read the
      operand in place.
    - [.., n, k] with at most 8 rows (static) and the left-hand operand contiguous in k
      (decode-shaped products): register tiles of all rows by a few columns, the column
      remainder in tiles of one column, marked `kiln.dot_product_tile` with the vector
      length: dot products along k. Over the whole depth when x fits in L1; otherwise in
      blocks of k (outermost) whose pieces of x's rows take at most two thirds of
      `l1-data-bytes`, in tiles of 2 columns marked `kiln.prefetch_rows` (they prefetch
      the rows of W of the tile after the next). Pieces shorter than 4 KiB (an L1 way) are read from a
      heap copy of x whose rows are spread over L1's sets (`memref.subview` of a buffer
      with longer rows).
    - With `dot-bf16` / `dot-i8` (the target has the instruction, 512-bit vectors): a
      matmul of bf16 into f32 or of signed i8 into i32 (B[k, n] or W[n, k], at least 16
      rows) is split off its last k % g (g = 2 or 4, left to loops), tiled into cache
      blocks of 256 k x 32 columns (n, k; the last partial block of columns left to
      loops), and each block is packed [kc / g, 32, g] (`kiln.group_pack_tile`) and
      multiplied by every row in `linalg.generic` tiles of 8 rows marked
      `kiln.group_dot_tile` (GroupDotProducts.h; i8 adds the column sums that undo its
      unsigned offset, `kiln.group_sums_tile`). Without them (or with fewer rows), bf16
      is widened as below; i8 stays loops.
    - With `amx-bf16` / `amx-i8` as well, and a static depth that is a multiple of 32 bf16
      or 64 i8 k: the blocks are as deep as a 32 KiB packed block allows (512 bf16 or 1024
      i8 k, less to divide the depth), and the product's rows are tiled by 32 into tiles
      marked `kiln.matrix_tile` (MatrixTileProducts.h: 2 x 2 AMX accumulator tiles); the
      rows after the last 32 take `kiln.group_dot_tile` tiles as above.
    - Without a group-dot kernel, a `linalg.matmul` (no batch) of f16 or bf16 operands
      into f32, with 512-bit vectors, is packed as an f32 one, whatever its rows: the
      packing copies of both operands widen the values (`arith.extf`; widening
      transposes for [n, k]), and the f32 register tiles take them; the last m % 8 rows
      widen A as they read it. With [n, k] and at most 8 static rows (any vector width),
      it takes dot-product tiles instead, after x is widened once into a heap buffer.
    - With `f16-vectors` (AVX512_FP16) and 512-bit vectors, f16 contractions into f16 are
      tiled as f32 ones are, in 32-lane vectors (16 x 32 register tiles, so that each
      broadcast feeds one FMA; A in groups of 16 rows; 32 x 32 packing squares), except
      that at most 8 rows with [n, k] take packing rather than dot products.

    A right-hand operand of 16 MiB or more (beyond the last-level cache), in a product
    of at most 512 rows (or a dynamic number), has the next block to be packed prefetched
    by the register tiles that pass the current one, a line per few steps of their k
    loops.

    Outer-product tiles are marked `kiln.register_tile`. Everything a kernel does not fit
    is left alone and becomes loops; so do tiles whose sizes stay dynamic.
  }];
  let options = [Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
                        "Width of the target's vector registers in bits (128, 256 or 512)">,
                 Option<"dotBf16", "dot-bf16", "bool", /*default=*/"false",
                        "The target has AVX512_BF16 (vdpbf16ps): bf16 x bf16 -> f32 matmuls use it">,
                 Option<"dotI8", "dot-i8", "bool", /*default=*/"false",
                        "The target has AVX512_VNNI (vpdpbusd): i8 x i8 -> i32 matmuls use it">,
                 Option<"amxBf16", "amx-bf16", "bool", /*default=*/"false",
                        "With dot-bf16: the target has AMX_TILE and AMX_BF16 (tdpbf16ps)">,
                 Option<"amxI8", "amx-i8", "bool", /*default=*/"false",
                        "With dot-i8: the target has AMX_TILE and AMX_INT8 (tdpbssd)">,
                 Option<"f16Vectors", "f16-vectors", "bool", /*default=*/"false",
                        "The target has AVX512_FP16: f16 matmuls into f16 take the outer-product tiles in f16">,
                 Option<"l1DataBytes", "l1-data-bytes", "int64_t", /*default=*/"32768",
                        "Size of one core's L1 data cache on the target (L1DataCacheBytes)">];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect"];
}

def VectorizeDequantizingProducts : Pass<"kiln-cpu-vectorize-dequantizing-products", "mlir::ModuleOp"> {
  let summary = "Turns decode-shaped products that dequantize their weights into dot-product vector code";
  let description = [{
    A weight-only quantized linear layer, after kiln-fuse-dequantization and the packing
    of its sub-byte weights (kiln-lower-sub-byte-bindings), is a linalg.generic with
    out[m, n] += x[m, k] * D, D dequantizing a byte of w[n, k] (i8 weights, or the packed
    bytes w[n, kb] of sub-byte ones with a loop t over the elements of a byte) with values
    read per output column at (n) or (n, k floordiv c) (scales, zero points). With at most
    8 static rows, a static depth that is a multiple of the vector length and per-column
    values constant over a vector of k, it becomes register tiles of all rows by 4, 2 or
    1 columns (fewer for more rows) over the workgroup's columns: a loop over k in steps
    of a vector that loads the weights' bytes of each column once, evaluates D on vectors
    with the body's own ops (so any dequantization formula works: signed or unsigned,
    zero points, f16 scales), and accumulates one FMA per row, column and element of a
    byte into vectors of partial sums (x's elements of one t taken from its contiguous
    rows by shuffles), each reduced once at the end and added to the output. When D is
    E * s with s a per-column value constant over groups of k that divide the depth (a
    group or row scale, or a value of it alone such as an f16 scale widened), the steps
    of a group accumulate x * E and the group's sums are multiplied by s once. Each step
    also prefetches the same bytes of the row two tiles ahead into L2 (one stream per
    column is more than the hardware prefetchers follow on short rows), and the integer
    vector arithmetic of D is narrowed to the bytes it fits in where integer range
    analysis proves it (a nibble minus 8 is one 128-bit byte op, not two 512-bit ones).
    With 512-bit vectors (AVX-512F), a value of D computed from one nibble alone (a
    trunci to i4 or an andi with 15, then arith ops and constants: (q - 8) as f32, a
    signed nibble widened) is instead looked up in a 16-entry f32 table (folded at
    compile time) by vpermps, indexed by the weights' bytes widened to 32-bit lanes once
    (the high nibble shifted there): two lookups and one shift per 16 bytes instead of
    byte arithmetic, widenings and conversions, on the ports the FMAs need. Per-column
    values are broadcast as loaded and then computed on vectors (an f16 scale: one
    broadcast load and one conversion).

    Blocked weights (GGUF's Q8_0 / Q4_0 after kiln-fuse-dequantization expanded the
    product through their collapse) take the same tiles with a loop over the blocks
    around the loop over k: loops (m, n, kb, k[, t]), weights w[n, kb, k], x[m, kb, k] or
    x[m, kb, t, k] (contiguous for each t: no shuffles), per-block values at (n, kb).
    Reduction loops of one iteration (a packed binding's loop over the one byte of a
    nibble pair) are dropped first. The sum over k is reassociated, as the contraction
    kernels' are. Other such products stay loops.
  }];
  let options = [Option<"vectorBits", "vector-bits", "int64_t", "256", "width of the target's vector registers">];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def VectorizeContractions : Pass<"kiln-cpu-vectorize-contractions", "mlir::ModuleOp"> {
  let summary = "Turns static register tiles of contractions into vector code";
  let description = [{
    Runs after `kiln-cpu-tile-contractions` and a canonicalisation that makes the peeled
    tiles' shapes static. Each `kiln.register_tile` op with static shapes becomes vector
    transfers and a `vector.contract` (lowered later to FMAs on broadcast left-hand
    values); tiles with dynamic sizes (remainders) stay linalg ops and become loops. Loop
    invariants are hoisted and the accumulator's transfers move out of the k loop, so the
    accumulators stay in registers for the whole depth of a cache block.

    A static square `linalg.transpose` register tile, or a transposing copy that widens
    (a `linalg.generic` of one `arith.extf`), becomes a vector read of its rows, the
    widening, a `vector.transpose` and a vector write. A register tile whose operands
    differ in element type (the last rows of a widened product) is vectorised without
    `vector.contract` (which wants one type): `arith.extf` and a multi-reduction. An
    output of 2 MiB or more (beyond a core's L2) has each register tile's lines
    prefetched for writing, one per step of its k loop's first steps (all before the
    loop when it is shorter). A k loop with static bounds whose prefetches are marked
    `kiln.prefetch_steps` N (the output's are) splits after its first N steps (the
    largest N): the rest of the loop runs without them (PrefetchPrefix.h).

    Each `kiln.dot_product_tile` op (L lanes) with static m and n sizes becomes a loop over
    k in steps of L that carries an L-lane vector of partial sums per output and adds the
    products of vector loads of the rows and columns (FMAs; a narrower operand is widened
    as loaded), then the last k % L elements through masked loads, then one reassociated vector reduction per output, added to it.

    `kiln.group_pack_tile`, `kiln.group_sums_tile` and `kiln.group_dot_tile` ops with 32
    static columns (and static rows, for the product) become the packing loop
    (interleaved rows, or 16 x 16 transposes of 32-bit groups), the column sums and the
    dot-product kernel: per group of k, two packed vectors and one broadcast group per
    row, `llvm.x86.avx512bf16.dpbf16ps.512` or `llvm.x86.avx512.vpdpbusd.512` into
    8 x 2 accumulators.

    A `kiln.matrix_tile` product (32 rows x 32 columns, a static number of groups that is
    a multiple of 16) becomes AMX code: 2 x 2 `amx.tile_load`s of its accumulators, a loop
    over steps of 16 groups loading 2 left-hand tiles in place and 2 tiles of the packed
    block and issuing 4 `amx.tile_mulf` (bf16) or `amx.tile_muli` (signed i8), and 4
    `amx.tile_store`s (MatrixTileProducts.h).
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::amx::AMXDialect"];
}

#endif  // KILN_COMPILER_CODEGEN_CPU_PASSES
