// Format detection, OpenParameterFile, MappedFile, ParameterIndex and ParameterProvider.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "io/json.h"
#include "io/parameter_file.h"
#include "io/parameter_provider.h"
#include "tests/io/format_builders.h"
#include "tests/util/status_testing.h"

namespace kiln::io {
namespace {

using testing::Bytes;

class ProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::MakeTempDir("io_provider");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const Bytes& bytes) {
    std::string path = dir_ + "/" + name;
    EXPECT_TRUE(testing::WriteFile(path, bytes));
    return path;
  }
  std::string dir_;
};

TEST(Detect, EveryFormat) {
  auto detect = [](const Bytes& b) { return DetectParameterFormat(b); };
  EXPECT_EQ(*detect(testing::IrpaBuilder().Build()), ParameterFormat::kIrpa);
  EXPECT_EQ(*detect(testing::GgufBuilder().Build()), ParameterFormat::kGguf);
  EXPECT_EQ(*detect(testing::SafetensorsFile("{}", {})), ParameterFormat::kSafetensors);
  std::string index = "\n {\"weight_map\": {}}";
  EXPECT_EQ(*detect(Bytes(index.begin(), index.end())), ParameterFormat::kSafetensorsIndex);
  std::string other = "{\"not\": \"an index\"}";
  kiln::testing::ExpectError(detect(Bytes(other.begin(), other.end())).status(), StatusCode::kInvalidArgument,
                       "without \"weight_map\"");
  kiln::testing::ExpectError(detect({}).status(), StatusCode::kInvalidArgument, "empty");
  kiln::testing::ExpectError(detect({0x7f, 'E', 'L', 'F'}).status(), StatusCode::kInvalidArgument,
                       "first bytes (7f 45 4c 46) are neither the irpa magic");
}

TEST_F(ProviderTest, OpenErrors) {
  kiln::testing::ExpectError(OpenParameterFile(dir_ + "/none.irpa").status(), StatusCode::kNotFound,
                       "cannot open parameter file '" + dir_ + "/none.irpa': No such file or directory");
  kiln::testing::ExpectError(OpenParameterFile(dir_).status(), StatusCode::kInvalidArgument, "is not a regular file");
  std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  kiln::testing::ExpectError(OpenParameterFile(fifo).status(), StatusCode::kInvalidArgument, "is not a regular file");
  kiln::testing::ExpectError(OpenParameterFile(Write("empty.bin", {})).status(), StatusCode::kInvalidArgument,
                       "empty.bin': the file is empty: not a parameter file");
  KILN_ASSERT_OK_AND_ASSIGN(Ref<MappedFile> empty, MappedFile::Open(dir_ + "/empty.bin"));
  EXPECT_TRUE(empty->bytes().empty());
}

TEST(MappedFileTest, FromBytesIsAligned) {
  Ref<MappedFile> file = MappedFile::FromBytes({1, 2, 3}, "name");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(file->bytes().data()) % 64, 0u);
  EXPECT_EQ(file->bytes().size(), 3u);
  EXPECT_EQ(file->path(), "name");
  EXPECT_TRUE(MappedFile::FromBytes({}, "none")->bytes().empty());
}

TEST(ParameterIndexTest, AddFindOrder) {
  ParameterIndex index("desc");
  Ref<MappedFile> x = MappedFile::FromBytes({}, "x"), y = MappedFile::FromBytes({}, "y");
  KILN_ASSERT_OK(index.Add(testing::DataEntry("b", x, 0, 0)));
  KILN_ASSERT_OK(index.Add(testing::DataEntry("a", y, 0, 0)));
  kiln::testing::ExpectError(index.Add(testing::DataEntry("b", MappedFile::FromBytes({}, "z"), 0, 0)),
                             StatusCode::kAlreadyExists,
                       "duplicate parameter 'b' in 'desc' (in 'x' and in 'z')");
  ASSERT_EQ(index.entries().size(), 2u);
  EXPECT_EQ(index.entries()[0].key, "b");
  EXPECT_EQ(index.Find(std::string_view("a"))->source, "y");
  EXPECT_EQ(index.Find("c"), nullptr);
  ParameterEntry no_file = testing::DataEntry("k", nullptr, 0, 4);
  kiln::testing::ExpectError(EntryBytes(no_file).status(), StatusCode::kInternal, "has no file");
}

