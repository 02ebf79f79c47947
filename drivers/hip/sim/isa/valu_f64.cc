// Vector ALU, f64 (CDNA3 ISA, "Vector ALU Operations", the VOP3 64-bit forms): sources are
// VGPR or SGPR pairs or constants, with the ABS/NEG input modifiers on bit 63; results are IEEE
// double with round-to-nearest-even and denormals kept (FLOAT_DENORM_MODE_16_64 3, the compute
// default). CLAMP and OMOD are refused (the decoder reads them as trailing immediates).
// V_MIN_F64 / V_MAX_F64 follow IEEE mode as the f32 forms do (ieee_min_max.h).
#include <bit>
#include <cmath>
#include <cstdint>

#include "drivers/hip/sim/isa/ieee_min_max.h"
#include "drivers/hip/sim/isa/semantics.h"
#include "drivers/hip/sim/isa/wave.h"

namespace kiln::hsa_sim::isa {
namespace {

double Add(double a, double b) { return a + b; }
double Mul(double a, double b) { return a * b; }

template <double (*F)(double, double)>
void BinaryF64(Wave& w, const Instruction& i) {
  if (i.num_imm >= 1 && i.imm[0] != 0) return w.Fail(i, "CLAMP on an f64 operation is not modelled");
  if (i.num_imm >= 2 && i.imm[1] != 0) return w.Fail(i, "OMOD on an f64 operation is not modelled");
  uint64_t a[kLanes], b[kLanes], r[kLanes];
  LanesF64Bits(w, i.src[0], a);
  LanesF64Bits(w, i.src[1], b);
  for (uint32_t l = 0; l < kLanes; ++l) {
    r[l] = std::bit_cast<uint64_t>(F(std::bit_cast<double>(a[l]), std::bit_cast<double>(b[l])));
  }
  WriteLanes64(w, i.dst[0], r, w.exec());
}

constexpr OpSemantics kValuF64[] = {
    {"v_add_f64", &BinaryF64<Add>},
    {"v_mul_f64", &BinaryF64<Mul>},
    {"v_max_f64", &BinaryF64<IeeeMinMax<double, true>>},
    {"v_min_f64", &BinaryF64<IeeeMinMax<double, false>>},
};

}  // namespace

std::span<const OpSemantics> ValuF64Semantics() { return kValuF64; }

}  // namespace kiln::hsa_sim::isa
