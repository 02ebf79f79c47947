// IREE parameter archives: parsing built archives, every header error, external and splat
// entries, the writer's round trip, and the real toy-llama archive.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include "io/irpa_format.h"
#include "io/irpa_writer.h"
#include "io/parameter_file.h"
#include "tests/io/format_builders.h"
#include "tests/util/status_testing.h"

namespace kiln::io {
namespace {

using testing::Bytes;
using testing::IrpaBuilder;

Status Parse(Bytes bytes, ParameterIndex& index, std::string name = "test.irpa") {
  return ParseIrpa(MappedFile::FromBytes(std::move(bytes), std::move(name)), index);
}
Status ParseError(Bytes bytes) {
  ParameterIndex index("test");
  return Parse(std::move(bytes), index);
}
template <typename T>
void Poke(Bytes& bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

TEST(Irpa, DataSplatAndSkipEntries) {
  Bytes bytes = IrpaBuilder()
                    .Data("a", testing::Iota(10))
                    .Skip("gone")
                    .Splat("s", 64, {0xAA, 0xBB})
                    .Data("b", testing::Iota(3, 7))
                    .Build();
  ParameterIndex index("test");
  KILN_ASSERT_OK(Parse(bytes, index));
  ASSERT_EQ(index.entries().size(), 3u);
  EXPECT_EQ(index.entries()[0].key, "a");
  EXPECT_EQ(index.entries()[1].key, "s");
  EXPECT_EQ(index.entries()[2].key, "b");
  EXPECT_EQ(index.Find("gone"), nullptr);
  const ParameterEntry* a = index.Find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->offset % 64, 0u);
  KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> a_bytes, EntryBytes(*a));
  EXPECT_EQ(Bytes(a_bytes.begin(), a_bytes.end()), testing::Iota(10));
  const ParameterEntry* s = index.Find("s");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, ParameterEntry::Kind::kSplat);
  EXPECT_EQ(s->length, 64u);
  EXPECT_EQ(s->pattern, (Bytes{0xAA, 0xBB}));
  EXPECT_TRUE(s->element_type.empty());
  kiln::testing::ExpectError(EntryBytes(*s).status(), StatusCode::kFailedPrecondition, "is a splat");
  KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> b_bytes, EntryBytes(*index.Find("b")));
  EXPECT_EQ(Bytes(b_bytes.begin(), b_bytes.end()), testing::Iota(3, 7));
}

// Two archives in one file, the first linking to the second; offsets are header-relative.
TEST(Irpa, LinkedHeaders) {
  Bytes first = IrpaBuilder().Data("a", testing::Iota(5)).Build();
  first.resize((first.size() + 63) / 64 * 64, 0);  // keeps the second one's data aligned
  Bytes second = IrpaBuilder().Data("b", testing::Iota(6, 40)).Splat("c", 4, {9}).Build();
  Poke<uint64_t>(first, 16, first.size());
  size_t second_at = first.size();
  first.insert(first.end(), second.begin(), second.end());
  ParameterIndex index("test");
  KILN_ASSERT_OK(Parse(first, index));
  ASSERT_EQ(index.entries().size(), 3u);
  const ParameterEntry* b = index.Find("b");
  ASSERT_NE(b, nullptr);
  EXPECT_GT(b->offset, second_at);
  KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> bytes, EntryBytes(*b));
  EXPECT_EQ(Bytes(bytes.begin(), bytes.end()), testing::Iota(6, 40));

  // 64 headers that all point to one table of 100 skip entries at the end of the file: the
  // walk is refused before it grows quadratic in the file size.
  const uint64_t headers = 64, entries = 100, table_at = headers * 96;
  Bytes chain(table_at + entries * 64, 0);
  for (uint64_t h = 0; h < headers; ++h) {
    uint64_t base = h * 96;
    std::memcpy(chain.data() + base, "IRPA", 4);
    Poke<uint64_t>(chain, base + 8, 88);
    Poke<uint64_t>(chain, base + 16, h + 1 < headers ? 96 : 0);
    Poke<uint64_t>(chain, base + 32, entries);
    Poke<uint64_t>(chain, base + 40, table_at - base);
    Poke<uint64_t>(chain, base + 48, entries * 64);
  }
  for (uint64_t e = 0; e < entries; ++e) Poke<uint64_t>(chain, table_at + e * 64, 60);
  kiln::testing::ExpectError(ParseError(chain), StatusCode::kInvalidArgument,
                             "the header at offset 192 declares 100 entries; with the 200 of earlier headers that is "
                             "more than the 12544-byte file can hold");
}

