// .npy reading and writing (runtime/npy.h).
#include "runtime/npy.h"

#include <gtest/gtest.h>

namespace kiln::runtime {
namespace {

using hal::ElementType;

TEST(Npy, RoundTripsEveryStorableType) {
  for (ElementType type : {ElementType::kI1, ElementType::kI8, ElementType::kI16, ElementType::kI32, ElementType::kI64,
                           ElementType::kF16, ElementType::kBF16, ElementType::kF32, ElementType::kF64,
                           ElementType::kF8E4M3FN, ElementType::kF8E4M3FNUZ, ElementType::kF8E5M2,
                           ElementType::kF8E5M2FNUZ, ElementType::kF8E8M0FNU, ElementType::kComplexF32}) {
    NpyArray array;
    array.type = type;
    array.shape = {2, 3};
    array.data.resize(*hal::ElementStorageBytes(type, 6));
    for (size_t i = 0; i < array.data.size(); ++i) array.data[i] = static_cast<uint8_t>(i * 7 + 1);
    StatusOr<std::string> bytes = SerializeNpy(array);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    EXPECT_EQ(bytes->find("\x93NUMPY"), 0u);
    EXPECT_EQ((bytes->size() - array.data.size()) % 64, 0u) << "header padded to 64 bytes";
    StatusOr<std::vector<NpyArray>> back = ParseNpy(*bytes);
    ASSERT_TRUE(back.ok()) << hal::ElementTypeName(type) << ": " << back.status().ToString();
    ASSERT_EQ(back->size(), 1u);
    EXPECT_EQ(back->front().type, type);
    EXPECT_EQ(back->front().shape, array.shape);
    EXPECT_EQ(back->front().data, array.data);
  }
}

TEST(Npy, ReadsScalarsVectorsAndConcatenatedArrays) {
  NpyArray scalar{ElementType::kF32, {}, {0, 0, 128, 63}};
  NpyArray vector{ElementType::kI32, {2}, {1, 0, 0, 0, 2, 0, 0, 0}};
  std::string bytes = *SerializeNpy(scalar) + *SerializeNpy(vector);
  EXPECT_NE(SerializeNpy(scalar)->find("'shape': ()"), std::string::npos);
  EXPECT_NE(SerializeNpy(vector)->find("'shape': (2,)"), std::string::npos);
  StatusOr<std::vector<NpyArray>> arrays = ParseNpy(bytes);
  ASSERT_TRUE(arrays.ok()) << arrays.status().ToString();
  ASSERT_EQ(arrays->size(), 2u);
  StatusOr<std::vector<NpyArray>> first = ParseNpy(bytes, std::nullopt, /*max_arrays=*/1);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->size(), 1u);
  EXPECT_TRUE(arrays->at(0).shape.empty());
  EXPECT_EQ(arrays->at(1).shape, std::vector<int64_t>{2});
  EXPECT_EQ(arrays->at(1).data, vector.data);
}

std::string HandMade(const std::string& header, std::string data) {
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\0';
  out += static_cast<char>(header.size());
  out += '\0';
  return out + header + data;
}

TEST(Npy, AcceptsUnsignedAndVoidDescriptors) {
  StatusOr<std::vector<NpyArray>> u8 = ParseNpy(HandMade("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }\n", "ab"));
  ASSERT_TRUE(u8.ok()) << u8.status().ToString();
  EXPECT_EQ(u8->front().type, ElementType::kI8);
  std::string void_array = HandMade("{'descr': '|V2', 'fortran_order': False, 'shape': (1,), }\n", "xy");
  EXPECT_FALSE(ParseNpy(void_array).ok());
  StatusOr<std::vector<NpyArray>> bf16 = ParseNpy(void_array, ElementType::kBF16);
  ASSERT_TRUE(bf16.ok()) << bf16.status().ToString();
  EXPECT_EQ(bf16->front().type, ElementType::kBF16);
  EXPECT_FALSE(ParseNpy(void_array, ElementType::kF32).ok()) << "V2 does not hold 4-byte elements";
}

TEST(Npy, RejectsMalformedFilesWithAReason) {
  auto error = [](std::string bytes) {
    StatusOr<std::vector<NpyArray>> r = ParseNpy(bytes);
    return r.ok() ? std::string("ok") : r.status().ToString();
  };
  EXPECT_NE(error("PK\x03\x04 not npy").find("magic"), std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }\n", "abcd")).find("Fortran"),
            std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }\n", "abcd")).find("big-endian"),
            std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", "abcd")).find("shorter"),
            std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }\n", "abc")).find("unsupported"),
            std::string::npos);
  EXPECT_NE(error(HandMade("{'fortran_order': False}\n", "")).find("lacks"), std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '', 'fortran_order': False, 'shape': (1,), }\n", "a")).find("empty"),
            std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }\n", ""))
                .find("expected a dimension"),
            std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387905, 4), }\n", ""))
                .find("overflows"),
            std::string::npos);
  EXPECT_NE(error(HandMade("{'descr': '<f4', 'fortran_order': False, 'shape': 1)), }\n", "")).find("lacks"),
            std::string::npos);
  EXPECT_FALSE(SerializeNpy(NpyArray{ElementType::kI4, {2}, {0x21}}).ok()) << "packed i4 has no dtype";
}

}  // namespace
}  // namespace kiln::runtime
