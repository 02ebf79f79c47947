// kiln-hal-demo: runs two dependent dispatches through the HAL and checks the result.
//
//   kiln-hal-demo [--device=cpu|cpu-sync] [--rows=N] [--cols=N] [--kernels=PATH]
//
// y = 2x + 1 over a rows x cols matrix, then the sum of each row of y, with a transient
// intermediate, semaphores ordering alloca -> execute -> dealloca, and a host-visible result
// buffer. Exits 1 with the error chain if anything fails or a result is wrong.
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "drivers/builtin_drivers.h"
#include "hal/hal.h"

namespace {

using namespace kiln;
using namespace kiln::hal;

struct Options {
  std::string device = "cpu";
  uint32_t rows = 1024, cols = 4096;
  std::string kernels = KILN_DEMO_KERNELS;
};

StatusOr<Options> ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (arg.rfind(flag, 0) == 0 && arg.size() > flag.size() && arg[flag.size()] == '=') return arg.substr(flag.size() + 1);
      return std::nullopt;
    };
    auto number = [&](const std::string& text, std::string_view flag) -> StatusOr<uint32_t> {
      char* end = nullptr;
      unsigned long v = std::strtoul(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || v == 0 || v > (1u << 16)) {
        return InvalidArgumentError(flag, " must be an integer in [1, 65536], got '", text, "'");
      }
      return static_cast<uint32_t>(v);
    };
    if (auto v = value("--device")) {
      options.device = *v;
    } else if (auto v = value("--rows")) {
      KILN_ASSIGN_OR_RETURN(options.rows, number(*v, "--rows"));
    } else if (auto v = value("--cols")) {
      KILN_ASSIGN_OR_RETURN(options.cols, number(*v, "--cols"));
    } else if (auto v = value("--kernels")) {
      options.kernels = *v;
    } else {
      return InvalidArgumentError("unknown flag '", arg, "'; flags: --device=, --rows=, --cols=, --kernels=");
    }
  }
  if (uint64_t{options.rows} * options.cols > (1u << 26)) {
    return InvalidArgumentError("rows x cols must be at most 2^26 elements");
  }
  return options;
}

Status Run(const Options& options) {
  KILN_ASSIGN_OR_RETURN(Ref<Device> device, BuiltinDriverRegistry().CreateDevice(options.device));
  std::printf("device: %s\n", device->info().name.c_str());

  std::ifstream file(options.kernels, std::ios::binary);
  if (!file) return NotFoundError("cannot open kernel library '", options.kernels, "'");
  std::vector<uint8_t> image(std::istreambuf_iterator<char>(file), {});
  KILN_ASSIGN_OR_RETURN(Ref<Executable> exe,
                        device->CreateExecutable({kExecutableFormatElfX86_64, image, "demo_kernels"}));
  KILN_ASSIGN_OR_RETURN(uint32_t scale_add, exe->LookupExport("scale_add"));
  KILN_ASSIGN_OR_RETURN(uint32_t row_sum, exe->LookupExport("row_sum"));

  const uint32_t rows = options.rows, cols = options.cols, n = rows * cols;
  const BufferParams host_params{MemoryType::kHostVisible, BufferUsage::kDefault | BufferUsage::kMapping};
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> x, device->allocator().Allocate(host_params, size_t{n} * 4));
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> sums, device->allocator().Allocate(host_params, size_t{rows} * 4));
  std::vector<float> host_x(n);
  for (uint32_t i = 0; i < n; ++i) host_x[i] = static_cast<float>(i % 97) * 0.25f - 3.0f;
  KILN_RETURN_IF_ERROR(x->Write(0, {reinterpret_cast<const uint8_t*>(host_x.data()), host_x.size() * 4}));

  Ref<Semaphore> timeline = Semaphore::Create(0);
  SemaphoreValue t1[] = {{timeline, 1}}, t2[] = {{timeline, 2}}, t3[] = {{timeline, 3}};
  KILN_ASSIGN_OR_RETURN(Ref<Buffer> y,
                        device->QueueAlloca({}, t1, {MemoryType::kDeviceLocal, BufferUsage::kDefault}, size_t{n} * 4));

  constexpr uint32_t kChunk = 16384;
  const float alpha = 2.0f, beta = 1.0f;
  uint32_t scale_constants[] = {n, kChunk, std::bit_cast<uint32_t>(alpha), std::bit_cast<uint32_t>(beta)};
  uint32_t sum_constants[] = {rows, cols};
  BufferBinding scale_bindings[] = {{x}, {y}};
  BufferBinding sum_bindings[] = {{y}, {sums}};
  Ref<CommandBuffer> cb = device->CreateCommandBuffer();
  KILN_RETURN_IF_ERROR(cb->Dispatch(exe, scale_add, {(n + kChunk - 1) / kChunk, 1, 1}, scale_constants, scale_bindings));
  KILN_RETURN_IF_ERROR(cb->ExecutionBarrier());
  KILN_RETURN_IF_ERROR(cb->Dispatch(exe, row_sum, {rows, 1, 1}, sum_constants, sum_bindings));
  KILN_RETURN_IF_ERROR(cb->Finalize());

  auto start = std::chrono::steady_clock::now();
  Ref<CommandBuffer> cbs[] = {cb};
  KILN_RETURN_IF_ERROR(device->QueueExecute(t1, t2, cbs));
  KILN_RETURN_IF_ERROR(device->QueueDealloca(t2, t3, y));
  KILN_RETURN_IF_ERROR(timeline->Wait(3, Deadline::After(std::chrono::seconds(60))), "while running the demo");
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  std::vector<float> got(rows);
  KILN_RETURN_IF_ERROR(sums->Read(0, {reinterpret_cast<uint8_t*>(got.data()), got.size() * 4}));
  for (uint32_t r = 0; r < rows; ++r) {
    double want = 0;
    for (uint32_t c = 0; c < cols; ++c) want += alpha * host_x[size_t{r} * cols + c] + beta;
    if (std::fabs(got[r] - want) > 1e-3 * std::max(1.0, std::fabs(want))) {
      return DataLossError("row ", r, " sums to ", got[r], ", expected ", want);
    }
  }
  std::printf("ran scale_add (%u workgroups) and row_sum (%u workgroups) over %ux%u f32 in %.2f ms\n",
              (n + kChunk - 1) / kChunk, rows, rows, cols, ms);
  std::printf("row sums: [%g, %g, %g, ..., %g]\n", got[0], got[1 % rows], got[2 % rows], got[rows - 1]);
  std::printf("all %u row sums match the host reference\n", rows);
  return OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  StatusOr<Options> options = ParseOptions(argc, argv);
  Status status = options.ok() ? Run(*options) : options.status();
  if (!status.ok()) {
    std::fprintf(stderr, "kiln-hal-demo: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
