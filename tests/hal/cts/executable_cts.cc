#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#include "tests/hal/cts/cts_fixture.h"

namespace kiln::hal::cts {
namespace {

class ExecutableTest : public DeviceTest {
 protected:
  Status LoadError(const std::string& library) {
    StatusOr<Ref<Executable>> exe = testing::LoadKernelLibrary(*device_, library);
    return exe.ok() ? OkStatus() : exe.status();
  }
};

TEST_P(ExecutableTest, ReflectsExports) {
  Ref<Executable> exe = Kernels();
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->debug_name(), "test_kernels");
  uint32_t add = Export(exe, "add_f32");
  const ExportInfo& info = exe->exports()[add];
  EXPECT_EQ(info.binding_count, 3u);
  EXPECT_EQ(info.constant_count, 2u);
  EXPECT_EQ(info.workgroup_size, (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_EQ(info.source_location, "test_kernels.c:add_f32");
  EXPECT_EQ(exe->exports()[Export(exe, "local_sum")].local_memory_bytes, 4096u);
  ExpectError(exe->LookupExport("nope").status(), StatusCode::kNotFound, "it exports: noop, add_f32");
}

TEST_P(ExecutableTest, SameLibraryLoadsTwiceIndependently) {
  Ref<Executable> a = Kernels(), b = Kernels();
  ASSERT_TRUE(a && b);
  a.reset();  // unloading one must not affect the other
  Ref<Buffer> out = HostBufferWith<uint32_t>({0, 0});
  Ref<CommandBuffer> cb = device_->CreateCommandBuffer();
  BufferBinding binding{out};
  KILN_ASSERT_OK(cb->Dispatch(b, Export(b, "write_ids"), {2, 1, 1}, {}, {&binding, 1}));
  KILN_ASSERT_OK(cb->Finalize());
  KILN_ASSERT_OK(SubmitAndWait(cb));
  EXPECT_EQ(Contents<uint32_t>(out), (std::vector<uint32_t>{1, 2}));
}

TEST_P(ExecutableTest, RejectsWhatIsNotAnX86SharedObject) {
  KILN_SKIP_ON_GPU("GPU executables are containers; tests/hal/hip_driver_test.cc checks their validation");
  std::vector<uint8_t> junk(4096, 0x5A);
  ExpectError(device_->CreateExecutable({kExecutableFormatElfX86_64, junk, "junk"}).status(),
              StatusCode::kInvalidArgument, "while loading executable 'junk'");
  ExpectError(device_->CreateExecutable({kExecutableFormatElfX86_64, {}, "empty"}).status(),
              StatusCode::kInvalidArgument, "too small");
  StatusOr<std::vector<uint8_t>> image = testing::ReadKernelFile("test_kernels");
  KILN_ASSERT_OK(image.status());
  ExpectError(device_->CreateExecutable({"hsaco-gfx942", *image, "gpu"}).status(), StatusCode::kInvalidArgument,
              "format 'hsaco-gfx942' is not supported");
  std::vector<uint8_t> arm = *image;
  arm[18] = 183;  // e_machine = EM_AARCH64
  arm[19] = 0;
  ExpectError(device_->CreateExecutable({kExecutableFormatElfX86_64, arm, "arm"}).status(),
              StatusCode::kInvalidArgument, "aarch64");
}

TEST_P(ExecutableTest, RejectsAbiMismatchesNamingBothVersions) {
  KILN_SKIP_ON_GPU("GPU executables are containers; tests/hal/hip_driver_test.cc checks their validation");
  ExpectError(LoadError("bad_library_1"), StatusCode::kInvalidArgument, "does not provide executable ABI version 2");
  ExpectError(LoadError("bad_library_2"), StatusCode::kInvalidArgument,
              "provides executable ABI version 7; this runtime supports version 2");
  ExpectError(LoadError("bad_library_3"), StatusCode::kInvalidArgument, "kiln_executable_library_query");
  ExpectError(LoadError("bad_library_4"), StatusCode::kInvalidArgument, "export 1 has no name or no entry");
  ExpectError(LoadError("bad_library_5"), StatusCode::kInvalidArgument, "workgroup-local memory");
  ExpectError(LoadError("bad_library_6"), StatusCode::kInvalidArgument,
              "declares 2 index check sites but no table; in export 0 'checked'");
}

// CPUID.(EAX=7, ECX=0):EDX[24]: AMX-TILE.
bool CpuHasAmxTiles() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && ((edx >> 24) & 1);
}

TEST_P(ExecutableTest, ObtainsTheProcessorStateAnExecutableNeeds) {
  KILN_SKIP_ON_GPU("GPU executables are containers; the processor state is the CPU drivers'");
  ExpectError(LoadError("bad_library_7"), StatusCode::kInvalidArgument,
              "needs processor state this runtime does not know ('kiln_executable_needs' is 2147483648");
  if (!CpuHasAmxTiles()) {
    ExpectError(LoadError("bad_library_8"), StatusCode::kFailedPrecondition,
                "uses AMX tile registers, which this CPU does not have");
    return;
  }
  KILN_EXPECT_OK(LoadError("bad_library_8"));
  // Linux now lets every thread of the process use the tile data (ARCH_GET_XCOMP_PERM).
  uint64_t permitted = 0;
  ASSERT_EQ(syscall(SYS_arch_prctl, 0x1022, &permitted), 0);
  EXPECT_TRUE(permitted & (uint64_t{1} << 18)) << std::hex << permitted;
}

KILN_INSTANTIATE_CTS(ExecutableTest);

}  // namespace
}  // namespace kiln::hal::cts
