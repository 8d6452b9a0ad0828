// The velocity-implicit update of the MuJoCo-semantics integrators (course E3 §6) on one
// articulation's block, device-safe: the function SolverGeneralizedIntegrator's pass and the
// course calculator (velocity_implicit_step, generalized_dynamics.h) both call.
#pragma once

#include "core/hd.h"
#include "e3/solvers/shared/dense_cholesky.h"
#include "e3/solvers/generalized/dense_lu.h"

namespace impulse {

/// @formula E3.6-velocity-implicit  Velocity-implicit update (course E3 §6):
///   (M - h D) dv = h r       M [kg], D = df/dv [kg/s], r [N], dv [m/s], h [s]
/// Symmetric (M - h D) is factored by Cholesky (implicitfast, euler), a general one by LU with
/// partial pivoting (implicit). A: n x n row-major, M on entry, its factor on return; D: n x n
/// row-major; x: r on entry, dv on return; piv: n ints of scratch (LU only). Returns false when
/// symmetric and M - h D is not positive definite (x is then not dv).
IMPULSE_HD inline bool velocity_implicit_solve(real* A, const real* D, real h, bool symmetric, int n, real* x, int* piv) {
  for (int i = 0; i < n * n; ++i) A[i] = A[i] - h * D[i];
  for (int i = 0; i < n; ++i) x[i] = h * x[i];
  if (symmetric) {
    if (!cholesky_factor(A, n)) return false;
    cholesky_solve(A, n, x);
    return true;
  }
  lu_factor(A, n, piv);
  lu_solve(A, piv, n, x);
  return true;
}

}  // namespace impulse
