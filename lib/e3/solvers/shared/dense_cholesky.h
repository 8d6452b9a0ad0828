// Dense Cholesky of one small symmetric positive definite matrix stored row-major in a flat array
// (one articulation's joint-space mass matrix H in SolverFeatherstone, one island's W + (rho + eta) I
// in SolverPADMM; course E3 §6), and the two triangular solves. Device-safe: plain loops over a
// pointer and a size, no allocation, so one kernel item can factor and solve its own block in place
// (Newton does the same per articulation in its Featherstone solver).
#pragma once

#include <cmath>

#include "core/hd.h"
#include "core/math.h"

namespace impulse {

/// In place, column by column (the left-looking order of Eigen's unblocked LLT):
///   L_kk = sqrt(A_kk - sum_{i<k} L_ki^2)
///   L_rk = (A_rk - sum_{i<k} L_ri L_ki) / L_kk          for r > k
/// A is n x n row-major; only its lower triangle is read, and L overwrites it (the strict upper
/// triangle is left as it was). Returns false, stopping there, at the first pivot that is not > 0:
/// the matrix is not symmetric positive definite (no regularisation is added).
IMPULSE_HD inline bool cholesky_factor(real* A, int n) {
  for (int k = 0; k < n; ++k) {
    real x = A[k * n + k];
    for (int i = 0; i < k; ++i) x -= A[k * n + i] * A[k * n + i];
    if (!(x > 0)) return false;
    x = sqrt(x);
    A[k * n + k] = x;
    for (int r = k + 1; r < n; ++r) {
      real s = A[r * n + k];
      for (int i = 0; i < k; ++i) s -= A[r * n + i] * A[k * n + i];
      A[r * n + k] = s / x;
    }
  }
  return true;
}

/// x <- (L L^T)^-1 x in place, L from cholesky_factor (n x n row-major, lower triangle):
///   forward  L y = x:    y_k = (x_k - sum_{i<k} L_ki y_i) / L_kk
///   backward L^T x = y:  x_k = (y_k - sum_{i>k} L_ik x_i) / L_kk
IMPULSE_HD inline void cholesky_solve(const real* L, int n, real* x) {
  for (int k = 0; k < n; ++k) {
    real s = x[k];
    for (int i = 0; i < k; ++i) s -= L[k * n + i] * x[i];
    x[k] = s / L[k * n + k];
  }
  for (int k = n - 1; k >= 0; --k) {
    real s = x[k];
    for (int i = k + 1; i < n; ++i) s -= L[i * n + k] * x[i];
    x[k] = s / L[k * n + k];
  }
}

}  // namespace impulse
