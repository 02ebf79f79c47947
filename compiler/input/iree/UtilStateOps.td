// IREE's module state in `util`: globals, their loads and stores (direct and through
// `!util.ptr`), initializers, and the attributes a global's initial value may take. Included
// by UtilOps.td. kiln keeps globals as host state: docs/runtime.md, "State and parameters".
#ifndef KILN_COMPILER_INPUT_IREE_UTILSTATEOPS
#define KILN_COMPILER_INPUT_IREE_UTILSTATEOPS

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"

def Util_PtrType : TypeDef<Util_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "The address of a global holding a value of `targetType`";
  let parameters = (ins "::mlir::Type":$targetType);
  let assemblyFormat = "`<` $targetType `>`";
}

def Util_UninitializedAttr : AttrDef<Util_Dialect, "Uninitialized", [TypedAttrInterface]> {
  let mnemonic = "uninitialized";
  let summary = "A global's initial value whose contents are unspecified";
  let description = [{
    `util.global private mutable @cache = #util.uninitialized : tensor<4x8xf32>`: the global
    exists from load on, with storage for its type (statically shaped tensors; a dynamically
    shaped one has no value until stored) whose contents kiln leaves unspecified.
  }];
  let parameters = (ins AttributeSelfTypeParameter<"">:$type);
  let assemblyFormat = "";
}

def Util_GlobalOp : Util_Op<"global", [Symbol]> {
  let summary = "Module state: a named value that lives from module load to unload";
  let description = [{
    ```mlir
    util.global private mutable @counter = dense<2.0> : tensor<f32>
    util.global private @w = #stream.parameter.named<"model"::"blk.0.w"> : tensor<4096x4096xf16>
    util.global private mutable @kv = #util.uninitialized : tensor<32x4096x1024xf16>
    util.global private mutable @step : i32
    ```
    Each session of a module has its own copy of every mutable global; immutable ones may be
    stored only by initializers. The initial value is a constant (`dense<...>` or a scalar),
    `#util.uninitialized`, or a parameter (`#stream.parameter.named` or
    `#flow.parameter.named`) that the runtime binds from its parameter files at load.
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$sym_visibility, SymbolNameAttr:$sym_name, TypeAttr:$type,
                       UnitAttr:$is_mutable, OptionalAttr<AnyAttr>:$initial_value);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Type getGlobalType() { return getType(); }
  }];
}

class Util_GlobalAccess<string mnemonic, list<Trait> traits = []> : Util_Op<mnemonic,
    !listconcat(traits, [DeclareOpInterfaceMethods<SymbolUserOpInterface>])>;

def Util_GlobalLoadOp : Util_GlobalAccess<"global.load", [MemoryEffects<[MemRead]>]> {
  let summary = "The current value of a global";
  let description = [{
    `%0 = util.global.load @counter : tensor<f32>` (`immutable` may follow the mnemonic, as
    IREE prints loads of immutable globals).
  }];
  let arguments = (ins FlatSymbolRefAttr:$global, UnitAttr:$is_immutable);
  let results = (outs AnyType:$result);
  let assemblyFormat = "(`immutable` $is_immutable^)? $global attr-dict `:` type($result)";
}

def Util_GlobalStoreOp : Util_GlobalAccess<"global.store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Replaces the value of a global";
  let description = [{
    `util.global.store %1, @counter : tensor<f32>`: later loads, in this call and in later
    calls of the same session, see `%1`.
  }];
  let arguments = (ins AnyType:$value, FlatSymbolRefAttr:$global);
  let assemblyFormat = "$value `,` $global attr-dict `:` type($value)";
}

def Util_GlobalAddressOp : Util_GlobalAccess<"global.address", [Pure]> {
  let summary = "The address of a global, for indirect loads and stores";
  let arguments = (ins FlatSymbolRefAttr:$global, UnitAttr:$is_immutable);
  let results = (outs Util_PtrType:$result);
  let assemblyFormat = "(`immutable` $is_immutable^)? $global attr-dict `:` qualified(type($result))";
}

def Util_GlobalLoadIndirectOp : Util_Op<"global.load.indirect", [MemoryEffects<[MemRead]>]> {
  let summary = "The value of the global at an address";
  let description = [{
    `%1 = util.global.load.indirect %p : !util.ptr<tensor<4xf32>> -> tensor<4xf32>`. kiln
    resolves the address to its global at compile time (kiln-convert-util-ops); an address
    that is not one `util.global.address` is an error.
  }];
  let arguments = (ins Util_PtrType:$global);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$global attr-dict `:` qualified(type($global)) `->` type($result)";
}

def Util_GlobalStoreIndirectOp : Util_Op<"global.store.indirect", [MemoryEffects<[MemWrite]>]> {
  let summary = "Replaces the value of the global at an address";
  let arguments = (ins AnyType:$value, Util_PtrType:$global);
  let assemblyFormat = "$value `,` $global attr-dict `:` type($value) `->` qualified(type($global))";
}

def Util_InitializerOp : Util_Op<"initializer", [IsolatedFromAbove]> {
  let summary = "Code that runs once when the module is loaded, in module order with globals";
  let description = [{
    ```mlir
    util.initializer {
      %c = arith.constant dense<2.0> : tensor<f32>
      util.global.store %c, @state : tensor<f32>
      util.return
    }
    ```
    Globals' initial values and initializers run when a session is created, in the order
    they appear in the module; an initializer may store immutable globals.
  }];
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
}

def Util_FuncOp : Util_Op<"func", [AffineScope, AutomaticAllocationScope, FunctionOpInterface,
                                   IsolatedFromAbove]> {
  let summary = "A function, as func.func (public ones are the module's exports)";
  let description = [{
    `util.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> { ... util.return %r : tensor<4xf32> }`.
    kiln treats it as the same `func.func` (kiln-convert-util-ops rewrites it to one).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility, OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    ::mlir::Region* getCallableRegion() { return isExternal() ? nullptr : &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return isExternal(); }
  }];
}

def Util_CallOp : Util_Op<"call", [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls a function (func.call's meaning)";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)";
}

def Util_ReturnOp : Util_Op<"return", [Pure, ReturnLike, Terminator,
                                       ParentOneOf<["FuncOp", "InitializerOp"]>]> {
  let summary = "Returns from a util.func or a util.initializer";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

#endif  // KILN_COMPILER_INPUT_IREE_UTILSTATEOPS
