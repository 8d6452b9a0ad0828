// Narrow phase: contact points of one candidate shape pair (course E3 §2, geometry routes and
// reduction).
//
// Route (a), primitive/convex pairs: GJK gives the core distance when the cores are apart, EPA the
// penetration when they overlap (two overlapping boxes: the 15-axis test of box_box.h, EPA's depth
// and normal for less work); the normal n points from shape0 to shape1. A manifold is built by
// clipping two features in the contact plane: for a box or a convex hull the face whose normal is
// most aligned with n (A) or -n (B), the reference/incident faces of Box2D v3 manifold.c
// b2ClipPolygons and Bullet's btPolyhedralContactClipping (a hull's faces are computed by Qhull when
// the shape is added), for a cylinder its cap within 45 degrees, for the other cores the support
// feature (face, edge or vertex in the direction of n). Points are then reduced to at
// most kMaxPairContacts. A plane against a core takes every vertex of the core within the accept
// distance (Newton's collide_plane_box in geometry/collision_primitive.py tests all eight
// corners), then its deepest layer. Route (b), static triangle meshes: for each triangle the BVH
// reports near the other shape, the face acts as a bounded two-sided plane
// (triangle_contact_candidates), and GJK/EPA against the triangle finds contacts at its edges and
// vertices (triangle_feature_candidates). Those are kept only where the mesh
// really has a convex feature: the builder stores, per triangle edge, the neighbour and whether
// the fold is convex, flat or concave, and an edge or vertex normal must lie in that feature's
// wedge or normal cone, so internal edges of flat or concave regions never produce tilted "ghost"
// normals. The union of the points is reduced to the same bound. Route (c), a pair of hydroelastic
// SDF shapes, is the pressure-field contact of hydroelastic_contact.h.
#pragma once

#include "core/buffer.h"
#include "core/hd.h"
#include "core/math.h"
#include "e3/contacts/contact_record.h"
#include "e3/collision/box_box.h"
#include "e3/collision/geometry.h"