TEST(Irpa, EmptyArchive) {
  ParameterIndex index("test");
  KILN_ASSERT_OK(Parse(IrpaBuilder().Build(), index));
  EXPECT_TRUE(index.entries().empty());
}

TEST(Irpa, HeaderErrors) {
  Bytes good = IrpaBuilder().Data("w", testing::Iota(16)).Build();
  kiln::testing::ExpectError(ParseError({}), StatusCode::kInvalidArgument, "test.irpa': the file is empty");
  kiln::testing::ExpectError(ParseError(Bytes(good.begin(), good.begin() + 20)), StatusCode::kDataLoss,
                       "truncated: the header needs 8 bytes at offset 16 but the file has 20 bytes");
  Bytes bad = good;
  bad[0] = 'X';
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kInvalidArgument, "expected the magic 'IRPA' at offset 0");
  bad = good;
  Poke<uint16_t>(bad, 4, 1);
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kUnimplemented, "archive version 1.0 at offset 0");
  bad = good;
  Poke<uint64_t>(bad, 8, 96);
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kInvalidArgument, "says it has 96 bytes; a version 0 header has 88");
  bad = good;
  Poke<uint64_t>(bad, 80, 1u << 20);  // storage segment length
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kOutOfRange, "the storage segment at +");
  bad = good;
  Poke<uint64_t>(bad, 16, 8);  // next header at offset 8
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kInvalidArgument, "header at offset 8 is not aligned to 16 bytes");
  bad = good;
  Poke<uint64_t>(bad, 16, ~uint64_t{0} - 3);
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kOutOfRange, "past the end of the");
}

TEST(Irpa, EntryErrors) {
  Bytes good = IrpaBuilder().Data("w", testing::Iota(16)).Build();
  // The entry at 96: size at +0, type at +8, name at +20, alignment at +52, storage at +60.
  Bytes bad = good;
  Poke<uint64_t>(bad, 32, 2);  // two entries, one in the table
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kDataLoss, "entry table truncated: entry 1 of 2");
  bad = good;
  Poke<uint64_t>(bad, 96, 8);
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kDataLoss, "entry 0 at offset 96 has size 8");
  bad = good;
  Poke<uint32_t>(bad, 96 + 8, 9);
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kUnimplemented, "entry 0 'w' has entry type 9");
  bad = good;
  Poke<uint64_t>(bad, 96 + 28, 1000);  // name length
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kOutOfRange, "the name of entry 0 at [0, +1000)");
  bad = good;
  Poke<uint64_t>(bad, 96 + 68, 17);  // data length past the storage segment
  kiln::testing::ExpectError(ParseError(bad), StatusCode::kOutOfRange,
                       "entry 0 'w' has its data at [0, +17) past the end of the 16-byte storage segment");
  // Data stored 8 bytes off a 64-byte boundary.
  Bytes skewed = IrpaBuilder().StorageSkew(8).Data("w", testing::Iota(16)).Build();
  kiln::testing::ExpectError(ParseError(skewed), StatusCode::kInvalidArgument,
                       "entry 0 'w' has its data at offset 200 of 'test.irpa', which is not aligned to its minimum "
                       "alignment of 64 bytes");
  kiln::testing::ExpectError(ParseError(IrpaBuilder().Splat("s", 10, {1, 2, 3}).Build()), StatusCode::kInvalidArgument,
                       "splat entry 0 's' has a 3-byte pattern");
  kiln::testing::ExpectError(ParseError(IrpaBuilder().Splat("s", 10, {1, 2, 3, 4}).Build()),
                       StatusCode::kInvalidArgument, "dividing its length of 10");
  kiln::testing::ExpectError(ParseError(IrpaBuilder().Data("w", {1}).Data("w", {2}).Build()),
                       StatusCode::kAlreadyExists, "duplicate parameter 'w' in 'test'");
}

