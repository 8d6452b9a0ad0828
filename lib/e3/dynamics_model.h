// The explanatory discrete dynamics of one time step (course E3 §1), on dense matrices (host only).
//
// One fixed contact set, a locally linearised Jacobian: an organising model for the symbols of the
// chapter, not the exact equation of any one solver.
#pragma once

#include <Eigen/Dense>

#include "core/hd.h"
#include "core/math.h"

namespace impulse {

/// @formula E3.1-discrete-dynamics  Velocity update of the explanatory step (course E3 §1).
///   M (v_{n+1} - v_n) = h f_ext + J^T p      =>   v_{n+1} = v_n + M^-1 (h f_ext + J^T p)
/// M: generalized mass matrix (SPD); v [m/s, rad/s]; h [s]; f_ext [N, N m]; J: constraint Jacobian
/// (rows x dofs); p: constraint impulses [N s, N m s]. The configuration update
/// q_{n+1} = Integrate(q_n, h v_{n+1}) is the integrator's (E1), not a vector sum.
inline Eigen::VectorXd discrete_velocity_update(const Eigen::MatrixXd& M, const Eigen::VectorXd& v_n, double h,
                                                const Eigen::VectorXd& f_ext, const Eigen::MatrixXd& J,
                                                const Eigen::VectorXd& p) {
  return v_n + M.llt().solve(h * f_ext + J.transpose() * p);
}

/// @formula E3.1-delassus  Constraint-space inverse effective mass (course E3 §1).
///   W = J M^-1 J^T        (symmetric positive semidefinite for SPD M)
inline Eigen::MatrixXd delassus_operator(const Eigen::MatrixXd& M, const Eigen::MatrixXd& J) {
  const Eigen::MatrixXd W = J * M.llt().solve(J.transpose());
  return 0.5 * (W + W.transpose());
}

/// Residuals of the frictional complementarity conditions of one contact.
struct NcpResidual {
  real normal_sign;      // max(0, -p_n) + max(0, -u_n): violation of p_n >= 0, u_n >= 0
  real complementarity;  // |p_n u_n| [N s m/s]
  real friction_cone;    // max(0, ||p_t|| - mu p_n) [N s]
};

/// @formula E3.1-ncp  Velocity-level idealised contact (course E3 §1).
///   0 <= p_n  perp  u_n >= 0      and      ||p_t|| <= mu p_n
/// p_n [N s], u_n [m/s], p_t [N s], mu [-]. Zero residuals mean the conditions hold. Applies to
/// hard-contact paths at convergence, not to penalty or XPBD paths.
IMPULSE_HD inline NcpResidual ncp_residual(real p_n, real u_n, vec3 p_t, real mu) {
  NcpResidual r;
  r.normal_sign = (p_n < 0 ? -p_n : real(0)) + (u_n < 0 ? -u_n : real(0));
  const real c = p_n * u_n;
  r.complementarity = c < 0 ? -c : c;
  const real excess = length(p_t) - mu * p_n;
  r.friction_cone = excess > 0 ? excess : real(0);
  return r;
}

}  // namespace impulse
