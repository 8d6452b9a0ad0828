// Per-contact formulas of the XPBD rigid contact correction (course E3 §4-§5).
//
// These are the scalar pieces the XPBD contact kernel is made of; SolverXPBD calls them per contact
// and per iteration. Conventions: the normal n points from shape0 (body A) to shape1 (body B); a
// gap d < 0 is penetration; impulses are in N s (not the N s^2 multipliers of textbook XPBD).
#pragma once

#include "core/math.h"

namespace impulse {

/// @formula E3.4-xpbd-w  Inverse effective mass of a rigid normal contact (course E3 §4).
///   w = 1/m_A + 1/m_B + (r_A x n)^T I_A^-1,W (r_A x n) + (r_B x n)^T I_B^-1,W (r_B x n)    [1/kg]
/// Inputs are the *effective* inverse masses [1/kg] and world inverse inertias [1/(kg m^2)]: a
/// kinematic or static side passes zeros and so adds nothing (E3.4-xpbd-w-kinematic). r_A, r_B [m]
/// are world lever arms from each COM to the contact point; n is a unit normal.
IMPULSE_HD inline real xpbd_inverse_effective_mass(real inv_m_A, const mat33& inv_I_A, vec3 r_A, real inv_m_B,
                                                   const mat33& inv_I_B, vec3 r_B, vec3 n) {
  vec3 a = cross(r_A, n), b = cross(r_B, n);
  return inv_m_A + inv_m_B + dot(a, inv_I_A * a) + dot(b, inv_I_B * b);
}

/// @formula E3.4-xpbd-pn  XPBD rigid normal contact impulse (course E3 §4).
///   p_n = relaxation * (-d) / (h * w)                                                     [N s]
/// Scope: the rigid normal branch only. Returns 0 when d >= 0 (a record inside the gap does not
/// push) and when w <= 0 (nothing to move). Units: d [m], h [s], w [1/kg], relaxation [-].
/// Body A receives -n p_n and body B +n p_n (E3.4-xpbd-pn-sides).
IMPULSE_HD inline real xpbd_normal_impulse(real d, real h, real w, real relaxation) {
  if (d >= 0 || w <= 0) return 0;
  return relaxation * (-d) / (h * w);
}

/// @formula E3.4-impulse-to-force  F_avg = p / h: an accumulated impulse is divided by h once (course E3 §4).
/// Average force of an accumulated position impulse (course E3 §4).
///   F_avg = p / h              [N]     (divided by h once, not h^2)
/// @param p [N s] accumulated impulse
/// @param h [s] step
/// @return F_avg [N] average force
IMPULSE_HD inline real impulse_to_average_force(real p, real h) { return p / h; }

/// @formula E3.4-joint-helper-denominator  (h + alpha b) w + alpha / h, the joint correction's denominator (course E3 §4).
/// Denominator of the XPBD joint correction helper.
///   den = (h + alpha b) w + alpha / h
/// alpha: compliance, b: damping, w: inverse effective mass [1/kg], h [s]. With alpha = 0 it reduces
/// to h w, the denominator of the contact formula; the rigid contact branch has no compliance term.
/// @param h [s] step
/// @param w [1/kg] inverse effective mass
/// @param alpha [-] compliance (units not given by the course)
/// @param b [-] damping (units not given by the course)
/// @return den [-] denominator
IMPULSE_HD inline real xpbd_joint_denominator(real h, real w, real alpha, real b) {
  return (h + alpha * b) * w + alpha / h;
}

/// @formula E3.4-friction-limit  ||dp_t|| <= mu p_n per contact and iteration (course E3 §4).
/// Tangential impulse increment limited by this iteration's normal one.
///   ||dp_t|| <= mu p_n      (dp_t scaled down onto the limit when it exceeds it)      [N s]
/// @param dp_t [N s] unlimited tangential impulse increment
/// @param mu [-] friction coefficient
/// @param p_n [N s] this iteration's normal impulse
/// @return dp_t_limited [N s] increment after the limit
IMPULSE_HD inline vec3 clamp_friction_increment(vec3 dp_t, real mu, real p_n) {
  real len = length(dp_t), limit = mu * p_n;
  if (len <= limit || len == 0) return dp_t;
  return dp_t * (limit / len);
}

/// @formula E3.4-torsion-rolling-limit  torsional and rolling angular impulses limited by mu_torsional p_n and mu_rolling p_n (course E3 §4).
/// Angular friction increments (course E3 §4).
///   |dL_torsion| <= mu_torsional p_n   (about n)         [N m s]
///   ||dL_rolling|| <= mu_rolling p_n    (in the tangent plane; by analogy, the text gives no formula)
/// dL is an angular impulse; the component along n is the torsional part, the rest the rolling part.
/// @param dL [N m s] unlimited angular impulse increment
/// @param n [-] unit contact normal
/// @param mu_torsional [m] torsional friction
/// @param mu_rolling [m] rolling friction
/// @param p_n [N s] normal impulse
/// @return dL_limited [N m s] increment after both limits
IMPULSE_HD inline vec3 clamp_angular_friction_increment(vec3 dL, vec3 n, real mu_torsional, real mu_rolling, real p_n) {
  real tor = dot(dL, n);
  vec3 roll = dL - tor * n;
  real tor_limit = mu_torsional * p_n;
  tor = tor > tor_limit ? tor_limit : (tor < -tor_limit ? -tor_limit : tor);
  return tor * n + clamp_friction_increment(roll, mu_rolling, p_n);
}

/// Weight of one body's summed contact correction in apply_body_deltas (E3.4-contact-weighting):
///   weight = 1/N   under contact-count weighting, N >= 1 the body's active contact count this iteration
///   weight = 1     without weighting, or with no active contact
/// Each side of a contact is divided by its own N, which is why no single readback scale can undo
/// both sides' division (E3.4-readback-scale).
IMPULSE_HD inline real contact_count_weight(bool weighting, int count) {
  return (weighting && count > 0) ? real(1) / real(count) : real(1);
}

/// @formula E3.4-readback-scale  Scale applied to a contact's accumulated impulse when it is read
/// back as a force, under contact-count weighting (course E3 §4).
///   s = 1/N                 when only one side is counted
///   s = 2 / (N_A + N_B)     when both are counted        (harmonic mean of 1/N_A and 1/N_B)
/// A side is counted when its body id is >= 0 (E3.4-count-by-body-id): a kinematic body with an id
/// counts, the static world (id -1) does not. Counts are the sides' active contact counts (>= 1 for
/// a counted side in contact). A pair with no counted side is never produced; it returns 1.
IMPULSE_HD inline real contact_readback_scale(int body_A, int count_A, int body_B, int count_B) {
  bool a = body_A >= 0 && count_A > 0, b = body_B >= 0 && count_B > 0;
  if (a && b) return real(2) / real(count_A + count_B);
  if (a) return real(1) / real(count_A);
  if (b) return real(1) / real(count_B);
  return 1;
}

/// @formula E3.5-gstar  g* = largest gravity norm over the sides that have a body id (course E3 §5).
/// Gravity scale of the restitution threshold.
///   g* = max over sides with a body id of |gravity of that side's world|       [m/s^2]
/// Returns 0 when neither side has a body id (the text does not cover that case).
/// @param body_A [-] body id of A
/// @param g_A [m/s^2] gravity of A's world
/// @param body_B [-] body id of B
/// @param g_B [m/s^2] gravity of B's world
/// @return gstar [m/s^2] gravity scale of the threshold
IMPULSE_HD inline real restitution_gstar(int body_A, vec3 g_A, int body_B, vec3 g_B) {
  real g = 0;
  if (body_A >= 0) g = length(g_A);
  if (body_B >= 0 && length(g_B) > g) g = length(g_B);
  return g;
}

/// @formula E3.5-target-velocity  restitution target: -e v_old below -2 g* h, v_old above +2 g* h, else 0 (course E3 §5).
/// Target separating normal velocity of the restitution pass.
///   v_old < -2 g* h          ->  -e v_old     (an approaching impact bounces)
///   v_old > +2 g* h          ->   v_old       (anchored to the old separation)
///   otherwise                ->   0           (resting band: no bounce from gravity jitter)
/// v_old [m/s] is the pre-projection relative normal velocity, positive when separating along n;
/// e [-] the combined restitution, h [s]. The positive threshold is read as +2 g* h.
/// @param v_old [m/s] pre-projection normal velocity, positive separating
/// @param e [-] restitution
/// @param gstar [m/s^2] gravity scale
/// @param h [s] step
/// @return v_target [m/s] target separating velocity
IMPULSE_HD inline real restitution_target_velocity(real v_old, real e, real gstar, real h) {
  real threshold = 2 * gstar * h;
  if (v_old < -threshold) return -e * v_old;
  if (v_old > threshold) return v_old;
  return 0;
}

}  // namespace impulse
