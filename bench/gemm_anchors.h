// Same-run matmul anchors for kiln-bench-compiled: what a user would otherwise call.
// OpenBLAS (cblas_sgemm, Debian's pthreads build) and oneDNN (dnnl_sgemm and the matmul
// primitive, Debian's OpenMP build), row-major f32, on a chosen number of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace kiln::bench {

// The layout of the right-hand operand: NN multiplies A[M, K] by B[K, N]; NT by the
// transpose of B[N, K] (a linear layer's weights).
enum class GemmLayout { kNN, kNT };

// C[M, N] = A[M, K] x op(B) on `threads` threads.
void OpenBlasSgemm(GemmLayout layout, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c,
                   int threads);
void OneDnnSgemm(GemmLayout layout, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c,
                 int threads);

// The element types of a matmul: inputs -> result (products and sums in the result's type).
enum class MatmulTypes { kF32, kBF16ToF32, kF16ToF32, kS8ToS32 };

// oneDNN's matmul primitive for C[batch, M, N] = A[batch, M, K] x op(B[batch]) (`layout`:
// B[K, N] or W[N, K]), created once and run many times on buffers it owns (inputs filled
// with small values). Throws dnnl::error when this oneDNN has no implementation of
// `types` on this CPU (oneDNN 2.6 has f16 matmuls only for CPUs with AVX512-FP16).
class OneDnnBatchMatmul {
 public:
  OneDnnBatchMatmul(int64_t batch, int64_t m, int64_t n, int64_t k, MatmulTypes types = MatmulTypes::kF32,
                    GemmLayout layout = GemmLayout::kNN);
  ~OneDnnBatchMatmul();
  OneDnnBatchMatmul(const OneDnnBatchMatmul&) = delete;
  OneDnnBatchMatmul& operator=(const OneDnnBatchMatmul&) = delete;
  void Run(int threads);
  // oneDNN's name of the implementation it chose ("brg:avx512_core_bf16", ...).
  const std::string& implementation() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// OpenBLAS reads OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE when it is loaded, and some
// machines here set them to a slower kernel (../shared/ANCHORS.md). When either is set,
// this unsets both and re-executes the benchmark, so that the OpenBLAS anchor runs with the
// kernels OpenBLAS picks for this CPU; it does not return then. Otherwise it returns a note
// for the benchmark's context: which values were unset, or that none were. Tests never
// call this: only the anchor run changes its environment.
std::string UnsetOpenBlasTuning(char** argv);

}  // namespace kiln::bench
