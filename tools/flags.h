// Command-line flags of the tools: `--name=value` arguments (and bare `--name` switches),
// declared once in a table from which parsing, the "unknown flag" error and --help come.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace kiln::tools {

// Whether `arg` is `flag` (spelled with its `=`, e.g. "--device="); sets `value` to the rest.
inline bool FlagValue(std::string_view arg, std::string_view flag, std::string& value) {
  if (!arg.starts_with(flag)) return false;
  value = std::string(arg.substr(flag.size()));
  return true;
}

class FlagParser {
 public:
  // `usage` is the synopsis line(s), `about` what the tool does, `examples` command lines;
  // --help prints them around the flag table.
  FlagParser(std::string_view tool, std::string_view usage, std::string_view about, std::string_view examples);

  // --name=VALUE, the last one given wins.
  void String(std::string_view name, std::string_view value_name, std::string* target, std::string_view help);
  // --name=VALUE, repeatable: every value in order.
  void List(std::string_view name, std::string_view value_name, std::vector<std::string>* target,
            std::string_view help);
  // --name, or --name=true|false.
  void Bool(std::string_view name, bool* target, std::string_view help);
  // --name=NUMBER, a non-negative number (an integer for size_t).
  void Number(std::string_view name, double* target, std::string_view help);
  void Number(std::string_view name, std::optional<double>* target, std::string_view help);
  void Number(std::string_view name, size_t* target, std::string_view help);

  // Parses argv[1..]. Arguments that are not flags go to `positional`, or are errors when
  // it is null. --help and -h stop parsing and set help_requested().
  Status Parse(int argc, char** argv, std::vector<std::string>* positional = nullptr);
  bool help_requested() const { return help_requested_; }
  // The whole --help text.
  std::string Help() const;
  const std::string& tool() const { return tool_; }

 private:
  struct Flag {
    std::string name, value_name, help, default_text;
    bool is_switch = false;
    std::function<Status(std::string_view)> set;
  };
  void Add(Flag flag);

  std::string tool_, usage_, about_, examples_;
  std::vector<Flag> flags_;
  bool help_requested_ = false;
};

// A tool's main: parses argv with `parser`, prints --help, or runs `run` and returns its
// exit code; an error (in the flags or from `run`) prints as "TOOL: CODE: message; context"
// on stderr and returns 1.
int ToolMain(FlagParser& parser, int argc, char** argv, const std::function<StatusOr<int>()>& run);

}  // namespace kiln::tools
