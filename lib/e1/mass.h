// Mass, centre of mass and inertia of primitive shapes and of bodies made of them (course E1 §3).
//
// Every inertia here is about the centre of mass named next to it. A shape's inertia is expressed in
// the shape's own axes; a body's (body_inertia) in the body's axes. Primitives follow Newton's
// conventions: box by half extents, capsule, cylinder and cone along the shape's local z axis with a
// half height, sphere by radius; a plane has no volume and so no mass.
#pragma once

#include "core/math.h"
#include "e1/constants.h"

namespace impulse {

/// Mass [kg], centre of mass com [m] (in the frame of the owner) and inertia I [kg m^2] about com.
struct MassProperties {
  real mass = 0;
  vec3 com;
  mat33 inertia;
};


/// @formula E1.3-box-mass-inertia  Uniform solid box of full size (2hx, 2hy, 2hz) (course E1 §3).
///   m    = 8 rho hx hy hz                                   [kg]
///   I_xx = (m/3)(hy^2 + hz^2), I_yy = (m/3)(hx^2 + hz^2), I_zz = (m/3)(hx^2 + hy^2)   [kg m^2]
/// COM at the box centre; off-diagonal terms are zero in the box axes. rho [kg/m^3], h [m] >= 0.
IMPULSE_HD inline MassProperties box_mass_properties(real rho, real hx, real hy, real hz) {
  MassProperties p;
  p.mass = 8 * rho * hx * hy * hz;
  real k = p.mass / 3;
  p.inertia = mat33_diag({k * (hy * hy + hz * hz), k * (hx * hx + hz * hz), k * (hx * hx + hy * hy)});
  return p;
}

/// Uniform solid sphere of radius r [m]: m = (4/3) pi r^3 rho, I = (2/5) m r^2 on every axis.
IMPULSE_HD inline MassProperties sphere_mass_properties(real rho, real r) {
  MassProperties p;
  p.mass = real(4) / 3 * kPi * r * r * r * rho;
  real i = real(0.4) * p.mass * r * r;
  p.inertia = mat33_diag({i, i, i});
  return p;
}

/// Uniform solid cylinder along local z, radius r [m], half height hh [m] (length L = 2 hh):
///   m = rho pi r^2 L,  I_zz = m r^2 / 2,  I_xx = I_yy = m (3 r^2 + L^2) / 12.
IMPULSE_HD inline MassProperties cylinder_mass_properties(real rho, real r, real hh) {
  MassProperties p;
  real L = 2 * hh;
  p.mass = rho * kPi * r * r * L;
  real ixx = p.mass * (3 * r * r + L * L) / 12;
  p.inertia = mat33_diag({ixx, ixx, p.mass * r * r / 2});
  return p;
}

/// Uniform solid cone along local z, base radius r [m] at z = -hh, apex at z = +hh (Newton's cone;
/// the origin is half way up the axis). With L = 2 hh:
///   m = rho pi r^2 L / 3,  com = (0, 0, -L/4)
///   I_xx = I_yy = (3/20) m r^2 + (3/80) m L^2,  I_zz = (3/10) m r^2     (about the COM)
IMPULSE_HD inline MassProperties cone_mass_properties(real rho, real r, real hh) {
  MassProperties p;
  real L = 2 * hh;
  p.mass = rho * kPi * r * r * L / 3;
  p.com = {0, 0, -L / 4};
  real ixx = real(3) / 20 * p.mass * r * r + real(3) / 80 * p.mass * L * L;
  p.inertia = mat33_diag({ixx, ixx, real(3) / 10 * p.mass * r * r});
  return p;
}

/// Uniform solid capsule along local z: a cylinder of radius r and half height hh [m] capped by two
/// hemispheres of radius r. With L = 2 hh, m_c = rho pi r^2 L and m_s = (4/3) rho pi r^3:
///   I_zz = m_c r^2/2 + (2/5) m_s r^2
///   I_xx = I_yy = m_c (L^2/12 + r^2/4) + m_s (2 r^2/5 + L^2/4 + 3 L r/8)
IMPULSE_HD inline MassProperties capsule_mass_properties(real rho, real r, real hh) {
  real L = 2 * hh;
  real m_c = rho * kPi * r * r * L;
  real m_s = real(4) / 3 * rho * kPi * r * r * r;
  MassProperties p;
  p.mass = m_c + m_s;
  real ixx = m_c * (L * L / 12 + r * r / 4) + m_s * (real(0.4) * r * r + L * L / 4 + real(3) * L * r / 8);
  p.inertia = mat33_diag({ixx, ixx, m_c * r * r / 2 + real(0.4) * m_s * r * r});
  return p;
}

/// @formula E1.3-parallel-axis  Re-express an inertia in other axes and move it to another point
/// (course E1 §3).
///   I_O = R I_C R^T + m ((d^T d) I_3 - d d^T)                 [kg m^2]
/// I_C about the COM in its own axes, R rotates those axes into the target axes, d [m] = offset
/// between the COM and the new point O in the target axes (its sign does not matter), m [kg].
IMPULSE_HD inline mat33 inertia_transform(const mat33& I_C, const mat33& R, real m, vec3 d) {
  mat33 I = R * I_C * transpose(R);
  real dd = dot(d, d);
  real dv[3] = {d.x, d.y, d.z};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) I.m[i][j] += m * ((i == j ? dd : 0) - dv[i] * dv[j]);
  return I;
}

