// Joint types, coordinate layout and the per-joint kinematics that eval_fk / eval_ik use (course E1 §2, §5).
//
// A joint connects a parent body (or the world, -1) to a child body. Its frames (Newton's names):
//   X_pj = parent_xform: the joint frame on the parent, in parent-body coordinates;
//   X_cj = child_xform:  the joint frame on the child, in child-body coordinates;
//   X_j(q):              the joint's motion, from the parent joint frame to the child joint frame.
// Joint velocities are relative twists (linear, angular) of the child expressed in the parent joint
// frame, the linear part referenced at the child COM (the course's §6 table for FREE/DISTANCE; the
// other types use the same convention). Axes are unit vectors in the joint frame, one per DOF,
// linear axes before angular ones.
#pragma once

#include "core/math.h"
#include "e1/constants.h"

namespace impulse {

/// Joint type codes, in Newton's order.
enum class JointType : int { prismatic = 0, revolute = 1, ball = 2, fixed = 3, free = 4, distance = 5, d6 = 6 };

IMPULSE_HD inline const char* joint_type_name(JointType t) {
  switch (t) {
    case JointType::prismatic: return "PRISMATIC";
    case JointType::revolute: return "REVOLUTE";
    case JointType::ball: return "BALL";
    case JointType::fixed: return "FIXED";
    case JointType::free: return "FREE";
    case JointType::distance: return "DISTANCE";
    case JointType::d6: return "D6";
  }
  return "?";
}

/// @formula E1.5-joint-dof-table  Number of configuration coordinates of a joint (course E1 §5):
///   PRISMATIC/REVOLUTE 1, BALL 4, FREE/DISTANCE 7, FIXED 0, D6 = n_lin + n_ang configured axes.
IMPULSE_HD inline int joint_coord_count(JointType t, int n_lin, int n_ang) {
  switch (t) {
    case JointType::prismatic:
    case JointType::revolute: return 1;
    case JointType::ball: return 4;
    case JointType::free:
    case JointType::distance: return 7;
    case JointType::fixed: return 0;
    case JointType::d6: return n_lin + n_ang;
  }
  return 0;
}

/// @formula E1.5-joint-dof-table  Number of velocity DOF of a joint (course E1 §5):
///   PRISMATIC/REVOLUTE 1, BALL 3, FREE/DISTANCE 6, FIXED 0, D6 = n_lin + n_ang.
IMPULSE_HD inline int joint_dof_count(JointType t, int n_lin, int n_ang) {
  switch (t) {
    case JointType::prismatic:
    case JointType::revolute: return 1;
    case JointType::ball: return 3;
    case JointType::free:
    case JointType::distance: return 6;
    case JointType::fixed: return 0;
    case JointType::d6: return n_lin + n_ang;
  }
  return 0;
}

/// @formula E1.5-qdot-map  Time derivative of an orientation quaternion under a world-frame angular
/// velocity (course E1 §5, §10): the quaternion block of qdot = N(q) v.
///   qdot = (1/2) (omega, 0) (x) q          [1/s]; omega [rad/s] in the frame q maps into
/// Four numbers for three DOF: q and qd of a FREE or BALL joint cannot be added elementwise.
IMPULSE_HD inline quat quat_rate(quat q, vec3 omega) {
  quat w{omega.x, omega.y, omega.z, 0};
  quat d = quat_mul(w, q);
  return {real(0.5) * d.x, real(0.5) * d.y, real(0.5) * d.z, real(0.5) * d.w};
}

/// Rotation angle of q about the unit axis a (the twist part of a swing-twist split), in (-pi, pi].
IMPULSE_HD inline real quat_twist_angle(quat q, vec3 a) {
  real s = q.x * a.x + q.y * a.y + q.z * a.z;
  real ang = 2 * atan2(s, q.w);
  if (ang > kPi) ang -= 2 * kPi;
  if (ang <= -kPi) ang += 2 * kPi;
  return ang;
}

/// Axes of one joint: n_lin linear then n_ang angular unit axes in the joint frame. PRISMATIC uses
/// one linear axis, REVOLUTE one angular axis, D6 its configured axes; the others use none.
struct JointAxes {
  int n_lin = 0;
  int n_ang = 0;
  vec3 axis[6];
};

/// Solves sum_i a_i x_i = b in the least-squares sense for n <= 3 linearly independent axes
/// (normal equations G x = A^T b, G_ij = a_i . a_j, Gaussian elimination with partial pivoting).
IMPULSE_HD inline void solve_along_axes(const vec3* a, int n, vec3 b, real* x) {
  real G[3][4];
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) G[i][j] = dot(a[i], a[j]);
    G[i][n] = dot(a[i], b);
  }
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (fabs(G[r][c]) > fabs(G[p][c])) p = r;
    for (int k = 0; k <= n; ++k) {
      real t = G[c][k];
      G[c][k] = G[p][k];
      G[p][k] = t;
    }
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      real f = G[r][c] / G[c][c];
      for (int k = c; k <= n; ++k) G[r][k] -= f * G[c][k];
    }
  }
  for (int i = 0; i < n; ++i) x[i] = G[i][n] / G[i][i];
}