TEST(Irpa, ExternalEntries) {
  std::string dir = testing::MakeTempDir("irpa_external");
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(testing::WriteFile(dir + "/weights.bin", testing::Iota(100)));
  Bytes archive = IrpaBuilder()
                      .External("x", "weights.bin", 10, 20)
                      .External("y", "weights.bin", 0, 100)
                      .Build();
  ASSERT_TRUE(testing::WriteFile(dir + "/a.irpa", archive));
  KILN_ASSERT_OK_AND_ASSIGN(Ref<ParameterIndex> index, OpenParameterFile(dir + "/a.irpa"));
  ASSERT_EQ(index->entries().size(), 2u);
  const ParameterEntry* x = index->Find("x");
  EXPECT_EQ(x->file->path(), dir + "/weights.bin");
  EXPECT_EQ(x->file.get(), index->Find("y")->file.get());  // opened once
  KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> bytes, EntryBytes(*x));
  EXPECT_EQ(Bytes(bytes.begin(), bytes.end()), testing::Iota(20, 10));

  ASSERT_TRUE(testing::WriteFile(dir + "/b.irpa", IrpaBuilder().External("x", "weights.bin", 90, 20).Build()));
  kiln::testing::ExpectError(OpenParameterFile(dir + "/b.irpa").status(), StatusCode::kOutOfRange,
                       "external entry 0 'x' has its data at [90, +20) past the end of the 100-byte file");
  ASSERT_TRUE(testing::WriteFile(dir + "/c.irpa", IrpaBuilder().External("x", "missing.bin", 0, 1).Build()));
  kiln::testing::ExpectError(OpenParameterFile(dir + "/c.irpa").status(), StatusCode::kNotFound,
                       "missing.bin': No such file or directory; for external entry 0 'x' of irpa file");
  std::filesystem::remove_all(dir);
}

TEST(Irpa, WriteReadRoundTrip) {
  std::string dir = testing::MakeTempDir("irpa_roundtrip");
  ASSERT_FALSE(dir.empty());
  Ref<MappedFile> source = MappedFile::FromBytes(testing::Iota(200), "source");
  std::vector<ParameterEntry> entries = {
      testing::DataEntry("first", source, 0, 7), testing::SplatEntry("zeros", 4096, {0}),
      testing::DataEntry("second", source, 100, 100), testing::DataEntry("empty", source, 5, 0)};
  for (uint64_t alignment : {64u, 4096u}) {
    std::string path = dir + "/out.irpa";
    KILN_ASSERT_OK(WriteIrpa(path, entries, {.alignment = alignment}));
    EXPECT_EQ(std::filesystem::file_size(path) % 4096, 0u);
    KILN_ASSERT_OK_AND_ASSIGN(Ref<ParameterIndex> index, OpenParameterFile(path));
    ASSERT_EQ(index->entries().size(), 4u);
    for (size_t i = 0; i < entries.size(); ++i) {
      const ParameterEntry& e = index->entries()[i];
      EXPECT_EQ(e.key, entries[i].key);
      EXPECT_EQ(e.kind, entries[i].kind);
      EXPECT_EQ(e.length, entries[i].length);
      EXPECT_EQ(e.source, path);
      if (e.kind == ParameterEntry::Kind::kSplat) {
        EXPECT_EQ(e.pattern, entries[i].pattern);
        continue;
      }
      EXPECT_EQ(e.offset % alignment, 0u) << e.key;
      KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> got, EntryBytes(e));
      KILN_ASSERT_OK_AND_ASSIGN(std::span<const uint8_t> want, EntryBytes(entries[i]));
      EXPECT_EQ(Bytes(got.begin(), got.end()), Bytes(want.begin(), want.end())) << e.key;
    }
    // Rewriting an archive over itself: the source stays mapped while the new file is written.
    std::vector<ParameterEntry> again(index->entries().begin(), index->entries().end());
    KILN_ASSERT_OK(WriteIrpa(path, again, {.alignment = alignment}));
    KILN_ASSERT_OK_AND_ASSIGN(Ref<ParameterIndex> reread, OpenParameterFile(path));
    EXPECT_EQ(reread->entries().size(), 4u);
  }
  std::filesystem::remove_all(dir);
}

