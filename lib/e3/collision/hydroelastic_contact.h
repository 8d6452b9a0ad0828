// Route (c): hydroelastic pressure-field contact between two SDF shapes, and its reduction to a
// few Contacts rows (course E3 §2 route (c), §3 "hydroelastic: F_agg, stiffness").
//
// The pressure model is Newton 1.6.1's linear law (geometry/sdf_hydroelastic.py, linear_pressure):
// each shape carries the field p_s(x) = -kh_s phi_s(x) [Pa], phi_s its signed distance. The contact
// surface is where the two fields balance, p_a = p_b, inside both shapes. On that surface
//   kh_a d_a = kh_b d_b,  d_a = -phi_a, d_b = -phi_b  =>  p = k_eff (d_a + d_b),
//   k_eff = kh_a kh_b / (kh_a + kh_b)                       (E3.3-hydro-kh-series)
// so the pressure of a surface sample is the series modulus times the local overlap depth.
//
// Sampling (ours; Newton extracts the surface by marching cubes over the SDF volumes' voxels): a
// grid x grid lattice on a plane across the patch (the two shapes' overlap box, narrowed to the
// patch by probe passes, hydro_patch_lattice, so that the spacing follows the patch's size),
// perpendicular to the approach direction; along each lattice line the balance point is bracketed
// and bisected. Each
// sample i carries its area A_i = (du dv) / |n_i . d| (the surface element whose projection is the
// lattice cell), its pressure p_i and unit normal n_i = (kh_a grad phi_a - kh_b grad phi_b)/|...|
// (from shape a to shape b). Scope: the surface must be a graph over the plane (convex pairs whose
// overlap is not deeper than the shapes are wide), which holds for the primitives taken here and
// for convex meshes; a non-convex mesh whose overlap folds over the plane is outside it.
//
// Reduction (ours, with Newton's force target; Newton's contact_reduction_hydroelastic.py keeps
// spatial-extreme and deepest samples per normal bin and an optional anchor at the centre of
// pressure): the samples are split into the four quadrants about the centre of pressure in the
// patch's tangent plane; each quadrant gives one contact at its force-weighted centroid with its
// force-weighted mean depth. Every contact takes the aggregate direction as its normal (Newton's
// normal matching), and all share the stiffness k = ||F_agg|| / sum_j depth_j (E3.3-hydro-keq),
// so a penalty solver's forces k depth_j n sum to exactly F_agg (E3.3-hydro-Fagg) at the state
// of the collide.
#pragma once

#include "core/hd.h"
#include "core/math.h"
#include "e3/collision/geometry.h"
#include "e3/collision/narrow_phase.h"
#include "e3/collision/sdf_primitives.h"
#include "e3/contacts/materials.h"

