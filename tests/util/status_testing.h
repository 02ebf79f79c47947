// gtest helpers for Status and StatusOr, shared by every test binary.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "base/status.h"

#define KILN_ASSERT_OK(expr)                                     \
  do {                                                           \
    ::kiln::Status kiln_s_ = ::kiln::internal::AsStatus(expr);   \
    ASSERT_TRUE(kiln_s_.ok()) << kiln_s_.ToString();             \
  } while (0)
#define KILN_EXPECT_OK(expr)                                     \
  do {                                                           \
    ::kiln::Status kiln_s_ = ::kiln::internal::AsStatus(expr);   \
    EXPECT_TRUE(kiln_s_.ok()) << kiln_s_.ToString();             \
  } while (0)
// Unwraps a StatusOr into `lhs`, failing the test with the error otherwise.
#define KILN_ASSERT_OK_AND_ASSIGN(lhs, expr)                                                          \
  auto KILN_CONCAT(tmp_, __LINE__) = (expr);                                                          \
  ASSERT_TRUE(KILN_CONCAT(tmp_, __LINE__).ok()) << KILN_CONCAT(tmp_, __LINE__).status().ToString(); \
  lhs = std::move(KILN_CONCAT(tmp_, __LINE__)).value()

namespace kiln::testing {

// Expects `status` to fail with `code` and mention `fragment`.
inline void ExpectError(const Status& status, StatusCode code, std::string_view fragment) {
  EXPECT_EQ(status.code(), code) << status.ToString();
  EXPECT_NE(status.ToString().find(fragment), std::string::npos)
      << "'" << status.ToString() << "' does not mention '" << fragment << "'";
}

}  // namespace kiln::testing
