// An ESTIMATE of how long a dispatch would take on an AMD Instinct MI300X, from what hip-sim's
// code-object executor counted while it ran the dispatch's gfx942 code (hal::DispatchCounters)
// and from the MI300X's public peak figures. A roofline, not a measurement and not a simulation
// of timing: docs/hip-sim-executor.md ("Counts") states the model and its sources; every output
// that shows it says "estimate".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hal/device.h"

namespace kiln::runtime {

struct Mi300xEstimate {
  double time_us = 0;     // max(compute_us, memory_us)
  double compute_us = 0;  // the busiest pipe of the busiest compute unit
  double memory_us = 0;   // HBM traffic at peak bandwidth
  // What bounds time_us: "HBM", or the compute pipe ("VALU", "MFMA", "scalar", "LDS").
  std::string bound;
  // false when a counted MFMA mnemonic has no rate in the model (its time is then left out,
  // so the estimate is too low): the output says so.
  bool mfma_rates_known = true;
};

// The estimate for `counters` of a gfx942 dispatch. `footprint_bytes` is the dispatch's unique
// global bytes (its cost formula's bytes read plus written, each binding byte once) when the
// module knows them: HBM traffic is the smaller of it and the counted global bytes (the rest
// of the counted traffic is taken to hit in the caches, at no cost).
Mi300xEstimate EstimateMi300x(const hal::DispatchCounters& counters, std::optional<uint64_t> footprint_bytes);

// The cycles one MFMA instruction of `mnemonic` keeps its SIMD's matrix core busy at the
// MI300X's peak dense rate for its input type, or nullopt for mnemonics the model has no
// rate for.
std::optional<double> Mi300xMfmaCycles(const std::string& mnemonic);

}  // namespace kiln::runtime
