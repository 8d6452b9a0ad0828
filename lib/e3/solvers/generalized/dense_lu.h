// Dense LU with partial pivoting of one small square matrix stored row-major in a flat array (one
// articulation's velocity-implicit matrix M - h D of the implicit integrator, course E3 §6, which
// is not symmetric), and its solve. Device-safe: plain loops over a pointer and a size, no
// allocation, so one kernel item factors and solves its own articulation's block in place.
#pragma once

#include "core/hd.h"
#include "core/math.h"

namespace impulse {

/// In place, column by column (Doolittle with row exchanges, the order of Eigen's unblocked
/// partial-pivoting LU):
///   piv[k] = the row r >= k with the largest |A_rk|, exchanged with row k
///   L_rk = A_rk / A_kk,  A_rc -= L_rk A_kc             for r > k, c > k
/// A is n x n row-major; afterwards its strict lower triangle is L (unit diagonal) and the rest U.
/// A zero pivot is left in place (the solve then divides by it, as Eigen's does).
IMPULSE_HD inline void lu_factor(real* A, int n, int* piv) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    real best = A[k * n + k] < 0 ? -A[k * n + k] : A[k * n + k];
    for (int r = k + 1; r < n; ++r) {
      const real v = A[r * n + k] < 0 ? -A[r * n + k] : A[r * n + k];
      if (v > best) best = v, p = r;
    }
    piv[k] = p;
    if (p != k)
      for (int c = 0; c < n; ++c) {
        const real t = A[k * n + c];
        A[k * n + c] = A[p * n + c];
        A[p * n + c] = t;
      }
    const real d = A[k * n + k];
    if (d == 0) continue;
    for (int r = k + 1; r < n; ++r) {
      const real l = A[r * n + k] / d;
      A[r * n + k] = l;
      for (int c = k + 1; c < n; ++c) A[r * n + c] -= l * A[k * n + c];
    }
  }
}

/// x <- A^-1 x in place with the factor of lu_factor: the row exchanges, then
///   forward  L y = P x:  y_k = x_k - sum_{i<k} L_ki y_i
///   backward U x = y:    x_k = (y_k - sum_{i>k} U_ki x_i) / U_kk
IMPULSE_HD inline void lu_solve(const real* LU, const int* piv, int n, real* x) {
  for (int k = 0; k < n; ++k)
    if (piv[k] != k) {
      const real t = x[k];
      x[k] = x[piv[k]];
      x[piv[k]] = t;
    }
  for (int k = 0; k < n; ++k) {
    real s = x[k];
    for (int i = 0; i < k; ++i) s -= LU[k * n + i] * x[i];
    x[k] = s;
  }
  for (int k = n - 1; k >= 0; --k) {
    real s = x[k];
    for (int i = k + 1; i < n; ++i) s -= LU[k * n + i] * x[i];
    x[k] = s / LU[k * n + k];
  }
}

}  // namespace impulse