namespace impulse {

/// Most lattice lines per axis of the contact-surface sampling.
constexpr int kHydroMaxGrid = 64;
/// Lattice lines per axis the pipeline uses (kHydroSampleGrid^2 samples per pair) [-].
constexpr int kHydroSampleGrid = 24;
/// Steps of the bracket search along one lattice line, then bisection steps [-].
constexpr int kHydroBracketSteps = 16;
constexpr int kHydroBisectSteps = 40;

/// Local half extents of a primitive's bounding box [m].
IMPULSE_HD inline vec3 sdf_local_half_extents(int type, vec3 scale) {
  switch (type) {
    case SHAPE_SPHERE: return {scale.x, scale.x, scale.x};
    case SHAPE_BOX: return scale;
    case SHAPE_CAPSULE: return {scale.x, scale.x, scale.y + scale.x};
    case SHAPE_CYLINDER:
    case SHAPE_CONE: return {scale.x, scale.x, scale.y};
    default: return {};
  }
}

/// World bounding box of a placed shape [m]: a primitive's extents, or a volume's sample box.
IMPULSE_HD inline aabb sdf_world_box(const SdfShape& s) {
  const vec3 e = sdf_local_half_extents(s.type, s.scale);
  const vec3 lo = s.values ? s.volume.lo : -e, hi = s.values ? sdf_volume_hi(s.volume) : e;
  aabb b{{1e30, 1e30, 1e30}, {-1e30, -1e30, -1e30}};
  for (int k = 0; k < 8; ++k) {
    const vec3 p = transform_point(s.X, {(k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z});
    b.lo = vmin(b.lo, p);
    b.hi = vmax(b.hi, p);
  }
  return b;
}

/// One sample of the contact surface.
struct HydroSample {
  vec3 x;      // [m] world point on the surface p_a = p_b
  vec3 n;      // [-] unit normal, shape a -> shape b
  real area;   // [m^2] surface element A_i
  real p;      // [Pa] pressure
  real depth;  // [m] local overlap d_a + d_b = -(phi_a + phi_b)
};

/// The surface sample on lattice line x(w) = o + w dir, w in [w0, w1], or false when the line
/// does not cross the balance surface inside both shapes.
///   g(w) = kh_b phi_b(x(w)) - kh_a phi_a(x(w)) decreases from a's side to b's side; its root is
///   the balance point p_a = p_b.
IMPULSE_HD inline bool hydro_line_sample(const SdfShape& a, const SdfShape& b, real kh_a, real kh_b, vec3 o, vec3 dir,
                                         real w0, real w1, real cell_area, real eps, HydroSample& out) {
  auto g = [&](real w) {
    const vec3 x = o + w * dir;
    return kh_b * sdf_distance(b, x) - kh_a * sdf_distance(a, x);
  };
  // Bracket: the first step where g changes sign from + to -.
  real lo = w0, glo = g(w0);
  real hi = lo;
  bool found = false;
  for (int k = 1; k <= kHydroBracketSteps; ++k) {
    hi = w0 + (w1 - w0) * real(k) / kHydroBracketSteps;
    const real ghi = g(hi);
    if (glo > 0 && ghi <= 0) {
      found = true;
      break;
    }
    lo = hi;
    glo = ghi;
  }
  if (!found) return false;
  for (int k = 0; k < kHydroBisectSteps; ++k) {
    const real mid = real(0.5) * (lo + hi);
    if (g(mid) > 0) lo = mid;
    else hi = mid;
  }
  const vec3 x = o + real(0.5) * (lo + hi) * dir;
  const real phi_a = sdf_distance(a, x), phi_b = sdf_distance(b, x);
  if (!(phi_a < 0 && phi_b < 0)) return false;  // the balance point lies outside one of the shapes
  const vec3 m = kh_a * sdf_gradient(a, x, eps) - kh_b * sdf_gradient(b, x, eps);
  const real mm = length(m);
  if (!(mm > 0)) return false;
  const vec3 n = m / mm;
  const real c = rabs(dot(n, dir));
  if (c < real(1e-3)) return false;  // the surface is parallel to the line: not a graph over the plane
  out.x = x;
  out.n = n;
  out.area = cell_area / c;
  out.depth = -(phi_a + phi_b);
  out.p = hydro_kh_series(kh_a, kh_b) * out.depth;
  return true;
}

/// The lattice of one pair: plane origin, tangents, approach direction, extents and cell size.
struct HydroLattice {
  bool empty = true;
  vec3 c, t1, t2, d;           // centre [m], tangents and approach direction [-]
  real u0, du, v0, dv, w0, w1; // [m]
  int grid = 0;
};

/// The lattice across the overlap of the two shapes' bounding boxes, or empty when they do not
/// overlap. The approach direction is the balance normal at the overlap box's centre.
IMPULSE_HD inline HydroLattice hydro_lattice(const SdfShape& a, const SdfShape& b, real kh_a, real kh_b, int grid) {
  HydroLattice L;
  const aabb ba = sdf_world_box(a), bb = sdf_world_box(b);
  const aabb o{vmax(ba.lo, bb.lo), vmin(ba.hi, bb.hi)};
  if (!(o.lo.x < o.hi.x && o.lo.y < o.hi.y && o.lo.z < o.hi.z)) return L;
  L.c = real(0.5) * (o.lo + o.hi);
  const real size = length(o.hi - o.lo);
  vec3 m = kh_a * sdf_gradient(a, L.c, real(1e-6) * size) - kh_b * sdf_gradient(b, L.c, real(1e-6) * size);
  if (!(length(m) > 0)) m = b.X.p - a.X.p;
  if (!(length(m) > 0)) m = {0, 0, 1};
  L.d = normalize(m);
  const vec3 helper = rabs(L.d.x) < real(0.9) ? vec3{1, 0, 0} : vec3{0, 1, 0};
  L.t1 = normalize(cross(L.d, helper));
  L.t2 = cross(L.d, L.t1);
  real ulo = 1e30, uhi = -1e30, vlo = 1e30, vhi = -1e30, wlo = 1e30, whi = -1e30;
  for (int k = 0; k < 8; ++k) {
    const vec3 p = vec3{(k & 1) ? o.hi.x : o.lo.x, (k & 2) ? o.hi.y : o.lo.y, (k & 4) ? o.hi.z : o.lo.z} - L.c;
    ulo = rmin(ulo, dot(p, L.t1)), uhi = rmax(uhi, dot(p, L.t1));
    vlo = rmin(vlo, dot(p, L.t2)), vhi = rmax(vhi, dot(p, L.t2));
    wlo = rmin(wlo, dot(p, L.d)), whi = rmax(whi, dot(p, L.d));
  }
  L.grid = grid < 1 ? 1 : (grid > kHydroMaxGrid ? kHydroMaxGrid : grid);
  L.u0 = ulo, L.du = (uhi - ulo) / L.grid;
  L.v0 = vlo, L.dv = (vhi - vlo) / L.grid;
  L.w0 = wlo, L.w1 = whi;
  L.empty = false;
  return L;
}

/// Calls f(const HydroSample*, int count) once per lattice row with that row's samples, in index
/// order (so that sums over the surface are deterministic).
template <class F>
IMPULSE_HD inline void for_each_hydro_row(const SdfShape& a, const SdfShape& b, real kh_a, real kh_b,
                                          const HydroLattice& L, F&& f) {
  if (L.empty) return;
  const real eps = real(1e-6) * (L.w1 - L.w0 + L.du * L.grid + L.dv * L.grid);
  HydroSample row[kHydroMaxGrid];
  for (int i = 0; i < L.grid; ++i) {
    int n = 0;
    for (int j = 0; j < L.grid; ++j) {
      const real u = L.u0 + (i + real(0.5)) * L.du, v = L.v0 + (j + real(0.5)) * L.dv;
      const vec3 o = L.c + u * L.t1 + v * L.t2;
      if (hydro_line_sample(a, b, kh_a, kh_b, o, L.d, L.w0, L.w1, L.du * L.dv, eps, row[n])) ++n;
    }
    f(row, n);
  }
}

/// Lattice lines per axis of each probe pass that bounds the patch, and the most passes [-].
constexpr int kHydroCoarseGrid = 8;
constexpr int kHydroZoomSteps = 8;

/// Closest approach of the line o + w dir, w in [w0, w1], to the overlap of the two shapes [m]:
///   m = min over w_k = w0 + k (w1 - w0) / kHydroBracketSteps of max(phi_a(x(w_k)), phi_b(x(w_k)))
/// m < 0: the line passes through both shapes.
IMPULSE_HD inline real hydro_line_probe(const SdfShape& a, const SdfShape& b, vec3 o, vec3 dir, real w0, real w1) {
  real m = real(1e30);
  for (int k = 0; k <= kHydroBracketSteps; ++k) {
    const vec3 x = o + (w0 + (w1 - w0) * real(k) / kHydroBracketSteps) * dir;
    m = rmin(m, rmax(sdf_distance(a, x), sdf_distance(b, x)));
  }
  return m;
}

/// The lattice shrunk to the patch, so that its grid lines per axis span the patch whatever its
/// size against the overlap box (a cone's tip in a box covers a small part of the cone's box).
/// Probe passes of kHydroCoarseGrid^2 lines bound the lines that cross the surface (a balance
/// point inside both shapes, hydro_line_sample: found by the sign of g, however thin the overlap
/// is near the patch's rim); the range becomes their (u, v) span grown by one probe cell (a convex
/// patch cannot reach further), clipped to the overlap box, not to the pass's range: after a zoom
/// the patch may reach past it. The passes repeat until one keeps its hits off its range's border
/// (so the patch lies inside the new range) and shrinks the range by less than a quarter per axis,
/// so the patch spans at least half the range:
///   span_new >= 3/4 span  =>  patch >= span_new - 2 cells >= span / 2    (cell = span / 8)
/// With no line crossing the surface, the next pass zooms onto the line closest to the overlap
/// (hydro_line_probe; its range grown by a cell), unless every probe point is further than the half diagonal r of a probe cell from the
/// overlap: an SDF is 1-Lipschitz, so max(phi_a, phi_b) >= r at every probe point means no point of
/// the box is inside both, and the lattice is empty.
IMPULSE_HD inline HydroLattice hydro_patch_lattice(const SdfShape& a, const SdfShape& b, real kh_a, real kh_b,
                                                   int grid) {
  HydroLattice L = hydro_lattice(a, b, kh_a, kh_b, grid);
  if (L.empty) return L;
  const real U0 = L.u0, U1 = L.u0 + L.du * L.grid, V0 = L.v0, V1 = L.v0 + L.dv * L.grid;
  real u0 = U0, u1 = U1, v0 = V0, v1 = V1;
  const real dw = (L.w1 - L.w0) / kHydroBracketSteps;
  const real eps = real(1e-6) * (L.w1 - L.w0 + (u1 - u0) + (v1 - v0));
  for (int pass = 0; pass < kHydroZoomSteps; ++pass) {
    const real cu = (u1 - u0) / kHydroCoarseGrid, cv = (v1 - v0) / kHydroCoarseGrid;
    real hu0 = 1e30, hu1 = -1e30, hv0 = 1e30, hv1 = -1e30;
    for (int i = 0; i < kHydroCoarseGrid; ++i)
      for (int j = 0; j < kHydroCoarseGrid; ++j) {
        const real u = u0 + (i + real(0.5)) * cu, v = v0 + (j + real(0.5)) * cv;
        HydroSample s;
        if (hydro_line_sample(a, b, kh_a, kh_b, L.c + u * L.t1 + v * L.t2, L.d, L.w0, L.w1, cu * cv, eps, s))
          hu0 = rmin(hu0, u), hu1 = rmax(hu1, u), hv0 = rmin(hv0, v), hv1 = rmax(hv1, v);
      }
    if (!(hu0 <= hu1)) {
      real best = 1e30, bu = 0, bv = 0;
      for (int i = 0; i < kHydroCoarseGrid; ++i)
        for (int j = 0; j < kHydroCoarseGrid; ++j) {
          const real u = u0 + (i + real(0.5)) * cu, v = v0 + (j + real(0.5)) * cv;
          const real m = hydro_line_probe(a, b, L.c + u * L.t1 + v * L.t2, L.d, L.w0, L.w1);
          if (m < best) best = m, bu = u, bv = v;
        }
      if (!(best < real(0.5) * sqrt(cu * cu + cv * cv + dw * dw))) {
        L.empty = true;
        return L;
      }
      hu0 = hu1 = bu, hv0 = hv1 = bv;
    }
    const real nu0 = rmax(U0, hu0 - cu), nu1 = rmin(U1, hu1 + cu), nv0 = rmax(V0, hv0 - cv), nv1 = rmin(V1, hv1 + cv);
    const bool inside = nu0 >= u0 && nu1 <= u1 && nv0 >= v0 && nv1 <= v1;
    const bool resolved = inside && nu1 - nu0 >= real(0.75) * (u1 - u0) && nv1 - nv0 >= real(0.75) * (v1 - v0);
    u0 = nu0, u1 = nu1, v0 = nv0, v1 = nv1;
    if (resolved) break;
  }
  L.u0 = u0, L.du = (u1 - u0) / L.grid;
  L.v0 = v0, L.dv = (v1 - v0) / L.grid;
  return L;
}

/// F_agg of the unreduced surface: sum_i A_i p_i n_i over every sample [N], through
/// hydro_force_aggregate (E3.3-hydro-Fagg), one lattice row at a time.
IMPULSE_HD inline vec3 hydro_surface_force(const SdfShape& a, const SdfShape& b, real kh_a, real kh_b, int grid) {
  const HydroLattice L = hydro_patch_lattice(a, b, kh_a, kh_b, grid);
  vec3 F{};
  for_each_hydro_row(a, b, kh_a, kh_b, L, [&](const HydroSample* s, int n) {
    real area[kHydroMaxGrid], pressure[kHydroMaxGrid];
    vec3 normal[kHydroMaxGrid];
    for (int k = 0; k < n; ++k) area[k] = s[k].area, pressure[k] = s[k].p, normal[k] = s[k].n;
    F += hydro_force_aggregate(area, pressure, normal, n);
  });
  return F;
}

/// The reduced contacts of one hydroelastic pair.
struct HydroReduced {
  int count = 0;
  vec3 x[kMaxPairContacts];      // [m] contact points on the surface
  real depth[kMaxPairContacts];  // [m] force-weighted mean overlap of each quadrant
  vec3 n{};                      // [-] common normal, F_agg / ||F_agg|| (shape a -> shape b)
  vec3 F_agg{};                  // [N] aggregate force of the unreduced surface on shape b
  real k = 0;                    // [N/m] ||F_agg|| / sum_j depth_j
  int samples = 0;               // surface samples taken
};

/// The pressure-field contact of two SDF shapes reduced to at most kMaxPairContacts contacts
/// (see the header comment): two passes over the lattice, the first for F_agg and the centre of
/// pressure, the second for the quadrant clusters.
IMPULSE_HD inline HydroReduced hydroelastic_reduce(const SdfShape& a, const SdfShape& b, real kh_a, real kh_b,
                                                   int grid) {
  HydroReduced r;
  const HydroLattice L = hydro_patch_lattice(a, b, kh_a, kh_b, grid);
  // Pass 1: F_agg, and the centre of pressure x_c = sum A_i p_i x_i / sum A_i p_i.
  vec3 F{}, xw{};
  real w = 0;
  int samples = 0;
  for_each_hydro_row(a, b, kh_a, kh_b, L, [&](const HydroSample* s, int n) {
    real area[kHydroMaxGrid], pressure[kHydroMaxGrid];
    vec3 normal[kHydroMaxGrid];
    for (int k = 0; k < n; ++k) {
      area[k] = s[k].area, pressure[k] = s[k].p, normal[k] = s[k].n;
      xw += (s[k].area * s[k].p) * s[k].x;
      w += s[k].area * s[k].p;
    }
    F += hydro_force_aggregate(area, pressure, normal, n);
    samples += n;
  });
  r.samples = samples;
  const real Fm = length(F);
  if (!(w > 0) || !(Fm > 0)) return r;
  const vec3 xc = xw / w;
  r.F_agg = F;
  r.n = F / Fm;
  // Pass 2: quadrant q = (u >= 0) + 2 (v >= 0) about x_c in the tangent plane of n.
  const vec3 helper = rabs(r.n.x) < real(0.9) ? vec3{1, 0, 0} : vec3{0, 1, 0};
  const vec3 e1 = normalize(cross(r.n, helper)), e2 = cross(r.n, e1);
  real qw[kMaxPairContacts] = {}, qd[kMaxPairContacts] = {};
  vec3 qx[kMaxPairContacts] = {};
  for_each_hydro_row(a, b, kh_a, kh_b, L, [&](const HydroSample* s, int n) {
    for (int k = 0; k < n; ++k) {
      const vec3 rel = s[k].x - xc;
      const int q = (dot(rel, e1) >= 0 ? 1 : 0) + (dot(rel, e2) >= 0 ? 2 : 0);
      const real f = s[k].area * s[k].p;
      qw[q] += f;
      qd[q] += f * s[k].depth;
      qx[q] += f * s[k].x;
    }
  });
  for (int q = 0; q < kMaxPairContacts; ++q) {
    if (!(qw[q] > 0)) continue;
    r.x[r.count] = qx[q] / qw[q];
    r.depth[r.count] = qd[q] / qw[q];
    ++r.count;
  }
  r.k = hydro_equivalent_stiffness(F, r.depth, r.count);
  return r;
}

/// The reduced pair as PairContacts rows of the record: row j has normal n, gap d_j = -depth_j
/// (E3.2-gap-function with the shapes' thicknesses th_a, th_b) and stiffness k, so that a
/// penalty row's force ke |d_j| with ke = k sums to ||F_agg|| over the rows.
IMPULSE_HD inline int hydroelastic_pair_contacts(const HydroReduced& r, real th_a, real th_b, PairContact* out) {
  for (int j = 0; j < r.count; ++j) {
    const real h = real(0.5) * r.depth[j];
    // core points placed so that n . (b - a) - (th_a + th_b) = -depth_j
    out[j].a = r.x[j] + (h - th_a) * r.n;
    out[j].b = r.x[j] - (h - th_b) * r.n;
    out[j].n = r.n;
    out[j].s = -r.depth[j] + th_a + th_b;
    out[j].k = r.k;
  }
  return r.count;
}

}  // namespace impulse
