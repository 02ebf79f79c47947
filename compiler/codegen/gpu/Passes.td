// Passes of kiln's AMD GPU code generation (compiler/codegen/gpu).
#ifndef KILN_COMPILER_CODEGEN_GPU_PASSES
#define KILN_COMPILER_CODEGEN_GPU_PASSES

include "mlir/Pass/PassBase.td"

def FormKernels : Pass<"kiln-gpu-form-kernels", "mlir::ModuleOp"> {
  let summary = "Wraps each dispatch function into a GPU kernel of hal/abi/gpu_kernel_abi.h";
  let description = [{
    Runs on the executable module after bufferization, where the CPU target would add its
    entry points. For each dispatch function `@f` (kiln.binding_dims) it adds the kernel
    `@f` and renames the dispatch function `@f_body`:

      func.func @f(%binding: !llvm.ptr..., %word: i32..., %count_x: i32, %count_y: i32,
                   %count_z: i32) attributes {kiln.gpu.kernel, kiln.gpu.workgroup_size}

    The arguments are exactly the kernarg block of the GPU kernel ABI (binding pointers,
    push-constant words, workgroup count). The kernel builds the dispatch function's
    memrefs and scalars from them and maps work-items onto its workers: a distributed
    dispatch (kiln.distributed) sees work-item `block_id.x * size + thread_id.x` as its
    worker id and every work-item of the grid as a worker, so each work-item computes its
    own block of the root's first parallel loop with its producers fused (the CPU's
    workgroup distribution, one level finer). Any other dispatch runs on work-item 0 of
    workgroup 0 only. A workgroup-cooperative dispatch (kiln.gpu.workgroup_workers, from
    kiln-gpu-tile-contractions) takes the workgroup id and count as its worker id and count,
    brings its own workgroup size, and is inlined into the kernel, so that its workgroup
    memory and barriers belong to the kernel (a `kiln.workgroup_barrier` built on tensors
    becomes `gpu.barrier` here).

    Work-item and workgroup ids are `gpu.thread_id` and `gpu.block_id`; the workgroup size
    is a constant. This is the IR both the code object and the host twin are lowered from.

    Checked mode: a dispatch function with `kiln.index_check` ops gets the distinct sites
    in `kiln.index_check_sites` (also on its kernel) and a trailing `memref<3xi64>`
    argument, its workgroup's index check record; its kernel takes the records array as a
    last `!llvm.ptr` (hal/abi/gpu_kernel_abi.h, section 3) and passes record
    `x + count_x * (y + count_y * z)`. The checks are lowered here, before the body is
    called or inlined: the work-items of a workgroup run at once, so a failing check claims
    the record with a compare-and-swap of its site word (`memref.generic_atomic_rmw`, a
    cmpxchg on the GPU and in the host twin) and only the winner writes index and bound.
  }];
  let options = [Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
                        "Work-items per workgroup (a multiple of the wavefront size)">];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def SelectWorkgroupStrategies : Pass<"kiln-gpu-select-workgroup-strategies", "mlir::ModuleOp"> {
  let summary = "Marks the dispatches a workgroup-cooperative strategy computes";
  let description = [{
    Runs on tensors, before the workgroup distribution. A dispatch function whose root is
    one of the following, whose inputs are read from bindings and whose output starts as a
    fill or a binding's contents, with no other computation, is marked
    `kiln.workgroup_strategy`: the generic distribution leaves it whole and the strategy's
    pass lays it out after bufferization.
    - `"gpu.workgroup_contraction"` (kiln-gpu-tile-contractions, WorkgroupContraction.h):
      a contraction (matmul, the weight layout's x W^T, batch_matmul, generic contractions
      with casts, with batch dimensions), or a convolution with input and output channels
      as an implicit GEMM (m = batch and output image, n = output channels, k = filter
      window and input channels; depthwise convolutions and pooling are not taken); also
      when the root is an elementwise generic that reads such a product at its own
      position and its other inputs from bindings (IsContractionEpilogue: a bias, an
      activation, the rounding of an f32 accumulation to f16), as the product's epilogue.
    - `"gpu.workgroup_reduction"` (kiln-gpu-tile-reductions, WorkgroupReduction.h): a
      reduction of the inputs' innermost dimension by one associative, commutative arith
      combiner with a neutral element (sums, products, minima, maxima, bitwise reductions)
      of an input's element or of one the body computes from the inputs' elements (a sum
      of squares, a matvec's products); also a contraction with a single row or column
      (one token times weights stored [n, k]) that is such a reduction.
    - `"gpu.workgroup_rows"` (kiln-gpu-tile-rows, WorkgroupRows.h): otherwise, a chain of
      elementwise generics and row reductions over the innermost dimension (softmax),
      whatever its intermediate ops.
    - `"gpu.workgroup_scatter"` (kiln-gpu-tile-scatters, WorkgroupScatter.h): an
      iree_linalg_ext.scatter whose updates, indices and mask are bindings.
  }];
}

def TileContractions : Pass<"kiln-gpu-tile-contractions", "mlir::ModuleOp"> {
  let summary = "Computes the marked contractions cooperatively per workgroup, through LDS";
  let description = [{
    Runs on buffers, right after bufferization, on the dispatch functions
    kiln-gpu-select-workgroup-strategies marked as contractions. The root is replaced by SIMT code that every
    work-item of a workgroup runs:

      for each output tile t = id, id + count, ... (tile_m x tile_n, batch dims outermost)
        register tile (reg_m x reg_n, private) = the output's initial value
        for k0 in steps of tile_k:
          stage lhs[tile rows, k0..] and rhs[k0.., tile cols] into LDS, zero outside
          gpu.barrier
          register tile += the work-item's rows and columns of the LDS slices
          gpu.barrier
        write the register tile inside the output

    `id` and `count` are the function's worker arguments, here the workgroup's id and the
    workgroup count (kiln.gpu.workgroup_workers); the workgroup size is
    (tile_m / reg_m) * (tile_n / reg_n) (kiln.gpu.workgroup_size). Staging is coalesced
    along each operand's innermost dimension, and out-of-range rows, columns and depths are
    zeros, so dynamic and unaligned sizes need no other code path. The per-step product
    uses the root's own body and is vectorised. A function whose buffers do not have the
    expected form (an output that is a temporary, or used by other ops) keeps its root and
    runs on one work-item, with a remark saying why.

    When the root is the epilogue of a product (its output a temporary that only a fill
    initialises), the kernel applies the epilogue's body to each register tile element on
    its way out, reading the epilogue's other inputs there, and writes the epilogue's
    output; the temporary is never allocated.

    m, n and k may each be several loop dimensions, flattened (WorkgroupContractionDims):
    a convolution's staging delinearises its flat rows and depths and reads the input
    through its indexing map (strides and dilations included), so the im2col matrix exists
    only as the LDS slices. Staging uses vector loads where the flat positions run along
    the operand's innermost dimension (NHWC input channels, HWCF output channels).

    With `mfma` (gfx942, gfx90a) a product MFMA computes exactly (f32, f16 or bf16 inputs
    with an f32 output, with `mfma-i8-depth` i8 inputs with an i32 output, with `mfma-f8`
    f8E4M3FNUZ or f8E5M2FNUZ inputs with an f32 output; and a plain multiply-add body)
    uses 32x32 MFMA register tiles
    instead: each of the workgroup's four waves owns a 32x32 block of the output tile and
    issues tile_k / k `amdgpu.mfma` per step, its operand fragments read from LDS in the
    layout of MfmaLayout.h.

    With `wmma` (gfx1100, wave32) f16 or bf16 inputs with an f32 output and i8 inputs with
    an i32 output use 16x16x16 WMMA register tiles: each of the workgroup's eight waves
    owns a 16 x 32 block of the output tile (two accumulators sharing the A fragment) and
    issues 2 tile_k / 16 `amdgpu.wmma` per step, in the layout of WmmaLayout.h.
  }];
  let options = [Option<"mfma", "mfma", "bool", /*default=*/"false",
                        "Use MFMA register tiles where they compute the product exactly">,
                 Option<"mfmaI8Depth", "mfma-i8-depth", "int64_t", /*default=*/"0",
                        "The k of the chip's 32x32 i8 MFMA (16 on gfx942, 8 on gfx90a); 0: none">,
                 Option<"mfmaF8", "mfma-f8", "bool", /*default=*/"false",
                        "The chip has the 32x32x16 MFMAs of f8E4M3FNUZ and f8E5M2FNUZ (gfx942)">,
                 Option<"wmma", "wmma", "bool", /*default=*/"false",
                        "Use 16x16x16 WMMA register tiles (RDNA3, wave32) where they compute the product exactly">];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect",
                           "::mlir::amdgpu::AMDGPUDialect", "::mlir::LLVM::LLVMDialect"];
}

