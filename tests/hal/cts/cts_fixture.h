// The HAL conformance suite: each test runs on every registered driver. A driver whose
// hardware or runtime is absent reports UNAVAILABLE and its cases skip with that reason.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "hal/hal.h"
#include "tests/util/status_testing.h"
#include "tests/util/test_kernels.h"

namespace kiln::hal::cts {

using ::kiln::testing::ExpectError;

class DeviceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    StatusOr<Ref<Device>> device = BuiltinDriverRegistry().CreateDevice(GetParam());
    // hip-sim is built with kiln: its absence is a failure, never a skip.
    if (!device.ok() && device.status().code() == StatusCode::kUnavailable && GetParam() != "hip-sim") {
      GTEST_SKIP() << "driver '" << GetParam() << "' unavailable: " << device.status().ToString();
    }
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = *device;
  }

  // A host-visible buffer that tests can map, usable by every command.
  Ref<Buffer> HostBuffer(size_t bytes) {
    BufferParams params{MemoryType::kHostVisible, BufferUsage::kDefault | BufferUsage::kMapping};
    StatusOr<Ref<Buffer>> buffer = device_->allocator().Allocate(params, bytes);
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    return buffer.ok() ? *buffer : Ref<Buffer>();
  }

  template <typename T>
  Ref<Buffer> HostBufferWith(const std::vector<T>& values) {
    Ref<Buffer> buffer = HostBuffer(values.size() * sizeof(T));
    if (buffer) {
      EXPECT_TRUE(buffer->Write(0, {reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(T)}).ok());
    }
    return buffer;
  }

  template <typename T>
  std::vector<T> Contents(const Ref<Buffer>& buffer) {
    std::vector<T> out(buffer->byte_length() / sizeof(T));
    Status s = buffer->Read(0, {reinterpret_cast<uint8_t*>(out.data()), out.size() * sizeof(T)});
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }

  Ref<Executable> Kernels(const std::string& name = "test_kernels") {
    StatusOr<Ref<Executable>> exe = testing::LoadKernelLibrary(*device_, name);
    EXPECT_TRUE(exe.ok()) << exe.status().ToString();
    return exe.ok() ? *exe : Ref<Executable>();
  }

  uint32_t Export(const Ref<Executable>& exe, std::string_view name) {
    StatusOr<uint32_t> ordinal = exe->LookupExport(name);
    EXPECT_TRUE(ordinal.ok()) << ordinal.status().ToString();
    return ordinal.ok() ? *ordinal : 0;
  }

  // Submits finalized command buffers, waits for them and returns how it went.
  Status SubmitAndWait(std::vector<Ref<CommandBuffer>> cbs) {
    Ref<Semaphore> done = Semaphore::Create(0);
    SemaphoreValue signal[] = {{done, 1}};
    KILN_RETURN_IF_ERROR(device_->QueueExecute({}, signal, cbs));
    return done->Wait(1, Deadline::After(std::chrono::seconds(30)));
  }
  Status SubmitAndWait(const Ref<CommandBuffer>& cb) { return SubmitAndWait(std::vector<Ref<CommandBuffer>>{cb}); }

  // GPU devices run kernels under gpu_kernel_abi.h: no return codes (a kernel that fails
  // traps and takes the queue down), no binding lengths, no index check records.
  bool gpu() const { return !device_->info().architecture.empty(); }
  // How a kernel's failure with `code` reads in the dispatch's failure.
  std::string KernelFailureText(int code) const {
    return gpu() ? "HSA status 0x1016" : StrCat("returned device error ", code);
  }

  Ref<Device> device_;
};

#define KILN_SKIP_ON_GPU(why) \
  if (gpu()) GTEST_SKIP() << "not on GPU devices: " << why

inline std::vector<std::string> AllDrivers() { return BuiltinDriverRegistry().names(); }

#define KILN_INSTANTIATE_CTS(Suite)                                                              \
  INSTANTIATE_TEST_SUITE_P(AllDrivers, Suite, ::testing::ValuesIn(::kiln::hal::cts::AllDrivers()), \
                           [](const auto& info) {                                               \
                             std::string name = info.param;                                    \
                             for (char& c : name)                                              \
                               if (!isalnum(static_cast<unsigned char>(c))) c = '_';           \
                             return name;                                                      \
                           })

}  // namespace kiln::hal::cts
