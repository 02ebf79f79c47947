#include "runtime/gpu_estimate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::runtime {
namespace {

// AMD Instinct MI300X (CDNA 3), public figures: 304 compute units, 2100 MHz peak engine clock,
// 5.3 TB/s peak HBM3 bandwidth; 4 SIMDs per compute unit (docs/hip-sim-executor.md, "Counts").
constexpr double kComputeUnits = 304;
constexpr double kClockHz = 2.1e9;
constexpr double kHbmBytesPerSecond = 5.3e12;
constexpr double kSimdsPerCu = 4;
// A wave64 VALU instruction occupies its 16-lane SIMD for 4 cycles.
constexpr double kValuCyclesPerInstruction = 4;
// One scalar instruction (SALU, SMEM, branch) issues per compute unit per cycle.
constexpr double kScalarInstructionsPerCycle = 1;
// LDS: 32 banks of 4 bytes per compute unit and cycle.
constexpr double kLdsBytesPerCycle = 128;

// Peak dense matrix FLOPs per SIMD and cycle by MFMA input type: the MI300X's peak TFLOPS
// (FP16/BF16 1307.4, FP8/INT8 2614.9, TF32 653.7, FP32 and FP64 163.4) / (304 CUs x 4 SIMDs x
// 2.1 GHz).
std::optional<double> FlopsPerSimdCycle(std::string_view input) {
  if (input == "f16" || input == "bf16") return 512;
  if (input == "fp8" || input == "bf8" || input == "i8") return 1024;
  if (input == "xf32") return 256;
  if (input == "f32" || input == "f64") return 64;
  return std::nullopt;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// "32" -> 32; nullopt unless the whole text is digits.
std::optional<double> Digits(std::string_view text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(c) != 0; })) {
    return std::nullopt;
  }
  return std::strtod(std::string(text).c_str(), nullptr);
}

}  // namespace

std::optional<double> Mi300xMfmaCycles(const std::string& mnemonic) {
  // v_mfma_<result>_<M>x<N>x<K>[<input>][_<blocks>b][_<input>[_<input>]][_1k]:
  // v_mfma_f32_32x32x8_f16, v_mfma_f32_32x32x8f16, v_mfma_f32_4x4x4_16b_f16,
  // v_mfma_f32_16x16x32_fp8_bf8, v_mfma_i32_32x32x16_i8.
  std::string_view m = mnemonic;
  if (m.substr(0, 7) != "v_mfma_") return std::nullopt;
  std::vector<std::string_view> parts = Split(m.substr(7), '_');
  if (parts.size() < 2) return std::nullopt;
  std::vector<std::string_view> dims = Split(parts[1], 'x');
  if (dims.size() != 3) return std::nullopt;
  std::string_view k_text = dims[2], input;
  size_t digits = 0;
  while (digits < k_text.size() && std::isdigit(static_cast<unsigned char>(k_text[digits]))) ++digits;
  if (digits < k_text.size()) input = k_text.substr(digits);  // "8f16"
  k_text = k_text.substr(0, digits);
  std::optional<double> m_dim = Digits(dims[0]), n_dim = Digits(dims[1]), k_dim = Digits(k_text);
  if (!m_dim || !n_dim || !k_dim) return std::nullopt;
  double blocks = 1;
  for (size_t i = 2; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    if (part.size() > 1 && part.back() == 'b' && Digits(part.substr(0, part.size() - 1))) {
      blocks = *Digits(part.substr(0, part.size() - 1));
    } else if (input.empty() && part != "1k") {
      input = part;  // the first input's type (fp8_bf8: both 8-bit)
    }
  }
  std::optional<double> rate = FlopsPerSimdCycle(input);
  if (!rate) return std::nullopt;
  return 2 * *m_dim * *n_dim * *k_dim * blocks / *rate;
}

Mi300xEstimate EstimateMi300x(const hal::DispatchCounters& c, std::optional<uint64_t> footprint_bytes) {
  Mi300xEstimate e;
  // Workgroups go round robin to the compute units: the busiest runs ceil(W / 304) of them and
  // does that share of every count. Its SIMDs in use: the waves it holds at once, at most 4.
  const double workgroups = std::max<double>(1, static_cast<double>(c.workgroups));
  const double per_cu = std::ceil(workgroups / kComputeUnits);
  const double share = per_cu / workgroups;
  const double waves_per_workgroup = std::max(1.0, static_cast<double>(c.waves) / workgroups);
  const double resident = std::min(per_cu, std::max(1.0, static_cast<double>(c.occupancy_workgroups_per_cu)));
  const double simds = std::min(kSimdsPerCu, resident * waves_per_workgroup);

  double mfma_cycles = 0;
  for (const auto& [mnemonic, count] : c.mfma_by_mnemonic) {
    std::optional<double> cycles = Mi300xMfmaCycles(mnemonic);
    if (!cycles) {
      e.mfma_rates_known = false;
      continue;
    }
    mfma_cycles += *cycles * static_cast<double>(count);
  }
  const std::pair<const char*, double> pipes[] = {
      {"VALU", share * static_cast<double>(c.valu) * kValuCyclesPerInstruction / simds},
      {"MFMA", share * mfma_cycles / simds},
      {"scalar", share * static_cast<double>(c.salu + c.smem + c.branch) / kScalarInstructionsPerCycle},
      {"LDS", share * static_cast<double>(c.lds_read_bytes + c.lds_written_bytes) / kLdsBytesPerCycle},
  };
  const auto* busiest = std::max_element(std::begin(pipes), std::end(pipes),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
  e.compute_us = busiest->second / kClockHz * 1e6;
  uint64_t hbm = c.global_read_bytes + c.global_written_bytes;
  if (footprint_bytes) hbm = std::min(hbm, *footprint_bytes);
  e.memory_us = static_cast<double>(hbm) / kHbmBytesPerSecond * 1e6;
  e.time_us = std::max(e.compute_us, e.memory_us);
  e.bound = e.memory_us >= e.compute_us ? "HBM" : busiest->first;
  return e;
}

}  // namespace kiln::runtime