TEST_F(ProviderTest, ScopesAndErrors) {
  std::string a = Write("a.safetensors", testing::SafetensorsFile({{"w", "F32", {1}, testing::Iota(4)}}));
  std::string b = Write("b.gguf", testing::GgufBuilder().Tensor("v", 0, {1}, testing::Iota(4)).Build());
  std::string c = Write("c.safetensors", testing::SafetensorsFile({{"v", "F32", {1}, testing::Iota(4)}}));
  ParameterProvider provider;
  EXPECT_TRUE(provider.empty());
  kiln::testing::ExpectError(provider.Find("", "w").status(), StatusCode::kNotFound,
                       "no parameter scope '' (no parameter files given)");
  KILN_ASSERT_OK(provider.AddFlag("model=" + a));
  KILN_ASSERT_OK(provider.AddFile("model", b));
  KILN_ASSERT_OK(provider.AddFlag(c));  // the unnamed scope
  EXPECT_FALSE(provider.empty());
  KILN_ASSERT_OK_AND_ASSIGN(const ParameterEntry* w, provider.Find("model", "w"));
  EXPECT_EQ(w->source, a);
  KILN_ASSERT_OK_AND_ASSIGN(const ParameterEntry* v, provider.Find("model", "v"));
  EXPECT_EQ(v->source, b);
  KILN_ASSERT_OK_AND_ASSIGN(const ParameterEntry* v2, provider.Find("", "v"));
  EXPECT_EQ(v2->source, c);
  kiln::testing::ExpectError(provider.Find("model", "blk.0.w").status(), StatusCode::kNotFound,
                       "no parameter 'blk.0.w' in scope 'model' (files: " + a + ", " + b + ")");
  kiln::testing::ExpectError(provider.Find("x", "w").status(), StatusCode::kNotFound,
                       "no parameter scope 'x' (scopes: 'model', '')");
  kiln::testing::ExpectError(provider.AddFile("model", c), StatusCode::kAlreadyExists,
                       "parameter 'v' of scope 'model' is in both '" + b + "' and '" + c + "'");
  kiln::testing::ExpectError(provider.AddFlag("model="), StatusCode::kInvalidArgument, "expected [SCOPE=]FILE");
  kiln::testing::ExpectError(provider.AddIndex("s", nullptr), StatusCode::kInvalidArgument, "no index");
}

TEST(Json, ValuesAndErrors) {
  KILN_ASSERT_OK_AND_ASSIGN(JsonValue v,
                            ParseJson(R"( {"a": [1, -2.5e3, true, false, null], "s": "\u00e9\ud83d\ude00\n"} )", "t"));
  ASSERT_EQ(v.type, JsonValue::Type::kObject);
  EXPECT_EQ(v.Find("a")->items.size(), 5u);
  EXPECT_EQ(v.Find("a")->items[0].AsUint64(), 1u);
  EXPECT_FALSE(v.Find("a")->items[1].AsUint64());
  EXPECT_EQ(v.Find("s")->text, "\xc3\xa9\xf0\x9f\x98\x80\n");
  EXPECT_EQ(v.Find("s")->offset, 44u);
  KILN_ASSERT_OK_AND_ASSIGN(JsonValue big, ParseJson("[18446744073709551615, 18446744073709551616]", "t"));
  EXPECT_EQ(big.items[0].AsUint64(), UINT64_MAX);
  EXPECT_FALSE(big.items[1].AsUint64());
  kiln::testing::ExpectError(ParseJson(std::string(100, '['), "t").status(), StatusCode::kInvalidArgument,
                       "t: bad JSON at byte 64: nesting deeper than 64 levels");
  kiln::testing::ExpectError(ParseJson("\"\xff\"", "t").status(), StatusCode::kInvalidArgument, "invalid UTF-8");
  kiln::testing::ExpectError(ParseJson("\"\\ud800\"", "t").status(), StatusCode::kInvalidArgument, "high surrogate");
  kiln::testing::ExpectError(ParseJson("01", "t").status(), StatusCode::kInvalidArgument, "unexpected text");
  kiln::testing::ExpectError(ParseJson("[1,]", "t", 100).status(), StatusCode::kInvalidArgument,
                       "bad JSON at byte 103: expected a value");
  kiln::testing::ExpectError(ParseJson("\"a\tb\"", "t").status(), StatusCode::kInvalidArgument, "control character");
}

}  // namespace
}  // namespace kiln::io
