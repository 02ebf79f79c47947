// Command-line flags of the tools: `--name=value` arguments.
#pragma once

#include <string>
#include <string_view>

namespace kiln::tools {

// Whether `arg` is `flag` (spelled with its `=`, e.g. "--device="); sets `value` to the rest.
inline bool FlagValue(std::string_view arg, std::string_view flag, std::string& value) {
  if (!arg.starts_with(flag)) return false;
  value = std::string(arg.substr(flag.size()));
  return true;
}

}  // namespace kiln::tools
