#include "drivers/hip/sim/config.h"

#include <cctype>
#include <limits>

namespace kiln::hsa_sim {
namespace {

struct IsaDefaults {
  std::string_view isa;
  uint32_t compute_units;
  uint32_t wavefront_size;
};

// The ISAs kiln targets, with their products' shapes (MI300X, MI210/MI250, RX 7900 XTX).
constexpr IsaDefaults kKnownIsas[] = {
    {"gfx942", 304, 64},
    {"gfx90a", 104, 64},
    {"gfx1100", 48, 32},
};

// Any other "gfx" + hex digits is accepted too: GCN/CDNA names have three digits after "gfx"
// (wave64), RDNA names four (wave32 by default).
bool IsIsaName(std::string_view isa) {
  if (isa.size() < 6 || isa.size() > 8 || isa.substr(0, 3) != "gfx") return false;
  for (char c : isa.substr(3)) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f')) return false;
  }
  return true;
}

IsaDefaults DefaultsFor(std::string_view isa) {
  for (const IsaDefaults& d : kKnownIsas) {
    if (d.isa == isa) return d;
  }
  return {isa, 64, isa.size() >= 7 ? 32u : 64u};
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t end = s.find(separator, start);
    parts.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// Decimal, or hexadecimal with 0x; with `suffixes`, an optional K, M or G (binary multiples).
StatusOr<uint64_t> ParseNumber(std::string_view text, bool suffixes) {
  text = Trim(text);
  uint64_t multiplier = 1;
  if (suffixes && !text.empty()) {
    char last = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    if (last == 'K') multiplier = 1ull << 10;
    if (last == 'M') multiplier = 1ull << 20;
    if (last == 'G') multiplier = 1ull << 30;
    if (multiplier != 1) text.remove_suffix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return InvalidArgumentError("expected a number");
  uint64_t value = 0;
  for (char c : text) {
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c))) {
      digit = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    } else {
      return InvalidArgumentError("'", text, "' is not a number");
    }
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / base) {
      return InvalidArgumentError("'", text, "' is out of range");
    }
    value = value * base + digit;
  }
  if (value > std::numeric_limits<uint64_t>::max() / multiplier) {
    return InvalidArgumentError("'", text, "' is out of range");
  }
  return value * multiplier;
}

StatusOr<uint32_t> ParseU32(std::string_view text, bool suffixes) {
  KILN_ASSIGN_OR_RETURN(uint64_t value, ParseNumber(text, suffixes));
  if (value > std::numeric_limits<uint32_t>::max()) return InvalidArgumentError(value, " does not fit in 32 bits");
  return static_cast<uint32_t>(value);
}

// Stores a parsed value in *field, or returns the parse error and leaves *field alone.
template <typename T>
Status Assign(const StatusOr<T>& parsed, T* field) {
  if (parsed.ok()) *field = *parsed;
  return parsed.status();
}

}  // namespace

StatusOr<AgentConfig> ResolveAgentConfig(const kiln_hsa_sim_agent_config_t& config) {
  if (config.isa == nullptr) return InvalidArgumentError("isa is null");
  std::string_view isa = config.isa;
  if (!IsIsaName(isa)) {
    return InvalidArgumentError("isa '", isa, "' is not an AMDGPU processor name like gfx942, gfx90a or gfx1100");
  }
  IsaDefaults defaults = DefaultsFor(isa);
  AgentConfig out;
  out.isa = std::string(isa);
  out.compute_units = config.compute_units ? config.compute_units : defaults.compute_units;
  out.wavefront_size = config.wavefront_size ? config.wavefront_size : defaults.wavefront_size;
  if (out.wavefront_size != 32 && out.wavefront_size != 64) {
    return InvalidArgumentError("wavefront size ", out.wavefront_size, " of ", isa, " is neither 32 nor 64");
  }
  out.lds_bytes = config.lds_bytes ? config.lds_bytes : kDefaultLdsBytes;
  if (out.lds_bytes > kMaxLdsBytes || out.lds_bytes % 16 != 0) {
    return InvalidArgumentError("LDS size ", out.lds_bytes, " of ", isa, " must be a multiple of 16 up to ",
                                kMaxLdsBytes);
  }
  out.device_memory_bytes = config.device_memory_bytes ? config.device_memory_bytes : kDefaultDeviceMemoryBytes;
  if (out.device_memory_bytes > (1ull << 48)) {
    return InvalidArgumentError("device memory of ", out.device_memory_bytes, " bytes exceeds 256 TiB");
  }
  return out;
}

