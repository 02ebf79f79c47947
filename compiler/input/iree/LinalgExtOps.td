// IREE's `iree_linalg_ext` ops (sort, topk, scatter, gather, scan, arg_compare,
// attention), in IREE's textual syntax. Every op is destination-passing: on tensors it
// returns new values of its `outs`, on memrefs (after bufferization) it updates them in
// place and returns nothing. docs/iree-compatibility.md states what each computes.
#ifndef KILN_COMPILER_INPUT_IREE_LINALGEXTOPS
#define KILN_COMPILER_INPUT_IREE_LINALGEXTOPS

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def LinalgExt_Dialect : Dialect {
  let name = "iree_linalg_ext";
  let cppNamespace = "::kiln::compiler::iree";
  let summary = "IREE's linalg extension ops accepted as input";
}

class LinalgExt_Op<string mnemonic, list<Trait> traits = []>
    : Op<LinalgExt_Dialect, mnemonic, !listconcat(traits, [AttrSizedOperandSegments,
        DestinationStyleOpInterface, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>])> {
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getOutputsMutable(); }
  }];
  let extraClassDefinition = [{
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::SideEffects::EffectInstance<::mlir::MemoryEffects::Effect>>& effects) {
      BufferEffects(*this, effects);
    }
  }];
}

// The ops whose work runs along one `dimension` independently for every position of the
// other dimensions; their comparator or combiner is a region.
class LinalgExt_DimensionOp<string mnemonic> : LinalgExt_Op<mnemonic> {
  let regions = (region SizedRegion<1>:$region);
}

def LinalgExt_YieldOp : Op<LinalgExt_Dialect, "yield", [Pure, ReturnLike, Terminator]> {
  let summary = "Returns the values of an iree_linalg_ext region";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

def LinalgExt_SortOp : LinalgExt_DimensionOp<"sort"> {
  let summary = "Sorts every operand along one dimension by a comparator";
  let description = [{
    ```mlir
    %0:2 = iree_linalg_ext.sort dimension(1) outs(%keys, %values : tensor<4x8xf32>, tensor<4x8xi32>) {
    ^bb0(%a: f32, %b: f32, %c: i32, %d: i32):
      %lt = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %lt : i1
    } -> tensor<4x8xf32>, tensor<4x8xi32>
    ```
    Permutes every line along `dimension` of all `outs` alike so that the comparator,
    given the elements of two positions (left then right, operand by operand), holds for
    no later position against an earlier one. The sort is stable.

    kiln's extension: `ins`, one per output and of its type, are what the outputs start
    from (sorting `ins` into fresh `outs` instead of in place). Only kiln-cpu-split-long-sorts
    makes such sorts, marked with how they split the work (cpu/SortRunsAndMerges.h).
  }];
  let arguments = (ins I64Attr:$dimension, Variadic<AnyShaped>:$inputs, Variadic<AnyShaped>:$outputs);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)` (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `outs` `(` $outputs `:` type($outputs) `)` $region (`->` type($results)^)?
  }];
}

def LinalgExt_TopkOp : LinalgExt_DimensionOp<"topk"> {
  let summary = "The k best elements along a dimension and their indices, in order";
  let description = [{
    ```mlir
    %0:2 = iree_linalg_ext.topk dimension(0) ins(%values, %indices : tensor<10xf32>, tensor<10xi32>)
        outs(%init_values, %init_indices : tensor<3xf32>, tensor<3xi32>) {
    ^bb0(%a: f32, %b: f32):
      %gt = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %gt : i1
    } -> tensor<3xf32>, tensor<3xi32>
    ```
    k is the size of the outputs along `dimension`. The outputs' initial contents are
    candidates that come before every input (so that partial results merge); inputs are
    taken in order and an element goes before those it compares better than, after equal
    ones. Without an indices input, an element's index is its position.
  }];
  let arguments = (ins I64Attr:$dimension, Variadic<AnyShaped>:$inputs, Variadic<AnyShaped>:$outputs);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)` `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` $region (`->` type($results)^)?
  }];
}

def LinalgExt_TopkV2Op : LinalgExt_DimensionOp<"topk_v2"> {
  let summary = "The k best elements along a dimension, selected with a heap";
  let description = [{
    ```mlir
    %0 = iree_linalg_ext.topk_v2 dimension(0) is_sorted ins(%values : tensor<?xf32>)
        outs(%init : tensor<3xf32>) { ... } -> tensor<3xf32>
    ```
    Like `topk`, with the indices output optional, k possibly dynamic, and equal elements
    in heap order: the outputs start as a heap of their initial contents, each input
    better than the heap's worst replaces it, and `is_sorted` heap-sorts the result
    (best first). Without `is_sorted` the k elements come in heap order.
  }];
  let arguments = (ins I64Attr:$dimension, UnitAttr:$is_sorted, Variadic<AnyShaped>:$inputs,
                   Variadic<AnyShaped>:$outputs);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)` (`is_sorted` $is_sorted^)? `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` $region (`->` type($results)^)?
  }];
}

def LinalgExt_ScanOp : LinalgExt_DimensionOp<"scan"> {
  let summary = "Prefix combination along a dimension, with the running total";
  let description = [{
    ```mlir
    %0:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<6xf32>)
        outs(%out, %total : tensor<6xf32>, tensor<f32>) { ... } -> tensor<6xf32>, tensor<f32>
    ```
    Inclusive: out[0] = in[0], out[i] = combine(out[i-1], in[i]). Exclusive: out[0] =
    the initial total, out[i] = combine(out[i-1], in[i-1]). The second output (the input's
    shape without `dimension`) receives the last element of each line.
  }];
  let arguments = (ins I64Attr:$dimension, BoolAttr:$inclusive, Variadic<AnyShaped>:$inputs,
                   Variadic<AnyShaped>:$outputs);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)` `inclusive` `(` $inclusive `)` `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` $region (`->` type($results)^)?
  }];
}

