// The stablehlo dialect's attributes: its enumerations (`#stablehlo<comparison_direction LT>`)
// and dimension numbers (`#stablehlo.dot<lhs_contracting_dimensions = [1], ...>`).
#include "compiler/input/stablehlo/StablehloDialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "compiler/input/stablehlo/StablehloEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "compiler/input/stablehlo/StablehloAttrs.cpp.inc"

namespace kiln::compiler::stablehlo {

using namespace mlir;

void StablehloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compiler/input/stablehlo/StablehloAttrs.cpp.inc"
      >();
}

namespace {

// One `key = [d, ...]` or `key = n` entry of a dimension-numbers attribute.
struct Field {
  StringRef key;
  SmallVector<int64_t>* list = nullptr;
  int64_t* scalar = nullptr;
};

// `<` (key `=` value (`,` key `=` value)* `,`?)? `>`: keys in any order, each at most once.
LogicalResult ParseFields(AsmParser& parser, MutableArrayRef<Field> fields) {
  if (parser.parseLess()) return failure();
  llvm::SmallDenseSet<size_t> seen;
  while (true) {
    if (succeeded(parser.parseOptionalGreater())) return success();
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual()) return failure();
    auto field = llvm::find_if(fields, [&](const Field& f) { return f.key == key; });
    if (field == fields.end()) return parser.emitError(loc) << "unknown dimension-numbers key '" << key << "'";
    if (!seen.insert(field - fields.begin()).second) return parser.emitError(loc) << "'" << key << "' given twice";
    if (field->scalar) {
      if (parser.parseInteger(*field->scalar)) return failure();
    } else if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
                 return parser.parseInteger(field->list->emplace_back());
               })) {
      return failure();
    }
    if (failed(parser.parseOptionalComma())) return parser.parseGreater();
  }
}

// The non-empty lists and every scalar, in `fields` order.
void PrintFields(AsmPrinter& printer, ArrayRef<std::pair<StringRef, ArrayRef<int64_t>>> lists,
                 std::optional<std::pair<StringRef, int64_t>> scalar) {
  printer << "<";
  llvm::ListSeparator separator;
  for (auto [key, values] : lists) {
    if (values.empty()) continue;
    printer << StringRef(separator) << key << " = [";
    llvm::interleaveComma(values, printer);
    printer << "]";
  }
  if (scalar) printer << StringRef(separator) << scalar->first << " = " << scalar->second;
  printer << ">";
}

}  // namespace

Attribute DotDimensionNumbersAttr::parse(AsmParser& parser, Type) {
  SmallVector<int64_t> lb, rb, lc, rc;
  Field fields[] = {{"lhs_batching_dimensions", &lb}, {"rhs_batching_dimensions", &rb},
                    {"lhs_contracting_dimensions", &lc}, {"rhs_contracting_dimensions", &rc}};
  if (failed(ParseFields(parser, fields))) return {};
  return get(parser.getContext(), lb, rb, lc, rc);
}

void DotDimensionNumbersAttr::print(AsmPrinter& printer) const {
  PrintFields(printer,
              {{"lhs_batching_dimensions", getLhsBatchingDimensions()},
               {"rhs_batching_dimensions", getRhsBatchingDimensions()},
               {"lhs_contracting_dimensions", getLhsContractingDimensions()},
               {"rhs_contracting_dimensions", getRhsContractingDimensions()}},
              std::nullopt);
}

Attribute GatherDimensionNumbersAttr::parse(AsmParser& parser, Type) {
  SmallVector<int64_t> offset, collapsed, operand_batching, indices_batching, map;
  int64_t index_vector_dim = 0;
  Field fields[] = {{"offset_dims", &offset},
                    {"collapsed_slice_dims", &collapsed},
                    {"operand_batching_dims", &operand_batching},
                    {"start_indices_batching_dims", &indices_batching},
                    {"start_index_map", &map},
                    {"index_vector_dim", nullptr, &index_vector_dim}};
  if (failed(ParseFields(parser, fields))) return {};
  return get(parser.getContext(), offset, collapsed, operand_batching, indices_batching, map, index_vector_dim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter& printer) const {
  PrintFields(printer,
              {{"offset_dims", getOffsetDims()},
               {"collapsed_slice_dims", getCollapsedSliceDims()},
               {"operand_batching_dims", getOperandBatchingDims()},
               {"start_indices_batching_dims", getStartIndicesBatchingDims()},
               {"start_index_map", getStartIndexMap()}},
              std::make_pair(StringRef("index_vector_dim"), getIndexVectorDim()));
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser& parser, Type) {
  SmallVector<int64_t> window, inserted, input_batching, indices_batching, to_operand;
  int64_t index_vector_dim = 0;
  Field fields[] = {{"update_window_dims", &window},
                    {"inserted_window_dims", &inserted},
                    {"input_batching_dims", &input_batching},
                    {"scatter_indices_batching_dims", &indices_batching},
                    {"scatter_dims_to_operand_dims", &to_operand},
                    {"index_vector_dim", nullptr, &index_vector_dim}};
  if (failed(ParseFields(parser, fields))) return {};
  return get(parser.getContext(), window, inserted, input_batching, indices_batching, to_operand, index_vector_dim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter& printer) const {
  PrintFields(printer,
              {{"update_window_dims", getUpdateWindowDims()},
               {"inserted_window_dims", getInsertedWindowDims()},
               {"input_batching_dims", getInputBatchingDims()},
               {"scatter_indices_batching_dims", getScatterIndicesBatchingDims()},
               {"scatter_dims_to_operand_dims", getScatterDimsToOperandDims()}},
              std::make_pair(StringRef("index_vector_dim"), getIndexVectorDim()));
}

}  // namespace kiln::compiler::stablehlo