StatusOr<std::vector<AgentConfig>> ParseAgentsText(std::string_view text) {
  std::vector<AgentConfig> agents;
  for (std::string_view entry : Split(text, ',')) {
    std::vector<std::string_view> fields = Split(entry, ':');
    std::string isa(Trim(fields[0]));
    kiln_hsa_sim_agent_config_t config{};
    config.isa = isa.c_str();
    for (size_t i = 1; i < fields.size(); ++i) {
      std::string_view field = Trim(fields[i]);
      size_t eq = field.find('=');
      if (eq == std::string_view::npos) {
        return InvalidArgumentError("agent '", Trim(entry), "': '", field, "' is not KEY=VALUE");
      }
      std::string_view key = Trim(field.substr(0, eq));
      std::string_view value = field.substr(eq + 1);
      Status parsed;
      if (key == "cu") {
        parsed = Assign(ParseU32(value, false), &config.compute_units);
      } else if (key == "wave") {
        parsed = Assign(ParseU32(value, false), &config.wavefront_size);
      } else if (key == "lds") {
        parsed = Assign(ParseU32(value, true), &config.lds_bytes);
      } else if (key == "mem") {
        parsed = Assign(ParseNumber(value, true), &config.device_memory_bytes);
      } else {
        return InvalidArgumentError("agent '", Trim(entry), "': unknown key '", key,
                                    "' (the keys are cu, wave, lds and mem)");
      }
      KILN_RETURN_IF_ERROR(parsed, "agent '", Trim(entry), "', key ", key);
    }
    KILN_ASSIGN_OR_RETURN(AgentConfig agent, ResolveAgentConfig(config), "agent '", Trim(entry), "'");
    agents.push_back(std::move(agent));
  }
  if (agents.size() > kMaxGpuAgents)
    return InvalidArgumentError(agents.size(), " agents exceed the limit of ", kMaxGpuAgents);
  return agents;
}

std::vector<AgentConfig> DefaultAgents() {
  kiln_hsa_sim_agent_config_t config{};
  config.isa = "gfx942";
  return {*ResolveAgentConfig(config)};
}

StatusOr<std::vector<FaultSpec>> ParseFaultsText(std::string_view text) {
  std::vector<FaultSpec> faults;
  for (std::string_view entry : Split(text, ';')) {
    entry = Trim(entry);
    if (entry.empty()) continue;
    auto where = [&] { return StrCat("fault '", entry, "'"); };
    FaultSpec fault{};
    std::string_view rest = entry;
    if (size_t slash = rest.find('/'); slash != std::string_view::npos) {
      KILN_ASSIGN_OR_RETURN(fault.gpu_agent_index, ParseU32(rest.substr(0, slash), false), where());
      rest = rest.substr(slash + 1);
    }
    size_t at = rest.find('@');
    if (at == std::string_view::npos) {
      return InvalidArgumentError("expected KIND@PACKET_ORDINAL").With(where());
    }
    std::string_view kind = Trim(rest.substr(0, at));
    std::vector<std::string_view> args = Split(rest.substr(at + 1), ':');
    KILN_ASSIGN_OR_RETURN(fault.packet_ordinal, ParseNumber(args[0], false), where());
    if (kind == "memory") {
      fault.kind = KILN_HSA_SIM_FAULT_MEMORY;
      if (args.size() > 2) return InvalidArgumentError("memory takes @N[:ADDRESS]").With(where());
      if (args.size() == 2) {
        KILN_ASSIGN_OR_RETURN(fault.value, ParseNumber(args[1], false), where());
      }
    } else if (kind == "queue_error") {
      fault.kind = KILN_HSA_SIM_FAULT_QUEUE_ERROR;
      if (args.size() != 1) return InvalidArgumentError("queue_error takes @N only").With(where());
    } else if (kind == "slow") {
      fault.kind = KILN_HSA_SIM_FAULT_SLOW;
      if (args.size() != 2) return InvalidArgumentError("slow takes @N:MICROSECONDS").With(where());
      KILN_ASSIGN_OR_RETURN(fault.value, ParseNumber(args[1], false), where());
    } else if (kind == "copy_refused") {
      fault.kind = KILN_HSA_SIM_FAULT_COPY_REFUSED;
      if (args.size() != 1) return InvalidArgumentError("copy_refused takes @N only").With(where());
    } else {
      return InvalidArgumentError("unknown kind '", kind, "' (memory, queue_error, slow or copy_refused)")
          .With(where());
    }
    faults.push_back(fault);
  }
  return faults;
}

StatusOr<ExecutionMode> ParseExecutionMode(std::string_view text) {
  text = Trim(text);
  if (text.empty() || text == "twin") return ExecutionMode::kTwin;
  if (text == "code-object") return ExecutionMode::kCodeObject;
  if (text == "both") return ExecutionMode::kBoth;
  return InvalidArgumentError("unknown mode '", text, "' (twin, code-object or both)");
}

StatusOr<ExecutorOptions> ParseExecutorOptions(const char* interleave_seed, const char* race_check) {
  ExecutorOptions options;
  if (interleave_seed && !Trim(interleave_seed).empty()) {
    auto seed = ParseNumber(Trim(interleave_seed), false);
    if (!seed.ok()) {
      return InvalidArgumentError("KILN_HSA_SIM_INTERLEAVE_SEED=\"", interleave_seed,
                                  "\": ", seed.status().message(), " (a decimal or 0x hexadecimal seed)");
    }
    options.interleave = true;
    options.interleave_seed = *seed;
  }
  if (race_check) {
    std::string_view text = Trim(race_check);
    if (text == "off") {
      options.race_check = false;
    } else if (!text.empty() && text != "on") {
      return InvalidArgumentError("KILN_HSA_SIM_RACE_CHECK=\"", race_check, "\": takes on or off");
    }
  }
  return options;
}

}  // namespace kiln::hsa_sim
