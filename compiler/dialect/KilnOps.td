// The kiln dialect: the few ops kiln's pipeline introduces between the input program and
// the VM module. Dispatches are the only one the host program sees; executables are
// ordinary func.func ops inside a nested module marked `kiln.executable`.
#ifndef KILN_COMPILER_DIALECT_KILNOPS
#define KILN_COMPILER_DIALECT_KILNOPS

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Kiln_Dialect : Dialect {
  let name = "kiln";
  let cppNamespace = "::kiln::compiler";
  let summary = "kiln's dispatch and executable ops";
  let description = [{
    Ops that kiln's dispatch formation produces. A `kiln.dispatch` stands in the host
    program for one dispatch region that has been outlined into an executable function.
  }];
}

class Kiln_Op<string mnemonic, list<Trait> traits = []> : Op<Kiln_Dialect, mnemonic, traits>;

def Kiln_DispatchOp : Kiln_Op<"dispatch", [AttrSizedOperandSegments, Pure]> {
  let summary = "Runs an outlined dispatch region on the device";
  let description = [{
    Calls the executable function `entry` (a symbol in the nested executable module) with
    `inputs` bound read-only and one freshly allocated output binding per result.
    `constants` are host scalars passed as push constants, in order: each index or 32-bit
    value takes one 32-bit push constant, each 64-bit value two (low word first).
    `result_dims` gives the dynamic dimensions of the results, in order, so that the host
    can allocate them before the dispatch runs.

    `in_place` operands are written, not read: result `tied_results[i]` is not allocated
    but lives in the buffer of `in_place[i]` (a tensor of the same type whose value nothing
    uses after the dispatch: kiln-form-dispatches proves it, InPlaceUpdates.h), so a kernel
    that changes a slice of a large tensor moves only the slice. The kernel sees that
    buffer as the result's output binding, with the old contents.

    ```mlir
    %r = kiln.dispatch @kiln_executable::@main_dispatch_0(%a, %b) constants(%n : index)
        result_dims(%n) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %c = kiln.dispatch @kiln_executable::@append_dispatch_0(%row) constants(%pos : index)
        in_place(%cache : tensor<4096x1024xf16>) {tied_results = array<i64: 0>}
        : (tensor<1x1024xf16>) -> tensor<4096x1024xf16>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$entry, Variadic<AnyRankedTensor>:$inputs,
                       Variadic<AnyType>:$constants, Variadic<Index>:$result_dims,
                       Variadic<AnyRankedTensor>:$in_place, OptionalAttr<DenseI64ArrayAttr>:$tied_results);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $entry `(` $inputs `)` (`constants` `(` $constants^ `:` type($constants) `)`)?
    (`result_dims` `(` $result_dims^ `)`)? (`in_place` `(` $in_place^ `:` type($in_place) `)`)?
    attr-dict `:` `(` type($inputs) `)` `->` type($results)
  }];
  let extraClassDeclaration = [{
    // The in_place operand whose buffer result `i` lives in, or null if it is allocated.
    ::mlir::Value getTiedOperand(unsigned i);
  }];
  let hasVerifier = 1;
}

def Kiln_IndexCheckOp : Kiln_Op<"index_check", [MemoryEffects<[MemWrite]>]> {
  let summary = "Reports an index outside [0, bound) when compiled with index checks";
  let description = [{
    Inserted only in checked mode (`kiln-compile --check-indices`, `kiln-run
    --check_indices`) beside an index whose out-of-range behaviour is defined but almost
    certainly unintended: a gather's clamped slice offset, a scatter's skipped slice, a
    tensor.extract coordinate in a generic (then clamped). It does not change the
    computation. When `index` is not in `[0, bound)`, `enabled` (if given) holds and the
    workgroup has recorded nothing yet, the kernel records `index`, `bound` and `site`;
    the workgroup finishes unchanged and the dispatch then fails with "index I is out of
    range [0, B) for SITE" (hal/abi/executable_abi.h, kiln_index_check_record_v2_t).
    `enabled` is the mask of a masked gather or scatter: a masked-out position reads and
    writes nothing, so its index is never reported.

    The write effect keeps it in place: it may not be hoisted, merged or dropped. On the
    CPU, kiln-cpu-wrap-entry-points hands the function its workgroup's record and
    kiln-cpu-lower-index-checks turns each check into a compare and a store. On the GPU,
    kiln-gpu-form-kernels does both, each check claiming the record with a compare-and-swap
    (the work-items of a workgroup share it).

    ```mlir
    kiln.index_check %offset below %bound if %mask
        for "the slice offset into dimension 0 of the source of iree_linalg_ext.gather (model.mlir:4:8)"
    ```
  }];
  let arguments = (ins Index:$index, Index:$bound, Optional<I1>:$enabled, StrAttr:$site);
  let assemblyFormat = "$index `below` $bound (`if` $enabled^)? `for` $site attr-dict";
}

def Kiln_WorkgroupBarrierOp : Kiln_Op<"workgroup_barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "gpu.barrier with declared memory effects, for code built on tensors";
  let description = [{
    A workgroup barrier (`gpu.barrier`: every work-item of the workgroup arrives before
    any goes on, and their memory accesses before it are visible after it) in SIMT code
    that a GPU strategy builds before bufferization (kiln-gpu-tile-rows). Its declared
    read and write effects keep it in place and let bufferization and buffer deallocation,
    which refuse operations with unknown effects, pass over it. kiln-gpu-form-kernels,
    after bufferization, turns it into `gpu.barrier`.

    ```mlir
    kiln.workgroup_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif  // KILN_COMPILER_DIALECT_KILNOPS
