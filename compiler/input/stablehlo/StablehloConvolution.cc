// stablehlo.convolution: its dimension-numbers attribute in both of StableHLO's forms, the
// op's pretty form and its verifier (StablehloStructuredOps.td, StablehloBase.td).
#include "compiler/input/stablehlo/StablehloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"

namespace kiln::compiler::stablehlo {

using namespace mlir;

namespace {

// One operand's layout in the compact form, `[b, 0, 1, f]`: the position of each of the
// two lettered dimensions and of each spatial dimension (by number).
struct Layout {
  char letters[2];
  int64_t lettered[2] = {-1, -1};
  SmallVector<int64_t> spatial;
};

ParseResult ParseLayout(AsmParser& parser, Layout& layout) {
  int64_t position = 0;
  auto parse_entry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef letter;
    int64_t p = position++;
    if (succeeded(parser.parseOptionalKeyword(&letter))) {
      for (int i = 0; i < 2; ++i) {
        if (letter.size() == 1 && letter[0] == layout.letters[i] && layout.lettered[i] < 0) {
          layout.lettered[i] = p;
          return success();
        }
      }
      return parser.emitError(loc) << "expected '" << layout.letters[0] << "', '" << layout.letters[1]
                                   << "' (once each) or a spatial dimension number, got '" << letter << "'";
    }
    int64_t spatial;
    if (parser.parseInteger(spatial)) return failure();
    if (spatial < 0 || spatial > 16) return parser.emitError(loc) << "spatial dimension " << spatial << " is out of range";
    if (static_cast<int64_t>(layout.spatial.size()) <= spatial) layout.spatial.resize(spatial + 1, -1);
    if (layout.spatial[spatial] >= 0) return parser.emitError(loc) << "spatial dimension " << spatial << " given twice";
    layout.spatial[spatial] = p;
    return success();
  };
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parse_entry)) return failure();
  if (layout.lettered[0] < 0 || layout.lettered[1] < 0 || llvm::is_contained(layout.spatial, -1)) {
    return parser.emitError(loc) << "layout needs '" << layout.letters[0] << "', '" << layout.letters[1]
                                 << "' and spatial dimensions 0 to n-1";
  }
  return success();
}

void PrintLayout(AsmPrinter& printer, Layout layout) {
  SmallVector<std::string> entries(layout.spatial.size() + 2);
  for (int i = 0; i < 2; ++i) entries[layout.lettered[i]] = std::string(1, layout.letters[i]);
  for (auto [index, position] : llvm::enumerate(layout.spatial)) entries[position] = std::to_string(index);
  printer << "[";
  llvm::interleaveComma(entries, printer);
  printer << "]";
}

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
ConvDimensionNumbersAttr ParseCompact(AsmParser& parser) {
  Layout input{{'b', 'f'}, {-1, -1}, {}}, kernel{{'i', 'o'}, {-1, -1}, {}}, output{{'b', 'f'}, {-1, -1}, {}};
  if (ParseLayout(parser, input) || parser.parseKeyword("x") || ParseLayout(parser, kernel) ||
      parser.parseArrow() || ParseLayout(parser, output)) {
    return {};
  }
  return ConvDimensionNumbersAttr::get(parser.getContext(), input.lettered[0], input.lettered[1], input.spatial,
                                       kernel.lettered[0], kernel.lettered[1], kernel.spatial, output.lettered[0],
                                       output.lettered[1], output.spatial);
}

void PrintCompact(AsmPrinter& printer, ConvDimensionNumbersAttr dims) {
  PrintLayout(printer, {{'b', 'f'}, {dims.getInputBatchDimension(), dims.getInputFeatureDimension()},
                        SmallVector<int64_t>(dims.getInputSpatialDimensions())});
  printer << "x";
  PrintLayout(printer, {{'i', 'o'}, {dims.getKernelInputFeatureDimension(), dims.getKernelOutputFeatureDimension()},
                        SmallVector<int64_t>(dims.getKernelSpatialDimensions())});
  printer << "->";
  PrintLayout(printer, {{'b', 'f'}, {dims.getOutputBatchDimension(), dims.getOutputFeatureDimension()},
                        SmallVector<int64_t>(dims.getOutputSpatialDimensions())});
}

