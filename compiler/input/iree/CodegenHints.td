// IREE's codegen-configuration dialects (iree_codegen, iree_gpu, iree_cpu): attributes
// that tell IREE's code generators how to tile and which pipeline to use
// (#iree_codegen.translation_info, #iree_gpu.lowering_config, #iree_codegen.
// compilation_info, ...). IREE's test programs attach them to ops; kiln accepts each as a
// hint it does not use: the attribute keeps its text, prints as written, and changes no
// result (docs/iree-compatibility.md).
#ifndef KILN_COMPILER_INPUT_IREE_CODEGENHINTS
#define KILN_COMPILER_INPUT_IREE_CODEGENHINTS

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"

class Hint_Dialect<string dialect_name> : Dialect {
  let name = dialect_name;
  let cppNamespace = "::kiln::compiler::iree";
  let summary = "IREE's " # dialect_name # " configuration attributes, accepted as unused hints";
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser& parser, ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr, ::mlir::DialectAsmPrinter& printer) const override;
  }];
}

def IreeCodegen_Dialect : Hint_Dialect<"iree_codegen"> { let cppNamespace = "::kiln::compiler::iree::codegen"; }
def IreeGpu_Dialect : Hint_Dialect<"iree_gpu"> { let cppNamespace = "::kiln::compiler::iree::gpu"; }
def IreeCpu_Dialect : Hint_Dialect<"iree_cpu"> { let cppNamespace = "::kiln::compiler::iree::cpu"; }

// One attribute per dialect: its text after `#dialect.` (the mnemonic and its body).
class Hint_Attr<Dialect dialect> : AttrDef<dialect, "Hint"> {
  let attrName = dialect.name # ".hint";
  let summary = "A configuration attribute kept as written and not used";
  let parameters = (ins StringRefParameter<"the attribute's text after the dialect name">:$spec);
}

def IreeCodegen_HintAttr : Hint_Attr<IreeCodegen_Dialect>;
def IreeGpu_HintAttr : Hint_Attr<IreeGpu_Dialect>;
def IreeCpu_HintAttr : Hint_Attr<IreeCpu_Dialect>;

#endif  // KILN_COMPILER_INPUT_IREE_CODEGENHINTS
