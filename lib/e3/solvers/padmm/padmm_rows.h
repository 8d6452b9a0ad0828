// The rows of SolverPADMM's Delassus problem (course E3 §1, §6): joint rows (bilateral, one scalar
// each), contact rows (three scalars each: normal, two tangents), and the entries of W = J M^-1 J^T
// between any two scalar rows. Device-safe: plain structs and IMPULSE_HD formulas, so that a kernel
// item builds its own rows and its island's block of W.
#pragma once

#include <vector>

#include "core/hd.h"
#include "core/math.h"
#include "core/spatial.h"
#include "e1/joints.h"
#include "e3/joints/maximal_joint.h"

namespace impulse {

/// One contact row of the Delassus problem: bodies, contact frame and lever arms.
struct PADMMContactRow {
  int body0 = -1, body1 = -1;  // -1: static
  vec3 n, t1, t2;              // world contact frame, n from shape0 to shape1
  vec3 r0, r1;                 // [m] lever arms from each COM (world origin for a static side) to its point
  real d = 0;                  // [m] gap
  real mu = 0;                 // [-]
};

/// One scalar bilateral (equality) row of a joint: after the step u = g0 . V0 + g1 . V1 + bias must
/// be 0, V = (v_C [m/s], omega [rad/s]) of each body, world. Its impulse has no bound.
struct PADMMJointRow {
  int joint = -1;              // joint ID
  int body0 = -1, body1 = -1;  // parent and child body, -1: the world
  spatial_vector g0{};         // on body0: lin [-], ang [m] for a linear row; lin 0, ang [-] for an angular one
  spatial_vector g1{};         // on body1
  real c = 0;                  // [m] linear or [rad] angular position error of the row (0 when satisfied)
};

/// Per-body inverse mass data of the Delassus operator (zero for kinematic bodies).
struct PADMMBodyInverse {
  real inv_m = 0;    // [1/kg]
  mat33 inv_I_w{};   // [1/(kg m^2)] world
};

/// One scalar row of J: its two bodies and the 1 x 6 blocks on each (zero on body -1).
struct PADMMScalarRow {
  int body0 = -1, body1 = -1;
  spatial_vector g0{}, g1{};
};

/// Rows of one joint type: BALL 3, REVOLUTE 5, PRISMATIC 5, FIXED 6, FREE and any other 0.
IMPULSE_HD inline int joint_row_count(JointType t) {
  return t == JointType::ball ? 3 : t == JointType::revolute || t == JointType::prismatic ? 5 : t == JointType::fixed ? 6 : 0;
}

/// The rows of one joint, written at out (joint_row_count(type) of them; g0 stays zero when body0
/// = -1): the formulas of E3.6-kamino-overview, documented on append_joint_rows (solver_padmm.h),
/// the host form that tests and the course call.
IMPULSE_HD inline void write_joint_rows(int joint, JointType type, int body0, int body1, const transform& Xp,
                                        const transform& Xc, vec3 c_p, vec3 c_c, const JointAxes& axes,
                                        PADMMJointRow* out) {
  if (joint_row_count(type) == 0) return;
  const vec3 r_p = Xp.p - c_p, r_c = Xc.p - c_c;
  // The constrained errors C of the rows, shared with the penalty and VBD joints (maximal_joint.h).
  const JointErrors err = joint_errors(type, axes, JointFrames{Xp, Xc, r_p, r_c});
  int k = 0;
  auto add = [&](spatial_vector g1, spatial_vector g0, real c) {
    PADMMJointRow& r = out[k++];
    r = PADMMJointRow{};
    r.joint = joint;
    r.body0 = body0;
    r.body1 = body1;
    if (body0 >= 0) r.g0 = g0;
    r.g1 = g1;
    r.c = c;
  };
  auto lin = [](vec3 e, vec3 r) { return spatial_vector{e, cross(r, e)}; };
  auto ang = [](vec3 e) { return spatial_vector{vec3{}, e}; };
  auto neg = [](spatial_vector g) { return spatial_vector{-g.lin, -g.ang}; };
  const vec3 E[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  if (type != JointType::prismatic)
    for (vec3 e : E) add(lin(e, r_c), neg(lin(e, r_p)), dot(e, err.lin));
  if (type == JointType::revolute) {
    vec3 b[2];
    tangent_basis(err.axis_p, b[0], b[1]);
    for (vec3 e : b) add(ang(e), neg(ang(e)), dot(e, err.ang));
  }
  if (type == JointType::fixed || type == JointType::prismatic)
    for (vec3 e : E) add(ang(e), neg(ang(e)), dot(e, err.ang));
  if (type == JointType::prismatic) {
    vec3 b[2];
    tangent_basis(err.axis_p, b[0], b[1]);
    for (vec3 e : b) add(lin(e, r_c), neg(lin(e, Xc.p - c_p)), dot(e, err.lin));
  }
}

/// Scalar row a (0: normal, 1: t1, 2: t2) of a contact: with e the direction,
///   G_a = s [e, r x e] on each body (s = +1, r = r1 on body1; s = -1, r = r0 on body0),
/// the contact velocity of direction e from the twists (v_C, omega) of the two bodies.
IMPULSE_HD inline PADMMScalarRow contact_scalar_row(const PADMMContactRow& c, int a) {
  const vec3 e = a == 0 ? c.n : a == 1 ? c.t1 : c.t2;
  PADMMScalarRow s;
  s.body0 = c.body0;
  s.body1 = c.body1;
  if (c.body1 >= 0) s.g1 = {e, cross(c.r1, e)};
  if (c.body0 >= 0) s.g0 = {-e, -cross(c.r0, e)};
  return s;
}

IMPULSE_HD inline PADMMScalarRow joint_scalar_row(const PADMMJointRow& r) { return {r.body0, r.body1, r.g0, r.g1}; }

/// g . M_k^-1 h for two 1 x 6 blocks on one body k:  g_lin . (inv_m h_lin) + g_ang . (I_w^-1 h_ang).
IMPULSE_HD inline real inverse_mass_product(const spatial_vector& g, const PADMMBodyInverse& k, const spatial_vector& h) {
  return dot(g.lin, k.inv_m * h.lin) + dot(g.ang, k.inv_I_w * h.ang);
}

/// One entry of the Delassus operator (E3.1-delassus) W = J M^-1 J^T (course E3 §1):
///   W_ac = sum over bodies k shared by rows a and c of G_ak M_k^-1 G_ck^T
/// summed in increasing k. [1/kg] between linear rows, [1/(kg m)] linear-angular, [1/(kg m^2)]
/// angular. A row whose two sides name one body couples nothing (it has no entries).
IMPULSE_HD inline real delassus_entry(const PADMMScalarRow& a, const PADMMScalarRow& c, const PADMMBodyInverse* bodies) {
  if (a.body0 == a.body1 || c.body0 == c.body1) return 0;
  const bool lo_first = a.body0 < a.body1;  // visit a's bodies in increasing order
  const int ka[2] = {lo_first ? a.body0 : a.body1, lo_first ? a.body1 : a.body0};
  const spatial_vector ga[2] = {lo_first ? a.g0 : a.g1, lo_first ? a.g1 : a.g0};
  real w = 0;
  for (int i = 0; i < 2; ++i) {
    const int k = ka[i];
    if (k < 0) continue;
    if (k == c.body0) w += inverse_mass_product(c.g0, bodies[k], ga[i]);
    if (k == c.body1) w += inverse_mass_product(c.g1, bodies[k], ga[i]);
  }
  return w;
}

}  // namespace impulse
