// safetensors files and sharded indexes: dtypes and shapes, every header error, shards.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/parameter_file.h"
#include "io/safetensors_format.h"
#include "tests/io/format_builders.h"
#include "tests/util/status_testing.h"

namespace kiln::io {
namespace {

using testing::Bytes;

Status ParseError(Bytes bytes) {
  ParameterIndex index("test");
  return ParseSafetensors(MappedFile::FromBytes(std::move(bytes), "m.safetensors"), index);
}
Status HeaderError(const std::string& header, size_t data_bytes = 16) {
  return ParseError(testing::SafetensorsFile(header, Bytes(data_bytes, 0)));
}

TEST(Safetensors, DtypesShapesAndOffsets) {
  Bytes bytes = testing::SafetensorsFile({
      {"w.f16", "F16", {2, 3}, testing::Iota(12)},
      {"scalar", "F32", {}, testing::Iota(4, 50)},
      {"mask", "BOOL", {5}, Bytes(5, 1)},
      {"u", "U8", {3}, testing::Iota(3)},
      {"fp8", "F8_E4M3", {2, 2}, testing::Iota(4)},
      {"e5", "F8_E5M2", {1}, {1}},
      {"b", "BF16", {1, 1}, {0, 0x3f}},
      {"i", "I64", {2}, Bytes(16, 0)},
      {"empty", "F32", {0, 4}, {}},
  });
  ParameterIndex index("m.safetensors");
  KILN_ASSERT_OK(ParseSafetensors(MappedFile::FromBytes(bytes, "m.safetensors"), index));
  ASSERT_EQ(index.entries().size(), 9u);
  const char* types[] = {"f16", "f32", "i1", "i8", "f8E4M3FN", "f8E5M2", "bf16", "i64", "f32"};
  for (size_t i = 0; i < 9; ++i) EXPECT_EQ(index.entries()[i].element_type, types[i]) << i;
  const ParameterEntry* w = index.Find("w.f16");
  EXPECT_EQ(w->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(w->length, 12u);
  EXPECT_EQ(w->source, "m.safetensors");
  KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> data, EntryBytes(*w));
  EXPECT_EQ(Bytes(data.begin(), data.end()), testing::Iota(12));
  KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> scalar, EntryBytes(*index.Find("scalar")));
  EXPECT_EQ(Bytes(scalar.begin(), scalar.end()), testing::Iota(4, 50));
  EXPECT_TRUE(index.Find("scalar")->shape.empty());
  EXPECT_EQ(index.Find("empty")->length, 0u);
}

TEST(Safetensors, HeaderErrors) {
  kiln::testing::ExpectError(ParseError({1, 2, 3}), StatusCode::kDataLoss,
                       "safetensors file 'm.safetensors': truncated: the header length needs 8 bytes at offset 0 "
                       "but the file has 3 bytes");
  Bytes huge = testing::SafetensorsFile("{}", {});
  huge[0] = 0xFF;
  kiln::testing::ExpectError(ParseError(huge), StatusCode::kDataLoss, "the header length says 255 bytes of JSON follow");
  kiln::testing::ExpectError(HeaderError("[]"), StatusCode::kInvalidArgument, "the header does not start with '{'");
  kiln::testing::ExpectError(HeaderError("{\"a\": {\"dtype\": \"F32\",, }}"), StatusCode::kInvalidArgument,
                       "m.safetensors': bad JSON at byte 30: expected a member name in double quotes");
  kiln::testing::ExpectError(HeaderError("{\"a\": 1} x"), StatusCode::kInvalidArgument,
                       "bad JSON at byte 17: unexpected text after the JSON value");
  kiln::testing::ExpectError(HeaderError("{\"a\": \"\\q\"}"), StatusCode::kInvalidArgument, "bad escape '\\q'");
  kiln::testing::ExpectError(HeaderError("{\"a\": 1}"), StatusCode::kInvalidArgument,
                       "tensor 'a' (header byte 14): expected an object, found a number");
  kiln::testing::ExpectError(HeaderError("{\"__metadata__\": []}"), StatusCode::kInvalidArgument,
                       "\"__metadata__\" is an array, expected an object");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"shape": [1], "data_offsets": [0, 4]}})"), StatusCode::kInvalidArgument,
                       "tensor 'a' (header byte 14): expected a string \"dtype\"");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0]}})"),
                       StatusCode::kInvalidArgument, "expected \"data_offsets\": [begin, end]");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}})"),
                       StatusCode::kInvalidArgument, "non-negative integers");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"dtype": "Q4", "shape": [1], "data_offsets": [0, 4]}})"),
                       StatusCode::kInvalidArgument, "unknown dtype \"Q4\"");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"dtype": "F6_E2M3", "shape": [4], "data_offsets": [0, 3]}})"),
                       StatusCode::kUnimplemented, "tensor 'a' has dtype F6_E2M3");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"dtype": "F32", "shape": [5], "data_offsets": [0, 20]}})"),
                       StatusCode::kOutOfRange,
                       "tensor 'a' has data_offsets [0, 20) past the end of the 16 data bytes after the header");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 16]}})"),
                       StatusCode::kInvalidArgument,
                       "tensor 'a': shape [2,3] x F32 is 24 bytes but data_offsets [0, 16) hold 16");
  kiln::testing::ExpectError(HeaderError(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}})"),
                       StatusCode::kInvalidArgument, "end before they begin");
  kiln::testing::ExpectError(
      HeaderError(R"({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 12]},)"
                  R"( "b": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}})"),
      StatusCode::kInvalidArgument, "tensors 'a' [");
  kiln::testing::ExpectError(
      HeaderError(R"({"a": {"dtype": "I8", "shape": [1], "data_offsets": [0, 1]},)"
                  R"( "a": {"dtype": "I8", "shape": [1], "data_offsets": [1, 2]}})"),
      StatusCode::kAlreadyExists, "duplicate parameter 'a'");
  kiln::testing::ExpectError(
      HeaderError(R"({"a": {"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 16]}})"),
      StatusCode::kInvalidArgument, "overflows 64 bits");
}