/// Rotation of a D6 joint: the product of rotations by q_ang[k] about its angular axes, in order.
/// Also returns the world-in-joint-frame direction b_k of each angular axis after the preceding
/// rotations, so that omega_rel = sum_k b_k qd_k.
IMPULSE_HD inline quat d6_rotation(const JointAxes& ax, const real* q_ang, vec3* b) {
  quat r = quat_identity();
  for (int k = 0; k < ax.n_ang; ++k) {
    vec3 a = ax.axis[ax.n_lin + k];
    if (b) b[k] = quat_rotate(r, a);
    r = quat_mul(r, quat_from_axis_angle(a, q_ang[k]));
  }
  return r;
}

/// Part of E1.2-joint-chain (tagged on fk_joint): the joint's motion transform X_j(q) = T_{Jp,Jc}(q) (course E1 §2).
///   PRISMATIC (a q, 1)   REVOLUTE (0, rot(a, q))   BALL (0, q[0:4])   FIXED identity
///   FREE/DISTANCE (q[0:3], q[3:7])   D6 (sum_i a_i q_i, prod_k rot(a_k, q_k))
IMPULSE_HD inline transform joint_transform(JointType t, const real* q, const JointAxes& ax) {
  switch (t) {
    case JointType::prismatic: return {q[0] * ax.axis[0], quat_identity()};
    case JointType::revolute: return {vec3{}, quat_from_axis_angle(ax.axis[0], q[0])};
    case JointType::ball: return {vec3{}, quat{q[0], q[1], q[2], q[3]}};
    case JointType::free:
    case JointType::distance: return {vec3{q[0], q[1], q[2]}, quat{q[3], q[4], q[5], q[6]}};
    case JointType::fixed: return transform_identity();
    case JointType::d6: {
      vec3 p{};
      for (int i = 0; i < ax.n_lin; ++i) p += q[i] * ax.axis[i];
      return {p, d6_rotation(ax, q + ax.n_lin, nullptr)};
    }
  }
  return transform_identity();
}

/// Relative twist of the child, expressed in the parent joint frame, linear part at the child COM.
struct JointTwist {
  vec3 v;      // [m/s]
  vec3 omega;  // [rad/s]
};

/// Relative twist of the child from the joint velocities qd. c_pj [m] is the child COM in the parent
/// joint frame (X_j applied to the COM in the child joint frame).
IMPULSE_HD inline JointTwist joint_twist(JointType t, const real* q, const real* qd, const JointAxes& ax, vec3 c_pj) {
  switch (t) {
    case JointType::prismatic: return {qd[0] * ax.axis[0], vec3{}};
    case JointType::revolute: {
      vec3 w = qd[0] * ax.axis[0];
      return {cross(w, c_pj), w};
    }
    case JointType::ball: {
      vec3 w{qd[0], qd[1], qd[2]};
      return {cross(w, c_pj), w};
    }
    case JointType::free:
    case JointType::distance: return {vec3{qd[0], qd[1], qd[2]}, vec3{qd[3], qd[4], qd[5]}};
    case JointType::fixed: return {vec3{}, vec3{}};
    case JointType::d6: {
      vec3 b[3];
      d6_rotation(ax, q + ax.n_lin, b);
      vec3 v{}, w{}, p{};
      for (int i = 0; i < ax.n_lin; ++i) {
        v += qd[i] * ax.axis[i];
        p += q[i] * ax.axis[i];
      }
      for (int k = 0; k < ax.n_ang; ++k) w += qd[ax.n_lin + k] * b[k];
      return {v + cross(w, c_pj - p), w};
    }
  }
  return {vec3{}, vec3{}};
}

