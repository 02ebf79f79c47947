#include "base/elf_image.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>

#include "tests/util/test_kernels.h"

namespace kiln {
namespace {

std::vector<uint8_t> ValidImage() {
  StatusOr<std::vector<uint8_t>> bytes = testing::ReadKernelFile("test_kernels");
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  return bytes.ok() ? *bytes : std::vector<uint8_t>();
}

template <typename Fn>
std::string ErrorAfterPatch(Fn patch) {
  std::vector<uint8_t> image = ValidImage();
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof(header));
  patch(header, image);
  std::memcpy(image.data(), &header, sizeof(header));
  Status s = ValidateElfImage(image);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  return s.ToString();
}

TEST(ElfImage, AcceptsBuiltKernels) { EXPECT_TRUE(ValidateElfImage(ValidImage()).ok()); }

TEST(ElfImage, RejectsShortAndNonElfData) {
  std::vector<uint8_t> tiny(10, 0);
  EXPECT_NE(ValidateElfImage(tiny).ToString().find("too small"), std::string::npos);
  std::vector<uint8_t> text(4096, 'x');
  EXPECT_NE(ValidateElfImage(text).ToString().find("magic"), std::string::npos);
}

TEST(ElfImage, RejectsWrongClassMachineAndType) {
  EXPECT_NE(ErrorAfterPatch([](Elf64_Ehdr& h, auto&) { h.e_ident[EI_CLASS] = ELFCLASS32; }).find("64-bit"),
            std::string::npos);
  std::string machine = ErrorAfterPatch([](Elf64_Ehdr& h, auto&) { h.e_machine = EM_AARCH64; });
  EXPECT_NE(machine.find("aarch64"), std::string::npos) << machine;
  EXPECT_NE(ErrorAfterPatch([](Elf64_Ehdr& h, auto&) { h.e_type = ET_EXEC; }).find("shared object"),
            std::string::npos);
}

TEST(ElfImage, RejectsTablesOutsideTheImage) {
  EXPECT_NE(ErrorAfterPatch([](Elf64_Ehdr& h, auto& img) { h.e_phoff = img.size() - 8; }).find("outside"),
            std::string::npos);
  EXPECT_NE(ErrorAfterPatch([](Elf64_Ehdr& h, auto&) { h.e_phnum = 0; }).find("program headers"), std::string::npos);
  EXPECT_NE(ErrorAfterPatch([](Elf64_Ehdr& h, auto&) { h.e_shoff = UINT64_MAX - 16; }).find("section header"),
            std::string::npos);
}

TEST(ElfImage, RejectsTruncatedImage) {
  std::vector<uint8_t> image = ValidImage();
  image.resize(image.size() / 3);
  Status s = ValidateElfImage(image);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
}

}  // namespace
}  // namespace kiln
