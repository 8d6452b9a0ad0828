// The 6x6 block of one VBD body step (course E3 §6): Hessian and gradient over (dc, dtheta), and
// its solve without Eigen, so that one kernel item runs it on either backend.
#pragma once

#include "core/hd.h"
#include "core/math.h"

namespace impulse {

/// H [6x6] and g [6] of one body's Newton step: rows 0-2 the COM [m], rows 3-5 the rotation [rad].
struct VbdBlock {
  real H[6][6] = {};
  real g[6] = {};
};

/// H += k a a^T for a 6-vector a.
IMPULSE_HD inline void add_outer(VbdBlock& b, real k, const real a[6]) {
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) b.H[i][j] += k * a[i] * a[j];
}

/// Solves H d = -g for a symmetric positive semidefinite H by its LDL^T factorisation, no pivoting:
///   D_j    = H_jj - sum_{k<j} L_jk^2 D_k
///   L_ij   = (H_ij - sum_{k<j} L_ik L_jk D_k) / D_j                        i > j
///   y = L^-1 (-g),  z_i = y_i / D_i (0 where D_i <= 0),  d = L^-T z
/// A zero pivot contributes nothing (the pseudo-inverse's choice, as Eigen's LDLT solve makes it).
/// H is overwritten by L (below the diagonal) and D (on it).
IMPULSE_HD inline void ldlt_solve6(VbdBlock& b, real d[6]) {
  real(&A)[6][6] = b.H;
  for (int j = 0; j < 6; ++j) {
    real Dj = A[j][j];
    for (int k = 0; k < j; ++k) Dj -= A[j][k] * A[j][k] * A[k][k];
    A[j][j] = Dj;
    for (int i = j + 1; i < 6; ++i) {
      real s = A[i][j];
      for (int k = 0; k < j; ++k) s -= A[i][k] * A[j][k] * A[k][k];
      A[i][j] = Dj > 0 ? s / Dj : real(0);
    }
  }
  real y[6];
  for (int i = 0; i < 6; ++i) {
    real s = -b.g[i];
    for (int k = 0; k < i; ++k) s -= A[i][k] * y[k];
    y[i] = s;
  }
  for (int i = 5; i >= 0; --i) {
    real s = A[i][i] > 0 ? y[i] / A[i][i] : real(0);
    for (int k = i + 1; k < 6; ++k) s -= A[k][i] * d[k];
    d[i] = s;
  }
}

}  // namespace impulse