/// Mass properties of a shape placed in its body with the body-relative pose X_BS: the COM moves to
/// X_BS(com) and the inertia is rotated into body axes (still about the shape's own COM).
IMPULSE_HD inline MassProperties mass_in_body(const MassProperties& shape, const transform& X_BS) {
  MassProperties p;
  p.mass = shape.mass;
  p.com = transform_point(X_BS, shape.com);
  p.inertia = inertia_transform(shape.inertia, quat_to_mat33(X_BS.q), 0, vec3{});
  return p;
}

/// @formula E1.3-combined-com  Combine two mass distributions given in the same axes (course E1 §3).
///   c = (m_a c_a + m_b c_b) / (m_a + m_b)
///   I = sum_i [ I_i + m_i (|d_i|^2 I_3 - d_i d_i^T) ],  d_i = c_i - c      [kg m^2]
/// First the new COM, then each part's inertia shifted to it, then the sum (Newton's
/// ModelBuilder._update_body_mass path). Either part may have zero mass; both zero gives zero.
IMPULSE_HD inline MassProperties combine_mass(const MassProperties& a, const MassProperties& b) {
  MassProperties p;
  p.mass = a.mass + b.mass;
  if (p.mass <= 0) return p;
  p.com = (a.mass * a.com + b.mass * b.com) / p.mass;
  mat33 R = mat33_identity();
  p.inertia = inertia_transform(a.inertia, R, a.mass, a.com - p.com) +
              inertia_transform(b.inertia, R, b.mass, b.com - p.com);
  return p;
}

/// @formula E1.4-scaling-laws  Uniform scaling by s > 0 of a geometrically similar body (course E1 §4).
///   density kept:  mass *= s^3,  I_COM *= s^5
///   mass kept:     I_COM *= s^2
/// Two different assumptions; the COM length scales by s in both.
IMPULSE_HD inline MassProperties scale_mass_properties(const MassProperties& p, real s, bool keep_density) {
  MassProperties r;
  real s2 = s * s;
  r.mass = keep_density ? p.mass * s2 * s : p.mass;
  r.com = s * p.com;
  r.inertia = (keep_density ? s2 * s2 * s : s2) * p.inertia;
  return r;
}

/// Inverse of a 3x3 matrix by the adjugate; requires det != 0 (used for SPD inertias).
IMPULSE_HD inline mat33 inverse(const mat33& a) {
  mat33 r;
  real det = determinant(a);
  r.m[0][0] = (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) / det;
  r.m[0][1] = (a.m[0][2] * a.m[2][1] - a.m[0][1] * a.m[2][2]) / det;
  r.m[0][2] = (a.m[0][1] * a.m[1][2] - a.m[0][2] * a.m[1][1]) / det;
  r.m[1][0] = (a.m[1][2] * a.m[2][0] - a.m[1][0] * a.m[2][2]) / det;
  r.m[1][1] = (a.m[0][0] * a.m[2][2] - a.m[0][2] * a.m[2][0]) / det;
  r.m[1][2] = (a.m[0][2] * a.m[1][0] - a.m[0][0] * a.m[1][2]) / det;
  r.m[2][0] = (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]) / det;
  r.m[2][1] = (a.m[0][1] * a.m[2][0] - a.m[0][0] * a.m[2][1]) / det;
  r.m[2][2] = (a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0]) / det;
  return r;
}

}  // namespace impulse
