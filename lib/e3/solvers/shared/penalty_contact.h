// The penalty contact law shared by SolverSemiImplicit and SolverFeatherstone (course E3 §6), and
// the stability bound of the semi-implicit spring (course E3 §6).
//
// Newton's eval_body_contact works with its own internal normal n_i = -n, pointing from body B
// (shape1's body) to body A (shape0's body); the gap is d = n_i . (x_A - x_B) < 0 when penetrating,
// and v_n = n_i . (v_A - v_B) < 0 when the two points approach. Body A receives -(n_i a_n + f_t)
// and body B +(n_i a_n + f_t), each with its lever-arm torque about its own COM.
#pragma once

#include "core/math.h"
#include "core/spatial.h"

namespace impulse {

/// Material of one penalty contact (per contact: the combination of the two shapes is the caller's).
struct PenaltyMaterial {
  real ke = real(2.5e3);  // [N/m] normal stiffness (Newton's ShapeConfig default)
  real kd = real(100);    // [N s/m] normal damping
  real kf = real(1000);   // [N s/m] viscous friction stiffness
  real ka = 0;            // [m] adhesion distance: contacts with d >= ka are skipped
  real mu = 1;            // [-] friction coefficient
};

/// Warp's Huber "norm" of a vector, the regulariser of the penalty friction (course E3 §6).
///   s = |v|^2 / 2              if |v| <= delta
///   s = delta (|v| - delta/2)  otherwise
/// delta = friction_smoothing (1.0 by default). s is not a norm: s < |v| for every v != 0 when
/// delta <= 1, so the Coulomb branch of penalty_friction exceeds mu |a_n| in magnitude. Units: with
/// delta read as a velocity, s carries (m/s)^2; Newton uses the numbers as they are.
IMPULSE_HD inline real norm_huber(vec3 v, real delta) {
  real a = length(v);
  return a <= delta ? real(0.5) * a * a : delta * (a - real(0.5) * delta);
}

/// @formula E3.6-penalty-law  Normal scalar of the penalty contact (course E3 §6).
///   a_n = ke d + kd min(v_n, 0)            while d < 0           [N]
///   a_n = ke d                             while 0 <= d < ka     (adhesion band: attraction, no damping)
/// d [m] gap along n_i, v_n [m/s] = n_i . (v_A - v_B). The caller has already skipped d >= ka.
IMPULSE_HD inline real penalty_normal_scalar(real d, real v_n, real ke, real kd) {
  real damping = d < 0 ? kd * (v_n < 0 ? v_n : real(0)) : real(0);
  return ke * d + damping;
}

/// The friction half of E3.6-penalty-law (tagged on penalty_normal_scalar): Huber-regularised friction of the penalty contact (course E3 §6).
///   s   = norm_huber(v_t, delta)
///   f_t = v_t / s * min(kf s, -mu a_n)      for s > 0, while d < 0       [N]
/// v_t [m/s] tangential relative velocity (v_A - v_B minus its n_i part); returns 0 when s = 0.
/// The first branch is viscous (kf v_t, independent of delta), the second the Coulomb cap.
IMPULSE_HD inline vec3 penalty_friction(vec3 v_t, real a_n, real kf, real mu, real delta) {
  real s = norm_huber(v_t, delta);
  if (!(s > 0)) return vec3{};
  real cap = -mu * a_n;
  real m = kf * s < cap ? kf * s : cap;
  return (m / s) * v_t;
}

/// Wrenches that one penalty contact writes into its two bodies (world, about each COM).
struct PenaltyContactWrench {
  bool active = false;  // false: d >= ka, the contact was skipped
  real d = 0;           // [m] gap
  real a_n = 0;         // [N] normal scalar (negative: pushing apart)
  vec3 f_t{};           // [N] friction along v_t
  spatial_vector on_A{};  // (f [N], tau [N m]) on body A (shape0's body)
  spatial_vector on_B{};  // on body B (shape1's body)
};

/// @formula E3.6-penalty-write-and-adhesion  One rigid contact of eval_body_contact (course E3 §6).
///   n_i = -n (B -> A);  x_A = X_A p0 + m0 n;  x_B = X_B p1 - m1 n;  d = n_i . (x_A - x_B)
///   skip if d >= ka;    v = v_A(x_A) - v_B(x_B);  v_n = n_i . v;  v_t = v - n_i v_n
///   f = n_i a_n + f_t (f_t only while d < 0)
///   A gets (-f, -(x_A - c_A) x f), B gets (+f, (x_B - c_B) x f)
/// X_A/X_B body poses (identity for a static side, whose p0/p1 are then world points), c_A/c_B world
/// COMs [m], twists (v at the COM [m/s], omega [rad/s]); n the record's unit normal shape0 -> shape1;
/// m0/m1 thicknesses [m]; delta the friction smoothing.
IMPULSE_HD inline PenaltyContactWrench eval_body_contact(const transform& X_A, vec3 c_A, const spatial_vector& V_A,
                                                         const transform& X_B, vec3 c_B, const spatial_vector& V_B,
                                                         vec3 p0, vec3 p1, vec3 n, real m0, real m1,
                                                         const PenaltyMaterial& mat, real delta) {
  PenaltyContactWrench w;
  vec3 n_i = -n;
  vec3 x_A = transform_point(X_A, p0) + m0 * n;
  vec3 x_B = transform_point(X_B, p1) - m1 * n;
  w.d = dot(n_i, x_A - x_B);
  if (w.d >= mat.ka) return w;
  w.active = true;
  vec3 r_A = x_A - c_A, r_B = x_B - c_B;
  vec3 v = (V_A.lin + cross(V_A.ang, r_A)) - (V_B.lin + cross(V_B.ang, r_B));
  real v_n = dot(n_i, v);
  vec3 v_t = v - v_n * n_i;
  w.a_n = penalty_normal_scalar(w.d, v_n, mat.ke, mat.kd);
  if (w.d < 0) w.f_t = penalty_friction(v_t, w.a_n, mat.kf, mat.mu, delta);
  vec3 f = w.a_n * n_i + w.f_t;
  w.on_A = {-f, -cross(r_A, f)};
  w.on_B = {f, cross(r_B, f)};
  return w;
}

/// @formula E3.6-symplectic-stability  Linear stability of semi-implicit Euler on an undamped
/// spring x'' = -(k/m) x (course E3 §6). One step in (x, v) form:
///   v_{n+1} = v_n - h (k/m) x_n ;  x_{n+1} = x_n + h v_{n+1}
///   A = [[1 - h^2 k/m, h], [-h k/m, 1]],  det A = 1,  trace A = 2 - h^2 k/m
///   stable (spectral radius 1) iff h sqrt(k/m) < 2;  h_crit = 2 sqrt(m/k)   [s]
/// Scope: this one linear, undamped, single-DOF system only, not a safe step for contacts or joints.
IMPULSE_HD inline real semi_implicit_critical_step(real k, real m) { return 2 * sqrt(m / k); }

/// One semi-implicit Euler step of the undamped spring (velocity first, then position).
IMPULSE_HD inline void semi_implicit_spring_step(real& x, real& v, real k, real m, real h) {
  v = v - h * (k / m) * x;
  x = x + h * v;
}

}  // namespace impulse