/// Inverse of joint_transform: the coordinates q of a joint whose motion transform is X_j. The
/// components X_j cannot express (e.g. a rotation about another axis of a revolute joint) are
/// dropped; REVOLUTE and D6 angles are returned in (-pi, pi]. D6 with two or three angular axes
/// needs them orthonormal (checked by finalize) and a middle angle in (-pi/2, pi/2).
IMPULSE_HD inline void joint_coords_from_transform(JointType t, const transform& X_j, const JointAxes& ax, real* q) {
  switch (t) {
    case JointType::prismatic: q[0] = dot(X_j.p, ax.axis[0]); return;
    case JointType::revolute: q[0] = quat_twist_angle(X_j.q, ax.axis[0]); return;
    case JointType::ball: q[0] = X_j.q.x; q[1] = X_j.q.y; q[2] = X_j.q.z; q[3] = X_j.q.w; return;
    case JointType::free:
    case JointType::distance:
      q[0] = X_j.p.x; q[1] = X_j.p.y; q[2] = X_j.p.z;
      q[3] = X_j.q.x; q[4] = X_j.q.y; q[5] = X_j.q.z; q[6] = X_j.q.w;
      return;
    case JointType::fixed: return;
    case JointType::d6: {
      if (ax.n_lin > 0) solve_along_axes(ax.axis, ax.n_lin, X_j.p, q);
      real* qa = q + ax.n_lin;
      const vec3* a = ax.axis + ax.n_lin;
      if (ax.n_ang == 1) {
        qa[0] = quat_twist_angle(X_j.q, a[0]);
      } else if (ax.n_ang >= 2) {
        // Intrinsic rotations about orthonormal a1, a2, a3 are X-Y-Z Euler angles in the basis B = [a1 a2 a3].
        vec3 a3 = cross(a[0], a[1]);
        real sign3 = (ax.n_ang == 3 && dot(a[2], a3) < 0) ? real(-1) : real(1);
        mat33 R = quat_to_mat33(X_j.q);
        vec3 B[3] = {a[0], a[1], a3};
        real Rp[3][3];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) Rp[i][j] = dot(B[i], R * B[j]);
        real s2 = Rp[0][2] > 1 ? real(1) : (Rp[0][2] < -1 ? real(-1) : Rp[0][2]);
        qa[0] = atan2(-Rp[1][2], Rp[2][2]);
        qa[1] = asin(s2);
        if (ax.n_ang == 3) qa[2] = sign3 * atan2(-Rp[0][1], Rp[0][0]);
      }
      return;
    }
  }
}

/// Inverse of joint_twist: joint velocities qd from the relative twist (parent joint frame, linear
/// part at the child COM c_pj [m]) and the joint's coordinates q.
IMPULSE_HD inline void joint_speeds_from_twist(JointType t, const real* q, const JointAxes& ax, const JointTwist& tw,
                                               vec3 c_pj, real* qd) {
  switch (t) {
    case JointType::prismatic: qd[0] = dot(tw.v, ax.axis[0]); return;
    case JointType::revolute: qd[0] = dot(tw.omega, ax.axis[0]); return;
    case JointType::ball: qd[0] = tw.omega.x; qd[1] = tw.omega.y; qd[2] = tw.omega.z; return;
    case JointType::free:
    case JointType::distance:
      qd[0] = tw.v.x; qd[1] = tw.v.y; qd[2] = tw.v.z;
      qd[3] = tw.omega.x; qd[4] = tw.omega.y; qd[5] = tw.omega.z;
      return;
    case JointType::fixed: return;
    case JointType::d6: {
      vec3 b[3];
      d6_rotation(ax, q + ax.n_lin, b);
      if (ax.n_ang > 0) solve_along_axes(b, ax.n_ang, tw.omega, qd + ax.n_lin);
      vec3 p{};
      for (int i = 0; i < ax.n_lin; ++i) p += q[i] * ax.axis[i];
      if (ax.n_lin > 0) solve_along_axes(ax.axis, ax.n_lin, tw.v - cross(tw.omega, c_pj - p), qd);
      return;
    }
  }
}

/// E1.5-qdot-map (tagged on quat_rate) applied over one step of the joint coordinates, q_{n+1} = q_n + h N(q_n) qd
/// (course E1 §5). Scalar coordinates add h qd; quaternion blocks follow quat_rate and are
/// renormalised; a FREE/DISTANCE position moves by h (v - omega x R_j c_jc), because qd's linear
/// part is the child COM velocity and q[0:3] the child joint origin. c_jc [m]: the child COM in the
/// child joint frame. Units: q as the joint's coordinates, qd [m/s or rad/s], h [s].
IMPULSE_HD inline void integrate_joint_coords(JointType t, const real* q, const real* qd, const JointAxes& ax,
                                              vec3 c_jc, real h, real* q_out) {
  int nq = joint_coord_count(t, ax.n_lin, ax.n_ang);
  if (t == JointType::ball || t == JointType::free || t == JointType::distance) {
    int o = t == JointType::ball ? 0 : 3;
    quat r{q[o], q[o + 1], q[o + 2], q[o + 3]};
    vec3 w = t == JointType::ball ? vec3{qd[0], qd[1], qd[2]} : vec3{qd[3], qd[4], qd[5]};
    if (o == 3) {
      vec3 v = vec3{qd[0], qd[1], qd[2]} - cross(w, quat_rotate(r, c_jc));
      q_out[0] = q[0] + h * v.x;
      q_out[1] = q[1] + h * v.y;
      q_out[2] = q[2] + h * v.z;
    }
    quat d = quat_rate(r, w);
    quat n = quat_normalize({r.x + h * d.x, r.y + h * d.y, r.z + h * d.z, r.w + h * d.w});
    q_out[o] = n.x; q_out[o + 1] = n.y; q_out[o + 2] = n.z; q_out[o + 3] = n.w;
    return;
  }
  for (int i = 0; i < nq; ++i) q_out[i] = q[i] + h * qd[i];
}

}  // namespace impulse