// `raw key = value, ...>` (after `<`): every key once, in any order.
ConvDimensionNumbersAttr ParseRaw(AsmParser& parser) {
  int64_t scalars[6] = {-1, -1, -1, -1, -1, -1};
  SmallVector<int64_t> lists[3];
  static const char* const kScalars[] = {"input_batch_dimension",         "input_feature_dimension",
                                         "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                                         "output_batch_dimension",         "output_feature_dimension"};
  static const char* const kLists[] = {"input_spatial_dimensions", "kernel_spatial_dimensions",
                                       "output_spatial_dimensions"};
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual()) return {};
    auto scalar = llvm::find(kScalars, key);
    auto list = llvm::find(kLists, key);
    if (scalar != std::end(kScalars)) {
      if (parser.parseInteger(scalars[scalar - std::begin(kScalars)])) return {};
    } else if (list != std::end(kLists)) {
      SmallVector<int64_t>& values = lists[list - std::begin(kLists)];
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                         [&]() { return parser.parseInteger(values.emplace_back()); })) {
        return {};
      }
    } else {
      parser.emitError(loc) << "unknown convolution dimension-numbers key '" << key << "'";
      return {};
    }
  } while (succeeded(parser.parseOptionalComma()));
  for (int i = 0; i < 6; ++i) {
    if (scalars[i] < 0) {
      parser.emitError(parser.getCurrentLocation()) << "convolution dimension numbers need " << kScalars[i];
      return {};
    }
  }
  return ConvDimensionNumbersAttr::get(parser.getContext(), scalars[0], scalars[1], lists[0], scalars[2], scalars[3],
                                       lists[1], scalars[4], scalars[5], lists[2]);
}

// Whether `dims` are each of [0, rank) once.
bool IsPermutation(ArrayRef<int64_t> dims, int64_t rank) {
  if (static_cast<int64_t>(dims.size()) != rank) return false;
  SmallVector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

SmallVector<int64_t> OrDefault(std::optional<ArrayRef<int64_t>> values, size_t size, int64_t fallback) {
  if (values) return SmallVector<int64_t>(*values);
  return SmallVector<int64_t>(size, fallback);
}

}  // namespace

Attribute ConvDimensionNumbersAttr::parse(AsmParser& parser, Type) {
  if (parser.parseLess()) return {};
  ConvDimensionNumbersAttr dims = succeeded(parser.parseOptionalKeyword("raw")) ? ParseRaw(parser) : ParseCompact(parser);
  if (!dims || parser.parseGreater()) return {};
  return dims;
}

void ConvDimensionNumbersAttr::print(AsmPrinter& printer) const {
  printer << "<";
  PrintCompact(printer, *this);
  printer << ">";
}

SmallVector<int64_t> ConvolutionOp::getStrides() {
  return OrDefault(getWindowStrides(), getDimensionNumbers().getInputSpatialDimensions().size(), 1);
}
SmallVector<int64_t> ConvolutionOp::getLhsDilations() {
  return OrDefault(getLhsDilation(), getDimensionNumbers().getInputSpatialDimensions().size(), 1);
}
SmallVector<int64_t> ConvolutionOp::getRhsDilations() {
  return OrDefault(getRhsDilation(), getDimensionNumbers().getInputSpatialDimensions().size(), 1);
}
SmallVector<std::pair<int64_t, int64_t>> ConvolutionOp::getPads() {
  SmallVector<std::pair<int64_t, int64_t>> pads(getDimensionNumbers().getInputSpatialDimensions().size(), {0, 0});
  if (std::optional<DenseIntElementsAttr> padding = getPadding()) {
    SmallVector<int64_t> values = llvm::to_vector(padding->getValues<int64_t>());
    for (size_t i = 0; i < pads.size() && 2 * i + 1 < values.size(); ++i) pads[i] = {values[2 * i], values[2 * i + 1]};
  }
  return pads;
}
SmallVector<bool> ConvolutionOp::getReversals() {
  if (std::optional<ArrayRef<bool>> reversal = getWindowReversal()) return SmallVector<bool>(*reversal);
  return SmallVector<bool>(getDimensionNumbers().getInputSpatialDimensions().size(), false);
}

