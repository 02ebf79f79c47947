#include "vm/signature.h"

#include <gtest/gtest.h>

namespace kiln::vm {
namespace {

TEST(Signature, ParsesFixedAndVariadic) {
  StatusOr<Signature> s = ParseSignature("rI[rII]:r");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->args.size(), 2u);
  EXPECT_EQ(s->variadic.size(), 3u);
  EXPECT_EQ(s->results.size(), 1u);
  EXPECT_EQ(s->ToString(), "rI[rII]:r");
  ValueKind ok[] = {ValueKind::kRef, ValueKind::kI64, ValueKind::kRef, ValueKind::kI64, ValueKind::kI64};
  EXPECT_TRUE(s->AcceptsArgs(ok));
  ValueKind partial[] = {ValueKind::kRef, ValueKind::kI64, ValueKind::kRef};
  EXPECT_FALSE(s->AcceptsArgs(partial));
  EXPECT_TRUE(s->AcceptsArgs(std::span<const ValueKind>(ok, 2)));
  EXPECT_TRUE(ParseSignature(":").ok());
}

TEST(Signature, RejectsMalformedStrings) {
  for (const char* bad : {"ii", "ix:i", "i:q", "[i]i:", "i[]:", "i[i:", "i[i][i]:", "i]:"}) {
    EXPECT_EQ(ParseSignature(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

}  // namespace
}  // namespace kiln::vm
