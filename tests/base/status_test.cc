#include "base/status.h"

#include <gtest/gtest.h>

#include <memory>

namespace kiln {
namespace {

TEST(Status, OkIsDefaultAndHasNoContext) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), StatusCode::kOk);
  EXPECT_EQ(ok.ToString(), "OK");
  EXPECT_TRUE(ok.With("while doing x").ok());
  EXPECT_TRUE(ok.context().empty());
}

TEST(Status, ErrorCarriesCodeMessageAndContextChain) {
  Status s = InvalidArgumentError("binding ", 2, " is too short");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "binding 2 is too short");
  Status chained = s.With("in dispatch main$3").With("while calling main");
  EXPECT_EQ(chained.ToString(), "INVALID_ARGUMENT: binding 2 is too short; in dispatch main$3; while calling main");
  ASSERT_EQ(chained.context().size(), 2u);
  // Adding context does not change the original.
  EXPECT_TRUE(s.context().empty());
}

TEST(Status, OkCodeWithMessageIsOk) { EXPECT_TRUE(Status(StatusCode::kOk, "ignored").ok()); }

TEST(Status, EveryCodeHasAName) {
  for (int c = 0; c <= static_cast<int>(StatusCode::kDataLoss); ++c) {
    EXPECT_NE(StatusCodeName(static_cast<StatusCode>(c)), "UNKNOWN_CODE") << c;
  }
}

Status FailsWhen(bool fail) { return fail ? NotFoundError("missing") : OkStatus(); }

Status Outer(bool fail) {
  KILN_RETURN_IF_ERROR(FailsWhen(fail), "while looking up ", "x");
  return OkStatus();
}

TEST(Status, ReturnIfErrorAddsContext) {
  EXPECT_TRUE(Outer(false).ok());
  EXPECT_EQ(Outer(true).ToString(), "NOT_FOUND: missing; while looking up x");
}

StatusOr<int> Half(int x) {
  if (x % 2) return InvalidArgumentError(x, " is odd");
  return x / 2;
}

StatusOr<int> Quarter(int x) {
  KILN_ASSIGN_OR_RETURN(int half, Half(x), "while halving ", x);
  KILN_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

TEST(StatusOr, ValueOrError) {
  StatusOr<int> v = Quarter(8);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 2);
  StatusOr<int> e = Quarter(6);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().ToString(), "INVALID_ARGUMENT: 3 is odd");
  EXPECT_EQ(Quarter(5).status().ToString(), "INVALID_ARGUMENT: 5 is odd; while halving 5");
}

TEST(StatusOr, FromOkStatusBecomesInternalError) {
  StatusOr<int> v(OkStatus());
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kInternal);
}

TEST(StatusOr, HoldsMoveOnlyValues) {
  StatusOr<std::unique_ptr<int>> v = std::make_unique<int>(7);
  ASSERT_TRUE(v.ok());
  std::unique_ptr<int> taken = std::move(v).value();
  EXPECT_EQ(*taken, 7);
}

}  // namespace
}  // namespace kiln
