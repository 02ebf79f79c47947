#include "tools/flags.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace kiln::tools {

namespace {

StatusOr<double> ParseNonNegative(std::string_view name, std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  double value = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !(value >= 0) || std::isinf(value)) {
    return InvalidArgumentError(name, "='", text, "': expected a non-negative number");
  }
  return value;
}

std::string NumberText(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

}  // namespace

FlagParser::FlagParser(std::string_view tool, std::string_view usage, std::string_view about,
                       std::string_view examples)
    : tool_(tool), usage_(usage), about_(about), examples_(examples) {}

void FlagParser::Add(Flag flag) { flags_.push_back(std::move(flag)); }

void FlagParser::String(std::string_view name, std::string_view value_name, std::string* target,
                        std::string_view help) {
  Add({std::string(name), std::string(value_name), std::string(help), *target, false,
       [target](std::string_view v) {
         *target = std::string(v);
         return OkStatus();
       }});
}

void FlagParser::List(std::string_view name, std::string_view value_name, std::vector<std::string>* target,
                      std::string_view help) {
  Add({std::string(name), std::string(value_name), std::string(help), "", false, [target](std::string_view v) {
         target->emplace_back(v);
         return OkStatus();
       }});
}

void FlagParser::Bool(std::string_view name, bool* target, std::string_view help) {
  std::string flag(name);
  Add({flag, "", std::string(help), "", true, [target, flag](std::string_view v) -> Status {
         if (v == "true" || v == "1") {
           *target = true;
         } else if (v == "false" || v == "0") {
           *target = false;
         } else {
           return InvalidArgumentError(flag, "='", v, "': expected true or false");
         }
         return OkStatus();
       }});
}

void FlagParser::Number(std::string_view name, double* target, std::string_view help) {
  std::string flag(name);
  Add({flag, "X", std::string(help), NumberText(*target), false, [target, flag](std::string_view v) -> Status {
         KILN_ASSIGN_OR_RETURN(*target, ParseNonNegative(flag, v));
         return OkStatus();
       }});
}

void FlagParser::Number(std::string_view name, std::optional<double>* target, std::string_view help) {
  std::string flag(name);
  Add({flag, "X", std::string(help), "", false, [target, flag](std::string_view v) -> Status {
         KILN_ASSIGN_OR_RETURN(double value, ParseNonNegative(flag, v));
         *target = value;
         return OkStatus();
       }});
}

void FlagParser::Number(std::string_view name, size_t* target, std::string_view help) {
  std::string flag(name);
  Add({flag, "N", std::string(help), std::to_string(*target), false, [target, flag](std::string_view v) -> Status {
         size_t value = 0;
         auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), value);
         if (v.empty() || error != std::errc() || end != v.data() + v.size()) {
           return InvalidArgumentError(flag, "='", v, "': expected a non-negative integer");
         }
         *target = value;
         return OkStatus();
       }});
}

Status FlagParser::Parse(int argc, char** argv, std::vector<std::string>* positional) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h" || arg == "-help") {
      help_requested_ = true;
      return OkStatus();
    }
    if (!arg.starts_with("-") || arg == "-") {
      if (!positional) return InvalidArgumentError("unexpected argument '", arg, "'; see ", tool_, " --help");
      positional->emplace_back(arg);
      continue;
    }
    size_t eq = arg.find('=');
    std::string_view name = arg.substr(0, eq);
    const Flag* flag = nullptr;
    for (const Flag& f : flags_) {
      if (f.name == name) flag = &f;
    }
    if (!flag) return InvalidArgumentError("unknown flag '", arg, "'; see ", tool_, " --help for the flags");
    if (eq == std::string_view::npos) {
      if (!flag->is_switch) {
        return InvalidArgumentError(name, " needs a value: ", name, "=", flag->value_name);
      }
      KILN_RETURN_IF_ERROR(flag->set("true"));
      continue;
    }
    KILN_RETURN_IF_ERROR(flag->set(arg.substr(eq + 1)));
  }
  return OkStatus();
}

std::string FlagParser::Help() const {
  std::string out = StrCat("usage: ", usage_, "\n\n", about_, "\nFlags:\n");
  for (const Flag& flag : flags_) {
    std::string spelled = flag.is_switch ? flag.name : StrCat(flag.name, "=", flag.value_name);
    out += StrCat("  ", spelled, "\n");
    std::string_view help = flag.help;
    while (!help.empty()) {
      size_t nl = help.find('\n');
      out += StrCat("      ", help.substr(0, nl), "\n");
      help = nl == std::string_view::npos ? std::string_view() : help.substr(nl + 1);
    }
    if (!flag.default_text.empty()) out += StrCat("      (default: ", flag.default_text, ")\n");
  }
  if (!examples_.empty()) out += StrCat("\nExamples:\n", examples_);
  return out;
}

int ToolMain(FlagParser& parser, int argc, char** argv, const std::function<StatusOr<int>()>& run) {
  Status status = parser.Parse(argc, argv);
  if (status.ok() && parser.help_requested()) {
    std::fputs(parser.Help().c_str(), stdout);
    return 0;
  }
  StatusOr<int> code = status.ok() ? run() : StatusOr<int>(status);
  if (!code.ok()) {
    std::fprintf(stderr, "%s: %s\n", parser.tool().c_str(), code.status().ToString().c_str());
    return 1;
  }
  return *code;
}

}  // namespace kiln::tools
