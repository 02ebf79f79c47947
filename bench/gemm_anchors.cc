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
};

OneDnnBatchMatmul::OneDnnBatchMatmul(int64_t batch, int64_t m, int64_t n, int64_t k) : state_(new State) {
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::memory::desc a_desc({batch, m, k}, dt::f32, tag::abc);
  dnnl::memory::desc b_desc({batch, k, n}, dt::f32, tag::abc);
  dnnl::memory::desc c_desc({batch, m, n}, dt::f32, tag::abc);
  state_->a = dnnl::memory(a_desc, state_->engine);
  state_->b = dnnl::memory(b_desc, state_->engine);
  state_->c = dnnl::memory(c_desc, state_->engine);
  for (auto [memory, value] : {std::pair{&state_->a, 0.5f}, std::pair{&state_->b, 0.25f}}) {
    auto* data = static_cast<float*>(memory->get_data_handle());
    std::fill(data, data + memory->get_desc().get_size() / sizeof(float), value);
  }
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_desc, b_desc, c_desc), state_->engine);
  state_->matmul = dnnl::matmul(pd);
}

OneDnnBatchMatmul::~OneDnnBatchMatmul() = default;

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
