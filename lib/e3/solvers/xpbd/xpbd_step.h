// The per-contact, per-joint and per-body pieces of one SolverXPBD step (course E3 §4, §5, §7).
//
// SolverXPBD (lib/e3/solvers/xpbd/solver_xpbd.h) launches these one element per thread; the scalar formulas
// they are made of live in lib/e3/solvers/xpbd/xpbd_contact.h (one formula, one function). Deltas are spatial
// impulses (linear [N s], angular about the body COM [N m s]), world frame.
#pragma once

#include "core/spatial.h"
#include "e1/joints.h"
#include "e3/solvers/xpbd/xpbd_contact.h"

namespace impulse {

/// Mass data of one side of a constraint. A world side (body -1) and a kinematic body have zero
/// effective inverse mass and inertia (E3.4-xpbd-w-kinematic).
struct XpbdSide {
  int body = -1;
  transform X = transform_identity();  // world pose of the body origin
  spatial_vector v{};                  // (v_C [m/s], omega [rad/s]), world
  vec3 com{};                          // [m] world COM
  real inv_m = 0;                      // [1/kg] effective
  mat33 inv_I{};                       // [1/(kg m^2)] effective, world axes
  bool kinematic = false;
};

/// World inverse inertia R I_B^-1 R^T [1/(kg m^2)].
IMPULSE_HD inline mat33 world_inv_inertia(quat q, const mat33& inv_I_B) {
  mat33 R = quat_to_mat33(q);
  return R * inv_I_B * transpose(R);
}

/// Result of one contact in one iteration.
struct XpbdContactDelta {
  int active = 0;      // 1 when d < 0 (the contact counts toward its bodies' N)
  real p_n = 0;        // [N s] this iteration's normal impulse
  spatial_vector dA;   // impulse on body A (shape0) [N s, N m s], angular about A's COM
  spatial_vector dB;   // impulse on body B (shape1)
};

/// Tangential slip of a contact's friction anchors (E3.4-friction-anchor), shared by the course's row
/// and the accumulated one: s = X_B(p1 + o1) - X_A(p0 + o0), delta_t = s - (n.s) n, plus h v_t of a
/// kinematic surface (A: -, B: +) [m]. Writes the anchors' lever arms ra, rb [m].
IMPULSE_HD inline vec3 xpbd_anchor_slip(const XpbdSide& A, const XpbdSide& B, vec3 p0, vec3 p1, vec3 o0, vec3 o1, vec3 n,
                                        real h, vec3& ra, vec3& rb) {
  vec3 sa = transform_point(A.X, p0 + o0), sb = transform_point(B.X, p1 + o1);
  vec3 s = sb - sa;
  vec3 delta_t = s - dot(n, s) * n;
  ra = sa - A.com;
  rb = sb - B.com;
  if (A.kinematic) {
    vec3 va = A.v.lin + cross(A.v.ang, ra);
    delta_t -= h * (va - dot(n, va) * n);
  }
  if (B.kinematic) {
    vec3 vb = B.v.lin + cross(B.v.ang, rb);
    delta_t += h * (vb - dot(n, vb) * n);
  }
  return delta_t;
}

/// Torsional and rolling correction of a contact on B [N m s] (E3.4-friction-anchor): err = h (omega_B -
/// omega_A) . n about n and h |tangential part|, each removed with relaxation, then limited by
/// mu_torsional p_n and mu_rolling p_n (E3.4-torsion-rolling-limit). A gets the opposite.
IMPULSE_HD inline vec3 xpbd_angular_friction(const XpbdSide& A, const XpbdSide& B, vec3 n, real mu_torsional,
                                             real mu_rolling, real relaxation, real h, real p_n) {
  vec3 dw = B.v.ang - A.v.ang;
  vec3 dL_b{};
  if (mu_torsional > 0) {
    real err = dot(dw, n) * h;
    real w_n = dot(n, A.inv_I * n) + dot(n, B.inv_I * n);
    if (err != 0 && w_n > 0) dL_b += (-relaxation * err / (h * w_n)) * n;
  }
  if (mu_rolling > 0) {
    vec3 roll = dw - dot(n, dw) * n;
    real err = length(roll) * h;
    if (err > 0) {
      vec3 rn = roll / length(roll);
      real w_r = dot(rn, A.inv_I * rn) + dot(rn, B.inv_I * rn);
      if (w_r > 0) dL_b += (-relaxation * err / (h * w_r)) * rn;
    }
  }
  return clamp_angular_friction_increment(dL_b, n, mu_torsional, mu_rolling, p_n);
}

/// @formula E3.4-friction-anchor  One rigid contact of the XPBD position loop (course E3 §4).
///   d    = n . (X_B p1 - X_A p0) - (thickness0 + thickness1)        ; d >= 0 -> inactive, nothing
///   p_n  = relaxation (-d) / (h w)                                   (E3.4-xpbd-pn, E3.4-xpbd-w)
///   A gets -n p_n, B gets +n p_n (E3.4-xpbd-pn-sides), angular parts r x (linear part).
///   Friction: the tangential displacement of the surface anchors s = X_B(p1 + o1) - X_A(p0 + o0),
///   delta_t = s - (n.s) n, plus h v_t of a kinematic surface (A: -, B: +); its impulse
///   p_t = relaxation |delta_t| / (h w_t), limited by mu p_n (E3.4-friction-limit); B is pushed back
///   along -delta_t.
///   Torsion / rolling: err = h (omega_B - omega_A) . n (about n) and h |tangential part| with
///   impulses limited by mu_torsional p_n and mu_rolling p_n (E3.4-torsion-rolling-limit).
/// Units: points [m] in the body frames, n world unit, h [s], mu [-], mu_torsional/mu_rolling [m].
IMPULSE_HD inline XpbdContactDelta xpbd_contact_delta(const XpbdSide& A, const XpbdSide& B, vec3 p0, vec3 p1, vec3 o0,
                                                      vec3 o1, vec3 n, real thickness0, real thickness1, real mu,
                                                      real mu_torsional, real mu_rolling, real relaxation, real h) {
  XpbdContactDelta out;
  vec3 bx_a = transform_point(A.X, p0), bx_b = transform_point(B.X, p1);
  real d = dot(n, bx_b - bx_a) - (thickness0 + thickness1);
  if (d >= 0) return out;
  out.active = 1;
  vec3 r_a = bx_a - A.com, r_b = bx_b - B.com;
  real w = xpbd_inverse_effective_mass(A.inv_m, A.inv_I, r_a, B.inv_m, B.inv_I, r_b, n);
  real p_n = xpbd_normal_impulse(d, h, w, relaxation);
  out.p_n = p_n;
  vec3 lin_b = p_n * n;
  out.dA = {-lin_b, cross(r_a, -lin_b)};
  out.dB = {lin_b, cross(r_b, lin_b)};

  if (mu > 0) {
    vec3 ra, rb;
    const vec3 delta_t = xpbd_anchor_slip(A, B, p0, p1, o0, o1, n, h, ra, rb);
    real err = length(delta_t);
    if (err > 0) {
      vec3 perp = delta_t / err;
      real w_t = xpbd_inverse_effective_mass(A.inv_m, A.inv_I, ra, B.inv_m, B.inv_I, rb, perp);
      if (w_t > 0) {
        vec3 dp_b = clamp_friction_increment(-(relaxation * err / (h * w_t)) * perp, mu, p_n);
        out.dA.lin -= dp_b;
        out.dA.ang -= cross(ra, dp_b);
        out.dB.lin += dp_b;
        out.dB.ang += cross(rb, dp_b);
      }
    }
  }

  const vec3 dL_b = xpbd_angular_friction(A, B, n, mu_torsional, mu_rolling, relaxation, h, p_n);
  out.dA.ang -= dL_b;
  out.dB.ang += dL_b;
  return out;
}

/// One rigid contact of the Gauss-Seidel, warm-started XPBD
/// position loop: the course's row (E3.4-friction-anchor) with its impulses accumulated over the
/// step and clamped, as a sequential-impulse solver does (impulse's extension, not a course item: Newton 1.6.1 sums
/// fresh corrections, Jacobi, and has no contact warm start; the clamped accumulation is Catto's,
/// "Iterative dynamics with temporal coherence", GDC 2005, here on positions).
///   d    = n . (X_B p1 - X_A p0) - (thickness0 + thickness1)
///   p'   = max(p + relaxation (-d) / (h w), 0);   dp = p' - p           [N s]  (p may shrink)
///   t'   = t - relaxation |delta_t| / (h w_t) (delta_t / |delta_t|), then its tangential part
///          scaled onto |t'| <= mu p';   dt = t' - t                      [N s]
///   A gets -(n dp + dt), B gets +(n dp + dt); torsion and rolling as in E3.4-friction-anchor,
///   limited by mu_torsional p' and mu_rolling p'.
/// p [N s] and t [N s, world] hold the row's accumulated normal and friction impulses on B (the
/// warm start on entry of the step's first iteration) and are updated. active = 1 when the row
/// moved its bodies. A row apart (d >= 0) with nothing accumulated returns at once, as in the
/// course's row. Units as in xpbd_contact_delta.
IMPULSE_HD inline XpbdContactDelta xpbd_contact_delta_accumulated(const XpbdSide& A, const XpbdSide& B, vec3 p0, vec3 p1,
                                                                  vec3 o0, vec3 o1, vec3 n, real thickness0,
                                                                  real thickness1, real mu, real mu_torsional,
                                                                  real mu_rolling, real relaxation, real h, real& p,
                                                                  vec3& t) {
  XpbdContactDelta out;
  vec3 bx_a = transform_point(A.X, p0), bx_b = transform_point(B.X, p1);
  real d = dot(n, bx_b - bx_a) - (thickness0 + thickness1);
  if (d >= 0 && p == 0 && t.x == 0 && t.y == 0 && t.z == 0) return out;
  vec3 r_a = bx_a - A.com, r_b = bx_b - B.com;
  real w = xpbd_inverse_effective_mass(A.inv_m, A.inv_I, r_a, B.inv_m, B.inv_I, r_b, n);
  if (!(w > 0)) return out;
  real p_new = p + relaxation * (-d) / (h * w);
  if (p_new < 0) p_new = 0;
  const real dp = p_new - p;
  p = p_new;
  out.p_n = dp;
  vec3 lin_b = dp * n;
  out.dA = {-lin_b, cross(r_a, -lin_b)};
  out.dB = {lin_b, cross(r_b, lin_b)};

  if (mu > 0) {
    vec3 ra, rb;
    const vec3 delta_t = xpbd_anchor_slip(A, B, p0, p1, o0, o1, n, h, ra, rb);
    vec3 t_new = t;
    real err = length(delta_t);
    if (err > 0) {
      vec3 perp = delta_t / err;
      real w_t = xpbd_inverse_effective_mass(A.inv_m, A.inv_I, ra, B.inv_m, B.inv_I, rb, perp);
      if (w_t > 0) t_new = t_new - (relaxation * err / (h * w_t)) * perp;
    }
    t_new = t_new - dot(t_new, n) * n;  // tangential only
    t_new = clamp_friction_increment(t_new, mu, p_new);
    const vec3 dt = t_new - t;
    t = t_new;
    out.dA.lin -= dt;
    out.dA.ang -= cross(ra, dt);
    out.dB.lin += dt;
    out.dB.ang += cross(rb, dt);
  }

  const vec3 dL_b = xpbd_angular_friction(A, B, n, mu_torsional, mu_rolling, relaxation, h, p_new);
  out.dA.ang -= dL_b;
  out.dB.ang += dL_b;
  out.active = (dp != 0 || out.dB.lin.x != 0 || out.dB.lin.y != 0 || out.dB.lin.z != 0 || out.dB.ang.x != 0 ||
                out.dB.ang.y != 0 || out.dB.ang.z != 0)
                   ? 1
                   : 0;
  return out;
}

/// Most rows of one shape pair that xpbd_manifold_delta solves together (a box face gives 4, a
/// clipped face up to 8); a pair with more rows is solved in blocks of this many.
constexpr int kXpbdManifoldRows = 8;

/// One row of a manifold as the contact record holds it (units as in xpbd_contact_delta).
struct XpbdManifoldRow {
  vec3 p0, p1, o0, o1, n;
  real thickness = 0, mu = 0, mu_torsional = 0, mu_rolling = 0;
};

/// One contact row linearised at the bodies' poses of some moment (impulse's extension for the
/// Gauss-Seidel pass, not a course item): what xpbd_linear_row needs to follow the row's gap and
/// slip while its bodies move by small linear and angular position changes (u, theta) [m, rad]
/// from those poses, every product of the inverse masses and inertias taken once. Made by
/// xpbd_linearise_row; units as in xpbd_contact_delta. Every pass reads it whole, so it holds only
/// what a pass needs (456 bytes in double): torsion and rolling read XpbdLinearRowRest besides.
struct XpbdLinearRow {
  vec3 n;                       // world unit normal, shape0 (A) to shape1 (B)
  real d0 = 0;                  // [m] gap at the poses, thicknesses taken off
  real inv_w = 0;               // [kg] 1 / w along n (E3.4-xpbd-w); 0 when nothing can move
  real inv_mA = 0, inv_mB = 0;  // [1/kg] effective inverse masses
  vec3 an, bn;                  // [m] ra x n, rb x n
  vec3 ian, ibn;                // [1/(kg m)] inv_I_A (ra x n), inv_I_B (rb x n), world
  vec3 t1, t2;                  // world unit tangents, (t1, t2, n) right-handed
  vec3 a1, a2, b1, b2;          // [m] sra x t1, sra x t2, srb x t1, srb x t2 (the friction anchors' arms)
  vec3 ia1, ia2, ib1, ib2;      // [1/(kg m)] their images under inv_I_A, inv_I_B
  real k11 = 0, k12 = 0, k22 = 0;  // [1/kg] w in the tangent plane: w(e) = e^T K e for a unit e = e1 t1 + e2 t2
  real s1 = 0, s2 = 0;          // [m] the anchors' slip (E3.4-friction-anchor) along t1, t2
  real mu = 0, mu_torsional = 0, mu_rolling = 0;  // [-], [m], [m]
};

/// The rest of a linearised row: what torsion and rolling (xpbd_linear_row_angular) and the
/// readback of the step's impulses read, made by xpbd_linearise_row_rest.
struct XpbdLinearRowRest {
  mat33 inv_IA, inv_IB;         // [1/(kg m^2)] effective world inverse inertias
  vec3 dw0;                     // [rad/s] omega_B - omega_A at the poses
  real wn = 0;                  // [1/(kg m^2)] n^T (inv_I_A + inv_I_B) n
  real r11 = 0, r12 = 0, r22 = 0;  // [1/(kg m^2)] (inv_I_A + inv_I_B) in the tangent plane
  real p0 = 0;                  // [N s] the row's normal impulse when it was linearised
  vec3 t0;                      // [N s] its friction impulse on B then
};

/// Linearises one row at A's and B's poses (their sides): arms ra = X_A p0 - com_A, rb = X_B p1 - com_B,
/// d0 = n . (X_B p1 - X_A p0) - thickness, w (E3.4-xpbd-w), the normal's angular parts and their
/// images under the world inverse inertias; the friction anchors' arms and slip (xpbd_anchor_slip)
/// in a tangent basis with the tangent block K of the inverse effective mass.
IMPULSE_HD inline XpbdLinearRow xpbd_linearise_row(const XpbdSide& A, const XpbdSide& B, const XpbdManifoldRow& r,
                                                   real h) {
  XpbdLinearRow l;
  const vec3 bx_a = transform_point(A.X, r.p0), bx_b = transform_point(B.X, r.p1);
  const vec3 ra = bx_a - A.com, rb = bx_b - B.com;
  const vec3 n = r.n;
  l.n = n;
  l.d0 = dot(n, bx_b - bx_a) - r.thickness;
  l.an = cross(ra, n);
  l.bn = cross(rb, n);
  l.ian = A.inv_I * l.an;
  l.ibn = B.inv_I * l.bn;
  const real w = xpbd_inverse_effective_mass(A.inv_m, A.inv_I, ra, B.inv_m, B.inv_I, rb, n);
  l.inv_w = w > 0 ? 1 / w : 0;
  l.inv_mA = A.inv_m;
  l.inv_mB = B.inv_m;
  // a tangent away from n's largest component, then t2 = n x t1
  const vec3 off = fabs(n.x) < real(0.57735) ? vec3{1, 0, 0} : (fabs(n.y) < real(0.57735) ? vec3{0, 1, 0} : vec3{0, 0, 1});
  l.t1 = normalize(cross(off, n));
  l.t2 = cross(n, l.t1);
  vec3 sra = ra, srb = rb;
  const vec3 s0 = r.mu > 0 ? xpbd_anchor_slip(A, B, r.p0, r.p1, r.o0, r.o1, n, h, sra, srb) : vec3{};
  l.s1 = dot(s0, l.t1);
  l.s2 = dot(s0, l.t2);
  l.a1 = cross(sra, l.t1);
  l.a2 = cross(sra, l.t2);
  l.b1 = cross(srb, l.t1);
  l.b2 = cross(srb, l.t2);
  l.ia1 = A.inv_I * l.a1;
  l.ia2 = A.inv_I * l.a2;
  l.ib1 = B.inv_I * l.b1;
  l.ib2 = B.inv_I * l.b2;
  const real lin = A.inv_m + B.inv_m;
  l.k11 = lin + dot(l.a1, l.ia1) + dot(l.b1, l.ib1);
  l.k12 = dot(l.a1, l.ia2) + dot(l.b1, l.ib2);
  l.k22 = lin + dot(l.a2, l.ia2) + dot(l.b2, l.ib2);
  l.mu = r.mu;
  l.mu_torsional = r.mu_torsional;
  l.mu_rolling = r.mu_rolling;
  return l;
}

/// The rest of row l linearised at A's and B's poses: the inverse inertias and relative angular
/// velocity for torsion and rolling; p0, t0 are left for the caller.
IMPULSE_HD inline XpbdLinearRowRest xpbd_linearise_row_rest(const XpbdSide& A, const XpbdSide& B,
                                                            const XpbdLinearRow& l) {
  XpbdLinearRowRest e;
  e.inv_IA = A.inv_I;
  e.inv_IB = B.inv_I;
  e.dw0 = B.v.ang - A.v.ang;
  const vec3 Jn = A.inv_I * l.n + B.inv_I * l.n, J1 = A.inv_I * l.t1 + B.inv_I * l.t1, J2 = A.inv_I * l.t2 + B.inv_I * l.t2;
  e.wn = dot(l.n, Jn);
  e.r11 = dot(l.t1, J1);
  e.r12 = dot(l.t1, J2);
  e.r22 = dot(l.t2, J2);
  return e;
}

/// One pass of a linearised row (impulse's extension for the Gauss-Seidel pass, not a course item).
/// A and B have moved by mA = (u_A, theta_A), mB = (u_B, theta_B) [m, rad] since the row was
/// linearised; an impulse P, L [N s, N m s] on a body moves it by u = h inv_m P, theta = h inv_I L,
/// as xpbd_apply_body_delta does without its gyroscopic term.
///   d   = d0 + n . (u_B - u_A) + (rb x n) . theta_B - (ra x n) . theta_A
///   p'  = max(p - rate (d - keep d0) / (h w), 0);   dp = p' - p                        [N s]
///   slip s = s0 + tangential part of (u_B + theta_B x srb - u_A - theta_A x sra), e = s - keep s0,
///   t'  = t - rate |e| / (h w_t) e / |e| with w_t = w along e / |e| (= t - rate e / (h e^T K e / |e|^2)
///         in the tangent basis), then |t'| <= mu p'                                      [N s]
/// B gets dp n at rb and dt = t' - t at the anchor, A the opposite; mA and mB move accordingly. Over a
/// shape pair's block (xpbd_manifold_delta) rate = 1 and keep = 1 - relaxation: the block ends at
/// the gap (1 - relaxation) d0, as one accumulated row (xpbd_contact_delta_accumulated) does; over
/// a whole step (SolverXPBD::contact_linearised) rate = relaxation and keep = 0: each pass removes
/// that share of the row's gap, which the passes drive to 0. A row that holds no impulse and is
/// apart (d >= 0; under keep > 0 also d0 >= 0) does nothing. p, t are updated (t in the tangent
/// plane); returns whether the row moved its bodies.
IMPULSE_HD inline bool xpbd_linear_row(const XpbdLinearRow& r, real keep, real rate, real h, real& p, vec3& t,
                                       spatial_vector& mA, spatial_vector& mB) {
  const bool held = p != 0 || t.x != 0 || t.y != 0 || t.z != 0;
  if (keep > 0 && r.d0 >= 0 && !held) return false;
  if (!(r.inv_w > 0)) return false;
  const vec3 du = mB.lin - mA.lin;
  const real d = r.d0 + dot(r.n, du) + dot(r.bn, mB.ang) - dot(r.an, mA.ang);
  if (d >= 0 && !held) return false;
  real p_new = p - rate * (d - keep * r.d0) * r.inv_w / h;
  if (p_new < 0) p_new = 0;
  const real dp = p_new - p;
  p = p_new;
  if (dp != 0) {  // dp n on B at rb, -dp n on A at ra
    mA.lin -= (h * r.inv_mA * dp) * r.n;
    mB.lin += (h * r.inv_mB * dp) * r.n;
    mA.ang -= (h * dp) * r.ian;
    mB.ang += (h * dp) * r.ibn;
  }
  if (!(r.mu > 0)) return dp != 0;
  const vec3 du2 = mB.lin - mA.lin;  // the slip of B's anchor relative to A's, along t1 and t2
  const real e1 = r.s1 * (1 - keep) + dot(r.t1, du2) + dot(r.b1, mB.ang) - dot(r.a1, mA.ang);
  const real e2 = r.s2 * (1 - keep) + dot(r.t2, du2) + dot(r.b2, mB.ang) - dot(r.a2, mA.ang);
  const real T1 = dot(t, r.t1), T2 = dot(t, r.t2);
  real n1 = T1, n2 = T2;
  const real ee = e1 * e1 + e2 * e2, q = r.k11 * e1 * e1 + 2 * r.k12 * e1 * e2 + r.k22 * e2 * e2;
  if (ee > 0 && q > 0) {
    const real f = rate * ee / (h * q);
    n1 -= f * e1;
    n2 -= f * e2;
  }
  const real limit = r.mu * p, nn = n1 * n1 + n2 * n2;
  if (nn > limit * limit) {  // onto |t'| = mu p' (E3.4-friction-limit on the total)
    const real s = limit / sqrt(nn);
    n1 *= s;
    n2 *= s;
  }
  t = n1 * r.t1 + n2 * r.t2;
  const real d1 = n1 - T1, d2 = n2 - T2;
  if (d1 == 0 && d2 == 0) return dp != 0;
  const vec3 dt = d1 * r.t1 + d2 * r.t2;  // dt on B at srb, -dt on A at sra
  mA.lin -= (h * r.inv_mA) * dt;
  mB.lin += (h * r.inv_mB) * dt;
  mA.ang -= h * (d1 * r.ia1 + d2 * r.ia2);
  mB.ang += h * (d1 * r.ib1 + d2 * r.ib2);
  return true;
}

/// Torsion and rolling of a linearised row over a whole step (SolverXPBD::contact_linearised;
/// impulse's extension). The relative angular velocity the moves give, dw = dw0 + (theta_B -
/// theta_A) / h, is removed as in E3.4-friction-anchor (about n: dL = -relaxation (dw . n) / w_n;
/// in the tangent plane: dL = -relaxation roll / w_r with w_r the inverse inertia along roll), added
/// to the row's angular impulse L on B and the total limited by mu_torsional p and mu_rolling p
/// (E3.4-torsion-rolling-limit on the total, as the friction impulse is). B turns by h inv_I_B dl,
/// A by -h inv_I_A dl for the change dl. L [N m s] world is updated; returns whether it changed.
IMPULSE_HD inline bool xpbd_linear_row_angular(const XpbdLinearRow& r, const XpbdLinearRowRest& e, real relaxation,
                                               real h, real p, vec3& L, spatial_vector& mA, spatial_vector& mB) {
  const vec3 dw = e.dw0 + (mB.ang - mA.ang) / h;
  vec3 L_new = L;
  if (r.mu_torsional > 0 && e.wn > 0) L_new -= (relaxation * dot(dw, r.n) / e.wn) * r.n;
  if (r.mu_rolling > 0) {
    const real g1 = dot(dw, r.t1), g2 = dot(dw, r.t2);
    const real gg = g1 * g1 + g2 * g2, q = e.r11 * g1 * g1 + 2 * e.r12 * g1 * g2 + e.r22 * g2 * g2;
    if (gg > 0 && q > 0) L_new -= (relaxation * gg / q) * (g1 * r.t1 + g2 * r.t2);
  }
  L_new = clamp_angular_friction_increment(L_new, r.n, r.mu_torsional, r.mu_rolling, p);
  const vec3 dl = L_new - L;
  if (dl.x == 0 && dl.y == 0 && dl.z == 0) return false;
  L = L_new;
  mA.ang -= h * (e.inv_IA * dl);
  mB.ang += h * (e.inv_IB * dl);
  return true;
}

/// The rows of one shape pair solved together, on the bodies' poses linearised at the block's start
/// (impulse's extension for the Gauss-Seidel pass, not a course item). Row by row in turn, one row
/// after the other corrects what the earlier rows left, so that a box face's corners, taken one at a
/// time, tilt the box back and forth (the sequential row did: a light box under a heavy one rocked at
/// several rad/s and walked); solved together, the face moves as a whole. Each row is linearised at
/// the block's start (xpbd_linearise_row) and swept `sweeps` times with xpbd_linear_row, rate 1 and
/// keep = 1 - relaxation (target gap (1 - relaxation) d0, target slip (1 - relaxation) s0), so that
/// one sweep of a single row is the accumulated row's correction (xpbd_contact_delta_accumulated).
/// Torsion and rolling as in E3.4-friction-anchor with relaxation / k (the k rows share one body
/// pair). p, t hold the rows' impulses on B (the accumulated ones, or zeros for the course's fresh
/// corrections) and are updated; out[i] gets row i's impulses on A and B, which the caller applies
/// summed.
IMPULSE_HD inline void xpbd_manifold_delta(const XpbdSide& A, const XpbdSide& B, int k, const XpbdManifoldRow* rows,
                                           real relaxation, real h, int sweeps, real* p, vec3* t,
                                           XpbdContactDelta* out) {
  XpbdLinearRow l[kXpbdManifoldRows];
  real p0[kXpbdManifoldRows];
  vec3 t0[kXpbdManifoldRows];
  for (int i = 0; i < k; ++i) {
    l[i] = xpbd_linearise_row(A, B, rows[i], h);
    p0[i] = p[i];
    t0[i] = t[i];
  }
  spatial_vector mA{}, mB{};  // linearised position changes of A and B [m, rad]
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (int i = 0; i < k; ++i) xpbd_linear_row(l[i], 1 - relaxation, 1, h, p[i], t[i], mA, mB);
  // Row i's impulses over the block, from its totals: normal dP = p - p0 at ra, rb; friction dT = t - t0
  // (its tangential part) at the anchors.
  for (int i = 0; i < k; ++i) {
    const XpbdLinearRow& r = l[i];
    const real dP = p[i] - p0[i];
    const vec3 dT = r.mu > 0 ? t[i] - t0[i] : vec3{};
    const real d1 = dot(dT, r.t1), d2 = dot(dT, r.t2);
    out[i] = XpbdContactDelta{};
    out[i].p_n = dP;
    out[i].dA = {-(dP * r.n) - (d1 * r.t1 + d2 * r.t2), -(dP * r.an) - (d1 * r.a1 + d2 * r.a2)};
    out[i].dB = {dP * r.n + (d1 * r.t1 + d2 * r.t2), dP * r.bn + (d1 * r.b1 + d2 * r.b2)};
    const vec3 dL_b = xpbd_angular_friction(A, B, r.n, r.mu_torsional, r.mu_rolling, relaxation / real(k), h, p[i]);
    out[i].dA.ang -= dL_b;
    out[i].dB.ang += dL_b;
    const spatial_vector& m = out[i].dB;
    out[i].active = (out[i].p_n != 0 || m.lin.x != 0 || m.lin.y != 0 || m.lin.z != 0 || m.ang.x != 0 ||
                     m.ang.y != 0 || m.ang.z != 0)
                        ? 1
                        : 0;
  }
}

/// The warm start of one row: its accumulated impulses of the last step, applied at the predicted
/// poses. B gets +(n p + t) at its contact point, A the opposite (xpbd_contact_delta_accumulated).
IMPULSE_HD inline XpbdContactDelta xpbd_contact_warm_delta(const XpbdSide& A, const XpbdSide& B, vec3 p0, vec3 p1,
                                                           vec3 n, real p, vec3 t) {
  XpbdContactDelta out;
  const vec3 f = p * n + t;
  if (f.x == 0 && f.y == 0 && f.z == 0) return out;
  vec3 r_a = transform_point(A.X, p0) - A.com, r_b = transform_point(B.X, p1) - B.com;
  out.active = 1;
  out.p_n = p;
  out.dA = {-f, cross(r_a, -f)};
  out.dB = {f, cross(r_b, f)};
  return out;
}

/// The part of E3.4-apply-deltas after the impulse: a body's velocity change dv [m/s] (world) and
/// dw_B [rad/s] (body axes), with the gyroscopic correction, the pose update and the small-velocity
/// clamp. xpbd_apply_body_delta calls it; so does the linearised contact pass
/// (SolverXPBD::contact_linearised), with dv = u / h and dw_B = R^T theta / h from a body's summed
/// position changes.
IMPULSE_HD inline void xpbd_move_body(transform& X, spatial_vector& v, vec3 com_B, const mat33& I_B, const mat33& inv_I_B,
                                      vec3 dv, vec3 dwb, real h) {
  const quat q0 = X.q;
  const vec3 wb = quat_rotate_inv(q0, v.ang);
  const vec3 tb = cross(dwb, I_B * (wb + dwb)) + cross(wb, I_B * dwb);
  const vec3 dw = quat_rotate(q0, dwb - h * (inv_I_B * tb));
  const quat d = quat_rate(q0, dw);
  const quat q1 = quat_normalize({q0.x + h * d.x, q0.y + h * d.y, q0.z + h * d.z, q0.w + h * d.w});
  const vec3 x_com = X.p + quat_rotate(q0, com_B) + h * dv;
  X = {x_com - quat_rotate(q1, com_B), q1};
  vec3 v1 = v.lin + dv, w1 = v.ang + dw;
  if (length(v1) < real(1e-4)) v1 = vec3{};
  if (length(w1) < real(1e-4)) w1 = vec3{};
  v = {v1, w1};
}

/// @formula E3.4-apply-deltas  apply_body_deltas of one body (course E3 §4, §7).
///   dv = weight inv_m dp_lin;  x_C += h dv                                    [m/s], [m]
///   dw_B = weight I_B^-1 R^T dL;  gyroscopic correction
///     t_B = dw_B x I_B (w_B + dw_B) + w_B x I_B dw_B;  dw = R (dw_B - h I_B^-1 t_B)
///   q_1 = normalize(q_0 + (h/2) (dw, 0) (x) q_0);  v += dv;  omega += dw
///   E3.7-small-velocity-clamp: |v| < 1e-4 -> v = 0 and |omega| < 1e-4 -> omega = 0 (separately).
/// weight = 1/N under contact-count weighting (1 otherwise). A body with inv_m = 0 (kinematic,
/// massless) is left unchanged. dp [N s], dL [N m s] world about the COM; h [s].
IMPULSE_HD inline void xpbd_apply_body_delta(transform& X, spatial_vector& v, vec3 com_B, const mat33& I_B,
                                             const mat33& inv_I_B, real inv_m, spatial_vector delta, real weight,
                                             real h) {
  if (inv_m == 0) return;
  const vec3 dv = (inv_m * weight) * delta.lin;
  const vec3 dwb = inv_I_B * quat_rotate_inv(X.q, weight * delta.ang);
  xpbd_move_body(X, v, com_B, I_B, inv_I_B, dv, dwb, h);
}

/// Compliance, damping and relaxation of the joint corrections.
struct XpbdJointParams {
  real linear_compliance = 0;   // alpha of positional rows [m/N]
  real angular_compliance = 0;  // alpha of angular rows [rad/(N m)]
  real linear_damping = 0;      // b of positional rows [s]
  real angular_damping = 0;     // b of angular rows [s]
  real linear_relaxation = real(0.7);
  real angular_relaxation = real(0.4);
};

struct XpbdJointDelta {
  spatial_vector dP;  // impulse on the parent [N s, N m s], angular about the parent COM
  spatial_vector dC;  // impulse on the child
};

/// One positional row of a joint, with E3.4-joint-helper-denominator (xpbd_joint_denominator) (course E3 §4):
///   dlambda = -(err + alpha b derr) / den,   den = (h + alpha b) w + alpha / h   (xpbd_joint_denominator)
/// along unit direction n between anchors at lever arms r_p, r_c [m]; err [m], derr [m/s]. As in
/// Newton 1.6.1 (newton/_src/solvers/xpbd/kernels.py, solve_body_joints), the row's translation is
/// relaxed by lin_relaxation and its rotation (r x n dlambda) by ang_relaxation.
IMPULSE_HD inline void xpbd_joint_linear_row(const XpbdSide& P, const XpbdSide& C, vec3 r_p, vec3 r_c, vec3 n, real err,
                                             real derr, real alpha, real b, real lin_relaxation, real ang_relaxation,
                                             real h, XpbdJointDelta& out) {
  real w = xpbd_inverse_effective_mass(P.inv_m, P.inv_I, r_p, C.inv_m, C.inv_I, r_c, n);
  real den = xpbd_joint_denominator(h, w, alpha, b);
  if (!(den > 0)) return;
  const real dlambda = -(err + alpha * b * derr) / den;
  const vec3 lin_c = (lin_relaxation * dlambda) * n, ang_c = (ang_relaxation * dlambda) * n;
  out.dC.lin += lin_c;
  out.dC.ang += cross(r_c, ang_c);
  out.dP.lin -= lin_c;
  out.dP.ang -= cross(r_p, ang_c);
}

/// Which axis of the joint frame a unit axis is, or -1 when it is not one of them.
IMPULSE_HD inline int joint_frame_axis_index(vec3 a) {
  if (fabs(a.y) == 0 && fabs(a.z) == 0 && fabs(a.x) > 0) return 0;
  if (fabs(a.x) == 0 && fabs(a.z) == 0 && fabs(a.y) > 0) return 1;
  if (fabs(a.x) == 0 && fabs(a.y) == 0 && fabs(a.z) > 0) return 2;
  return -1;
}

/// One angular row: rotation error vector e [rad] (child relative to parent, world), same helper
/// with w = n^T I_P^-1 n + n^T I_C^-1 n.
IMPULSE_HD inline void xpbd_joint_angular_row(const XpbdSide& P, const XpbdSide& C, vec3 e, real derr, real alpha, real b,
                                              real relaxation, real h, XpbdJointDelta& out) {
  real theta = length(e);
  if (theta == 0) return;
  vec3 n = e / theta;
  real w = dot(n, P.inv_I * n) + dot(n, C.inv_I * n);
  real den = xpbd_joint_denominator(h, w, alpha, b);
  if (!(den > 0)) return;
  vec3 L = (relaxation * (-(theta + alpha * b * derr) / den)) * n;
  out.dC.ang += L;
  out.dP.ang -= L;
}

/// XPBD correction of one joint (REVOLUTE, PRISMATIC, BALL, FIXED, DISTANCE, D6 with 0, 1 or 3
/// angular axes; FREE has no rows). Linear rows remove the anchor separation in the locked
/// directions; angular rows remove the relative rotation (FIXED, PRISMATIC, D6 with no angular
/// axis) or the misalignment of the hinge axis (REVOLUTE, D6 with one angular axis).
IMPULSE_HD inline XpbdJointDelta xpbd_joint_delta(JointType type, const JointAxes& ax, const XpbdSide& P,
                                                  const XpbdSide& C, const transform& X_pj, const transform& X_cj,
                                                  real dist_min, real dist_max, const XpbdJointParams& prm, real h) {
  XpbdJointDelta out{};
  if (type == JointType::free) return out;
  transform Xwp = transform_multiply(P.X, X_pj), Xwc = transform_multiply(C.X, X_cj);
  vec3 r_p = Xwp.p - P.com, r_c = Xwc.p - C.com;
  vec3 dx = Xwc.p - Xwp.p;
  vec3 vrel = (C.v.lin + cross(C.v.ang, r_c)) - (P.v.lin + cross(P.v.ang, r_p));
  // Linear rows. Newton's form: one row per locked axis of the parent joint frame, all evaluated on
  // the same poses and summed (kernels.py, solve_body_joints), the parent lever arm taken at the
  // admissible point (the parent anchor moved along the free axes). A free linear axis that is not
  // a frame axis (a tilted PRISMATIC or D6 axis) is handled exactly instead: one row along the
  // locked part of the separation. Newton limits each frame coordinate separately there, which
  // frees the whole plane of the axis's non-zero components (verify/parity, xpbd-prismatic-tilted).
  if (type == JointType::distance) {
    real L = length(dx);
    real err = L > dist_max ? L - dist_max : (L < dist_min ? L - dist_min : 0);
    if (err != 0 && L > 0) {
      vec3 n = dx / L;
      xpbd_joint_linear_row(P, C, r_p, r_c, n, err, dot(vrel, n), prm.linear_compliance, prm.linear_damping,
                            prm.linear_relaxation, prm.angular_relaxation, h, out);
    }
    return out;
  }
  const int n_free = type == JointType::prismatic ? 1 : (type == JointType::d6 ? ax.n_lin : 0);
  bool free_dim[3] = {false, false, false}, aligned = true;
  for (int i = 0; i < n_free; ++i) {
    const int k = joint_frame_axis_index(ax.axis[i]);
    if (k < 0) aligned = false;
    else free_dim[k] = true;
  }
  if (aligned) {
    const vec3 e[3] = {quat_rotate(Xwp.q, {1, 0, 0}), quat_rotate(Xwp.q, {0, 1, 0}), quat_rotate(Xwp.q, {0, 0, 1})};
    vec3 admissible = Xwp.p;
    for (int k = 0; k < 3; ++k)
      if (free_dim[k]) admissible += dot(dx, e[k]) * e[k];
    const vec3 r_pa = admissible - P.com;
    for (int k = 0; k < 3; ++k) {
      if (free_dim[k]) continue;
      const real err = dot(dx, e[k]);
      const real derr = dot(C.v.lin + cross(C.v.ang, r_c), e[k]) - dot(P.v.lin + cross(P.v.ang, r_pa), e[k]);
      if (fabs(err) > real(1e-9) || fabs(derr) > real(1e-9))
        xpbd_joint_linear_row(P, C, r_pa, r_c, e[k], err, derr, prm.linear_compliance, prm.linear_damping,
                              prm.linear_relaxation, prm.angular_relaxation, h, out);
    }
  } else {
    vec3 a[3];
    for (int i = 0; i < n_free; ++i) a[i] = quat_rotate(Xwp.q, ax.axis[i]);
    real x[3];
    solve_along_axes(a, n_free, dx, x);
    vec3 locked = dx;
    for (int i = 0; i < n_free; ++i) locked -= x[i] * a[i];
    const real err = length(locked);
    if (err > 0) {
      const vec3 n = locked / err;
      xpbd_joint_linear_row(P, C, r_p + (dx - locked), r_c, n, err, dot(vrel, n), prm.linear_compliance,
                            prm.linear_damping, prm.linear_relaxation, prm.angular_relaxation, h, out);
    }
  }
  // Angular rows.
  vec3 e{};
  bool lock_all = type == JointType::fixed || type == JointType::prismatic || (type == JointType::d6 && ax.n_ang == 0);
  bool hinge = type == JointType::revolute || (type == JointType::d6 && ax.n_ang == 1);
  if (lock_all) {
    e = quat_rotate(Xwp.q, quat_rotation_vector(quat_mul(quat_conjugate(Xwp.q), Xwc.q)));
  } else if (hinge) {
    vec3 a_loc = type == JointType::revolute ? ax.axis[0] : ax.axis[ax.n_lin];
    vec3 a_p = quat_rotate(Xwp.q, a_loc), a_c = quat_rotate(Xwc.q, a_loc);
    vec3 c = cross(a_p, a_c);
    real s = length(c);
    if (s > 0) e = (atan2(s, dot(a_p, a_c)) / s) * c;
  }
  if (length(e) > 0) {
    vec3 n = normalize(e);
    xpbd_joint_angular_row(P, C, e, dot(C.v.ang - P.v.ang, n), prm.angular_compliance, prm.angular_damping,
                           prm.angular_relaxation, h, out);
  }
  return out;
}

/// Wrench that joint_f of one PRISMATIC, REVOLUTE or D6 joint applies to its child (the parent gets
/// the opposite): g [N or N m] per DOF along the world axes of the parent joint frame q_pj. FREE
/// and DISTANCE joints are handled by gather_body_wrenches; other types return zero.
IMPULSE_HD inline spatial_vector joint_force_on_child(JointType t, const JointAxes& ax, quat q_pj, const real* g) {
  spatial_vector w{};
  if (t == JointType::prismatic) w.lin = g[0] * quat_rotate(q_pj, ax.axis[0]);
  if (t == JointType::revolute) w.ang = g[0] * quat_rotate(q_pj, ax.axis[0]);
  if (t == JointType::d6) {
    for (int i = 0; i < ax.n_lin; ++i) w.lin += g[i] * quat_rotate(q_pj, ax.axis[i]);
    for (int i = 0; i < ax.n_ang; ++i) w.ang += g[ax.n_lin + i] * quat_rotate(q_pj, ax.axis[ax.n_lin + i]);
  }
  return w;
}

/// @formula E3.5-pgs-bounds  One velocity row of the restitution PGS (course E3 §5).
///   dlambda = (v_target - v_n) / w;  lambda_new = max(lambda + dlambda, lower);  returns lambda_new - lambda
/// lower = -bound in the first outer iteration (a bounded pull that removes projection
/// over-separation), 0 in the later ones. lambda, bound [N s]; v [m/s]; w [1/kg].
IMPULSE_HD inline real restitution_pgs_increment(real lambda, real v_target, real v_n, real w, real lower) {
  if (!(w > 0)) return 0;
  real next = lambda + (v_target - v_n) / w;
  if (next < lower) next = lower;
  return next - lambda;
}

}  // namespace impulse
