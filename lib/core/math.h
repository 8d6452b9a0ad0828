// Small fixed-size math on plain data: vec3, quat (x, y, z, w), mat33, transform.
//
// Everything here is IMPULSE_HD and allocation-free so that kernels on either backend use the
// same functions as the formula tests. Conventions (course E1 §2):
//   - quaternions are stored (x, y, z, w), scalar last, unit norm; q and -q are one rotation;
//   - a transform T = (p, q) maps body coordinates to world: x^W = R(q) x^B + p;
//   - mat33 is row-major: m[r][c].
#pragma once

#include <cmath>

#include "core/hd.h"

namespace impulse {

struct vec3 {
  real x = 0, y = 0, z = 0;
};

IMPULSE_HD inline vec3 operator+(vec3 a, vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
IMPULSE_HD inline vec3 operator-(vec3 a, vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
IMPULSE_HD inline vec3 operator-(vec3 a) { return {-a.x, -a.y, -a.z}; }
IMPULSE_HD inline vec3 operator*(real s, vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
IMPULSE_HD inline vec3 operator*(vec3 a, real s) { return {s * a.x, s * a.y, s * a.z}; }
IMPULSE_HD inline vec3 operator/(vec3 a, real s) { return {a.x / s, a.y / s, a.z / s}; }
IMPULSE_HD inline vec3& operator+=(vec3& a, vec3 b) { a = a + b; return a; }
IMPULSE_HD inline vec3& operator-=(vec3& a, vec3 b) { a = a - b; return a; }
IMPULSE_HD inline real dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
IMPULSE_HD inline vec3 cross(vec3 a, vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
IMPULSE_HD inline real length(vec3 a) { return sqrt(dot(a, a)); }
IMPULSE_HD inline vec3 normalize(vec3 a) { return a / length(a); }

/// A tangent basis of the plane with unit normal n: t1 = normalize(n x e), e the x axis unless n is
/// within ~55 degrees of it (then the y axis), and t2 = n x t1; (t1, t2, n) is right-handed.
IMPULSE_HD inline void tangent_basis(vec3 n, vec3& t1, vec3& t2) {
  t1 = normalize(cross(n, (n.x < real(0.57) && n.x > real(-0.57)) ? vec3{1, 0, 0} : vec3{0, 1, 0}));
  t2 = cross(n, t1);
}

/// Unit quaternion, scalar last: (x, y, z, w) = (a_hat sin(theta/2), cos(theta/2)).
struct quat {
  real x = 0, y = 0, z = 0, w = 1;
};

IMPULSE_HD inline quat quat_identity() { return {0, 0, 0, 1}; }
IMPULSE_HD inline real quat_norm(quat q) { return sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); }
IMPULSE_HD inline quat quat_normalize(quat q) {
  real n = quat_norm(q);
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}
IMPULSE_HD inline quat quat_negate(quat q) { return {-q.x, -q.y, -q.z, -q.w}; }
IMPULSE_HD inline quat quat_conjugate(quat q) { return {-q.x, -q.y, -q.z, q.w}; }

/// Hamilton product a * b (apply b first, then a).
IMPULSE_HD inline quat quat_mul(quat a, quat b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
          a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

/// @formula E1.2-axis-angle  q = (a_hat sin(theta/2), cos(theta/2)) (course E1 §2).
/// Quaternion of a rotation by theta about the unit axis a_hat.
///   q = (a_hat sin(theta/2), cos(theta/2))        layout (x, y, z, w)
/// Units: theta [rad]; a_hat dimensionless and unit length (normalised here, must be non-zero).
/// @param axis [-] rotation axis (normalised)
/// @param theta [rad] rotation angle
/// @return q [-] unit quaternion (x,y,z,w)
IMPULSE_HD inline quat quat_from_axis_angle(vec3 axis, real theta) {
  vec3 a = normalize(axis);
  real s = sin(real(0.5) * theta);
  return {a.x * s, a.y * s, a.z * s, cos(real(0.5) * theta)};
}

/// Rotation vector (unit axis times angle, angle in [0, pi]: the shorter way round) of a unit
/// quaternion [rad]; the inverse of quat_from_axis_angle up to the sign of q.
IMPULSE_HD inline vec3 quat_rotation_vector(quat q) {
  if (q.w < 0) q = quat_negate(q);
  vec3 u{q.x, q.y, q.z};
  real s = length(u);
  if (!(s > 0)) return vec3{};
  return (2 * atan2(s, q.w) / s) * u;
}

/// Rotate a vector by a unit quaternion: v' = q v q^*, expanded as
///   v' = v + 2 w (u x v) + 2 u x (u x v),   u = (x, y, z).
/// Sign-invariant: rotate(q, v) == rotate(-q, v) (course E1.2-quat-xyzw).
IMPULSE_HD inline vec3 quat_rotate(quat q, vec3 v) {
  vec3 u{q.x, q.y, q.z};
  vec3 t = real(2) * cross(u, v);
  return v + q.w * t + cross(u, t);
}
IMPULSE_HD inline vec3 quat_rotate_inv(quat q, vec3 v) { return quat_rotate(quat_conjugate(q), v); }

struct mat33 {
  real m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
};

IMPULSE_HD inline mat33 mat33_identity() {
  mat33 r;
  r.m[0][0] = r.m[1][1] = r.m[2][2] = 1;
  return r;
}
IMPULSE_HD inline mat33 mat33_diag(vec3 d) {
  mat33 r;
  r.m[0][0] = d.x;
  r.m[1][1] = d.y;
  r.m[2][2] = d.z;
  return r;
}
IMPULSE_HD inline vec3 operator*(const mat33& a, vec3 v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
          a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}
IMPULSE_HD inline mat33 operator*(const mat33& a, const mat33& b) {
  mat33 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  return r;
}
IMPULSE_HD inline mat33 operator+(const mat33& a, const mat33& b) {
  mat33 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] + b.m[i][j];
  return r;
}
IMPULSE_HD inline mat33 operator*(real s, const mat33& a) {
  mat33 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = s * a.m[i][j];
  return r;
}
IMPULSE_HD inline mat33 transpose(const mat33& a) {
  mat33 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[j][i];
  return r;
}
IMPULSE_HD inline real determinant(const mat33& a) {
  return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
         a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
         a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}

/// @formula E1.2-rotation-orthonormal  Rotation matrix of a unit quaternion (course E1 §2).
///   R(q) has R^T R = I and det R = +1; its columns are the body axes expressed in world.
///   R(q) = R(-q).
IMPULSE_HD inline mat33 quat_to_mat33(quat q) {
  real xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  real xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  real wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  mat33 r;
  r.m[0][0] = 1 - 2 * (yy + zz); r.m[0][1] = 2 * (xy - wz);     r.m[0][2] = 2 * (xz + wy);
  r.m[1][0] = 2 * (xy + wz);     r.m[1][1] = 1 - 2 * (xx + zz); r.m[1][2] = 2 * (yz - wx);
  r.m[2][0] = 2 * (xz - wy);     r.m[2][1] = 2 * (yz + wx);     r.m[2][2] = 1 - 2 * (xx + yy);
  return r;
}

/// Rigid transform T_WB = (p_WB, q_WB): body origin [m] and orientation, both in the parent frame.
struct transform {
  vec3 p;
  quat q;
};

IMPULSE_HD inline transform transform_identity() { return {vec3{}, quat_identity()}; }

/// @formula E1.2-rigid-transform  Map a point from body to world coordinates (course E1 §2).
///   x^W = R_WB x^B + p_WB          [m]
/// Scope: points. For free vectors use transform_vector (E1.2-point-vs-vector).
IMPULSE_HD inline vec3 transform_point(const transform& t, vec3 x) { return quat_rotate(t.q, x) + t.p; }

/// @formula E1.2-point-vs-vector  A free vector (velocity, force, axis) is only rotated:
///   v^W = R_WB v^B                  (no translation, unlike a point)
IMPULSE_HD inline vec3 transform_vector(const transform& t, vec3 v) { return quat_rotate(t.q, v); }

/// Composition of rigid transforms (course E1 §2): the second half of E1.2-rigid-transform,
/// whose tag is on transform_point.
///   T_WC = T_WB T_BC:  R_WC = R_WB R_BC,  p_WC = R_WB p_BC + p_WB
IMPULSE_HD inline transform transform_multiply(const transform& a, const transform& b) {
  return {transform_point(a, b.p), quat_mul(a.q, b.q)};
}

/// Inverse transform: T^-1 = (-R^T p, q^*), so that T^-1 T = identity.
IMPULSE_HD inline transform transform_inverse(const transform& t) {
  quat qi = quat_conjugate(t.q);
  return {-quat_rotate(qi, t.p), qi};
}

/// Machine epsilon of real: the spacing of reals just above 1 [-].
#if defined(IMPULSE_SINGLE_PRECISION)
constexpr real kRealEpsilon = real(1.1920928955078125e-07);  // 2^-23
#else
constexpr real kRealEpsilon = real(2.220446049250313e-16);   // 2^-52
#endif

/// A tolerance tuned (and verified) in double, kept above the rounding of real: with coordinates
/// of size scale, a computed length carries an error of a few eps * scale, so a test against a
/// tolerance below that never passes in float32 (GJK would not see two touching cores meet).
///   double:  tol                                (the double build's value, unchanged)
///   float32: max(tol, ulps * eps_float * scale)
IMPULSE_HD inline real precision_tolerance(real tol, real ulps, real scale) {
#if defined(IMPULSE_SINGLE_PRECISION)
  const real floor = ulps * kRealEpsilon * scale;
  return floor > tol ? floor : tol;
#else
  (void)ulps, (void)scale;
  return tol;
#endif
}

}  // namespace impulse