// stablehlo.convolution(%lhs, %rhs) dim_numbers = LAYOUTS, window = {stride = [..],
//   pad = [[lo, hi], ..], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]} attr-dict : types
ParseResult ConvolutionOp::parse(OpAsmParser& parser, OperationState& result) {
  MLIRContext* context = parser.getContext();
  Builder builder(context);
  OpAsmParser::UnresolvedOperand lhs, rhs;
  if (parser.parseLParen() || parser.parseOperand(lhs) || parser.parseComma() || parser.parseOperand(rhs) ||
      parser.parseRParen() || parser.parseKeyword("dim_numbers") || parser.parseEqual()) {
    return failure();
  }
  ConvDimensionNumbersAttr dims = ParseCompact(parser);
  if (!dims) return failure();
  result.addAttribute("dimension_numbers", dims);
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("window") || parser.parseEqual() || parser.parseLBrace()) return failure();
    auto parse_ints = [&](SmallVector<int64_t>& values) {
      return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                            [&]() { return parser.parseInteger(values.emplace_back()); });
    };
    do {
      SMLoc loc = parser.getCurrentLocation();
      StringRef key;
      if (parser.parseKeyword(&key) || parser.parseEqual()) return failure();
      SmallVector<int64_t> values;
      if (key == "pad") {
        int64_t rows = 0;
        if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
              ++rows;
              return parse_ints(values);
            })) {
          return failure();
        }
        if (static_cast<int64_t>(values.size()) != 2 * rows) return parser.emitError(loc) << "pad rows are [low, high]";
        auto type = RankedTensorType::get({rows, 2}, builder.getI64Type());
        result.addAttribute("padding", DenseIntElementsAttr::get(type, values));
      } else if (key == "reverse") {
        SmallVector<bool> flags;
        if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
              if (succeeded(parser.parseOptionalKeyword("true"))) return flags.push_back(true), success();
              if (succeeded(parser.parseOptionalKeyword("false"))) return flags.push_back(false), success();
              int64_t flag;
              if (parser.parseInteger(flag)) return failure();
              flags.push_back(flag != 0);
              return success();
            })) {
          return failure();
        }
        result.addAttribute("window_reversal", DenseBoolArrayAttr::get(context, flags));
      } else {
        static const std::pair<const char*, const char*> kArrays[] = {
            {"stride", "window_strides"}, {"lhs_dilate", "lhs_dilation"}, {"rhs_dilate", "rhs_dilation"}};
        auto found = llvm::find_if(kArrays, [&](auto entry) { return key == entry.first; });
        if (found == std::end(kArrays)) return parser.emitError(loc) << "unknown convolution window key '" << key << "'";
        if (parse_ints(values)) return failure();
        result.addAttribute(found->second, DenseI64ArrayAttr::get(context, values));
      }
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRBrace()) return failure();
  }
  SMLoc type_loc = parser.getCurrentLocation();
  FunctionType type;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() || parser.parseType(type)) {
    return failure();
  }
  if (type.getNumInputs() != 2 || type.getNumResults() != 1) {
    return parser.emitError(type_loc) << "expected (lhs type, rhs type) -> result type";
  }
  result.addTypes(type.getResults());
  return parser.resolveOperands({lhs, rhs}, type.getInputs(), type_loc, result.operands);
}

void ConvolutionOp::print(OpAsmPrinter& printer) {
  printer << "(" << getLhs() << ", " << getRhs() << ") dim_numbers = ";
  PrintCompact(printer, getDimensionNumbers());
  printer << ", window = {stride = [";
  llvm::interleaveComma(getStrides(), printer);
  printer << "], pad = [";
  llvm::interleaveComma(getPads(), printer, [&](std::pair<int64_t, int64_t> pad) {
    printer << "[" << pad.first << ", " << pad.second << "]";
  });
  printer << "], lhs_dilate = [";
  llvm::interleaveComma(getLhsDilations(), printer);
  printer << "], rhs_dilate = [";
  llvm::interleaveComma(getRhsDilations(), printer);
  printer << "]";
  if (getWindowReversal()) {
    printer << ", reverse = [";
    llvm::interleaveComma(*getWindowReversal(), printer, [&](bool flag) { printer << (flag ? "true" : "false"); });
    printer << "]";
  }
  printer << "}";
  printer.printOptionalAttrDict((*this)->getAttrs(), {"dimension_numbers", "window_strides", "padding", "lhs_dilation",
                                                      "rhs_dilation", "window_reversal"});
  printer << " : ";
  printer.printFunctionalType(*this);
}