def PadsToGathers : Pass<"kiln-gpu-pads-to-gathers", "mlir::ModuleOp"> {
  let summary = "Computes each padded tensor element by element from its source";
  let description = [{
    Runs on tensors, before the distribution across work-items. Each `tensor.pad` becomes
    one parallel `linalg.generic` over the padded result:

      out[i] = source[i - low]   where 0 <= i_d - low_d < dim(source, d) for every d
               pad(i)            elsewhere (the pad's region, at the result index i)

    with the source read through `tensor.extract` under an `scf.if`, so no element outside
    it is read. On the CPU path a tiled pad bufferizes to a temporary of the tile (one
    row, say) that is filled, partly overwritten and copied out; when a size is dynamic
    that temporary is a heap allocation, which a GPU kernel cannot make. The elementwise
    form needs no temporary at all, writes the result in place, and fuses into its
    consumers like any producer (a convolution's padded input).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::arith::ArithDialect"];
}

def FlattenElementwise : Pass<"kiln-gpu-flatten-elementwise", "mlir::ModuleOp"> {
  let summary = "Computes an elementwise root over several static dimensions as one dimension";
  let description = [{
    Runs on tensors, last before the distribution across work-items. A dispatch whose root
    is elementwise over two or more static dimensions (every indexing map the identity, no
    `linalg.index`), reads whole bindings of the identity layout (nothing else reads them)
    and writes each result whole into such a binding, from an empty tensor, becomes the
    same computation over one dimension: the bindings are viewed through
    `memref.collapse_shape` (row-major and contiguous, so the view is exact) and the root is
    a `linalg.generic` over their elements. The distribution then gives it the 1-D form's
    grid-stride blocks: one 128-bit vector per work-item (global_load/store_dwordx4) with
    neighbouring work-items on neighbouring 16 bytes, instead of one row per work-item.
    Roots with fused producers, broadcasts, transposes or dynamic sizes are left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::bufferization::BufferizationDialect"];
}

def TileRows : Pass<"kiln-gpu-tile-rows", "mlir::ModuleOp"> {
  let summary = "Computes marked row-wise chains (softmax) per workgroup, without row temporaries";
  let description = [{
    Runs on tensors right after kiln-gpu-select-workgroup-strategies, on the dispatch
    functions marked `"gpu.workgroup_rows"`. The chain is replaced by SIMT code on the
    bindings that every work-item of a workgroup of 256 runs:

      for each row r = id, id + count, ...
        for each row reduction R, in order:
          p = R's combiner over the row's elements thread, thread + 256, ..., each element
              of R's input recomputed from the bindings and earlier totals
          total_R = workgroup combine of p (shuffles and LDS), from R's fill value,
                    broadcast to every work-item through LDS
        for columns thread, thread + 256, ...: out[r, c] = the root's element, recomputed

    Columns go in 128-bit vectors while whole vectors remain (work-item t takes columns
    t * w .. t * w + w - 1, then t * w + 256 * w, ...; w = 128 bits over the widest element
    of the row's bindings, when all are contiguous along the row), then one at a time: the
    bindings' loads and the output's stores are dwordx4, the bodies stay scalar per column.
    No intermediate tensor is materialised: softmax reads its row three times and writes
    it once, in registers, whatever the row's length. The function is then laid out
    (kiln.distributed, kiln.gpu.workgroup_workers, kiln.gpu.workgroup_size) and the
    distribution leaves it alone. A function that no longer matches keeps the generic
    path, with a remark.
  }];
  let options = [Option<"waveSize", "wave-size", "int64_t", /*default=*/"64",
                        "The target's wavefront size (lanes a shuffle spans)">];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def TileSorts : Pass<"kiln-gpu-tile-sorts", "mlir::ModuleOp"> {
  let summary = "Sorts the lines of marked iree_linalg_ext.sort dispatches per workgroup";
  let description = [{
    Runs on tensors right after kiln-gpu-select-workgroup-strategies, on the dispatch
    functions marked `"gpu.workgroup_sort"` (WorkgroupSort.h). Every workgroup of 256
    work-items takes lines id, id + count, ... and sorts each with a bitonic network of
    compare-exchange steps separated by barriers:

      for each stage s = 1 .. ceil(log2 n), step t = 0 .. s - 1:
        each work-item takes pairs (i, j), i < j: mirrored positions of each block of 2^s
        at t = 0, positions 2^(s-1-t) apart after; if j < n and the comparator puts
        element j first, the two swap

    Positions beyond the line act as larger than every element, so any length works
    without padding. A line of at most N elements (N from 64 KiB of LDS and the kept
    operands' sizes) is loaded into LDS with each element's position, which breaks the
    comparator's ties: the order is the stable one the CPU computes. A sort marked
    `kiln.sort_run_length = R` (kiln-gpu-split-long-sorts) sorts each run of R elements
    of a line on its own, one (line, run) unit per workgroup, always in LDS; one this
    pass cannot lay out is an error. Operands come from
    bindings or are computed element by element (an iota of indices, say); a result
    nothing reads is never written and gets no global memory. Longer lines that were not
    split (or a dynamic length beyond N at run time) are sorted in place in the output bindings, with a
    remark that ties may then be ordered differently. A topk with static k and line whose
    candidates fit in LDS is sorted the same way: its k initial output elements first (they
    come before every input), then the line with its indices (the indices input, or the
    positions), and the first k are written out. A function that no longer matches
    keeps the per-work-item path, with a remark.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

def SplitLongSorts : Pass<"kiln-gpu-split-long-sorts", "mlir::ModuleOp"> {
  let summary = "Splits sorts with lines beyond the LDS into sorted runs and merge passes";
  let description = [{
    Runs in the host pipeline, before dispatch formation, when every target is a GPU
    (SplitLongSorts.h). Each iree_linalg_ext.sort on tensors whose line may exceed the
    LDS capacity (a dynamic length, or a static one beyond it) with a comparator of arith
    and math ops becomes the same sort marked `kiln.sort_run_length = R` (each run of R
    consecutive elements of a line sorted on its own, stably, in LDS: R is the largest
    power of two the LDS holds with every operand), then merge passes of runs of w into
    runs of 2w while w is below the line's length (unrolled for a static length, a host
    `scf.while` for a dynamic one): each pass a
    linalg.generic whose element p binary-searches the merge path of its pair of runs
    (left run first on ties) and reads its source element with tensor.extract. The result
    is the CPU's stable order for any comparator. A sort it leaves gets a remark saying why.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def SplitLongTopks : Pass<"kiln-gpu-split-long-topks", "mlir::ModuleOp"> {
  let summary = "Splits topks whose lines exceed the LDS into a topk of chunks and a topk of their candidates";
  let description = [{
    Runs in the host pipeline, before dispatch formation, when every target is a GPU
    (SplitLongTopks.cc). An iree_linalg_ext.topk on tensors with a static line and k whose
    k + line exceed what the sort strategy holds in LDS (WorkgroupSort.h) would run each
    line on one work-item. When its initial values are one fill that is not NaN and its
    comparator is a strict order of its two arguments (cmpf ogt/olt, cmpi sgt/slt/ugt/ult),
    it becomes the topk of each chunk of the line (chunks of the largest power of two L
    with k + L in LDS, the line padded with the fill; fills and zero indices as the initial
    outputs; positions made positions in the line), then the topk of the chunks'
    candidates in line order from the topk's own initial outputs: the same values and
    indices as the CPU's sequential insertions. Repeated while the candidates are too
    long. Any other long topk gets a remark saying why it is left.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def KeepFlashAttention : Pass<"kiln-gpu-keep-flash-attention", "mlir::ModuleOp"> {
  let summary = "Keeps the attention ops the GPU's flash-attention strategy computes whole";
  let description = [{
    Runs in the host pipeline before kiln-decompose-linalg-ext when every target is a GPU.
    Each iree_linalg_ext.attention and online_attention that the strategy computes
    (WorkgroupAttention.h: one query row, dot product, key and value loop, batch loops,
    static head sizes up to 256, f32 arithmetic, Q wider than 8 bits) is marked
    `kiln.undecomposed`, so that it becomes the root of its own dispatch; any other keeps
    the decomposition, with a remark saying why. With `cpu-too` (the CPU is among the
    targets, and one dispatch formation serves them all) every attention keeps the
    decomposition, with that remark.
  }];
  let options = [Option<"cpuToo", "cpu-too", "bool", /*default=*/"false",
                        "The CPU is a target too: decompose every attention (with a remark)">];
}

def TileAttention : Pass<"kiln-gpu-tile-attention", "mlir::ModuleOp"> {
  let summary = "Lays out the marked attention dispatches as flash attention through LDS";
  let description = [{
    Runs on tensors right after kiln-gpu-select-workgroup-strategies, on the dispatch
    functions marked `"gpu.workgroup_flash_attention"` (WorkgroupAttention.h). Each
    workgroup of 64 work-items takes units id, id + count, ... of (batch position, block
    of 64 query rows), one row per work-item, and for each block of 16 keys:

      stage K and V of the block in LDS (f32), barrier
      per row: s_j = score region(Q' . K_j) + mask (Q' = Q * scale * log2(e) in Q's type)
               M = max(max, s_j), p_j = exp2(s_j - M), c = exp2(max - M)
               sum = c * sum + sum_j p_j, acc = c * acc + sum_j p_j V_j
      barrier

    and writes acc / sum (attention) or acc, max and sum (online_attention, which starts
    from its outputs' initial values). The scaled query row, acc, the block's scores and
    the state are per-work-item arrays of the head sizes and the block: nothing is sized
    by the sequence, which may be dynamic (the last block and row block are partial). An
    attention kept whole that no longer matches is an error naming it.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

def TileScatters : Pass<"kiln-gpu-tile-scatters", "mlir::ModuleOp"> {
  let summary = "Applies marked iree_linalg_ext.scatter dispatches across a grid of workgroups";
  let description = [{
    Runs on buffers, right after bufferization, on the dispatch functions
    kiln-gpu-select-workgroup-strategies marked `"gpu.workgroup_scatter"` (WorkgroupScatter.h).
    The output must start as a fill or a copy of the original (the scatter's output a view
    of an output binding nothing else touches); the scatter and that initialisation are
    replaced by SIMT code that every work-item of a workgroup of 256 runs:

      rows [low, high) = workgroup id's block of dimension 0: ceil(rows / count) rows, or
                         enough rows for 4096 elements (kScatterBlockElements) if more
      out[low:high] = the original's rows (element t, t + 256, ... by work-item t)
      gpu.barrier
      atomic combiner, or an overwrite with unique_indices(true) of unsliced indexed dims:
        for update rows u = t, t + 256, ...: if u's mask is set, its slice fits inside
          the original and meets [low, high): each element of the slice in the block
          combines with memref.atomic_rmw (or is stored); slices of a static size of
          256 elements or more are shared instead: for u = 0, 1, ..., the work-items
          take the slice's elements t, t + 256, ... (coalesced)
      any other combiner (and overwrites whose slices may meet):
        for update rows u = 0, 1, ... in order: the same test, the slice's elements in
          the block shared by the work-items (load, combiner region, store); gpu.barrier
        (slices of fewer than 64 static elements: work-item 0 alone, no barriers)

    Only the workgroup owning a row writes it, and no workgroup needs another's copy of
    the original, so the kernel needs no barrier across workgroups; an element's updates
    are the CPU's (LinalgExtToLoops) and, on the ordered path, in the CPU's order. Every
    workgroup reads every update row's indices. Combiners taking the ordered path are
    reported with a remark; a function that no longer matches on buffers (an input
    computed in the dispatch, an output also read elsewhere) keeps the one-work-item loop,
    with a remark. With `check-indices` (checked mode), every update row's indexed
    offsets get a kiln.index_check, as on the CPU: an update skipped for being out of
    range is reported (by each workgroup that reads it; the driver reports the first).
  }];
  let options = [Option<"checkIndices", "check-indices", "bool", /*default=*/"false",
                        "Report out-of-range update offsets (kiln.index_check)">];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::kiln::compiler::KilnDialect"];
}

def TileReductions : Pass<"kiln-gpu-tile-reductions", "mlir::ModuleOp"> {
  let summary = "Reduces the marked rows cooperatively per workgroup, through shuffles and LDS";
  let description = [{
    Runs on buffers, right after bufferization, on the dispatch functions
    kiln-gpu-select-workgroup-strategies marked as row reductions. The root is replaced by
    SIMT code that every work-item of a workgroup of 256 runs:

      for each row r = id, id + count, ...
        p = combiner over row r's elements [w t, w t + w), [w t + 256 w, ...), ... (from the
            neutral value; w elements are one 128-bit load where the row is contiguous)
        p = combiner(shuffle_xor(p, d), p) for d = wave/2 ... 1 (the wave's total in each lane)
        lane 0 of each wave: lds[wave] = p;  gpu.barrier
        work-item 0: out[r] = the output's initial value combined with lds[0 .. waves)
        gpu.barrier

    Consecutive work-items read consecutive elements of a row (coalesced), the row stays
    in registers (no scratch), and a reduction with no parallel dimension is one row. A
    function whose output is a temporary or is used by other ops keeps its root and runs on
    one work-item, with a remark saying why.
  }];
  let options = [Option<"waveSize", "wave-size", "int64_t", /*default=*/"64",
                        "The target's wavefront size (lanes a shuffle spans)">];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect"];
}

def OutlineKernels : Pass<"kiln-gpu-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Moves the executable module's functions into a gpu.module, kernels as gpu.func";
  let description = [{
    The last step before the ROCDL lowering: every function and global of the executable
    module moves into `gpu.module @kiln_kernels`; each kernel (kiln.gpu.kernel) becomes a `gpu.func`
    with the `kernel` attribute and `known_block_size` from kiln.gpu.workgroup_size, so
    that the ROCDL lowering fixes its flat workgroup size and the kernarg block holds only
    the ABI's explicit arguments. Workgroup-memory allocations (`memref.alloc` in
    `#gpu.address_space<workgroup>`, static shape, at the kernel's top level) become the
    kernel's workgroup attributions, the LDS the code object declares; any other is an error.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect"];
}

def LowerToRocdl : Pass<"kiln-gpu-lower-to-rocdl", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lowers the kernels of a gpu.module to the LLVM and ROCDL dialects";
  let description = [{
    One full conversion of everything left in the gpu.module (func, arith, cf, memref,
    vector, math, index, ub and the gpu ops FormKernels and OutlineKernels use) with
    upstream's patterns, 64-bit indices and the GPU address spaces mapped to AMDGPU's
    (global 1, workgroup 3, private 5). Unlike upstream's convert-gpu-to-rocdl it keeps
    LLVM's math intrinsics legal (floor, exp, log...): the AMDGPU backend selects them
    itself, where that pass would call ROCm device-library functions kiln does not link.
    Vector contractions must already be lowered (convert-vector-to-llvm runs before it).
  }];
  let options = [Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"", "The target chip">];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::ROCDL::ROCDLDialect"];
}

def FinalizeKernels : Pass<"kiln-gpu-finalize-kernels", "mlir::ModuleOp"> {
  let summary = "Puts stack allocations into the private address space; refuses external calls";
  let description = [{
    Runs on the LLVM dialect inside the gpu.module. Each `llvm.alloca` moves to address
    space 5 (private, the only one AMDGPU allows for allocas) and is cast back to a flat
    pointer for its users; LLVM's address-space inference narrows the accesses again.

    A call to a function with no body (malloc for a dynamically sized temporary, a libm or
    device-library math function) cannot be linked into a kernel: it is an error naming
    the callee, the dispatch and the chip.

    A loop annotation an scf.for carried (`llvm.loop_annotation`, kLoopAnnotationAttr), which
    the upstream lowerings leave on its back edge as a discardable attribute, becomes the
    branch's own `loop_annotation`, so that it reaches LLVM IR as !llvm.loop metadata.
  }];
  let options = [Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"", "The target chip, for messages">];
}

def LowerHostTwin : Pass<"kiln-gpu-lower-host-twin", "mlir::ModuleOp"> {
  let summary = "Turns the GPU kernels into host twin entries (SIMT emulation on the CPU)";
  let description = [{
    Runs on a copy of the executable module after FormKernels, in place of the GPU's last
    lowering. Each kernel `@f` gets its work-item and workgroup ids as arguments instead of
    `gpu.thread_id`/`gpu.block_id`, and an entry `@f_twin(kernarg, workgroup) -> i32` of the
    host twin ABI (hal/abi/gpu_kernel_abi.h): it reads the kernel's arguments from the
    kernarg block at the ABI's offsets and its ids from the simulator's workgroup state, and
    runs the workgroup's work-items one after another.

    Running work-items in sequence is exact while a kernel has no `gpu.barrier`. A
    cooperative kernel (barriers, workgroup memory) instead takes its workgroup ids and the
    simulator's group segment, lays its workgroup allocations out in that segment, and runs
    all its work-items in loops split at the barriers (WorkItemLoops.h); its entry returns
    2 (a trap) when the workgroup size differs from the kernel's and 3 when the group
    segment is smaller than its LDS. Subgroup operations are an error here.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"];
}

#endif  // KILN_COMPILER_CODEGEN_GPU_PASSES
