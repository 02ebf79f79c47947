#include "bench/gemm_anchors.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cblas.h>
#include <cstdio>
#include <cstdlib>
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl.hpp>
#include <stdexcept>
#include <utility>

namespace kiln::bench {

void OpenBlasSgemm(GemmLayout layout, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c,
                   int threads) {
  openblas_set_num_threads(threads);
  bool nt = layout == GemmLayout::kNT;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, nt ? CblasTrans : CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), 1.0f, a, static_cast<int>(k), b, static_cast<int>(nt ? k : n), 0.0f, c,
              static_cast<int>(n));
}

void OneDnnSgemm(GemmLayout layout, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c,
                 int threads) {
  omp_set_num_threads(threads);  // Debian's oneDNN runs on OpenMP
  bool nt = layout == GemmLayout::kNT;
  if (dnnl_sgemm('N', nt ? 'T' : 'N', m, n, k, 1.0f, a, k, b, nt ? k : n, 0.0f, c, n) != dnnl_success) {
    throw std::runtime_error("dnnl_sgemm failed");
  }
}

struct OneDnnBatchMatmul::State {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::memory a, b, c;
  dnnl::matmul matmul;
  std::string implementation;
};

namespace {

// Fills `memory` with a small value of its element type.
void FillSmall(dnnl::memory& memory, float value) {
  using dt = dnnl::memory::data_type;
  size_t bytes = memory.get_desc().get_size();
  void* data = memory.get_data_handle();
  switch (memory.get_desc().data_type()) {
    case dt::f32:
      std::fill_n(static_cast<float*>(data), bytes / sizeof(float), value);
      return;
    case dt::s8:
      std::fill_n(static_cast<int8_t*>(data), bytes, static_cast<int8_t>(value * 8));
      return;
    default:  // 16-bit floats: 0x3c00 is 1.0 in f16 and 0.0078 in bf16
      std::fill_n(static_cast<uint16_t*>(data), bytes / sizeof(uint16_t), uint16_t{0x3c00});
      return;
  }
}

}  // namespace

OneDnnBatchMatmul::OneDnnBatchMatmul(int64_t batch, int64_t m, int64_t n, int64_t k, MatmulTypes types,
                                     GemmLayout layout)
    : state_(new State) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dt input = types == MatmulTypes::kBF16ToF32  ? dt::bf16
             : types == MatmulTypes::kF16ToF32 ? dt::f16
             : types == MatmulTypes::kS8ToS32  ? dt::s8
                                               : dt::f32;
  dt result = types == MatmulTypes::kS8ToS32 ? dt::s32 : dt::f32;
  dnnl::memory::desc a_desc({batch, m, k}, input, tag::abc);
  // W[N, K] is B[K, N] with the last two dimensions' strides swapped.
  dnnl::memory::desc b_desc({batch, k, n}, input, layout == GemmLayout::kNT ? tag::acb : tag::abc);
  dnnl::memory::desc c_desc({batch, m, n}, result, tag::abc);
  state_->a = dnnl::memory(a_desc, state_->engine);
  state_->b = dnnl::memory(b_desc, state_->engine);
  state_->c = dnnl::memory(c_desc, state_->engine);
  FillSmall(state_->a, 0.5f);
  FillSmall(state_->b, 0.25f);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_desc, b_desc, c_desc), state_->engine);
  state_->implementation = pd.impl_info_str();
  state_->matmul = dnnl::matmul(pd);
}

OneDnnBatchMatmul::~OneDnnBatchMatmul() = default;

const std::string& OneDnnBatchMatmul::implementation() const { return state_->implementation; }

void OneDnnBatchMatmul::Run(int threads) {
  omp_set_num_threads(threads);
  state_->matmul.execute(state_->stream,
                         {{DNNL_ARG_SRC, state_->a}, {DNNL_ARG_WEIGHTS, state_->b}, {DNNL_ARG_DST, state_->c}});
  state_->stream.wait();
}

std::string UnsetOpenBlasTuning(char** argv) {
  constexpr const char* kMarker = "KILN_BENCH_UNSET_OPENBLAS";
  if (const char* unset = std::getenv(kMarker)) return std::string("unset for this run: ") + unset;
  std::string unset;
  for (const char* name : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"}) {
    if (const char* value = std::getenv(name)) unset += std::string(unset.empty() ? "" : " ") + name + "=" + value;
  }
  if (unset.empty()) return "none set";
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv("OPENBLAS_L2_SIZE");
  setenv(kMarker, unset.c_str(), 1);
  std::fprintf(stderr, "kiln-bench-compiled: re-running without %s (OpenBLAS reads them when it loads)\n",
               unset.c_str());
  execv("/proc/self/exe", argv);
  std::perror("kiln-bench-compiled: execv /proc/self/exe");
  std::exit(1);
}

}  // namespace kiln::bench
