// GGUF: metadata of every value type skipped, tensor types and shapes, every error.
#include <gtest/gtest.h>

#include "io/gguf_format.h"
#include "tests/io/format_builders.h"
#include "tests/util/status_testing.h"

namespace kiln::io {
namespace {

using testing::Append;
using testing::Bytes;
using testing::GgufBuilder;

enum : uint32_t { kF32 = 0, kF16 = 1, kQ4_0 = 2, kQ8_0 = 8, kQ4_K = 12, kI32 = 26, kBF16 = 30 };

Status ParseError(const Bytes& bytes) {
  ParameterIndex index("test");
  return ParseGguf(MappedFile::FromBytes(bytes, "m.gguf"), index);
}

// An array of two arrays of strings, a u8 array, and one value of every scalar type.
GgufBuilder& EveryValueType(GgufBuilder& b) {
  Bytes nested;
  Append<uint32_t>(nested, 9);  // array of arrays
  Append<uint64_t>(nested, 2);
  for (int i = 0; i < 2; ++i) {
    Append<uint32_t>(nested, 8);  // of strings
    Append<uint64_t>(nested, 2);
    for (const char* s : {"x", "yz"}) {
      Bytes str = testing::GgufString(s);
      nested.insert(nested.end(), str.begin(), str.end());
    }
  }
  b.KvRaw("nested", 9, nested);
  Bytes u8s;
  Append<uint32_t>(u8s, 0);
  Append<uint64_t>(u8s, 3);
  u8s.insert(u8s.end(), {1, 2, 3});
  b.KvRaw("u8s", 9, u8s);
  const uint32_t sizes[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
  for (uint32_t type = 0; type <= 12; ++type) {
    if (type != 8 && type != 9) b.KvRaw("scalar" + std::to_string(type), type, Bytes(sizes[type], 1));
  }
  return b.KvString("general.name", "toy");
}

TEST(Gguf, TensorsOfEveryReadType) {
  for (uint32_t version : {2u, 3u}) {
    GgufBuilder b(version);
    EveryValueType(b).Alignment(64);
    b.Tensor("f32", kF32, {3, 2}, testing::Iota(24))
        .Tensor("f16", kF16, {4}, testing::Iota(8))
        .Tensor("bf16", kBF16, {1, 1, 2}, testing::Iota(4))
        .Tensor("q8", kQ8_0, {64, 2}, Bytes(4 * 34, 7))
        .Tensor("q4", kQ4_0, {32}, Bytes(18, 5))
        .Tensor("i32", kI32, {}, testing::Iota(4));
    Bytes bytes = b.Build();
    ParameterIndex index("m.gguf");
    KILN_ASSERT_OK(ParseGguf(MappedFile::FromBytes(bytes, "m.gguf"), index));
    ASSERT_EQ(index.entries().size(), 6u);
    const ParameterEntry* f32 = index.Find("f32");
    EXPECT_EQ(f32->element_type, "f32");
    EXPECT_EQ(f32->shape, (std::vector<int64_t>{2, 3}));  // ne reversed
    EXPECT_EQ(f32->offset % 64, 0u);
    KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> data, EntryBytes(*f32));
    EXPECT_EQ(Bytes(data.begin(), data.end()), testing::Iota(24));
    EXPECT_EQ(index.Find("bf16")->shape, (std::vector<int64_t>{2, 1, 1}));
    EXPECT_EQ(index.Find("q8")->element_type, "gguf.q8_0");
    EXPECT_EQ(index.Find("q8")->shape, (std::vector<int64_t>{2, 64}));
    EXPECT_EQ(index.Find("q8")->length, 4u * 34);
    EXPECT_EQ(index.Find("q4")->element_type, "gguf.q4_0");
    EXPECT_EQ(index.Find("q4")->length, 18u);
    EXPECT_EQ(index.Find("i32")->element_type, "i32");
    EXPECT_TRUE(index.Find("i32")->shape.empty());
  }
}

TEST(Gguf, DefaultAlignmentIs32) {
  Bytes bytes = GgufBuilder().KvString("general.name", "abc").Tensor("a", kF32, {1}, {1, 2, 3, 4}).Build();
  ParameterIndex index("m.gguf");
  KILN_ASSERT_OK(ParseGguf(MappedFile::FromBytes(bytes, "m.gguf"), index));
  EXPECT_EQ(index.entries()[0].offset % 32, 0u);
}

TEST(Gguf, Errors) {
  kiln::testing::ExpectError(ParseError({'G', 'G'}), StatusCode::kDataLoss,
                       "gguf file 'm.gguf': truncated: the GGUF magic needs 4 bytes at offset 0 but the file has 2");
  kiln::testing::ExpectError(ParseError({'G', 'G', 'U', 'X', 3, 0, 0, 0}), StatusCode::kInvalidArgument,
                       "expected the magic 'GGUF'");
  kiln::testing::ExpectError(ParseError(GgufBuilder(1).Build()), StatusCode::kUnimplemented,
                       "GGUF version 1; kiln reads versions 2 and 3");
  kiln::testing::ExpectError(ParseError(GgufBuilder(0x03000000).Build()), StatusCode::kUnimplemented, "big-endian");
  Bytes truncated = GgufBuilder().KvString("general.name", "a long enough name").Build();
  truncated.resize(24 + 20 + 4 + 8 + 18 - 3);  // header, key, type, string less 3 bytes
  kiln::testing::ExpectError(ParseError(truncated), StatusCode::kDataLoss, "truncated: a metadata string needs 18 bytes");
  kiln::testing::ExpectError(ParseError(GgufBuilder().KvRaw("bad", 13, {}).Build()), StatusCode::kInvalidArgument,
                       "metadata 'bad' has value type 13");
  Bytes big_array;
  Append<uint32_t>(big_array, 10);
  Append<uint64_t>(big_array, uint64_t{1} << 61);
  kiln::testing::ExpectError(ParseError(GgufBuilder().KvRaw("big", 9, big_array).Build()), StatusCode::kDataLoss,
                       "truncated: a metadata array");
  Bytes many_strings;
  Append<uint32_t>(many_strings, 8);
  Append<uint64_t>(many_strings, ~uint64_t{0});
  kiln::testing::ExpectError(ParseError(GgufBuilder().KvRaw("strings", 9, many_strings).Build()), StatusCode::kDataLoss,
                       "truncated: a metadata string");
  Bytes deep;
  for (int i = 0; i < 20; ++i) {
    Append<uint32_t>(deep, 9);
    Append<uint64_t>(deep, 1);
  }
  kiln::testing::ExpectError(ParseError(GgufBuilder().KvRaw("deep", 9, deep).Build()), StatusCode::kInvalidArgument,
                       "metadata 'deep' nests arrays deeper than 16");
  kiln::testing::ExpectError(ParseError(GgufBuilder().KvString("general.alignment", "x").Build()),
                       StatusCode::kInvalidArgument, "general.alignment has value type 8, expected uint32 (4)");
  kiln::testing::ExpectError(ParseError(GgufBuilder().KvU32("general.alignment", 24).Build()), StatusCode::kInvalidArgument,
                       "general.alignment is 24, expected a power of two");
  kiln::testing::ExpectError(ParseError(GgufBuilder().Tensor("k", kQ4_K, {256}, Bytes(144, 0)).Build()),
                       StatusCode::kUnimplemented, "tensor 'k' has type Q4_K (12); kiln reads F32");
  kiln::testing::ExpectError(ParseError(GgufBuilder().Tensor("u", 99, {1}, Bytes(4, 0)).Build()),
                       StatusCode::kInvalidArgument, "tensor 'u' has unknown type 99");
  kiln::testing::ExpectError(ParseError(GgufBuilder().Tensor("q", kQ8_0, {16, 2}, Bytes(34, 0)).Build()),
                       StatusCode::kInvalidArgument,
                       "tensor 'q' of type Q8_0 has shape [2,16]; its innermost dimension must be a multiple of 32");
  kiln::testing::ExpectError(ParseError(GgufBuilder().Tensor("m", kF32, {1}, Bytes(4, 0), 8).Build()),
                       StatusCode::kInvalidArgument, "tensor 'm' is at data offset 8, which is not aligned to 32 bytes");
  Bytes past = GgufBuilder().Tensor("p", kF32, {4}, Bytes(16, 0)).Build();
  past.resize(past.size() - 4);
  kiln::testing::ExpectError(ParseError(past), StatusCode::kOutOfRange,
                       "tensor 'p' (F32 [4], 16 bytes) at data offset 0 is past the end of the");
  kiln::testing::ExpectError(
      ParseError(GgufBuilder().Tensor("a", kF32, {16}, Bytes(64, 0)).Tensor("b", kF32, {1}, Bytes(4, 0), 32).Build()),
      StatusCode::kInvalidArgument, "tensors 'a' [");
  kiln::testing::ExpectError(
      ParseError(GgufBuilder().Tensor("a", kF32, {1}, Bytes(4, 0)).Tensor("a", kF32, {1}, Bytes(4, 0)).Build()),
      StatusCode::kAlreadyExists, "duplicate parameter 'a'");
  Bytes dims = GgufBuilder().Tensor("d", kF32, {1, 1, 1, 1, 1, 1, 1, 1, 1}, Bytes(4, 0)).Build();
  kiln::testing::ExpectError(ParseError(dims), StatusCode::kInvalidArgument, "tensor 'd' has 9 dimensions, at most 8");
}

}  // namespace
}  // namespace kiln::io
