#include "compiler/input/stablehlo/lowering/Lowering.h"

namespace kiln::compiler::stablehlo {

const LoweringTable& Lowerings() {
  static const LoweringTable* table = [] {
    auto* t = new LoweringTable;
    AddElementwiseLowerings(*t);
    AddShapeLowerings(*t);
    AddStructuredLowerings(*t);
    AddScatterLowerings(*t);
    AddWindowLowerings(*t);
    AddConvolutionLowerings(*t);
    AddCustomCallLowerings(*t);
    AddRngLowerings(*t);
    return t;
  }();
  return *table;
}

}  // namespace kiln::compiler::stablehlo
