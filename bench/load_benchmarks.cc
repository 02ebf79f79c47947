// kiln-bench-load: time from process start to the first call's result for a model whose
// weights are a 1 GiB safetensors file of f16 (issue 46), beside reading the file once
// with cat, both cold (the file's pages dropped from the page cache first) and warm.
//
// Each iteration runs a new process: `kiln-run --module=load_decode_1g.kiln
// --parameters=model=FILE --function=decode` (bench/programs/load_decode_1g.mlir: 16
// weights of [8192, 4096] f16 bound to parameters, one decode step reading each once), or
// `cat FILE`, with output to /dev/null. The file is written at the first run to
// $KILN_BENCH_LOAD_DIR (default /tmp/kiln-bench-load) and kept.
//   kiln-bench-load [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

constexpr int kWeights = 16;
constexpr int64_t kRows = 8192, kCols = 4096;
constexpr int64_t kWeightBytes = kRows * kCols * 2;

std::string Dir() {
  const char* env = std::getenv("KILN_BENCH_LOAD_DIR");
  return env && *env ? env : "/tmp/kiln-bench-load";
}
std::string WeightsPath() { return Dir() + "/weights_1g.safetensors"; }

// The safetensors header of the 16 weights, padded to 8 bytes.
std::string Header() {
  std::string json = "{";
  for (int i = 0; i < kWeights; ++i) {
    json += (i ? "," : "") + std::string("\"w") + std::to_string(i) + "\":{\"dtype\":\"F16\",\"shape\":[" +
            std::to_string(kRows) + "," + std::to_string(kCols) + "],\"data_offsets\":[" +
            std::to_string(i * kWeightBytes) + "," + std::to_string((i + 1) * kWeightBytes) + "]}";
  }
  json += "}";
  json.append((8 - json.size() % 8) % 8, ' ');
  return json;
}

// Writes the weights file unless one of the right size is there; false on failure.
bool EnsureWeights() {
  std::string header = Header();
  const uint64_t size = 8 + header.size() + uint64_t{kWeights} * kWeightBytes;
  std::error_code ec;
  if (std::filesystem::file_size(WeightsPath(), ec) == size) return true;
  std::filesystem::create_directories(Dir(), ec);
  std::ofstream out(WeightsPath(), std::ios::binary | std::ios::trunc);
  uint64_t length = header.size();
  out.write(reinterpret_cast<const char*>(&length), 8);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  // Small f16 values (-0.375 .. 0.375 in steps of 0.125), so the sums stay finite.
  const uint16_t values[7] = {0xB600, 0xB400, 0xB000, 0x0000, 0x3000, 0x3400, 0x3600};
  std::vector<uint16_t> row(kCols);
  for (int64_t r = 0; r < kRows * kWeights; ++r) {
    for (int64_t c = 0; c < kCols; ++c) row[c] = values[(r + c) % 7];
    out.write(reinterpret_cast<const char*>(row.data()), kCols * 2);
  }
  return static_cast<bool>(out.flush());
}

// Drops the file's pages from the page cache (written back first), so that the next reader
// reads the disk.
bool DropFromPageCache(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  bool ok = fdatasync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  close(fd);
  return ok;
}

// Runs `argv` with stdout and stderr to /dev/null; whether it exited with 0.
bool Run(const std::vector<std::string>& argv) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return false;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void RunProcess(benchmark::State& state, const std::vector<std::string>& argv, bool cold) {
  if (!EnsureWeights()) return state.SkipWithError(("cannot write " + WeightsPath()).c_str());
  if (!cold && !Run(argv)) return state.SkipWithError("the warm-up run failed");
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      if (!DropFromPageCache(WeightsPath())) return state.SkipWithError("cannot drop the file from the page cache");
      state.ResumeTiming();
    }
    if (!Run(argv)) return state.SkipWithError(("failed: " + argv[0]).c_str());
  }
  state.SetBytesProcessed(state.iterations() * int64_t{kWeights} * kWeightBytes);
}

void BM_FirstCallResult(benchmark::State& state, const char* device, bool cold) {
  RunProcess(state,
             {KILN_RUN_PATH, std::string("--module=") + KILN_BENCH_MODULE_DIR + "/load_decode_1g.kiln",
              std::string("--device=") + device, "--parameters=model=" + WeightsPath(), "--function=decode",
              "--input=1x4096xf16=0.5", "--output="},
             cold);
}
void BM_CatFileAnchor(benchmark::State& state, bool cold) { RunProcess(state, {"/bin/cat", WeightsPath()}, cold); }

BENCHMARK_CAPTURE(BM_FirstCallResult, cold_cpu, "cpu", true)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CatFileAnchor, cold, true)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_FirstCallResult, warm_cpu, "cpu", false)->Iterations(10)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_CatFileAnchor, warm, false)->Iterations(10)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