TEST(Safetensors, ShardedIndex) {
  std::string dir = testing::MakeTempDir("safetensors_index");
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(testing::WriteFile(dir + "/model-00001-of-00002.safetensors",
                                 testing::SafetensorsFile({{"a", "F32", {2}, testing::Iota(8)},
                                                           {"unmapped", "I8", {1}, {9}}})));
  ASSERT_TRUE(testing::WriteFile(dir + "/model-00002-of-00002.safetensors",
                                 testing::SafetensorsFile({{"b", "I32", {1}, testing::Iota(4, 20)},
                                                           {"c", "I8", {2}, {1, 2}}})));
  std::string json = R"({"metadata": {"total_size": 14}, "weight_map": {"b": "model-00002-of-00002.safetensors",
      "a": "model-00001-of-00002.safetensors", "c": "model-00002-of-00002.safetensors"}})";
  ASSERT_TRUE(testing::WriteFile(dir + "/model.safetensors.index.json", Bytes(json.begin(), json.end())));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<ParameterIndex> index, OpenParameterFile(dir + "/model.safetensors.index.json"));
  ASSERT_EQ(index->entries().size(), 3u);
  EXPECT_EQ(index->entries()[0].key, "b");
  EXPECT_EQ(index->entries()[1].key, "a");
  EXPECT_EQ(index->Find("unmapped"), nullptr);
  EXPECT_EQ(index->Find("b")->file.get(), index->Find("c")->file.get());  // each shard mapped once
  EXPECT_EQ(index->Find("a")->source, dir + "/model-00001-of-00002.safetensors");
  KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> b, EntryBytes(*index->Find("b")));
  EXPECT_EQ(Bytes(b.begin(), b.end()), testing::Iota(4, 20));

  auto write_index = [&](const std::string& text) {
    std::string path = dir + "/bad.index.json";
    EXPECT_TRUE(testing::WriteFile(path, Bytes(text.begin(), text.end())));
    return OpenParameterFile(path).status();
  };
  kiln::testing::ExpectError(write_index(R"({"weight_map": {"b": "model-00001-of-00002.safetensors"}})"),
                       StatusCode::kNotFound,
                       "weight_map puts 'b' in shard 'model-00001-of-00002.safetensors', which has no tensor 'b'");
  kiln::testing::ExpectError(write_index(R"({"weight_map": {"b": "missing.safetensors"}})"), StatusCode::kNotFound,
                       "missing.safetensors': No such file or directory; for shard 'missing.safetensors' of "
                       "safetensors index");
  kiln::testing::ExpectError(write_index(R"({"weight_map": {"b": 3}})"), StatusCode::kInvalidArgument,
                       "weight_map entry 'b' (byte 21) is not a file name string");
  kiln::testing::ExpectError(write_index(R"({"weight_map": [], "x": "weight_map"})"), StatusCode::kInvalidArgument,
                       "expected an object with a \"weight_map\" object");
  kiln::testing::ExpectError(write_index(R"({"weight_map": {)"), StatusCode::kInvalidArgument,
                       "bad JSON at byte 16: expected a member name in double quotes");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kiln::io
