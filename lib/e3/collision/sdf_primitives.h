// Signed distance functions of the primitive shapes (course E3 §2, route (c)): the SDF a shape
// carries into the SDF distance query and the hydroelastic route. Primitives have closed forms, so
// their SDF is evaluated exactly instead of being sampled into a volume (Newton 1.6.1 samples every
// shape into a sparse texture volume on the GPU, geometry/sdf_utils.py; the closed form is the
// limit of that volume as its voxels shrink).
//
// Convention: phi(x) < 0 inside, > 0 outside, |grad phi| = 1 almost everywhere [m]. Shapes are in
// their own frame: sphere radius scale.x; box half extents scale; capsule radius scale.x and half
// height scale.y along z; cylinder radius scale.x and half height scale.y along z; cone base radius
// scale.x at z = -scale.y and apex at z = +scale.y (Newton 1.6.1's cone).
#pragma once

#include "core/hd.h"
#include "core/math.h"
#include "e3/collision/geometry.h"
#include "e3/collision/sdf_volume.h"

namespace impulse {

/// Whether a shape type has a closed-form SDF here (the types route (c) takes as primitives).
IMPULSE_HD inline bool has_analytic_sdf(int type) {
  return type == SHAPE_SPHERE || type == SHAPE_BOX || type == SHAPE_CAPSULE || type == SHAPE_CYLINDER ||
         type == SHAPE_CONE;
}

/// Signed distance of a cone (base radius r at z = -h, apex at z = +h) from the local point q [m].
/// The cone is a solid of revolution, so the distance is a 2D one in the half plane of the
/// profile, (rho, z) with rho = |q_xy| >= 0: the profile is the triangle apex A = (0, h), rim
/// R = (r, -h), base centre C = (0, -h). Its side on the axis, A-C, is inside the solid, so the
/// surface is the base segment C-R and the slant segment A-R only:
///   d_base  = |(max(rho - r, 0), z + h)|                    (nearest point of C-R: (min(rho, r), -h))
///   e = R - A = (r, -2h),  t = clamp(((rho, z - h) . e) / (e . e), 0, 1)
///   d_slant = |(rho, z - h) - t e|                          (nearest point of A-R: A + t e)
///   inside  <=>  z >= -h  and  2 h rho <= r (h - z)        (below the slant line, above the base)
///   phi = -min(d_base, d_slant) inside, +min(d_base, d_slant) outside
IMPULSE_HD inline real sdf_cone_local(real r, real h, vec3 q) {
  const real rho = sqrt(q.x * q.x + q.y * q.y);
  const real bx = rmax(rho - r, real(0)), bz = q.z + h;
  const real d_base = sqrt(bx * bx + bz * bz);
  const real ex = r, ez = -2 * h, wx = rho, wz = q.z - h;
  const real t = rmin(rmax((wx * ex + wz * ez) / (ex * ex + ez * ez), real(0)), real(1));
  const real sx = wx - t * ex, sz = wz - t * ez;
  const real d = rmin(d_base, sqrt(sx * sx + sz * sz));
  const bool inside = q.z >= -h && 2 * h * rho <= r * (h - q.z);
  return inside ? -d : d;
}

/// Signed distance of the local point q to a primitive of the given type and scale [m].
///   sphere:   |q| - r
///   box:      |max(|q| - e, 0)| + min(max_k(|q_k| - e_k), 0)
///   capsule:  |q - (0, 0, clamp(q_z, -h, h))| - r
///   cylinder: with a = (|q_xy| - r, |q_z| - h): |max(a, 0)| + min(max(a_0, a_1), 0)
///   cone:     the 2D distance to the triangle profile in (|q_xy|, q_z), sdf_cone_local
/// Precondition: has_analytic_sdf(type); returns 1e30 (far outside) otherwise.
IMPULSE_HD inline real sdf_primitive_local(int type, vec3 scale, vec3 q) {
  switch (type) {
    case SHAPE_SPHERE: return length(q) - scale.x;
    case SHAPE_BOX: {
      const vec3 a{rabs(q.x) - scale.x, rabs(q.y) - scale.y, rabs(q.z) - scale.z};
      const vec3 outside{rmax(a.x, real(0)), rmax(a.y, real(0)), rmax(a.z, real(0))};
      return length(outside) + rmin(rmax(a.x, rmax(a.y, a.z)), real(0));
    }
    case SHAPE_CAPSULE: {
      const real z = rmin(rmax(q.z, -scale.y), scale.y);
      return length(vec3{q.x, q.y, q.z - z}) - scale.x;
    }
    case SHAPE_CYLINDER: {
      const real a0 = sqrt(q.x * q.x + q.y * q.y) - scale.x, a1 = rabs(q.z) - scale.y;
      const real o0 = rmax(a0, real(0)), o1 = rmax(a1, real(0));
      return sqrt(o0 * o0 + o1 * o1) + rmin(rmax(a0, a1), real(0));
    }
    case SHAPE_CONE: return sdf_cone_local(scale.x, scale.y, q);
    default: return real(1e30);
  }
}

/// A shape's SDF placed in the world: a primitive's closed form, or a mesh's sampled volume when
/// values is set (sdf_volume.h).
struct SdfShape {
  int type = SHAPE_SPHERE;
  vec3 scale{};    // [m] see the convention above (unused with a volume)
  transform X{};   // shape frame in world
  SdfVolume volume{};            // the mesh's volume (shape frame), read when values is set
  const real* values = nullptr;  // [m] the volume's first sample; nullptr = closed form
};

/// phi(x) of a placed shape at the world point x [m].
IMPULSE_HD inline real sdf_distance(const SdfShape& s, vec3 x) {
  const vec3 q = transform_point(transform_inverse(s.X), x);
  if (s.values) {
    vec3 g;
    return sdf_volume_sample(s.volume, s.values, q, g);
  }
  return sdf_primitive_local(s.type, s.scale, q);
}

/// Gradient of phi at x [-]. A volume's is the trilinear interpolant's own (sdf_volume_sample); a
/// closed form's is by central differences with step eps [m] (unit length where phi is smooth; on
/// a box's medial planes it is the average of the two faces' normals).
///   grad_k = (phi(x + eps e_k) - phi(x - eps e_k)) / (2 eps)
IMPULSE_HD inline vec3 sdf_gradient(const SdfShape& s, vec3 x, real eps) {
  const transform inv = transform_inverse(s.X);
  const vec3 q = transform_point(inv, x);
  if (s.values) {
    vec3 g;
    sdf_volume_sample(s.volume, s.values, q, g);
    return quat_rotate(s.X.q, g);
  }
  const vec3 g{sdf_primitive_local(s.type, s.scale, q + vec3{eps, 0, 0}) -
                   sdf_primitive_local(s.type, s.scale, q - vec3{eps, 0, 0}),
               sdf_primitive_local(s.type, s.scale, q + vec3{0, eps, 0}) -
                   sdf_primitive_local(s.type, s.scale, q - vec3{0, eps, 0}),
               sdf_primitive_local(s.type, s.scale, q + vec3{0, 0, eps}) -
                   sdf_primitive_local(s.type, s.scale, q - vec3{0, 0, eps})};
  return quat_rotate(s.X.q, g / (2 * eps));
}

}  // namespace impulse
