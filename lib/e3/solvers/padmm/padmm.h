// The PADMM dual solver of Kamino (course E3 §1, §6): a regularised Delassus problem with bilateral
// joint rows and hard, unilateral, Coulomb-cone contacts, solved by proximal ADMM with residuals in
// physical units.
//
// Problem (one world, nj bilateral rows first, then nc contacts; unknown impulses x = (lambda_1..nj,
// then (p_n, p_t1, p_t2) per contact) [N s, or N m s on angular joint rows]):
//   bilateral rows:  x_j free (the cone is R),            u_j = 0
//   contact rows:    x_c in K_mu, u_c + (mu |u_t|, 0, 0) in K_mu*, <x_c, u_c + (mu |u_t|, 0, 0)> = 0
// with u = W x + b. W = J M^-1 J^T [1/kg] (the Delassus operator), b [m/s] the free constraint
// velocity plus the position-stabilisation bias. Kamino orders its rows the same way (joints, then
// limits, then contacts: newton/_src/solvers/kamino/_src/solvers/padmm/math.py).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/eigen.h"
#include "core/math.h"
#include "core/spatial.h"

namespace impulse {

enum class WarmstartMode { none, containers };

/// @formula E3.6-padmm-defaults  Kamino's PADMM settings and their defaults (course E3 §6).
struct PADMMSettings {
  real primal_tolerance = real(1e-6);  // [N s]  on r_p
  real dual_tolerance = real(1e-6);    // [m/s]  on r_d
  real compl_tolerance = real(1e-6);   // [J]    on r_c
  int max_iterations = 200;
  WarmstartMode warmstart_mode = WarmstartMode::containers;
  real warmstart_scale = real(0.9);    // [-] previous impulses are scaled by this
  real rho = 1;                        // [1/kg] ADMM penalty (same units as W)
  real eta = real(1e-5);               // [1/kg] proximal regularisation
  real contact_stabilization = real(0.2);  // [-] fraction of a penetration removed per step (bias)
  real joint_stabilization = real(0.01);   // [-] Baumgarte fraction of a joint error removed per step
                                           //     (Kamino's alpha, default 0.01 in kamino/config.py)
  /// Throws std::invalid_argument naming the first non-positive tolerance, iteration count, rho, a
  /// negative eta or a scale or stabilisation fraction outside [0, 1].
  void validate() const;
};

/// Per-world status, Kamino's solver.status (course E3 §6). Units: r_p impulse [N s], r_d velocity
/// [m/s], r_c energy [J]. All are infinity norms.
struct PADMMStatus {
  bool converged = false;
  int iterations = 0;
  real r_p = 0;
  real r_d = 0;
  real r_c = 0;
};

/// Projection onto the Coulomb cone K_mu = {(x_n, x_t): |x_t| <= mu x_n} of x = (x_n, x_t1, x_t2).
IMPULSE_HD inline vec3 project_friction_cone(vec3 x, real mu) {
  real t = sqrt(x.y * x.y + x.z * x.z);
  if (t <= mu * x.x) return x;                  // inside
  if (mu * t <= -x.x) return vec3{};            // inside the polar cone
  real xn = (x.x + mu * t) / (1 + mu * mu);     // onto the boundary
  real s = t > 0 ? mu * xn / t : real(0);
  return {xn, s * x.y, s * x.z};
}

/// @formula E3.6-padmm-convergence  Kamino's stop test (course E3 §6):
///   converged = iterations > 1 and r_p <= tol_p and r_d <= tol_d and r_c <= tol_c
/// An exhausted budget stops the loop too, with converged = false.
IMPULSE_HD inline bool padmm_converged(int iterations, real r_p, real r_d, real r_c, real tol_p, real tol_d, real tol_c) {
  return iterations > 1 && r_p <= tol_p && r_d <= tol_d && r_c <= tol_c;
}

/// @formula E3.10-ex7-padmm-vs-xpbd  What a PADMM status may be reported as (course E3 §10 ex. 7):
/// "converged", "not converged: iteration budget exhausted" (iterations == max_iterations and not
/// converged), or "not converged" — never "solve completed".
std::string padmm_status_report(const PADMMStatus& s, int max_iterations);

/// Solves one problem by proximal ADMM (padmm_solve_block of padmm_block.h, the iteration a
/// SolverPADMM island runs). The first `bilateral` rows of W, b and x are joint
/// rows, followed by 3 rows per entry of mu. x holds the warm start on entry and the projected
/// impulses y on exit; u (optional) receives W x + b. Throws std::invalid_argument for mismatched
/// sizes, a negative bilateral count or a negative mu. Per iteration, with A = W + (rho + eta) I
/// factored once (Cholesky):
///   s   = (mu |u_t|, 0, 0) per contact, 0 on bilateral rows, u = W y + b   (De Saxce correction)
///   x+  = A^-1 (-(b + s) + eta x + rho y - z)
///   y+  = Proj_K(x+ + z / rho)     (identity on bilateral rows, the Coulomb cone on contacts)
///   z+  = z + rho (x+ - y+)
///   r_p = |x+ - y+|_inf   r_d = |eta (x+ - x) + rho (y+ - y)|_inf   r_c = max_c |x+_c . z+_c|
/// On a bilateral row y+ = x+ and z stays 0, so its r_p entry is 0, it adds nothing to r_c, and its
/// r_d entry equals |(W x+ + b)_j|: the joint's constraint velocity [m/s or rad/s] after the update.
/// A residual that becomes non-finite (the iteration diverged) throws std::runtime_error and leaves x
/// as it was given: a diverged solve is never returned as impulses.
PADMMStatus padmm_solve(const MatrixXr& W, const VectorXr& b, const std::vector<real>& mu,
                        const PADMMSettings& settings, VectorXr& x, VectorXr* u = nullptr,
                        int bilateral = 0);

/// Throws what padmm_solve throws for a failed block (padmm_block.h's PADMMFailure): std::runtime_error
/// naming a W + (rho + eta) I that is not positive definite, or the iteration that diverged.
void check_padmm_failure(int failure, int iteration, real rho);

/// Velocity update of one rigid body in the explanatory model of course E3 §1 (E3.1-discrete-dynamics),
/// as Kamino's Euler step uses it (E3.6-kamino-overview):  M (v_{n+1} - v_n) = h f_ext + J^T p,  i.e.
///   v_{n+1} = v_n + inv_m (h f + p_lin),  omega_{n+1} = omega_n + I_w^-1 (h tau + p_ang)
/// v (COM [m/s], omega [rad/s]) world; f [N], tau [N m] about the COM; Jt_p = J^T p (an impulse
/// [N s, N m s] about the COM); inv_m [1/kg]; inv_I_w world [1/(kg m^2)]; h [s].
IMPULSE_HD inline spatial_vector discrete_velocity_update(const spatial_vector& v, real inv_m, const mat33& inv_I_w,
                                                         real h, const spatial_vector& f_ext,
                                                         const spatial_vector& Jt_p) {
  return {v.lin + inv_m * (h * f_ext.lin + Jt_p.lin), v.ang + inv_I_w * (h * f_ext.ang + Jt_p.ang)};
}

}  // namespace impulse
