// A mesh's signed-distance volume (course E3 §2, route (c)): a dense lattice of phi samples in the
// shape's frame, built once at finalize (mesh_sdf.h, with OpenVDB) and read by trilinear sampling
// on plain arrays, so that the same query runs on the CPU and on a GPU from the Model's buffers.
// Newton 1.6.1 keeps a sparse texture volume on the GPU (geometry/sdf_utils.py); a dense lattice is
// the simplest layout that a device reads without a library, at the memory price kSdfMaxSamples caps.
//
// Convention as sdf_primitives.h: phi < 0 inside, > 0 outside [m]. Sample (i, j, k) sits at
// lo + voxel (i, j, k) and is values[start + i + nx (j + ny k)].
#pragma once

#include <cstdint>

#include "core/hd.h"
#include "core/math.h"
#include "e3/collision/geometry.h"

namespace impulse {

/// Most samples of one shape's volume: 2^24 (256^3), 128 MiB of doubles [-]. A resolution that
/// needs more is refused where the shape is added.
constexpr std::int64_t kSdfMaxSamples = std::int64_t(1) << 24;

/// One shape's dense signed-distance volume (shape frame).
struct SdfVolume {
  vec3 lo{};               // [m] position of sample (0, 0, 0)
  real voxel = 0;          // [m] sample spacing
  int nx = 0, ny = 0, nz = 0;  // samples per axis (>= 2 each)
  std::int64_t start = 0;  // first sample in Model::sdf_values
};

/// The far corner of the volume's sample box [m].
IMPULSE_HD inline vec3 sdf_volume_hi(const SdfVolume& v) {
  return v.lo + v.voxel * vec3{real(v.nx - 1), real(v.ny - 1), real(v.nz - 1)};
}

/// phi at the local point q by trilinear interpolation, and its gradient in grad [m, -].
///   c = clamp(q, lo, hi),  f = (c - lo) / voxel,  i = min(floor(f), n - 2),  t = f - i
///   T(c) = sum over the 8 corners of phi_corner * prod_k (t_k or 1 - t_k)
///   phi(q) = T(c) + |q - c|        (outside the box: the box distance on top of the face value)
///   dphi/dq_k = (q_k - c_k) / |q - c|  on a clamped axis, dT/dc_k on the others
/// Precondition: nx, ny, nz >= 2 and values points at the volume's first sample.
IMPULSE_HD inline real sdf_volume_sample(const SdfVolume& v, const real* values, vec3 q, vec3& grad) {
  const vec3 hi = sdf_volume_hi(v);
  const real qa[3] = {q.x, q.y, q.z}, loa[3] = {v.lo.x, v.lo.y, v.lo.z}, hia[3] = {hi.x, hi.y, hi.z};
  const int n[3] = {v.nx, v.ny, v.nz};
  real c[3], t[3], out[3];
  int i[3];
  real out2 = 0;
  for (int k = 0; k < 3; ++k) {
    c[k] = rmin(rmax(qa[k], loa[k]), hia[k]);
    out[k] = qa[k] - c[k];
    out2 += out[k] * out[k];
    const real f = (c[k] - loa[k]) / v.voxel;
    int fi = int(f);  // f >= 0, so truncation is floor
    if (fi > n[k] - 2) fi = n[k] - 2;
    i[k] = fi;
    t[k] = rmin(rmax(f - real(fi), real(0)), real(1));
  }
  const std::int64_t sx = 1, sy = v.nx, sz = std::int64_t(v.nx) * v.ny;
  const real* p = values + i[0] * sx + i[1] * sy + i[2] * sz;
  const real c000 = p[0], c100 = p[sx], c010 = p[sy], c110 = p[sx + sy];
  const real c001 = p[sz], c101 = p[sx + sz], c011 = p[sy + sz], c111 = p[sx + sy + sz];
  // Interpolate along x, then y, then z; the derivatives follow the same order.
  const real c00 = c000 + t[0] * (c100 - c000), c10 = c010 + t[0] * (c110 - c010);
  const real c01 = c001 + t[0] * (c101 - c001), c11 = c011 + t[0] * (c111 - c011);
  const real c0 = c00 + t[1] * (c10 - c00), c1 = c01 + t[1] * (c11 - c01);
  const real T = c0 + t[2] * (c1 - c0);
  const real dx0 = (c100 - c000) + t[1] * ((c110 - c010) - (c100 - c000));
  const real dx1 = (c101 - c001) + t[1] * ((c111 - c011) - (c101 - c001));
  real g[3] = {(dx0 + t[2] * (dx1 - dx0)) / v.voxel, ((c10 - c00) + t[2] * ((c11 - c01) - (c10 - c00))) / v.voxel,
               (c1 - c0) / v.voxel};
  const real d = sqrt(out2);
  if (d > 0)
    for (int k = 0; k < 3; ++k)
      if (out[k] != 0) g[k] = out[k] / d;
  grad = {g[0], g[1], g[2]};
  return T + d;
}

}  // namespace impulse
