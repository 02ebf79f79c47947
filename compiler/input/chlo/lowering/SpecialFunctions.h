// Scalar forms of the special functions MLIR's math dialect has no op for, from their
// published approximations. Each takes and returns a float scalar of one type; f16 and
// bf16 are computed in f32.
#pragma once

#include "mlir/IR/Builders.h"

namespace kiln::compiler::chlo {

// erf_inv(x): M. Giles' single-precision approximation ("Approximating the erfinv function",
// GPU Computing Gems Jade Edition, 2011); f64 refines it with two Newton steps on erf.
mlir::Value ErfInv(mlir::OpBuilder& b, mlir::Location loc, mlir::Value x);

// log|gamma(x)|: Lanczos' approximation (g = 7, nine terms) for x >= 0.5, the reflection
// formula log(pi / |sin(pi x)|) - lgamma(1 - x) below; +inf at 0 and the negative integers.
mlir::Value Lgamma(mlir::OpBuilder& b, mlir::Location loc, mlir::Value x);

// digamma(x): psi(x) = psi(x + 1) - 1/x until x >= 6, then the asymptotic series; the
// reflection psi(x) = psi(1 - x) - pi / tan(pi x) for x < 0.5; NaN at 0 and the negative
// integers.
mlir::Value Digamma(mlir::OpBuilder& b, mlir::Location loc, mlir::Value x);

}  // namespace kiln::compiler::chlo
