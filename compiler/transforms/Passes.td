// kiln's compiler passes. mlir-tblgen turns this into pass declarations, base classes and
// registration (compiler/transforms/Passes.h.inc).
#ifndef KILN_COMPILER_TRANSFORMS_PASSES
#define KILN_COMPILER_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def CheckInputOps : Pass<"kiln-check-input-ops", "mlir::ModuleOp"> {
  let summary = "Reports every op kiln cannot compile, naming it";
  let description = [{
    The first stage of the pipeline after parsing and verification. Walks the module and
    emits an error at each op outside the supported input (the input dialects of
    compiler/input/InputDialects.h, with tensor ops restricted to the supported list), so
    that an unsupported program fails up front with every offending op and its location,
    instead of failing somewhere inside a later lowering. Ops of dialects that are not
    registered never get here: the parser rejects them.
  }];
}

def ConvertUtilOps : Pass<"kiln-convert-util-ops", "mlir::ModuleOp"> {
  let summary = "Makes IREE's util functions func.func and resolves global addresses";
  let description = [{
    Runs right after the input check, so that every later pass sees one kind of function.
    `util.func` becomes `func.func` (same name, visibility, argument and result
    attributes; public ones are the module's exports), `util.call` becomes `func.call` and
    `util.return` becomes `func.return`. Each `util.initializer` becomes a private
    `func.func` named `__kiln_initializer_N` (N its position among the initializers)
    marked `kiln.initializer`: the host program runs the globals' initial values and these
    functions, in module order, when a session is created.

    `util.global.load.indirect` and `util.global.store.indirect` through an address that
    is one `util.global.address` become direct loads and stores of that global; any other
    address (selected, passed in, loaded) is an error naming the access, since kiln keeps
    globals in host slots without addresses. `util.global` and the direct loads and stores
    stay for the host program.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def LowerIreeInput : Pass<"kiln-lower-iree-input", "mlir::ModuleOp"> {
  let summary = "Rewrites IREE's util/flow/check input ops into what kiln's pipeline compiles";
  let description = [{
    Runs right after the input check. `util.unfoldable_constant` becomes a constant behind
    a `util.optimization_barrier`, so that nothing folds it; `flow.tensor.dynamic_constant`
    becomes a constant cast to its dynamic type behind a barrier; `flow.tensor.tie_shape`
    is dropped (kiln derives dimensions itself); `check.expect_eq_const` and
    `check.expect_almost_eq_const` become `expect_eq` and `expect_almost_eq` of a
    constant. Barriers, `flow.tensor.bitcast`/`reshape` and the `check` ops stay for the
    host program, which passes barrier values through, makes views for the flow ops and
    calls the runtime's check module for the checks.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tensor::TensorDialect",
                           "::kiln::compiler::iree::UtilDialect", "::kiln::compiler::iree::CheckDialect"];
}

def LowerStablehlo : Pass<"kiln-lower-stablehlo", "mlir::ModuleOp"> {
  let summary = "Lowers StableHLO input ops to linalg, tensor, arith, math and iree_linalg_ext";
  let description = [{
    Runs right after kiln-lower-iree-input, so that everything after it sees only the
    dialects kiln compiles from linalg input. Each top-level `stablehlo` op (with the
    region of a reduce or sort, whose 0-d tensor computation becomes scalar arith/math)
    is replaced: elementwise ops, compare, select, clamp, convert and iota by
    linalg.generic ops computing StableHLO's specified scalar semantics (integer division
    by zero gives -1, INT_MIN / -1 gives INT_MIN, shifts past the width give 0 or the sign,
    maximum and minimum propagate NaN, TOTALORDER compares the floats' ordered bits);
    broadcasts, reverse, gather and torch_index_select by generics; reshape, slices,
    dynamic slices (start indices clamped as the spec says), concatenate and pad (negative
    and interior padding included) by tensor ops; transpose by linalg.transpose; reduce
    by a reduction generic (several operands reduce together); dot and dot_general by
    contraction generics summing in the result's element type; sort by iree_linalg_ext.sort.
    The `chlo` ops beside them too: broadcast_* ops become broadcast_in_dim and the
    stablehlo op of the same name (lowered with it), elementwise functions generics of math
    ops (erf_inv, lgamma and digamma from their approximations), top_k iree_linalg_ext.topk.
    An op it does not lower (or a form of one: dynamic shapes, unsigned element types)
    is an error naming the op, and the pass fails: never a half-lowered program.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
                           "::kiln::compiler::iree::LinalgExtDialect"];
}

def ResolveTosaInexactRounding : Pass<"kiln-resolve-tosa-inexact-rounding", "mlir::ModuleOp"> {
  let summary = "Gives tosa.rescale ops with INEXACT_ROUND the SINGLE_ROUND mode";
  let description = [{
    Runs before tosa-to-linalg, which refuses INEXACT_ROUND. TOSA lets INEXACT_ROUND
    return SINGLE_ROUND's exactly rounded result (its tolerance is around that result),
    so each `tosa.rescale` with INEXACT_ROUND is given SINGLE_ROUND; nothing else changes.
  }];
}

def LowerTosaApplyScale : Pass<"kiln-lower-tosa-apply-scale", "mlir::ModuleOp"> {
  let summary = "Lowers tosa.apply_scale to 64-bit integer arithmetic, as the TOSA spec defines it";
  let description = [{
    Runs after tosa-to-linalg, which leaves `tosa.apply_scale` in the bodies it makes for
    `tosa.rescale` (multiplier and shift per tensor or per channel, zero points, scale32)
    and for `tosa.mul` of i32 with a non-zero shift; tosa-to-arith lowers it only when
    asked, and not the INEXACT_ROUND mode. Each apply_scale becomes the spec's
    apply_scale_32/apply_scale_16 in i64 (TosaApplyScale.h): the product of the
    sign-extended value and multiplier plus the rounding constant (1 << (shift - 1), with
    DOUBLE_ROUND's extra +-(1 << 30) when the shift exceeds 31), arithmetically shifted
    right and truncated to the result type. INEXACT_ROUND computes SINGLE_ROUND's exact
    result. A value and multiplier whose widths add up to more than 64 bits (an i64 value)
    are an error: the product could overflow.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ElideEmptyComputations : Pass<"kiln-elide-empty-computations", "mlir::ModuleOp"> {
  let summary = "Replaces computations whose results have no elements by empty tensors";
  let description = [{
    An op whose results are all tensors of static shape with no elements (a dimension of
    0) and that has no effect but reading its operands (a destination-style op on
    tensors whose payload is free of memory effects, or any memory-effect-free op)
    computes nothing a later op can read: it becomes `tensor.empty` of each result's
    type, so it forms no dispatch. Code generation then never sees empty loops: MLIR's
    tiling does not take them, and a GPU kernel whose code can never run may declare
    less workgroup memory than its host twin lays out. Constants, `tensor.empty` and ops
    with other effects (`check.*`, barriers) stay.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def ExportParameters : Pass<"kiln-export-parameters", "mlir::ModuleOp"> {
  let summary = "Moves large constants into a parameter archive that the module binds by name";
  let description = [{
    kiln-compile's `--export-parameters=[SCOPE=]FILE` (IREE's `--iree-parameter-export`).
    Runs early (after the input lowering, before anything folds constants), so that the
    weights leave the compiler before its passes see them. Each value of at least
    `minimum-size` bytes moves into the archive `archive` (IREE's .irpa), written when the
    pass ends:
    - an immutable `util.global` whose initial value is such a constant keeps its name and
      is bound to `#stream.parameter.named<"SCOPE"::"NAME">` (key: the global's name);
    - an `arith.constant` directly in a function body becomes a load of a new immutable
      global `@__constant_N` bound to key `__constant_N`; equal constants share one global
      and one entry. The new globals come first in the module, so that every initializer
      may read them.
    Qualify: non-splat `dense<...>` and `dense_resource<...>` tensors of integers or
    floats of whole bytes (kiln's buffers hold their raw bytes). Splats (filled on the
    device), i1 and sub-byte elements (packed differently in MLIR and in kiln's buffers)
    and mutable globals (state, not weights) stay in the module. The archive is written
    even when nothing qualifies, so that a run can always name it.
  }];
  let options = [
    Option<"archive", "archive", "std::string", /*default=*/"\"\"", "The .irpa file to write">,
    Option<"scope", "scope", "std::string", /*default=*/"\"\"",
           "The parameter scope the module binds the entries from (empty: the unnamed scope)">,
    Option<"minimumSize", "minimum-size", "int64_t", /*default=*/"256",
           "Constants of fewer bytes stay in the module">,
  ];
  let dependentDialects = ["::kiln::compiler::iree::StreamDialect"];
}

def SplatParameters : Pass<"kiln-splat-parameters", "mlir::ModuleOp"> {
  let summary = "Writes a weightless archive: a zero splat for every parameter the module binds";
  let description = [{
    kiln-compile's `--splat-parameters=FILE` (IREE's `--iree-parameter-splat`): for every
    global bound to a parameter (after kiln-export-parameters, when both run), a splat
    entry of zero bytes as long as the global's storage, keyed by the parameter's key.
    Running the module with `--parameters=SCOPE=FILE` then needs no weights: for
    compile-only checks, benchmarks and tests of large models. The module is unchanged.
    One archive serves every scope (entries have keys, not scopes); a key bound in two
    scopes to storage of different sizes is an error naming both globals, as is a
    parameter global of elements kiln does not store (complex).
  }];
  let options = [
    Option<"archive", "archive", "std::string", /*default=*/"\"\"", "The .irpa file to write">,
  ];
}

def ExpandSubByteBitcasts : Pass<"kiln-expand-sub-byte-bitcasts", "mlir::ModuleOp"> {
  let summary = "Turns views of sub-byte tensors that change their storage into packing and unpacking";
  let description = [{
    kiln stores a tensor of sub-byte elements (i2, i4, f4E2M1FN) packed when its rows are
    whole bytes (a static innermost dimension that is a multiple of 8 / w), else one
    element per byte (compiler/utils/SubByteStorage.h). A `flow.tensor.bitcast` between
    packed tensors and bytes (or wider elements) is a view of the same buffer and stays.
    One with a tensor stored a byte an element on a side becomes computations on 1-D
    views, through the elements as bytes (one each, the bits zero-extended), so that no
    sub-byte tensor is viewed in another storage:
    - bytes to sub-byte elements: the source's bytes (a host view for elements wider than
      i8), each unpacked by a generic over (byte, position) into 8 / w element bytes, the
      first from the byte's low bits, reshaped to the result and narrowed;
    - sub-byte elements to bytes: the element bytes, then a reduction over groups of 8 / w
      that ORs each into place (then a host view for elements wider than i8);
    - sub-byte elements of the same width (i4 to f4E2M1FN): element bytes reshaped and
      narrowed.
    A reshape or cast between a packed tensor and one stored a byte an element (a [2, 3]
    i4 from a [6] one) becomes the same reshape of the element bytes between two
    elementwise conversions. These are ordinary generics that fuse with their producers
    and consumers. A bitcast between different sub-byte widths, or whose sub-byte elements
    do not fill whole bytes, is an error.
    A public function's arguments and results of sub-byte elements are the caller's packed
    buffer views. Packed types need nothing; an argument stored a byte an element is
    viewed as bytes (a `flow.tensor.bitcast` marked `kiln.packed_boundary`, which the host
    program makes a view) and unpacked where the function starts; such a result is packed
    and viewed as sub-byte elements where it returns. Their elements must fill whole bytes.
    A global of sub-byte elements bound to a parameter reads the file's packed bytes: the
    binding moves to a new immutable global `@NAME__packed` of i8 (the last dimension in
    bytes, or 1-D when it does not fill whole bytes), and an initializer placed right after
    the global (`__kiln_unpack_NAME`, marked `kiln.initializer`) gives `@NAME` its elements
    through such a bitcast when the session is created: a view for packed types.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect", "::kiln::compiler::iree::FlowDialect",
                           "::mlir::func::FuncDialect"];
}

def LowerSubByteBindings : Pass<"kiln-lower-sub-byte-bindings", "mlir::ModuleOp"> {
  let summary = "Gives dispatch functions i8 bindings for tensors of sub-byte elements";
  let description = [{
    Runs after dispatch formation. Every binding of a dispatch function whose elements are
    narrower than a byte (not i1) becomes a binding of i8, as the tensor is stored
    (compiler/utils/SubByteStorage.h), and the ops that read and write it work on bytes:
    - packed tensors (static innermost dimension, whole bytes a row): the binding is the
      packed bytes, the innermost dimension divided by 8 / w. Slices and reshapes of a read
      binding become the same views of its bytes (offsets and sizes of whole bytes), a
      tensor.extract reads the byte and shifts, and each reading or writing generic (or
      named linalg op other than a contraction or convolution, generalized) is rebuilt
      over the bytes (compiler/utils/PackedSubByteAccess.h): a written result repeats the
      body once per element of a byte and packs what the repetitions yield; a read
      operand is unpacked at byte j floordiv 8 / w where another operand gives loop j's
      extent, and shares the repetitions otherwise.
    - other sub-byte tensors: the binding is i8 of the same shape, one element a byte;
      each reader takes a byte for the operand and truncates it (and bitcasts it, for
      float formats) where its body starts; the writer of a result computes into a byte
      destination (an empty tensor, or a fill of the widened value), narrowing its
      accumulator at each step and zero-extending what it yields.
    No tensor of sub-byte elements is left in memory, so kernels only load and store whole
    bytes (LLVM lays out scalars of i4 one per byte but vectors of i4 packed, so a
    sub-byte buffer would depend on how each access was vectorized). Any other use (a
    contraction reading i4, a result with several users) is an error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect", "::mlir::memref::MemRefDialect"];
}

def DecomposeAggregates : Pass<"kiln-decompose-aggregates", "mlir::ModuleOp"> {
  let summary = "Decomposes aggregate linalg ops (softmax, pack, unpack) into structured ops";
  let description = [{
    Ops that implement `linalg::AggregatedOpInterface` (linalg.softmax) are not structured
    ops: code generation cannot tile or lower them directly. This pass replaces each with
    the structured ops of its decomposition (reductions and elementwise generics), which
    elementwise fusion and dispatch formation then treat like any other. `linalg.pack`
    and `linalg.unpack`, which have no bufferization, become pad + expand_shape +
    transpose and transpose + collapse_shape + extract_slice; one with dynamic inner tiles
    is an error naming it.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"];
}

def CheckExtractIndices : Pass<"kiln-check-extract-indices", "mlir::ModuleOp"> {
  let summary = "Checks and clamps the coordinates of tensor.extract inside linalg.generic";
  let description = [{
    Checked mode only (kiln-compile --check-indices), before kiln-decompose-linalg-ext so
    that it sees the extracts the program wrote (tosa.gather's lowering, embedding lookups,
    one_hot built by hand) and not the gathers kiln already clamps. Every coordinate of a
    `tensor.extract` inside a `linalg.generic` body, other than a constant inside a static
    dimension, gets a `kiln.index_check` against that dimension and is then clamped into
    [0, size - 1]: the report names the first bad coordinate and the workgroup that met
    it still reads inside the tensor. In-range coordinates read what they read before.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tensor::TensorDialect",
                           "::kiln::compiler::KilnDialect"];
}

def DecomposeLinalgExt : Pass<"kiln-decompose-linalg-ext", "mlir::ModuleOp"> {
  let summary = "Rewrites gather, arg_compare and attention into linalg.generic ops";
  let description = [{
    The iree_linalg_ext ops that are structured computations become generics on tensors
    (compiler/transforms/LinalgExtDecompositions.h), so that elementwise fusion, dispatch
    formation and code generation treat them like any other: `gather` reads the source
    with tensor.extract at clamped indices; `arg_compare` is a two-output reduction with
    the comparator inlined; `attention` and `online_attention` become the dot product,
    score region and mask, row max, exponentials, row sum and value product, with IREE's
    numerics (Q scaled by scale * log2(e) before the region, a base-2 softmax:
    docs/iree-compatibility.md). sort, topk,
    topk_v2, scan and scatter are left for dispatch formation, and so is an op marked
    `kiln.undecomposed` (an attention the GPU computes whole: kiln-gpu-keep-flash-attention).

    With `check-indices`, each gather slice offset is checked against the offsets that
    keep the slice inside the source (`kiln.index_check`) before it is clamped.
  }];
  let options = [Option<"checkIndices", "check-indices", "bool", /*default=*/"false",
                        "Check gather slice offsets (kiln.index_check) before clamping them">];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
                           "::kiln::compiler::KilnDialect"];
}

def FuseElementwiseOps : Pass<"kiln-fuse-elementwise-ops", "mlir::ModuleOp"> {
  let summary = "Fuses elementwise linalg ops and propagates reshapes, keeping contractions' loops";
  let description = [{
    MLIR's linalg-fuse-elementwise-ops (elementwise producers fused into their only
    consumer, reshapes folded into linalg ops by expanding their loops, constant folding),
    except that a reshape is not moved through a contraction: a matmul whose result is
    split into attention heads by a tensor.expand_shape (or whose input is a collapse of
    heads) stays a matmul with one M, N and K loop, which the contraction codegen tiles
    and vectorises, instead of a generic with several N loops that runs as one workgroup.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect"];
}

def FuseDequantization : Pass<"kiln-fuse-dequantization", "mlir::ModuleOp"> {
  let summary = "Fuses the dequantization of narrow integer weights into the contractions that read them";
  let description = [{
    A weight-only quantized linear layer arrives as an elementwise generic that turns
    integer weights (i4, i8, ...) and their scales (and zero points) into floats, and a
    matmul reading the result. As separate dispatches the first would store the whole
    dequantized weight matrix (8x the bytes of i4 weights for f32) and the second read it
    back. This pass fuses each such generic (all loops parallel, one float result, an
    integer input of at most 8 bits read element for element, and only contractions of
    at most 8 static rows reading the result, as inputs: decode steps) into every
    contraction that reads it, generalized:
    the contraction's body dequantizes each weight where it multiplies it, and reads the
    quantized tensor itself (packed, for i4 weights whose rows are whole bytes:
    kiln-lower-sub-byte-bindings) and the scales. Products of more rows (a prefill) keep
    the dequantization as a dispatch of its own: they read each weight many times, and
    the matmul kernels run at their full rate on the dequantized copy, where a fused
    product would dequantize every weight once per row block in loops.

    Blocks of weights (GGUF's Q4_0 / Q8_0, read from the file's bytes: [N, blocks, 32]
    values with a scale per block) are dequantized in their own shape and collapsed to
    [N, K] for the product. When every user of such a dequantization is a collapse read
    by a decode-shaped contraction, the contraction is first expanded through the
    collapse (upstream's reshape-by-expansion fusion, limited to these operands: its k
    loop becomes the blocks' loops and x is reshaped to match), and then fused as above.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def WidenMatmulAccumulators : Pass<"kiln-widen-matmul-accumulators", "mlir::ModuleOp"> {
  let summary = "Sums f16 and bf16 matmuls in f32 and rounds once at the end";
  let description = [{
    For targets without arithmetic in the narrow type: each `linalg.matmul` and
    `linalg.batch_matmul` on tensors whose output is f16 (option `f16`) or bf16 (option
    `bf16`) and whose inputs are of the output's type or 8-bit floats (which the op's cast
    leaves exact) becomes the same op (inputs, indexing maps) into an f32 tensor
    initialised with the widened initial value, followed by an elementwise truncf to the
    original type. The products of such inputs are exact in f32, so each output is its
    exact dot product summed in f32 and rounded once, instead of rounded after every step. This is what IREE's CPU microkernels compute for
    f16 x f16 -> f16 on x86 without AVX512_FP16 (f32 accumulators over all of k, converted
    at the end), and the CPU kernels then run these matmuls as the f32 kernel on operands
    widened while packed instead of as loops converting each operation.
  }];
  let options = [
    Option<"f16", "f16", "bool", /*default=*/"false", "Widen matmuls into f16">,
    Option<"bf16", "bf16", "bool", /*default=*/"false", "Widen matmuls into bf16">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def WidenReductionAccumulators : Pass<"kiln-widen-reduction-accumulators", "mlir::ModuleOp"> {
  let summary = "Sums f16 and bf16 values in f32 and rounds once at the end";
  let description = [{
    A `linalg.generic` reduction with one f16 or bf16 output whose accumulator is used
    only by one `arith.addf` whose result is yielded (a sum of some function of the
    inputs) becomes an f32 reduction of the same values, initialised with the widened
    initial value, followed by an elementwise truncation to the original type. A sum
    of thousands of small f16 values otherwise stalls once the partial sum's spacing
    exceeds the addends (IREE's large-reduction test sums 4096 x 0.001 and expects 4.098).
    Only the accumulation is widened: each addend is computed as written, in its type.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SplitLongReductions : Pass<"kiln-split-long-reductions", "mlir::ModuleOp"> {
  let summary = "Splits long reductions with few outputs into chunk partials and their combination";
  let description = [{
    Where one workgroup reduces each output, a reduction with few outputs (static) and a
    long reduction (dynamic, or at least twice a chunk) would use a few of the GPU's
    hundreds of compute units, or one of the CPU's workers. Its outermost reduction loop
    is cut into chunks, after merging adjacent reduction loops that every operand reads as
    one run of dimensions (a whole-tensor sum becomes one loop):

    - partials[outputs..., c]: the original body over chunk c (a new parallel loop), from
      the combiner's neutral element;
    - the output: its initial value combined with the partials (a short reduction);
    - when the loop's extent is dynamic or not a multiple of the chunk, the original body
      over the iterations past the last whole chunk, folded into that.

    For GPUs (the default), reductions of at most 512 outputs are split; chunks hold 16384
    elements when the cut loop is the innermost dimension of every input read along it (a
    workgroup reduces a chunk) and 256 otherwise (a work-item does), and grow so that there
    are at most about 2048 partials in all. With `cpu` (only CPU targets), reductions of at
    most 32 outputs and a static extent are split, into chunks of at least 65536 elements
    that grow so that there are at most about 64 partials. Only ops with one output, a
    body that yields one associative, commutative combiner with a neutral element of the
    accumulator and an element (kiln::compiler::MatchReductionCombiner), projected
    permutation maps and no `linalg.index` are split; floating-point results change only
    by the order of their additions.
  }];
  let options = [
    Option<"cpu", "cpu", "bool", /*default=*/"false",
           "Plan the partials for CPU workers (only CPU targets) instead of GPU workgroups">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DedupeDispatches : Pass<"kiln-dedupe-dispatches", "mlir::ModuleOp"> {
  let summary = "Makes identical dispatch functions one, so each is compiled once";
  let description = [{
    The layers of a model form the same dispatches again and again: the same computation
    on bindings of the same types, only the buffers differ. Two functions of the
    `kiln.executable` module are identical when they print the same apart from their
    names and `kiln.source_location` (body, types, attributes such as `kiln.cost`); each
    `kiln.dispatch` of a later one then names the first, the later ones are erased, and
    the first's source location gains " (and N identical)".
    Code generation, the executable's size and the compile time then grow with the
    distinct dispatches, not with the layers (a 32-layer decoder compiles about as fast as
    a 2-layer one). Runs once the dispatches are formed and cleaned up.
  }];
}

def FormDispatches : Pass<"kiln-form-dispatches", "mlir::ModuleOp"> {
  let summary = "Outlines each dispatch root with its cheap producers into an executable function";
  let description = [{
    Stage 3 of the pipeline. In every function with a body, each dispatch root (linalg ops
    and data-moving tensor ops, compiler/dispatch/DispatchFormation.h) becomes a
    `kiln.dispatch` of a new function in the nested module marked `kiln.executable`.
    Constants, `tensor.empty`, fills of empty tensors and `extract_slice` views are cloned
    into every dispatch that uses them, so kernels read through views and initialise
    their own outputs instead of receiving them as bindings. Roots are visited consumers
    first so that a producer cloned into all its users is never dispatched on its own.

    Row fusion: a `linalg.generic` producer whose every user is in the dispatch, and
    that computes and is read row by row along the outermost parallel loop of all of
    them, joins the dispatch (CollectRowFusedProducers). A softmax's max, exp, sum and
    divide become one dispatch that reads its input once.

    Results leave the dispatch through output bindings the host allocates; their dynamic
    dimensions are computed on the host from the root's operands and passed, with every
    dynamic dimension of every input binding, as push constants.

    In place: a `tensor.insert_slice` (or a one-output `iree_linalg_ext.scatter`) into a
    mutable global's value that is stored back,
    where no other value sharing the global's buffer is read afterwards
    (compiler/dispatch/InPlaceUpdates.h), writes the slice into the global's own buffer:
    the dispatch's `in_place` operand is the destination, its result lives there, and the
    kernel copies only the slice (a KV cache append moves one row, not the cache).
  }];
  let dependentDialects = ["::kiln::compiler::KilnDialect", "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

def AnnotateDispatchCosts : Pass<"kiln-annotate-dispatch-costs", "mlir::ModuleOp"> {
  let summary = "Records each dispatch's FLOPs and bytes read and written for benchmarks";
  let description = [{
    Runs right after dispatch formation, on every executable function (one with
    `kiln.binding_dims`). It sets `kiln.cost`, a dictionary of up to three formulas:
    `bytes_read` (every input binding), `bytes_written` (every output binding) and `flops`
    (per linalg op, its iteration-space size times the arithmetic ops of its body: a
    matmul's mulf and addf make 2*M*N*K). A formula is a list of terms, each an
    `array<i64: coefficient, word, word, ...>`: the coefficient times the push-constant
    words named (the dynamic sizes the host passes), so dynamic shapes are exact once the
    runtime has the dispatch's constants; a static shape is a bare coefficient. A formula
    the pass cannot state is left out and means unknown: `flops` of arithmetic in loops
    outside linalg ops (sort, scans), or of a dynamic loop whose size is no push constant.
    The module keeps the formulas per export (kiln-benchmark-module --dispatches reads them).
  }];
}

#endif  // KILN_COMPILER_TRANSFORMS_PASSES
