#include "compiler/input/chlo/lowering/Lowering.h"

namespace kiln::compiler::chlo {

const stablehlo::LoweringTable& Lowerings() {
  static const stablehlo::LoweringTable* table = [] {
    auto* t = new stablehlo::LoweringTable;
    AddBroadcastingLowerings(*t);
    AddElementwiseLowerings(*t);
    AddTopKLowerings(*t);
    return t;
  }();
  return *table;
}

}  // namespace kiln::compiler::chlo
