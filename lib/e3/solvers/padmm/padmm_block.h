// One PADMM solve on flat arrays (course E3 §6): what one kernel item runs for its island, and what
// padmm_solve (padmm.h) runs on the host. Device-safe: loops over pointers and sizes, no allocation.
#pragma once

#include "core/hd.h"
#include "core/math.h"
#include "e3/solvers/shared/dense_cholesky.h"
#include "e3/solvers/padmm/padmm.h"

namespace impulse {

/// Why a block solve stopped without impulses (0: it returned impulses).
enum PADMMFailure : int { padmm_ok = 0, padmm_not_spd = 1, padmm_diverged = 2 };

/// The scratch a block of n unknowns needs: the factor L (n x n) and eight vectors of n.
IMPULSE_HD inline std::int64_t padmm_block_scratch(std::int64_t n) { return n * n + 8 * n; }

/// The larger of two residuals, a NaN winning over any number (so that a diverged iterate is seen).
IMPULSE_HD inline real padmm_worse(real r, real a) { return r != r ? r : !(a <= r) ? a : r; }

/// The proximal ADMM iteration of padmm_solve (padmm.h) on one block: W (n x n, row-major), b, the
/// first nj rows bilateral, then one mu per contact (3 rows each); x holds the warm start on entry
/// and the projected impulses y on exit (unchanged when it fails). scratch: padmm_block_scratch(n)
/// reals. Per iteration, with A = W + (rho + eta) I = L L^T factored once (dense_cholesky.h):
///   s   = (mu |u_t|, 0, 0) per contact, 0 on bilateral rows, u = W y + b   (De Saxce correction)
///   x+  = A^-1 (-(b + s) + eta x + rho y - z)
///   y+  = Proj_K(x+ + z / rho)     (identity on bilateral rows, the Coulomb cone on contacts)
///   z+  = z + rho (x+ - y+)
///   r_p = |x+ - y+|_inf   r_d = |eta (x+ - x) + rho (y+ - y)|_inf   r_c = max_c |x+_c . z+_c|
/// Returns the status; *failure says padmm_not_spd (A not positive definite) or padmm_diverged (a
/// non-finite residual, the iteration stored in status.iterations).
IMPULSE_HD inline PADMMStatus padmm_solve_block(const real* W, const real* b, const real* mu, int nj, int n,
                                                const PADMMSettings& st, real* x, real* scratch, int* failure) {
  PADMMStatus status;
  *failure = padmm_ok;
  if (n == 0) {
    status.converged = true;
    return status;
  }
  const int nc = (n - nj) / 3;
  real* L = scratch;
  real* y = L + std::int64_t(n) * n;
  real* z = y + n;
  real* s = z + n;
  real* xp = s + n;  // x and y of the previous iteration
  real* yp = xp + n;
  real* xn = yp + n;  // the new x, solved in place
  real* v = xn + n;   // x+ + z / rho, the point projected
  for (std::int64_t k = 0; k < std::int64_t(n) * n; ++k) L[k] = W[k];
  for (int i = 0; i < n; ++i) L[i * n + i] += st.rho + st.eta;
  if (!cholesky_factor(L, n)) {
    *failure = padmm_not_spd;
    return status;
  }
  auto project = [&](const real* v, real* p) {
    for (int i = 0; i < nj; ++i) p[i] = v[i];  // bilateral rows: the cone is R
    for (int c = 0; c < nc; ++c) {
      const int i = nj + 3 * c;
      const vec3 q = project_friction_cone({v[i], v[i + 1], v[i + 2]}, mu[c]);
      p[i] = q.x;
      p[i + 1] = q.y;
      p[i + 2] = q.z;
    }
  };
  // x keeps the warm start until the solve succeeds; xn carries the iterate x.
  project(x, y);
  for (int i = 0; i < n; ++i) {
    z[i] = 0;
    s[i] = 0;
    xn[i] = y[i];
  }
  for (int k = 1; k <= st.max_iterations; ++k) {
    // De Saxce correction from the current velocity estimate u = W y + b (tangential rows only).
    for (int c = 0; c < nc; ++c) {
      const int i = nj + 3 * c;
      real u1 = 0, u2 = 0;
      for (int j = 0; j < n; ++j) {
        u1 += W[(i + 1) * n + j] * y[j];
        u2 += W[(i + 2) * n + j] * y[j];
      }
      s[i] = mu[c] * hypot(u1 + b[i + 1], u2 + b[i + 2]);
    }
    for (int i = 0; i < n; ++i) {
      xp[i] = xn[i];
      yp[i] = y[i];
      xn[i] = -(b[i] + s[i]) + st.eta * xp[i] + st.rho * yp[i] - z[i];
    }
    cholesky_solve(L, n, xn);
    for (int i = 0; i < n; ++i) v[i] = xn[i] + z[i] / st.rho;
    project(v, y);
    status.iterations = k;
    status.r_p = status.r_d = status.r_c = 0;
    for (int i = 0; i < n; ++i) {
      z[i] += st.rho * (xn[i] - y[i]);
      status.r_p = padmm_worse(status.r_p, fabs(xn[i] - y[i]));
      status.r_d = padmm_worse(status.r_d, fabs(st.eta * (xn[i] - xp[i]) + st.rho * (y[i] - yp[i])));
    }
    for (int c = 0; c < nc; ++c) {
      const int i = nj + 3 * c;
      status.r_c = padmm_worse(status.r_c, fabs(xn[i] * z[i] + xn[i + 1] * z[i + 1] + xn[i + 2] * z[i + 2]));
    }
    if (!(status.r_p < INFINITY && status.r_d < INFINITY && status.r_c < INFINITY)) {
      *failure = padmm_diverged;
      return status;
    }
    status.converged = padmm_converged(k, status.r_p, status.r_d, status.r_c, st.primal_tolerance,
                                       st.dual_tolerance, st.compl_tolerance);
    if (status.converged) break;
  }
  for (int i = 0; i < n; ++i) x[i] = y[i];
  return status;
}

}  // namespace impulse