TEST(Irpa, WriterErrors) {
  Ref<MappedFile> source = MappedFile::FromBytes(testing::Iota(8), "source");
  std::vector<ParameterEntry> entries = {testing::DataEntry("a", source, 0, 8), testing::DataEntry("a", source, 0, 8)};
  kiln::testing::ExpectError(WriteIrpa("/nonexistent/x.irpa", entries), StatusCode::kAlreadyExists,
                       "duplicate parameter 'a'");
  entries[1].key = "b";
  entries[1].offset = 4;
  kiln::testing::ExpectError(WriteIrpa("/nonexistent/x.irpa", entries), StatusCode::kOutOfRange,
                       "range [4, 12) is past the end of the 8-byte file 'source'");
  entries[1].offset = 0;
  kiln::testing::ExpectError(WriteIrpa("/nonexistent/x.irpa", entries), StatusCode::kUnavailable,
                       "cannot create a temporary file beside '/nonexistent/x.irpa'");
  kiln::testing::ExpectError(WriteIrpa("/tmp/x.irpa", entries, {.alignment = 48}), StatusCode::kInvalidArgument,
                       "irpa alignment 48");
}

// The toy-llama weights in ../shared (read-only): 256x256xf32 is 262144 bytes and so on,
// as the util.global lines of toy_llama.mlir declare.
TEST(Irpa, ToyLlamaArchive) {
  const std::string dir = std::string(KILN_SOURCE_DIR) + "/../shared/models/toy-llama";
  if (!std::filesystem::exists(dir + "/toy_llama.irpa")) {
    GTEST_SKIP() << "no " << dir << "/toy_llama.irpa (../shared is absent)";
  }
  KILN_ASSERT_OK_AND_ASSIGN(Ref<ParameterIndex> index, OpenParameterFile(dir + "/toy_llama.irpa"));
  std::ifstream mlir(dir + "/toy_llama.mlir");
  std::regex global(R"re(#stream\.parameter\.named<"model"::"([^"]+)"> : tensor<([0-9x]+)xf32>)re");
  std::string line;
  int checked = 0;
  while (std::getline(mlir, line)) {
    std::smatch m;
    if (line.find("util.global private") == std::string::npos || !std::regex_search(line, m, global)) continue;
    uint64_t elements = 1;
    std::string dims = m[2];
    for (size_t start = 0; start <= dims.size();) {
      size_t x = dims.find('x', start);
      elements *= std::stoull(dims.substr(start, x - start));
      start = x == std::string::npos ? dims.size() + 1 : x + 1;
    }
    const ParameterEntry* entry = index->Find(m[1].str());
    ASSERT_NE(entry, nullptr) << m[1];
    EXPECT_EQ(entry->length, elements * 4) << m[1];
    KILN_EXPECT_OK(EntryBytes(*entry));
    ++checked;
  }
  EXPECT_EQ(checked, 30);
  EXPECT_EQ(index->Find("token_embd.weight")->length, 262144u);
  EXPECT_EQ(index->Find("blk.0.attn_k.weight")->length, 128u * 256 * 4);
  EXPECT_EQ(index->Find("blk.2.ffn_down.weight")->length, 256u * 23 * 4);
}

}  // namespace
}  // namespace kiln::io