LogicalResult ConvolutionOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType()), rhs = cast<RankedTensorType>(getRhs().getType());
  RankedTensorType result = getType();
  ConvDimensionNumbersAttr dims = getDimensionNumbers();
  auto spatial = static_cast<int64_t>(dims.getInputSpatialDimensions().size());
  int64_t rank = spatial + 2;
  for (auto [name, type] : {std::pair<const char*, RankedTensorType>{"operand #0 (lhs)", lhs},
                            {"operand #1 (rhs)", rhs}, {"result", result}}) {
    if (type.getRank() != rank) {
      return emitOpError() << name << " has rank " << type.getRank() << ", not " << rank << " (" << spatial
                           << " spatial dimensions, batch and feature)";
    }
  }
  auto layout = [](int64_t a, int64_t b, ArrayRef<int64_t> rest) {
    SmallVector<int64_t> all = {a, b};
    llvm::append_range(all, rest);
    return all;
  };
  if (!IsPermutation(layout(dims.getInputBatchDimension(), dims.getInputFeatureDimension(),
                            dims.getInputSpatialDimensions()), rank) ||
      !IsPermutation(layout(dims.getKernelInputFeatureDimension(), dims.getKernelOutputFeatureDimension(),
                            dims.getKernelSpatialDimensions()), rank) ||
      !IsPermutation(layout(dims.getOutputBatchDimension(), dims.getOutputFeatureDimension(),
                            dims.getOutputSpatialDimensions()), rank)) {
    return emitOpError() << "dimension numbers must name each dimension of lhs, rhs and the result once";
  }
  for (auto [name, values] : {std::pair<const char*, std::optional<ArrayRef<int64_t>>>{"window_strides", getWindowStrides()},
                              {"lhs_dilation", getLhsDilation()}, {"rhs_dilation", getRhsDilation()}}) {
    if (!values) continue;
    if (static_cast<int64_t>(values->size()) != spatial) {
      return emitOpError() << name << " has " << values->size() << " entries for " << spatial << " spatial dimensions";
    }
    if (llvm::any_of(*values, [](int64_t v) { return v < 1; })) return emitOpError() << name << " entries must be positive";
  }
  if (getPadding() && getPadding()->getType().getShape() != ArrayRef<int64_t>{spatial, 2}) {
    return emitOpError() << "padding must be [" << spatial << ", 2], not " << getPadding()->getType();
  }
  if (getWindowReversal() && static_cast<int64_t>(getWindowReversal()->size()) != spatial) {
    return emitOpError() << "window_reversal has " << getWindowReversal()->size() << " entries for " << spatial
                         << " spatial dimensions";
  }
  int64_t groups = static_cast<int64_t>(getFeatureGroupCount()), batch_groups = static_cast<int64_t>(getBatchGroupCount());
  if (groups < 1 || batch_groups < 1 || (groups > 1 && batch_groups > 1)) {
    return emitOpError() << "feature_group_count (" << groups << ") and batch_group_count (" << batch_groups
                         << ") must be positive, and one of them 1";
  }
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape()) return success();
  int64_t in_batch = lhs.getDimSize(dims.getInputBatchDimension());
  int64_t in_features = lhs.getDimSize(dims.getInputFeatureDimension());
  int64_t kernel_in = rhs.getDimSize(dims.getKernelInputFeatureDimension());
  int64_t kernel_out = rhs.getDimSize(dims.getKernelOutputFeatureDimension());
  if (in_features != kernel_in * groups) {
    return emitOpError() << "operand #0 (lhs) has " << in_features << " input features, not rhs's kernel input features ("
                         << kernel_in << ") times feature_group_count (" << groups << ")";
  }
  if (kernel_out % groups != 0 || kernel_out % batch_groups != 0 || in_batch % batch_groups != 0) {
    return emitOpError() << "operand #1 (rhs) output features (" << kernel_out << ") and lhs's batch (" << in_batch
                         << ") must divide into the groups (feature_group_count " << groups << ", batch_group_count "
                         << batch_groups << ")";
  }
  SmallVector<int64_t> shape(rank);
  shape[dims.getOutputBatchDimension()] = in_batch / batch_groups;
  shape[dims.getOutputFeatureDimension()] = kernel_out;
  SmallVector<int64_t> strides = getStrides(), lhs_dilations = getLhsDilations(), rhs_dilations = getRhsDilations();
  SmallVector<std::pair<int64_t, int64_t>> pads = getPads();
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t size = lhs.getDimSize(dims.getInputSpatialDimensions()[i]);
    int64_t window = rhs.getDimSize(dims.getKernelSpatialDimensions()[i]);
    int64_t dilated = size == 0 ? 0 : (size - 1) * lhs_dilations[i] + 1;
    int64_t padded = dilated + pads[i].first + pads[i].second;
    int64_t reach = window == 0 ? 0 : (window - 1) * rhs_dilations[i] + 1;
    shape[dims.getOutputSpatialDimensions()[i]] = padded < reach ? 0 : (padded - reach) / strides[i] + 1;
  }
  if (failed(verifyCompatibleShape(result.getShape(), shape))) {
    return emitOpError() << "result type " << result << " should have shape ["
                         << llvm::make_range(shape.begin(), shape.end()) << "]";
  }
  return success();
}

}  // namespace kiln::compiler::stablehlo
