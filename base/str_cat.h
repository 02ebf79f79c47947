// StrCat: type-safe concatenation of anything with an operator<< into a std::string.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

namespace kiln {

template <typename... Args>
std::string StrCat(const Args&... args) {
  if constexpr (sizeof...(Args) == 1 && (std::is_convertible_v<Args, std::string_view> && ...)) {
    return std::string(std::string_view(args...));
  } else {
    std::ostringstream out;
    (out << ... << args);
    return out.str();
  }
}

}  // namespace kiln
