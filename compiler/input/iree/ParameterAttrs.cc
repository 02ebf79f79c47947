// The parameter attributes of IREE's flow and stream dialects (#flow.parameter.named,
// #stream.parameter.named), and the stream dialect that holds only the latter. (The flow
// attribute's storage is generated into IreeDialects.cc with the flow dialect: one dialect's
// generated attribute parser per translation unit.)
//   #stream.parameter.named<"model"::"blk.0.w">     scope and key
//   #stream.parameter.named<"blk.0.w">              key alone: the unnamed scope
//   #stream.parameter.named<"model"::"w", {k = v}>  with options (kept, unused by kiln)
// each followed by its type, the global's: `... : tensor<256xf32>`.
#include "compiler/input/iree/IreeDialects.h"

#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "compiler/input/iree/StreamOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/input/iree/StreamAttrs.cpp.inc"

namespace kiln::compiler::iree {

using namespace mlir;

void StreamDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compiler/input/iree/StreamAttrs.cpp.inc"
      >();
}

namespace {

struct ParsedParameter {
  StringAttr scope, key;
  DictionaryAttr config;
};

// `<` string (`::` string)? (`,` dictionary)? `>`, then the type the parser read after it.
FailureOr<ParsedParameter> ParseParameter(AsmParser& parser, Type type) {
  ParsedParameter parsed;
  std::string first, second;
  if (parser.parseLess() || parser.parseString(&first)) return failure();
  if (succeeded(parser.parseOptionalColon())) {
    if (parser.parseColon() || parser.parseString(&second)) return failure();
    parsed.scope = parser.getBuilder().getStringAttr(first);
    parsed.key = parser.getBuilder().getStringAttr(second);
  } else {
    parsed.scope = parser.getBuilder().getStringAttr("");
    parsed.key = parser.getBuilder().getStringAttr(first);
  }
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseAttribute(parsed.config)) return failure();
  } else {
    parsed.config = parser.getBuilder().getDictionaryAttr({});
  }
  if (parser.parseGreater()) return failure();
  if (!type) {
    return parser.emitError(parser.getCurrentLocation(), "expected ': type' after the parameter attribute"),
           failure();
  }
  return parsed;
}

void PrintParameter(AsmPrinter& p, StringAttr scope, StringAttr key, DictionaryAttr config) {
  p << "<";
  if (scope && !scope.getValue().empty()) {
    p.printString(scope.getValue());
    p << "::";
  }
  p.printString(key.getValue());
  if (config && !config.empty()) {
    p << ", ";
    p.printAttribute(config);
  }
  p << ">";
}

}  // namespace

Attribute NamedParameterAttr::parse(AsmParser& parser, Type type) {
  FailureOr<ParsedParameter> parsed = ParseParameter(parser, type);
  if (failed(parsed)) return {};
  return NamedParameterAttr::get(parser.getContext(), parsed->scope, parsed->key, parsed->config, type);
}

void NamedParameterAttr::print(AsmPrinter& p) const { PrintParameter(p, getScope(), getKey(), getConfig()); }

Attribute StreamNamedParameterAttr::parse(AsmParser& parser, Type type) {
  FailureOr<ParsedParameter> parsed = ParseParameter(parser, type);
  if (failed(parsed)) return {};
  return StreamNamedParameterAttr::get(parser.getContext(), parsed->scope, parsed->key, parsed->config, type);
}

void StreamNamedParameterAttr::print(AsmPrinter& p) const { PrintParameter(p, getScope(), getKey(), getConfig()); }

std::optional<NamedParameter> AsNamedParameter(Attribute attr) {
  if (auto flow = dyn_cast_or_null<NamedParameterAttr>(attr)) {
    return NamedParameter{flow.getScope().getValue(), flow.getKey().getValue()};
  }
  if (auto stream = dyn_cast_or_null<StreamNamedParameterAttr>(attr)) {
    return NamedParameter{stream.getScope().getValue(), stream.getKey().getValue()};
  }
  return std::nullopt;
}

}  // namespace kiln::compiler::iree