def LinalgExt_ArgCompareOp : LinalgExt_DimensionOp<"arg_compare"> {
  let summary = "The best element along a dimension and its index";
  let description = [{
    ```mlir
    %0:2 = iree_linalg_ext.arg_compare dimension(0) ins(%x : tensor<5xf32>)
        outs(%value, %index : tensor<f32>, tensor<i32>) index_base(%base : index) { ... }
        -> tensor<f32>, tensor<i32>
    ```
    Starting from the outputs' initial contents, an element replaces the current best
    when the comparator holds for (element, best); the index is its position plus
    `index_base` (0 without it). Ties keep the first.
  }];
  let arguments = (ins I64Attr:$dimension, Variadic<AnyShaped>:$inputs, Variadic<AnyShaped>:$outputs,
                   Optional<Index>:$index_base);
  let assemblyFormat = [{
    attr-dict `dimension` `(` $dimension `)` `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` (`index_base` `(` $index_base^ `:` type($index_base) `)`)?
    $region (`->` type($results)^)?
  }];
}

def LinalgExt_ScatterOp : LinalgExt_Op<"scatter"> {
  let summary = "Combines slices of updates into the original at indexed positions";
  let description = [{
    ```mlir
    %0 = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
        ins(%updates, %indices, %mask : tensor<2x4xf32>, tensor<2x1xi32>, tensor<2xi1>)
        outs(%original : tensor<8x4xf32>) {
    ^bb0(%update: f32, %old: f32):
      iree_linalg_ext.yield %update : f32
    } -> tensor<8x4xf32>
    ```
    `indices` has batch dimensions, then (unless it is implied to be 1) an index depth
    equal to the size of `dimension_map`. Each batch position's update slice (the
    dimensions of `updates` after the batch ones) lands on the trailing dimensions of the
    original, offset along dimension `dimension_map[j]` by index component j; the region
    combines update and old element. A false `mask` element skips its batch position;
    a slice that does not fit inside the original is skipped (docs/iree-compatibility.md).
  }];
  let arguments = (ins DenseI64ArrayAttr:$dimension_map, BoolAttr:$unique_indices,
                   Variadic<AnyShaped>:$inputs, Variadic<AnyShaped>:$outputs);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    attr-dict `dimension_map` `=` $dimension_map `unique_indices` `(` $unique_indices `)`
    `ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)` $region
    (`->` type($results)^)?
  }];
}

def LinalgExt_GatherOp : LinalgExt_Op<"gather"> {
  let summary = "Reads slices of a source at indexed positions";
  let description = [{
    ```mlir
    %0 = iree_linalg_ext.gather dimension_map = [0]
        ins(%source, %indices : tensor<4096x1024xf32>, tensor<64xi32>)
        outs(%init : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    ```
    The inverse of scatter's addressing: output position (batch, slice) reads the source
    at the trailing-dimension slice offset by the batch position's index. A slice offset
    that does not fit inside the source is clamped into it (as XLA's gather does); a
    false `mask` element keeps the output's initial row.
  }];
  let arguments = (ins DenseI64ArrayAttr:$dimension_map, Variadic<AnyShaped>:$inputs, Variadic<AnyShaped>:$outputs);
  let assemblyFormat = [{
    attr-dict `dimension_map` `=` $dimension_map `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` (`->` type($results)^)?
  }];
}

class LinalgExt_AttentionBase<string mnemonic> : LinalgExt_Op<mnemonic> {
  let arguments = (ins AffineMapArrayAttr:$indexing_maps, Variadic<AnyType>:$inputs,
                   Variadic<AnyShaped>:$outputs);
  let regions = (region AnyRegion:$region);
  let assemblyFormat = [{
    attr-dict `ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)`
    ($region^)? (`->` type($results)^)?
  }];
}

def LinalgExt_AttentionOp : LinalgExt_AttentionBase<"attention"> {
  let summary = "softmax(scale * Q K^T + mask) V";
  let description = [{
    `ins(Q, K, V, scale[, mask])`, `outs(O)`; `indexing_maps` give the role of each loop
    (batch, query row m, head dim k1, key k2, value column n) through the dimensions the
    operands index. The region receives each score and yields its replacement: as in
    IREE's decomposition, the scores are log2(e) * scale * (Q K^T) (unscaled for 8-bit Q,
    scaled after the region) and the softmax is in base 2 (docs/iree-compatibility.md).
    An i1 mask removes keys where it is false; a float mask is added to the scores.
  }];
}

def LinalgExt_OnlineAttentionOp : LinalgExt_AttentionBase<"online_attention"> {
  let summary = "One step of flash attention: updates an unnormalised output, row max and row sum";
  let description = [{
    `ins(Q, K, V, scale[, mask])`, `outs(acc, max, sum)`: with M the new row maximum of
    the scores S (attention's base-2 scores), acc' = exp2(max - M) acc + exp2(S - M) V,
    sum' = exp2(max - M) sum + rowsum(exp2(S - M)), max' = M. acc' / sum' is the
    attention of all keys seen so far. `decomposition_config = {use_exp2 = false}` makes
    S = scale * Q K^T and exp replace exp2, as in IREE.
  }];
}

#endif  // KILN_COMPILER_INPUT_IREE_LINALGEXTOPS
