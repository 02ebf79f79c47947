// Bitwise operators for enum class flag types.
#pragma once

#include <type_traits>

#define KILN_BITFLAGS(E)                                                                   \
  constexpr E operator|(E a, E b) {                                                        \
    using U = std::underlying_type_t<E>;                                                   \
    return static_cast<E>(static_cast<U>(a) | static_cast<U>(b));                          \
  }                                                                                        \
  constexpr E operator&(E a, E b) {                                                        \
    using U = std::underlying_type_t<E>;                                                   \
    return static_cast<E>(static_cast<U>(a) & static_cast<U>(b));                          \
  }                                                                                        \
  constexpr E operator~(E a) {                                                             \
    using U = std::underlying_type_t<E>;                                                   \
    return static_cast<E>(~static_cast<U>(a));                                             \
  }                                                                                        \
  constexpr E& operator|=(E& a, E b) { return a = a | b; }                                  \
  /* True when every bit of `required` is set in `have`. */                                \
  constexpr bool AllSet(E have, E required) { return (have & required) == required; }     \
  constexpr bool AnySet(E have, E bits) { return static_cast<std::underlying_type_t<E>>(have & bits) != 0; }