namespace impulse {

/// Largest sine of the angle between two face normals for which a mesh edge counts as flat [-].
constexpr real kFlatEdgeTolerance = real(1e-6);

/// Class of edge a -> b of triangle (a, b, c) whose neighbour across the edge has the opposite
/// vertex d (MeshEdgeClass, relative to the winding normal cross(b - a, c - a)). The neighbour's
/// normal is taken with the orientation consistent with (a, b, c), so the class does not depend on
/// the neighbour's own winding: flat when the normals agree to kFlatEdgeTolerance, convex when d
/// lies behind the triangle's plane, concave otherwise. In float32 the vertices' rounding (eps times
/// their coordinates) turns a face normal by up to that over the shortest edge, so flat is then
/// within a few times that angle (precision_tolerance): a tilted 7.5 m floor of 5 cm cells has
/// normals apart by 1e-6..1e-5.
IMPULSE_HD inline int classify_mesh_edge(vec3 a, vec3 b, vec3 c, vec3 d) {
  const vec3 n1 = normalize(cross(b - a, c - a));
  const vec3 n2 = normalize(cross(a - b, d - b));
  const real shortest = rmin(length(b - a), rmin(length(c - a), length(d - b)));
  const real flat = precision_tolerance(kFlatEdgeTolerance, real(4), (rabs(a.x) + rabs(a.y) + rabs(a.z)) / shortest);
  if (dot(n1, n2) > 0 && length(cross(n1, n2)) <= flat) return EDGE_FLAT;
  return dot(n1, d - a) < 0 ? EDGE_CONVEX : EDGE_CONCAVE;
}

/// Most contact points one shape pair contributes after reduction (E3.2-reduction).
constexpr int kMaxPairContacts = 4;
/// Most support-feature vertices considered per side (a cylinder cap is sampled with 8).
constexpr int kMaxFeature = 16;
/// Rim points sampled per cylinder cap (an inscribed octagon).
constexpr int kCylinderRimSamples = 8;
/// Angle between neighbouring rim samples, 2 pi / kCylinderRimSamples [rad].
constexpr real kCylinderRimStep = real(0.78539816339744831);
/// Most vertices plane_vertices writes for a box, capsule, sphere or cylinder (a cylinder: per cap
/// the deepest rim point and the sampled rim). A convex hull's points are streamed instead.
constexpr int kMaxPlaneVertices = 2 * (kCylinderRimSamples + 1);

/// One contact of a pair, before it becomes a record row.
struct PairContact {
  vec3 a;  // core point on shape0, world [m]
  vec3 b;  // core point on shape1, world [m]
  vec3 n;  // unit normal from shape0 to shape1, world
  real s;  // signed core distance n.(b - a) [m]; d = s - (thickness0 + thickness1)
  real k = 0;  // per-contact stiffness [N/m] (route c); 0 = unset, the material's ke applies
};

struct PairContacts {
  PairContact c[kMaxPairContacts];
  int count = 0;
  int route = 0;  // the GeometryRoute (below) that made these contacts, as an int
};

/// @formula E3.2-geometry-routes  Which geometry route a shape-type pair takes (course E3 §2).
///   primitive/convex x primitive/convex -> GJK/EPA (route a); mesh x primitive/convex -> mesh BVH
///   (route b); two hydroelastic shapes -> pressure-field contact (route c, hydroelastic_contact.h);
///   mesh x mesh and plane x plane pairs produce no contacts.
enum class GeometryRoute { none, convex, plane_convex, mesh_bvh, hydroelastic };
IMPULSE_HD inline GeometryRoute geometry_route(int t0, int t1, bool hydro0 = false, bool hydro1 = false) {
  if (hydro0 && hydro1 && t0 != SHAPE_PLANE && t1 != SHAPE_PLANE) return GeometryRoute::hydroelastic;
  const bool p0 = t0 == SHAPE_PLANE, p1 = t1 == SHAPE_PLANE, m0 = t0 == SHAPE_MESH, m1 = t1 == SHAPE_MESH;
  if ((p0 && p1) || (m0 && m1) || (p0 && m1) || (m0 && p1)) return GeometryRoute::none;
  if (m0 || m1) return GeometryRoute::mesh_bvh;
  if (p0 || p1) return GeometryRoute::plane_convex;
  return GeometryRoute::convex;
}

/// Vertices of the core's support feature in world direction dir: every vertex whose support
/// value is within a small tolerance of the maximum (a face, an edge or one vertex). A cylinder cap
/// is represented by 8 rim points (an inscribed octagon), its side by a segment; a cone by its apex
/// and the base rim samples within the tolerance. Boxes and convex
/// hulls are clipped by their faces instead (box_face, hull_face).
IMPULSE_HD inline int support_feature(const ConvexCore& c, vec3 dir, vec3* out) {
  const vec3 top = core_support(c, dir);
  const real h = dot(top, dir);
  int n = 0;
  auto take = [&](vec3 p, real size) {
    if (n < kMaxFeature && dot(p, dir) >= h - real(1e-3) * size) out[n++] = p;
  };
  switch (c.type) {
    case SHAPE_SPHERE: out[n++] = top; break;
    case SHAPE_CAPSULE: {
      const real hh = c.scale.y;
      take(transform_point(c.X, {0, 0, hh}), 2 * hh);
      take(transform_point(c.X, {0, 0, -hh}), 2 * hh);
      break;
    }
    case SHAPE_BOX: {
      const real size = 2 * rmax(c.scale.x, rmax(c.scale.y, c.scale.z));
      for (int i = 0; i < 8; ++i)
        take(transform_point(c.X, {(i & 1) ? c.scale.x : -c.scale.x, (i & 2) ? c.scale.y : -c.scale.y,
                                   (i & 4) ? c.scale.z : -c.scale.z}),
             size);
      break;
    }
    case SHAPE_CYLINDER: {
      const vec3 dl = quat_rotate_inv(c.X.q, dir);
      const real r = c.scale.x, hh = c.scale.y;
      if (rabs(dl.z) > real(0.9999)) {  // a cap faces dir
        const real z = dl.z > 0 ? hh : -hh;
        for (int k = 0; k < kCylinderRimSamples; ++k) {
          const real t = kCylinderRimStep * k;
          out[n++] = transform_point(c.X, {r * cos(t), r * sin(t), z});
        }
      } else if (rabs(dl.z) < real(1e-2)) {  // the side faces dir: a line on the mantle
        const real rr = sqrt(dl.x * dl.x + dl.y * dl.y);
        out[n++] = transform_point(c.X, {r * dl.x / rr, r * dl.y / rr, hh});
        out[n++] = transform_point(c.X, {r * dl.x / rr, r * dl.y / rr, -hh});
      } else {
        out[n++] = top;
      }
      break;
    }
    case SHAPE_TRIANGLE: {
      const real size = rmax(length(c.points[1] - c.points[0]), length(c.points[2] - c.points[0]));
      for (int i = 0; i < 3; ++i) take(c.points[i], size);
      break;
    }
    case SHAPE_CONE: {  // the apex and the base rim samples near the top: a vertex, a mantle line or the base
      const real size = 2 * rmax(c.scale.x, c.scale.y);
      take(top, size);
      take(transform_point(c.X, {0, 0, c.scale.y}), size);
      for (int k = 0; k < kCylinderRimSamples; ++k) {
        const real t = kCylinderRimStep * k;
        take(transform_point(c.X, {c.scale.x * cos(t), c.scale.x * sin(t), -c.scale.y}), size);
      }
      break;
    }
    default: out[n++] = top; break;
  }
  if (n == 0) out[n++] = top;
  return n;
}

/// The four corners of the box face whose outward normal is most aligned with world direction dir
/// (ties go to the lower local axis): the reference face of A (dir = n) or the incident face of B
/// (dir = -n) in the clipping of manifold_points. Unlike support_feature it needs no tolerance: a box
/// tilted by a small angle still offers its whole face, so its shallower corners are clipped too.
IMPULSE_HD inline int box_face(const ConvexCore& c, vec3 dir, vec3* out) {
  const vec3 dl = quat_rotate_inv(c.X.q, dir);
  const real ax[3] = {rabs(dl.x), rabs(dl.y), rabs(dl.z)};
  int k = 0;
  if (ax[1] > ax[k]) k = 1;
  if (ax[2] > ax[k]) k = 2;
  const real comp[3] = {dl.x, dl.y, dl.z};
  const real h[3] = {c.scale.x, c.scale.y, c.scale.z};
  const int u = (k + 1) % 3, v = (k + 2) % 3;
  const real su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
  for (int i = 0; i < 4; ++i) {
    real p[3];
    p[k] = comp[k] >= 0 ? h[k] : -h[k];
    p[u] = su[i] * h[u];
    p[v] = sv[i] * h[v];
    out[i] = transform_point(c.X, {p[0], p[1], p[2]});
  }
  return 4;
}

/// The vertices of the convex hull face whose outward normal is most aligned with world direction
/// dir (ties go to the lower face index), counter-clockwise seen from outside: box_face for a hull,
/// with the faces the builder computed (the Model's hull_face_* arrays). The face normals are
/// stored for the unscaled points; under the per-axis scale S a normal m becomes S^-1 m
/// (normalised), the inverse transpose. Writes at most kMaxFeature points (the builder's bound).
IMPULSE_HD inline int hull_face(const ConvexCore& c, vec3 dir, vec3* out) {
  const vec3 dl = quat_rotate_inv(c.X.q, dir);
  const vec3 inv{1 / c.scale.x, 1 / c.scale.y, 1 / c.scale.z};
  int best = 0;
  real best_cos = -2;
  for (int f = 0; f < c.face_count; ++f) {
    const real v = dot(normalize(mul_elem(c.face_normals[f], inv)), dl);
    if (v > best_cos) best_cos = v, best = f;
  }
  const int first = c.face_start[best], n = c.face_start[best + 1] - first;
  for (int i = 0; i < n; ++i)
    out[i] = transform_point(c.X, mul_elem(c.points[c.face_vertices[first + i]], c.scale));
  return n;
}

/// The feature of a core that manifold_points clips in direction dir: a box's or a convex hull's
/// most aligned face (box_face, hull_face); a cylinder's cap (kCylinderRimSamples rim points) when
/// its axis is within 45 degrees of dir, so that a cylinder standing tilted by a few degrees keeps
/// a support polygon (the exact deepest point is added by manifold_with_deepest); else the support
/// feature (support_feature); a cone's base likewise when its axis is within 45 degrees of -dir.
/// Triangles already give their whole face along their face normal (the
/// face feature of route b), and along an edge or vertex normal their edge or vertex is the right
/// feature.
IMPULSE_HD inline int clip_feature(const ConvexCore& c, vec3 dir, vec3* out) {
  if (c.type == SHAPE_BOX) return box_face(c, dir, out);
  if (c.type == SHAPE_CONVEX_HULL) return hull_face(c, dir, out);
  if (c.type == SHAPE_CONE) {
    const vec3 dl = quat_rotate_inv(c.X.q, dir);
    if (-dl.z >= sqrt(dl.x * dl.x + dl.y * dl.y)) {  // the base is the most aligned face
      for (int k = 0; k < kCylinderRimSamples; ++k) {
        const real t = kCylinderRimStep * k;
        out[k] = transform_point(c.X, {c.scale.x * cos(t), c.scale.x * sin(t), -c.scale.y});
      }
      return kCylinderRimSamples;
    }
  }
  if (c.type == SHAPE_CYLINDER) {
    const vec3 dl = quat_rotate_inv(c.X.q, dir);
    if (rabs(dl.z) >= sqrt(dl.x * dl.x + dl.y * dl.y)) {  // the cap is the most aligned face
      const real z = dl.z > 0 ? c.scale.y : -c.scale.y;
      for (int k = 0; k < kCylinderRimSamples; ++k) {
        const real t = kCylinderRimStep * k;
        out[k] = transform_point(c.X, {c.scale.x * cos(t), c.scale.x * sin(t), z});
      }
      return kCylinderRimSamples;
    }
  }
  return support_feature(c, dir, out);
}

/// Vertices of a core that a plane route tests, for the plane's inward normal down (pointing from
/// the plane's front side into it): a box's 8 corners, a capsule's 2 segment ends, a sphere's
/// centre (its core point), per cylinder cap the exact deepest rim point along down (when the cap
/// is not parallel to the plane) and kCylinderRimSamples rim samples, and for a cone its apex and
/// the same points of its base. Not for convex hulls (their
/// points are read directly) or triangles. Writes at most kMaxPlaneVertices points.
IMPULSE_HD inline int plane_vertices(const ConvexCore& c, vec3 down, vec3* out) {
  int n = 0;
  switch (c.type) {
    case SHAPE_BOX:
      for (int i = 0; i < 8; ++i)
        out[n++] = transform_point(c.X, {(i & 1) ? c.scale.x : -c.scale.x, (i & 2) ? c.scale.y : -c.scale.y,
                                         (i & 4) ? c.scale.z : -c.scale.z});
      break;
    case SHAPE_CAPSULE:
      out[n++] = transform_point(c.X, {0, 0, c.scale.y});
      out[n++] = transform_point(c.X, {0, 0, -c.scale.y});
      break;
    case SHAPE_CYLINDER: {
      const vec3 dl = quat_rotate_inv(c.X.q, down);
      const real r = c.scale.x, hh = c.scale.y;
      const real rr = sqrt(dl.x * dl.x + dl.y * dl.y);
      const real caps[2] = {hh, -hh};
      for (real z : caps) {
        if (rr > real(1e-12)) out[n++] = transform_point(c.X, {r * dl.x / rr, r * dl.y / rr, z});
        for (int k = 0; k < kCylinderRimSamples; ++k) {
          const real t = kCylinderRimStep * k;
          out[n++] = transform_point(c.X, {r * cos(t), r * sin(t), z});
        }
      }
      break;
    }
    case SHAPE_CONE: {
      const vec3 dl = quat_rotate_inv(c.X.q, down);
      const real r = c.scale.x, hh = c.scale.y;
      const real rr = sqrt(dl.x * dl.x + dl.y * dl.y);
      out[n++] = transform_point(c.X, {0, 0, hh});
      if (rr > real(1e-12)) out[n++] = transform_point(c.X, {r * dl.x / rr, r * dl.y / rr, -hh});
      for (int k = 0; k < kCylinderRimSamples; ++k) {
        const real t = kCylinderRimStep * k;
        out[n++] = transform_point(c.X, {r * cos(t), r * sin(t), -hh});
      }
      break;
    }
    default: out[n++] = core_support(c, down); break;
  }
  return n;
}

namespace np_detail {

struct P2 {
  real x, y;
};
IMPULSE_HD inline real cross2(P2 o, P2 a, P2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

/// 2-D convex hull (Andrew's monotone chain), counter-clockwise; idx maps hull to input order.
IMPULSE_HD inline int hull2(const P2* p, int n, int* idx, real tol) {
  int order[kMaxFeature];
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = 1; i < n; ++i) {  // insertion sort by (x, y)
    int k = order[i], j = i - 1;
    while (j >= 0 && (p[order[j]].x > p[k].x || (p[order[j]].x == p[k].x && p[order[j]].y > p[k].y))) {
      order[j + 1] = order[j];
      --j;
    }
    order[j + 1] = k;
  }
  if (n == 1) {
    idx[0] = order[0];
    return 1;
  }
  int h[2 * kMaxFeature];
  int m = 0;
  for (int i = 0; i < n; ++i) {
    while (m >= 2 && cross2(p[h[m - 2]], p[h[m - 1]], p[order[i]]) <= tol) --m;
    h[m++] = order[i];
  }
  for (int i = n - 2, t = m + 1; i >= 0; --i) {
    while (m >= t && cross2(p[h[m - 2]], p[h[m - 1]], p[order[i]]) <= tol) --m;
    h[m++] = order[i];
  }
  --m;  // the last point repeats the first
  if (m < 1) m = 1;
  for (int i = 0; i < m; ++i) idx[i] = h[i];
  // Drop duplicated points of a degenerate (segment) hull.
  if (m == 2 && rabs(p[h[0]].x - p[h[1]].x) + rabs(p[h[0]].y - p[h[1]].y) <= tol) m = 1;
  return m;
}

IMPULSE_HD inline bool inside_polygon(P2 q, const P2* poly, int m, real tol) {
  if (m < 3) return false;
  for (int i = 0; i < m; ++i)
    if (cross2(poly[i], poly[(i + 1) % m], q) < -tol) return false;
  return true;
}

/// Lifts a contact-plane point q = o + x t1 + y t2 onto a support feature along n.
IMPULSE_HD inline vec3 lift(const vec3* F, const P2* F2, int m, P2 q, vec3 o, vec3 t1, vec3 t2, vec3 n) {
  const vec3 base = o + q.x * t1 + q.y * t2;
  if (m >= 3) {
    vec3 nf{}, c{};
    for (int i = 0; i < m; ++i) {  // Newell's normal of the ordered polygon
      const vec3 u = F[i], v = F[(i + 1) % m];
      nf += vec3{(u.y - v.y) * (u.z + v.z), (u.z - v.z) * (u.x + v.x), (u.x - v.x) * (u.y + v.y)};
      c += u;
    }
    c = c / real(m);
    const real dn = dot(nf, n);
    if (rabs(dn) > real(1e-9) * length(nf)) return base + (dot(nf, c - base) / dn) * n;
  }
  if (m >= 2) {
    const P2 d{F2[1].x - F2[0].x, F2[1].y - F2[0].y};
    const real dd = d.x * d.x + d.y * d.y;
    real t = dd > 0 ? ((q.x - F2[0].x) * d.x + (q.y - F2[0].y) * d.y) / dd : real(0);
    t = rmin(rmax(t, real(0)), real(1));
    return F[0] + t * (F[1] - F[0]);
  }
  return F[0];
}

}  // namespace np_detail

/// @formula E3.2-reduction  Reduces candidate contact points to at most kMaxPairContacts (course
/// E3 §2): keep the deepest point, then the point farthest from it, then the one spanning the
/// largest triangle with those two, then the one farthest from all three. Deterministic (ties go
/// to the lower index); the result is a subset of the input, in selection order.
IMPULSE_HD inline int reduce_contacts(PairContact* c, int n) {
  if (n <= kMaxPairContacts) return n;
  int pick[kMaxPairContacts];
  int deepest = 0;
  for (int i = 1; i < n; ++i)
    if (c[i].s < c[deepest].s) deepest = i;
  pick[0] = deepest;
  int best = -1;
  real bv = -1;
  for (int i = 0; i < n; ++i) {
    const vec3 d = c[i].a - c[pick[0]].a;
    if (dot(d, d) > bv) bv = dot(d, d), best = i;
  }
  pick[1] = best;
  best = -1, bv = -1;
  for (int i = 0; i < n; ++i) {
    const real v = length(cross(c[pick[1]].a - c[pick[0]].a, c[i].a - c[pick[0]].a));
    if (i != pick[0] && i != pick[1] && v > bv) bv = v, best = i;
  }
  pick[2] = best;
  best = -1, bv = -1;
  for (int i = 0; i < n; ++i) {
    if (i == pick[0] || i == pick[1] || i == pick[2]) continue;
    const real v = length(c[i].a - c[pick[0]].a) + length(c[i].a - c[pick[1]].a) + length(c[i].a - c[pick[2]].a);
    if (v > bv) bv = v, best = i;
  }
  pick[3] = best;
  PairContact kept[kMaxPairContacts];
  for (int k = 0; k < kMaxPairContacts; ++k) kept[k] = c[pick[k]];
  for (int k = 0; k < kMaxPairContacts; ++k) c[k] = kept[k];
  return kMaxPairContacts;
}

/// The manifold of a convex pair for a given normal n (shape0 -> shape1): the clip features
/// (clip_feature) of A along +n and of B along -n are clipped in the contact plane and lifted back onto each feature;
/// points with s - thickness_sum > accept are dropped. Returns the number of points written.
IMPULSE_HD inline int manifold_points(const ConvexCore& A, const ConvexCore& B, vec3 n, vec3 o, real thickness_sum,
                                      real accept, PairContact* out, int cap) {
  using namespace np_detail;
  int count = 0;
  ScratchArray<vec3, kMaxFeature> FA, FB;
  const int na = clip_feature(A, n, FA), nb = clip_feature(B, -n, FB);
  if (na > 1 && nb > 1) {
    vec3 t1, t2;
    tangent_basis(n, t1, t2);
    P2 A2[kMaxFeature], B2[kMaxFeature];
    real size = 0;
    for (int i = 0; i < na; ++i) {
      A2[i] = {dot(FA[i] - o, t1), dot(FA[i] - o, t2)};
      size = rmax(size, rabs(A2[i].x) + rabs(A2[i].y));
    }
    for (int i = 0; i < nb; ++i) {
      B2[i] = {dot(FB[i] - o, t1), dot(FB[i] - o, t2)};
      size = rmax(size, rabs(B2[i].x) + rabs(B2[i].y));
    }
    // Collinear and on-edge tests of the 2-D points: a cross product of coordinates of size `size`
    // around o, which in float32 carries the rounding of the world coordinates (|o| + size) times
    // size (precision_tolerance; double: the relative 1e-9 alone).
    const real scale = rabs(o.x) + rabs(o.y) + rabs(o.z) + size;
    const real tol = precision_tolerance(real(1e-9) * (size * size + real(1e-30)), real(16), scale * size);
    int ia[kMaxFeature], ib[kMaxFeature];
    const int ma = hull2(A2, na, ia, tol), mb = hull2(B2, nb, ib, tol);
    ScratchArray<vec3, kMaxFeature> HA, HB;
    P2 PA[kMaxFeature], PB[kMaxFeature];
    for (int i = 0; i < ma; ++i) HA[i] = FA[ia[i]], PA[i] = A2[ia[i]];
    for (int i = 0; i < mb; ++i) HB[i] = FB[ib[i]], PB[i] = B2[ib[i]];
    P2 Q[kMaxFeature * 2 + kMaxFeature * kMaxFeature];
    int nq = 0;
    const real ptol = precision_tolerance(real(1e-9) * size * size, real(16), scale * size);
    for (int i = 0; i < ma; ++i)
      if (mb >= 3 ? inside_polygon(PA[i], PB, mb, ptol) : false) Q[nq++] = PA[i];
    for (int i = 0; i < mb; ++i)
      if (ma >= 3 ? inside_polygon(PB[i], PA, ma, ptol) : false) Q[nq++] = PB[i];
    const int ea = ma >= 3 ? ma : ma - 1, eb = mb >= 3 ? mb : mb - 1;
    for (int i = 0; i < ea; ++i)
      for (int j = 0; j < eb; ++j) {
        const P2 p = PA[i], p2 = PA[(i + 1) % ma], q = PB[j], q2 = PB[(j + 1) % mb];
        const P2 r{p2.x - p.x, p2.y - p.y}, sv{q2.x - q.x, q2.y - q.y};
        const real den = r.x * sv.y - r.y * sv.x;
        // parallel edges (float32: den within the rounding of edges of length <= 2 size at |o|)
        if (rabs(den) <= precision_tolerance(real(1e-12) * (r.x * r.x + r.y * r.y + sv.x * sv.x + sv.y * sv.y),
                                             real(16), scale * size))
          continue;
        const real t = ((q.x - p.x) * sv.y - (q.y - p.y) * sv.x) / den;
        const real u = ((q.x - p.x) * r.y - (q.y - p.y) * r.x) / den;
        if (t >= 0 && t <= 1 && u >= 0 && u <= 1) Q[nq++] = {p.x + t * r.x, p.y + t * r.y};
      }
    for (int k = 0; k < nq && count < cap; ++k) {
      const vec3 xa = lift(HA, PA, ma, Q[k], o, t1, t2, n);
      const vec3 xb = lift(HB, PB, mb, Q[k], o, t1, t2, n);
      const real sk = dot(n, xb - xa);
      if (writer_accepts(sk - thickness_sum, accept)) out[count++] = {xa, xb, n, sk};
    }
  }
  return count;
}


/// The manifold of A and B along n (manifold_points) plus the GJK/EPA pair (pa on A, pb on B,
/// signed core distance s): that pair is the deepest point, and the clipped features may miss it
/// (a cylinder cap is sampled by an octagon), so it is added whenever no manifold point is as deep.
IMPULSE_HD inline int manifold_with_deepest(const ConvexCore& A, const ConvexCore& B, vec3 n, vec3 pa, vec3 pb,
                                            real s, real thickness_sum, real accept, PairContact* out, int cap) {
  int count = manifold_points(A, B, n, pa, thickness_sum, accept, out, cap);
  real deepest = real(1e300);
  for (int k = 0; k < count; ++k) deepest = rmin(deepest, out[k].s);
  // "as deep": to a relative 1e-9, or in float32 to the rounding of the points' coordinates.
  const real tie = precision_tolerance(real(1e-9) * (rabs(s) + real(1e-3)), real(8), length(pa) + length(pb));
  if (count < cap && writer_accepts(s - thickness_sum, accept) && deepest > s + tie) out[count++] = {pa, pb, n, s};
  return count;
}

/// Candidate points of two convex cores (route a), before reduction. Writes up to
/// 2 * kMaxFeature + kMaxFeature^2 / 2 points into out (capacity given by cap) and returns their
/// number; points with s - thickness_sum > accept (the summed gap) are not written.
/// Returns 0 when the cores are farther apart than thickness_sum + accept.
IMPULSE_HD inline int convex_contact_candidates(const ConvexCore& A, const ConvexCore& B, real thickness_sum,
                                                real accept, PairContact* out, int cap) {
  using namespace np_detail;
  if (BoxBoxPenetration bb; A.type == SHAPE_BOX && B.type == SHAPE_BOX && box_box_penetration(A, B, bb)) {
    // Two boxes that overlap: the 15 axes give EPA's depth and normal without GJK and EPA (box_box.h).
    // Along a face's normal the clipped faces hold the deepest point already: the witness is added
    // only when the clip leaves nothing (so that a 1e-12 tie does not add and drop a fifth point,
    // and reorder the rows, step after step).
    if (bb.face) {
      const int count = manifold_points(A, B, bb.normal, bb.point_a, thickness_sum, accept, out, cap);
      if (count > 0) return count;
    }
    return manifold_with_deepest(A, B, bb.normal, bb.point_a, bb.point_b, -bb.depth, thickness_sum, accept, out, cap);
  }
  const GjkResult g = gjk_distance(A, B);
  vec3 n, pa, pb;
  real s;
  if (!g.overlap) {
    s = g.distance;
    if (!writer_accepts(s - thickness_sum, accept)) return 0;
    pa = g.point_a, pb = g.point_b;
    n = (pb - pa) / s;
  } else {
    const EpaResult e = epa_penetration(A, B, g);
    if (e.ok) {
      n = e.normal, pa = e.point_a, pb = e.point_b, s = -e.depth;
      if (A.type == SHAPE_CYLINDER || B.type == SHAPE_CYLINDER || A.type == SHAPE_CONE ||
          B.type == SHAPE_CONE) {  // curved core: refine EPA
        // The depth min_u h_{A-B}(u) has several local minima: the search starts from EPA's
        // closest faces and from the best coarse direction, and keeps the lowest.
        n = refine_penetration_direction(A, B, coarse_penetration_direction(A, B));
        real hn = minkowski_support_value(A, B, n);
        for (int k = 0; k < e.candidate_count; ++k) {
          const vec3 m = refine_penetration_direction(A, B, e.candidates[k]);
          const real hm = minkowski_support_value(A, B, m);
          if (hm < hn) n = m, hn = hm;
        }
        pa = core_support(A, n);
        pb = core_support(B, -n);
        s = dot(n, pb - pa);
      }
    } else {
      // Flat Minkowski difference (two thin cores crossing, e.g. capsule segments): a fallback
      // normal along the centres, touching cores.
      const vec3 d = core_center(B) - core_center(A);
      n = dot(d, d) > real(1e-24) ? normalize(d) : vec3{0, 0, 1};
      pa = pb = g.point_a;
      s = 0;
    }
  }
  return manifold_with_deepest(A, B, n, pa, pb, s, thickness_sum, accept, out, cap);
}

/// Route (a) for two sphere cores (points) at world poses XA, XB: convex_contact_candidates of the
/// two cores, bit for bit, without its general machinery (most of a sphere pile's narrow phase).
/// GJK on two points stops after its first support pair: support_A = c_A, support_B = c_B (the
/// centres, transform_point of the core's origin), v = c_A - c_B, and no further progress is
/// possible. So the cores are apart by s = |v| with closest points c_A, c_B, unless |v|^2 is within
/// GJK's overlap tolerance (coincident centres): then this returns -1 and the caller takes the
/// general route (EPA). Each core's clip feature is one point, so the manifold is the GJK pair:
///   s = |c_A - c_B|;  n = (c_B - c_A) / s;  one point (c_A, c_B, n, s) when s - thickness_sum <= accept.
/// The expressions are convex_contact_candidates' own, in its order (E3_2_geometry_routes test).
IMPULSE_HD inline int sphere_pair_candidates(const transform& XA, const transform& XB, real thickness_sum,
                                             real accept, PairContact* out, int cap) {
  const vec3 a = transform_point(XA, vec3{}), b = transform_point(XB, vec3{});  // core_support of a point
  const vec3 v = a - b;
  const real eps_abs = precision_tolerance(real(1e-10), real(8), length(a) + length(b));
  if (dot(v, v) <= eps_abs * eps_abs) return -1;  // overlapping cores: EPA
  const vec3 pa = vec3{} + real(1) * a, pb = vec3{} + real(1) * b;  // GJK's weighted sum, weight 1
  const real s = length(v);
  if (!writer_accepts(s - thickness_sum, accept)) return 0;
  const vec3 n = (pb - pa) / s;
  const real tie = precision_tolerance(real(1e-9) * (rabs(s) + real(1e-3)), real(8), length(pa) + length(pb));
  if (cap > 0 && writer_accepts(s - thickness_sum, accept) && real(1e300) > s + tie) {
    out[0] = {pa, pb, n, s};
    return 1;
  }
  return 0;
}

/// A static mesh as route (b) reads it: world pose, scale, vertices, triangles and adjacency
/// (the Model's mesh_* arrays).
struct MeshView {
  transform X;                     // world pose of the mesh
  vec3 scale;                      // per-axis vertex scale [-]
  View<const vec3> points;         // geo_points, unscaled shape frame [m]
  View<const int> triangles;       // 3 vertex indices per triangle
  View<const int> edge_neighbor;   // 3 per triangle, -1 on a boundary
  View<const int> edge_class;      // 3 per triangle, MeshEdgeClass
  View<const int> vertex_owner;    // per vertex
  View<const int> ring_start;      // per vertex + 1
  View<const int> ring;            // neighbouring vertices
  IMPULSE_HD vec3 vertex(int i) const { return transform_point(X, mul_elem(points[i], scale)); }
  /// World position of the vertex of triangle nb that is not on edge k of triangle t [m].
  IMPULSE_HD vec3 opposite(int t, int k, int nb) const {
    const int ia = triangles[3 * t + k], ib = triangles[3 * t + (k + 1) % 3];
    int id = triangles[3 * nb];
    for (int j = 0; j < 3; ++j)
      if (triangles[3 * nb + j] != ia && triangles[3 * nb + j] != ib) id = triangles[3 * nb + j];
    return vertex(id);
  }
};

/// Route (b), face feature, for one mesh triangle T and a convex core C: the triangle acts as a
/// bounded plane whose normal is the face normal turned toward C (triangles are two-sided): toward
/// C's closest point when the cores are apart (g = gjk_distance(T, C)), else toward C's centre. The deepest point of C along that normal and the clipped features give the points;
/// a point counts only over the triangle (its projection inside T, to a relative 1e-9 so that a
/// point exactly over a shared edge is not lost between the two triangles). Turning the normal
/// toward C's centre alone would be wrong for a long shape over a ridge whose centre lies behind
/// the plane of one face: that face would report a deep penetration with an inward normal.
IMPULSE_HD inline int triangle_contact_candidates(const ConvexCore& T, const ConvexCore& C, const GjkResult& g,
                                                  bool triangle_first, real thickness_sum, real accept,
                                                  PairContact* out, int cap) {
  const vec3 t0 = T.points[0], t1 = T.points[1], t2 = T.points[2];
  vec3 nf = normalize(cross(t1 - t0, t2 - t0));
  const real side = g.overlap ? real(0) : dot(nf, g.point_b - g.point_a) / g.distance;
  if (rabs(side) > kFlatEdgeTolerance ? side < 0 : dot(nf, core_center(C) - t0) < 0) nf = -nf;
  const vec3 pc = core_support(C, -nf);
  const real h = dot(nf, pc - t0);
  if (!writer_accepts(h - thickness_sum, accept)) return 0;
  const vec3 pt = pc - h * nf;
  int count = triangle_first ? manifold_points(T, C, nf, pt, thickness_sum, accept, out, cap)
                             : manifold_points(C, T, -nf, pt, thickness_sum, accept, out, cap);
  if (count == 0 && cap > 0) {  // features do not overlap in the plane: the deepest point, if over T
    const vec3 e0 = t1 - t0, e1 = t2 - t0, w = pt - t0;
    const real d00 = dot(e0, e0), d01 = dot(e0, e1), d11 = dot(e1, e1), d20 = dot(w, e0), d21 = dot(w, e1);
    const real den = d00 * d11 - d01 * d01;
    const real v = (d11 * d20 - d01 * d21) / den, u = (d00 * d21 - d01 * d20) / den;
    const real tol = real(1e-9);
    if (v >= -tol && u >= -tol && u + v <= 1 + tol)
      out[count++] = triangle_first ? PairContact{pt, pc, nf, h} : PairContact{pc, pt, -nf, h};
  }
  return count;
}

/// Tolerance of the edge wedge and vertex cone tests, on dot products of unit vectors [-].
constexpr real kWedgeTolerance = real(1e-9);

/// Route (b), edge and vertex features, for triangle t of a mesh and a convex core C (T is the
/// triangle's core, its vertices in world; g = gjk_distance(T, C)). GJK gives the closest points of T and C (EPA their
/// penetration when they overlap) and the normal n from T toward C; the feature of T holding the
/// closest point (barycentric weights above 1e-9, or 1e-6 after EPA) decides:
///   face interior, or n within kFlatEdgeTolerance of the face normal: nothing here, the face
///     feature (triangle_contact_candidates) answers;
///   edge k: only when the edge is not flat, t owns it (it has no neighbour or t is the lower
///     triangle index) and n lies in the edge's wedge: n . t1 >= -tol and n . t2 >= -tol, with t1 and
///     t2 the unit vectors in each face's plane, perpendicular to the edge, pointing out of that
///     face across the edge (a boundary edge has only t1). The wedge of a convex fold is the cone
///     between the two face normals on its outer side; on a concave fold the same test only
///     admits the back side, where that fold is convex (triangles are two-sided), so a shape
///     lying in a valley never gets a tilted normal from it;
///   vertex k: only when t owns the vertex (the lowest triangle index using it) and n lies in the
///     vertex's normal cone: n . (w - v) <= tol |w - v| for every vertex w joined to v by a mesh
///     edge, i.e. v is the closest point of every triangle around it. A vertex inside a flat
///     region has a degenerate cone (the face normal), which the face feature answers; a bowl's
///     bottom or a saddle has none on the side that sees it as concave.
/// The points are then those of manifold_with_deepest along n (an edge lying along a box face gives
/// two). Normal shape0 -> shape1 (triangle_first: the mesh is shape0), points with
/// s - thickness_sum > accept dropped.
IMPULSE_HD inline int triangle_feature_candidates(const MeshView& mesh, int t, const ConvexCore& T, const ConvexCore& C,
                                                  const GjkResult& g, bool triangle_first, real thickness_sum,
                                                  real accept, PairContact* out, int cap) {
  vec3 n, pa, pb;
  real s, feature_tol;
  if (!g.overlap) {
    s = g.distance;
    if (!writer_accepts(s - thickness_sum, accept)) return 0;
    pa = g.point_a, pb = g.point_b;
    n = (pb - pa) / s;
    feature_tol = real(1e-9);
  } else {
    const EpaResult e = epa_penetration(T, C, g);
    if (!e.ok) return 0;
    n = e.normal, pa = e.point_a, pb = e.point_b, s = -e.depth;
    feature_tol = real(1e-6);
  }
  const vec3 v0 = T.points[0], v1 = T.points[1], v2 = T.points[2];
  const vec3 nf = normalize(cross(v1 - v0, v2 - v0));
  if (length(cross(n, nf)) <= kFlatEdgeTolerance) return 0;
  // Barycentric weights of pa in T.
  const vec3 e0 = v1 - v0, e1 = v2 - v0, w = pa - v0;
  const real d00 = dot(e0, e0), d01 = dot(e0, e1), d11 = dot(e1, e1), d20 = dot(w, e0), d21 = dot(w, e1);
  const real den = d00 * d11 - d01 * d01;
  const real l1 = (d11 * d20 - d01 * d21) / den, l2 = (d00 * d21 - d01 * d20) / den;
  const real l[3] = {1 - l1 - l2, l1, l2};
  int on = 0, last = -1, off = -1;
  for (int k = 0; k < 3; ++k) {
    if (l[k] > feature_tol) ++on, last = k;
    else off = k;
  }
  const int base = 3 * t;
  if (on == 2) {  // edge k from vertex k to vertex k + 1, k = the vertex after the one left out
    const int k = (off + 1) % 3;
    const int cls = mesh.edge_class[base + k], nb = mesh.edge_neighbor[base + k];
    if (cls == EDGE_FLAT || (nb >= 0 && nb < t)) return 0;
    const vec3 a = T.points[k], b = T.points[(k + 1) % 3], c = T.points[(k + 2) % 3];
    const vec3 ed = normalize(b - a);
    auto out_of_face = [&](vec3 opposite) {  // in-plane unit normal of the edge, away from opposite
      const vec3 r = a - opposite;
      return normalize(r - dot(r, ed) * ed);
    };
    if (dot(n, out_of_face(c)) < -kWedgeTolerance) return 0;
    if (nb >= 0 && dot(n, out_of_face(mesh.opposite(t, k, nb))) < -kWedgeTolerance) return 0;
  } else if (on == 1) {  // vertex last
    const int iv = mesh.triangles[base + last];
    if (mesh.vertex_owner[iv] != t) return 0;
    const vec3 v = T.points[last];
    for (int j = mesh.ring_start[iv]; j < mesh.ring_start[iv + 1]; ++j) {
      const vec3 d = mesh.vertex(mesh.ring[j]) - v;
      if (dot(n, d) > kWedgeTolerance * length(d)) return 0;
    }
  } else {
    return 0;  // face interior: the face feature answers
  }
  return triangle_first ? manifold_with_deepest(T, C, n, pa, pb, s, thickness_sum, accept, out, cap)
                        : manifold_with_deepest(C, T, -n, pb, pa, s, thickness_sum, accept, out, cap);
}

/// The plane route's reduction of candidates with one common normal (E3.2-reduction): the
/// kMaxPairContacts deepest points, and every point tied with the last of them (to tol [m]), stay;
/// reduce_contacts chooses among those by spread. A core's far vertices that are still inside the
/// gap (a box's top corners under a large gap) therefore never displace its deepest layer, and a
/// flat face (a box's four bottom corners, a cylinder cap's rim) is thinned by spread. Leaves up to
/// kMaxPairContacts points as they are; otherwise sorts c by s (stable) first. Returns the number
/// kept, at most kMaxPairContacts.
IMPULSE_HD inline int keep_deepest_layer(PairContact* c, int n, real tol) {
  if (n <= kMaxPairContacts) return n;
  for (int i = 1; i < n; ++i) {  // insertion sort by s, stable
    const PairContact x = c[i];
    int j = i - 1;
    while (j >= 0 && c[j].s > x.s) {
      c[j + 1] = c[j];
      --j;
    }
    c[j + 1] = x;
  }
  const real limit = c[kMaxPairContacts - 1].s + tol;
  int m = kMaxPairContacts;
  while (m < n && c[m].s <= limit) ++m;
  return reduce_contacts(c, m);
}

/// Route (a) for a plane (shape0 when plane_first, else shape1) and a convex core: every vertex of
/// the core (plane_vertices, or every point of a convex hull) whose d = h - thickness_sum is within
/// accept is a candidate, h = np.(x - plane origin) its height over the plane; keep_deepest_layer
/// then keeps at most kMaxPairContacts of them, always the deepest. A hull with more points than
/// cap is streamed: whenever the buffer is full its deepest layer is kept and the scan goes on.
/// Needs cap >= kMaxPlaneVertices.
IMPULSE_HD inline int plane_contact_candidates(const transform& plane, const ConvexCore& C, bool plane_first,
                                               real thickness_sum, real accept, PairContact* out, int cap) {
  const vec3 np = quat_rotate(plane.q, vec3{0, 0, 1});
  int count = 0;
  real size = 0;  // largest distance of a candidate from the core's centre, for the tie tolerance [m]
  auto take = [&](vec3 x) {
    const real h = dot(np, x - plane.p);
    if (!writer_accepts(h - thickness_sum, accept)) return;
    size = rmax(size, length(x - C.X.p));
    if (count == cap) count = keep_deepest_layer(out, count, real(1e-9) * size);
    const vec3 on_plane = x - h * np;
    if (plane_first) out[count++] = {on_plane, x, np, h};
    else out[count++] = {x, on_plane, -np, h};
  };
  if (C.type == SHAPE_CONVEX_HULL) {
    for (int i = 0; i < C.point_count; ++i) take(transform_point(C.X, mul_elem(C.points[i], C.scale)));
  } else {
    ScratchArray<vec3, kMaxPlaneVertices> V;
    const int nv = plane_vertices(C, -np, V);
    for (int i = 0; i < nv; ++i) take(V[i]);
  }
  return keep_deepest_layer(out, count, real(1e-9) * size);
}

}  // namespace impulse
