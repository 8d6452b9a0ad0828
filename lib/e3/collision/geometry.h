// Shape geometry for the narrow phase (course E3 §2, route (a): primitive/convex pairs via GJK).
//
// Every convex shape is a *core* plus a *radius*: a sphere is a point with radius r, a capsule a
// segment with radius r, a box, cylinder, convex hull or mesh triangle has radius 0. The contact
// record's effective thickness is radius + shape margin (E3.2-field-margin), and the core points are
// what the record stores, so that d = n.(p1 - p0) - (m0 + m1) (E3.2-gap-function) never subtracts
// a radius twice.
//
// Conventions: capsules, cylinders and cones lie along their local z axis (a cone's base disk at
// z = -half_height, its apex at +half_height, as Newton's); a plane is the local z = 0 plane with
// normal +z, infinite. shape_scale carries the sizes:
//   sphere (r, -, -), capsule (r, half_height, -), box (hx, hy, hz), cylinder and cone
//   (r, half_height, -), convex_hull and mesh: per-axis scale of their vertices.
#pragma once

#include <cstdint>

#include "core/hd.h"
#include "core/math.h"
#include "e3/collision/scratch_array.h"

namespace impulse {

/// Shape types of the Model and the collision kernels (a subset of Newton's GeoType, with our own
/// numbering; ShapeType in e1/model.h names the same values).
enum CollisionShapeType : int {
  SHAPE_PLANE = 0,
  SHAPE_SPHERE = 1,
  SHAPE_CAPSULE = 2,
  SHAPE_BOX = 3,
  SHAPE_CYLINDER = 4,
  SHAPE_CONVEX_HULL = 5,
  SHAPE_MESH = 6,
  /// A single triangle of a mesh (only inside the narrow phase).
  SHAPE_TRIANGLE = 7,
  SHAPE_CONE = 8,
};

const char* shape_type_name(int type);

/// Class of a mesh triangle's edge, from the two face normals, relative to the winding normal of
/// the triangle that stores it (cross(v1 - v0, v2 - v0), counter-clockwise = front). Built by
/// ModelBuilder::finalize (see classify_mesh_edge in narrow_phase.h).
enum MeshEdgeClass : int {
  EDGE_BOUNDARY = 0,  // no neighbouring triangle
  EDGE_CONVEX = 1,    // the neighbour bends away behind the front side (a ridge seen from the front)
  EDGE_FLAT = 2,      // the neighbour is coplanar within kFlatEdgeTolerance
  EDGE_CONCAVE = 3,   // the neighbour bends up in front (a valley seen from the front)
};

struct aabb {
  vec3 lo, hi;  // [m]
};

/// A node of a triangle-mesh bounding-volume hierarchy, in the mesh's (scaled) shape frame.
struct BvhNode {
  aabb box;       // [m]
  int left = -1;  // child node indices (absolute); -1 for a leaf
  int right = -1;
  int first = 0;  // leaf: first triangle (absolute index into mesh_triangles / 3)
  int count = 0;  // leaf: number of triangles; 0 for an inner node
};

IMPULSE_HD inline bool aabb_overlap(const aabb& a, const aabb& b) {
  return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
         b.lo.z <= a.hi.z;
}

IMPULSE_HD inline real rabs(real x) { return x < 0 ? -x : x; }
IMPULSE_HD inline real rmin(real a, real b) { return a < b ? a : b; }
IMPULSE_HD inline real rmax(real a, real b) { return a > b ? a : b; }
IMPULSE_HD inline vec3 vmin(vec3 a, vec3 b) { return {rmin(a.x, b.x), rmin(a.y, b.y), rmin(a.z, b.z)}; }
IMPULSE_HD inline vec3 vmax(vec3 a, vec3 b) { return {rmax(a.x, b.x), rmax(a.y, b.y), rmax(a.z, b.z)}; }

/// A convex core placed in the world: what GJK and EPA query through support().
struct ConvexCore {
  int type = SHAPE_SPHERE;
  transform X;              // world pose of the shape
  vec3 scale;               // see the header comment [m or -]
  const vec3* points = nullptr;  // convex hull vertices (shape frame, unscaled) or triangle vertices (world)
  int point_count = 0;
  // Convex hull faces (the Model's hull_face_* arrays): face f has the vertices
  // points[face_vertices[face_start[f] .. face_start[f + 1])], counter-clockwise from outside.
  const int* face_start = nullptr;     // face_count + 1 entries
  const int* face_vertices = nullptr;  // indices into points
  const vec3* face_normals = nullptr;  // outward unit normals, unscaled shape frame [-]
  int face_count = 0;
  real radius = 0;          // sphere / capsule radius [m]; 0 otherwise
};

/// Radius that the core does not carry (part of the effective thickness) [m].
IMPULSE_HD inline real core_radius(int type, vec3 scale) {
  return (type == SHAPE_SPHERE || type == SHAPE_CAPSULE) ? scale.x : real(0);
}

/// A representative interior point of the core (world) [m].
IMPULSE_HD inline vec3 core_center(const ConvexCore& c) {
  if (c.type == SHAPE_TRIANGLE) return (c.points[0] + c.points[1] + c.points[2]) / real(3);
  return c.X.p;
}

IMPULSE_HD inline vec3 mul_elem(vec3 a, vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }

/// Support point of a cone (base radius r at z = -hh, apex at z = +hh) in local direction d: the
/// apex or the base rim point in the direction of d's xy part, whichever reaches farther along d:
///   apex . d = hh d_z,   rim . d = r |d_xy| - hh d_z                                 [m]
/// (the apex wins when d_z >= (r / 2hh) |d_xy|, Newton's slope test). With d_xy = 0 the base centre.
IMPULSE_HD inline vec3 cone_support(real r, real hh, vec3 d) {
  const real rr = sqrt(d.x * d.x + d.y * d.y);
  const vec3 rim = rr > real(1e-12) ? vec3{r * d.x / rr, r * d.y / rr, -hh} : vec3{0, 0, -hh};
  return hh * d.z >= dot(rim, d) ? vec3{0, 0, hh} : rim;
}

/// Support point of the core in world direction dir: argmax_{x in core} dot(x, dir)   [m].
IMPULSE_HD inline vec3 core_support(const ConvexCore& c, vec3 dir) {
  if (c.type == SHAPE_TRIANGLE) {
    int best = 0;
    real bd = dot(c.points[0], dir);
    for (int i = 1; i < 3; ++i) {
      real d = dot(c.points[i], dir);
      if (d > bd) bd = d, best = i;
    }
    return c.points[best];
  }
  const vec3 dl = quat_rotate_inv(c.X.q, dir);
  vec3 s{};
  switch (c.type) {
    case SHAPE_SPHERE: break;
    case SHAPE_CAPSULE: s = {0, 0, dl.z >= 0 ? c.scale.y : -c.scale.y}; break;
    case SHAPE_BOX:
      s = {dl.x >= 0 ? c.scale.x : -c.scale.x, dl.y >= 0 ? c.scale.y : -c.scale.y, dl.z >= 0 ? c.scale.z : -c.scale.z};
      break;
    case SHAPE_CYLINDER: {
      const real rr = sqrt(dl.x * dl.x + dl.y * dl.y);
      const real k = rr > real(1e-12) ? c.scale.x / rr : real(0);
      s = {dl.x * k, dl.y * k, dl.z >= 0 ? c.scale.y : -c.scale.y};
      break;
    }
    case SHAPE_CONE: s = cone_support(c.scale.x, c.scale.y, dl); break;
    case SHAPE_CONVEX_HULL: {
      vec3 best = mul_elem(c.points[0], c.scale);
      real bd = dot(best, dl);
      for (int i = 1; i < c.point_count; ++i) {
        vec3 p = mul_elem(c.points[i], c.scale);
        real d = dot(p, dl);
        if (d > bd) bd = d, best = p;
      }
      s = best;
      break;
    }
    default: break;
  }
  return transform_point(c.X, s);
}

/// World AABB of a shape's core, grown by `grow` on every side (thickness + gap) [m].
/// Planes (and meshes, through their vertices) are handled by the Model's shape data.
IMPULSE_HD inline aabb core_aabb(const ConvexCore& c, real grow) {
  const vec3 ex{1, 0, 0}, ey{0, 1, 0}, ez{0, 0, 1};
  vec3 hi{core_support(c, ex).x, core_support(c, ey).y, core_support(c, ez).z};
  vec3 lo{core_support(c, -ex).x, core_support(c, -ey).y, core_support(c, -ez).z};
  const vec3 g{grow, grow, grow};
  return {lo - g, hi + g};
}

// --- GJK: distance between two convex cores ---------------------------------------------------

struct SupportVertex {
  vec3 w;  // a - b, a point of the Minkowski difference A - B [m]
  vec3 a;  // support point on A [m]
  vec3 b;  // support point on B [m]
};

IMPULSE_HD inline SupportVertex minkowski_support(const ConvexCore& A, const ConvexCore& B, vec3 dir) {
  SupportVertex v;
  v.a = core_support(A, dir);
  v.b = core_support(B, -dir);
  v.w = v.a - v.b;
  return v;
}

/// Closest point to the origin of the convex hull of k <= 4 simplex vertices, by trying every
/// subset (Johnson's sub-algorithm done by enumeration). Reduces the simplex to the supporting
/// subset and returns the barycentric weights in lambda. Returns false when all subsets are
/// degenerate.
IMPULSE_HD inline bool simplex_closest(SupportVertex* s, int& k, real* lambda, vec3& closest) {
  real best_d2 = -1;
  int best_mask = 0;
  real best_l[4] = {0, 0, 0, 0};
  for (int mask = 1; mask < (1 << k); ++mask) {
    int idx[4], m = 0;
    for (int i = 0; i < k; ++i)
      if (mask & (1 << i)) idx[m++] = i;
    real l[4] = {0, 0, 0, 0};
    if (m == 1) {
      l[0] = 1;
    } else {
      // minimise |y0 + sum mu_i e_i|^2 with e_i = y_i - y0: (E^T E) mu = -E^T y0.
      const vec3 y0 = s[idx[0]].w;
      vec3 e[3];
      for (int i = 1; i < m; ++i) e[i - 1] = s[idx[i]].w - y0;
      const int n = m - 1;
      real G[3][4];
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) G[i][j] = dot(e[i], e[j]);
        G[i][3] = -dot(e[i], y0);
      }
      real scale = 0;
      for (int i = 0; i < n; ++i) scale = rmax(scale, G[i][i]);
      bool ok = scale > 0;
      for (int c = 0; c < n && ok; ++c) {  // Gaussian elimination with partial pivoting
        int p = c;
        for (int r = c + 1; r < n; ++r)
          if (rabs(G[r][c]) > rabs(G[p][c])) p = r;
        if (rabs(G[p][c]) <= precision_tolerance(real(1e-13), real(16), real(1)) * scale) {
          ok = false;
          break;
        }
        for (int j = 0; j < 4; ++j) {
          real t = G[c][j];
          G[c][j] = G[p][j];
          G[p][j] = t;
        }
        for (int r = 0; r < n; ++r) {
          if (r == c) continue;
          real f = G[r][c] / G[c][c];
          for (int j = c; j < 4; ++j) G[r][j] -= f * G[c][j];
        }
      }
      if (!ok) continue;
      real sum = 0;
      for (int i = 0; i < n; ++i) {
        l[i + 1] = G[i][3] / G[i][i];
        sum += l[i + 1];
      }
      l[0] = 1 - sum;
    }
    bool inside = true;
    for (int i = 0; i < m; ++i)
      if (l[i] < -precision_tolerance(real(1e-12), real(8), real(1))) inside = false;
    if (!inside) continue;
    vec3 x{};
    for (int i = 0; i < m; ++i) x += l[i] * s[idx[i]].w;
    const real d2 = dot(x, x);
    if (best_d2 < 0 || d2 < best_d2 - real(1e-24)) {
      best_d2 = d2;
      best_mask = mask;
      for (int i = 0; i < 4; ++i) best_l[i] = l[i];
    }
  }
  if (best_d2 < 0) return false;
  SupportVertex kept[4];
  int m = 0;
  for (int i = 0; i < k; ++i)
    if (best_mask & (1 << i)) kept[m++] = s[i];
  closest = vec3{};
  for (int i = 0; i < m; ++i) {
    s[i] = kept[i];
    lambda[i] = best_l[i];
    closest += best_l[i] * kept[i].w;
  }
  k = m;
  return true;
}

struct GjkResult {
  bool overlap = false;  // the cores intersect (distance below tolerance)
  real distance = 0;     // core distance [m] (0 when overlapping)
  vec3 point_a, point_b; // closest points on A and B [m]
  SupportVertex simplex[4];
  int simplex_size = 0;
};

/// GJK distance between two convex cores (Gilbert-Johnson-Keerthi, with the enumeration
/// sub-algorithm). Tolerance: relative 1e-10 on the support gap, absolute 1e-10 m for overlap
/// (float32: at least 8 eps times the size of the support points, precision_tolerance).
IMPULSE_HD inline GjkResult gjk_distance(const ConvexCore& A, const ConvexCore& B) {
  GjkResult r;
  vec3 dir = core_center(B) - core_center(A);
  if (dot(dir, dir) < real(1e-24)) dir = {1, 0, 0};
  SupportVertex* s = r.simplex;
  int k = 0;
  s[k++] = minkowski_support(A, B, -dir);
  real lambda[4] = {1, 0, 0, 0};
  vec3 v = s[0].w;
  // Overlap below 1e-10 m, or in float32 below the rounding of the support points (a few eps times
  // their size): the distance of overlapping cores stalls there and would read as a separation.
  const real eps_abs = precision_tolerance(real(1e-10), real(8), length(s[0].a) + length(s[0].b));
  for (int iter = 0; iter < 64; ++iter) {
    const real vv = dot(v, v);
    if (vv <= eps_abs * eps_abs) {
      r.overlap = true;
      break;
    }
    const SupportVertex w = minkowski_support(A, B, -v);
    if (vv - dot(v, w.w) <= real(1e-10) * vv + real(1e-20)) break;  // no further progress possible
    bool dup = false;
    for (int i = 0; i < k; ++i)
      if (dot(s[i].w - w.w, s[i].w - w.w) < real(1e-24)) dup = true;
    if (dup || k == 4) break;
    s[k++] = w;
    vec3 nv;
    if (!simplex_closest(s, k, lambda, nv)) break;
    // simplex_closest kept all four points: its weights are >= 0, so the origin is in the
    // tetrahedron up to their rounding, whatever |nv| (a flat tetrahedron's weights are ill
    // conditioned: two cubes touching face to face left |nv| = 1.2e-10 m and read as apart by that,
    // along a normal of rounding, and the contact came out upside down; issue 26).
    if (k == 4) {  // a tetrahedron around the origin
      v = nv;
      r.overlap = true;
      break;
    }
    if (dot(nv, nv) >= vv) {  // numerical stall: keep the previous answer
      v = nv;
      break;
    }
    v = nv;
  }
  r.simplex_size = k;
  r.point_a = vec3{};
  r.point_b = vec3{};
  for (int i = 0; i < k; ++i) {
    r.point_a += lambda[i] * s[i].a;
    r.point_b += lambda[i] * s[i].b;
  }
  r.distance = r.overlap ? real(0) : length(v);
  if (dot(v, v) <= eps_abs * eps_abs) r.overlap = true, r.distance = 0;
  return r;
}

// --- EPA: penetration of overlapping cores ----------------------------------------------------

/// Most face normals EPA reports besides its answer (starts for refining a curved core's depth).
constexpr int kEpaCandidates = 4;

struct EpaResult {
  bool ok = false;
  vec3 normal;     // unit, from A to B (moving B along +normal by depth separates the cores)
  real depth = 0;  // penetration of the cores [m], >= 0
  vec3 point_a, point_b;
  vec3 candidates[kEpaCandidates];  // normals of the closest faces, 3 degrees apart or more, nearest first
  int candidate_count = 0;
};

namespace epa_detail {
constexpr int kMaxVerts = 128;
constexpr int kMaxFaces = 256;
struct Face {
  int v[3];
  vec3 n;
  real dist;
  bool alive;
};

IMPULSE_HD inline bool make_face(const SupportVertex* V, int a, int b, int c, Face& f) {
  vec3 n = cross(V[b].w - V[a].w, V[c].w - V[a].w);
  real l = length(n);
  if (l < real(1e-18)) return false;
  f.v[0] = a, f.v[1] = b, f.v[2] = c;
  f.n = n / l;
  f.dist = dot(f.n, V[a].w);
  f.alive = true;
  return true;
}

/// Adds vertex p to the polytope: removes faces that see it and stitches the horizon. With seed >= 0
/// (a face that sees p), the faces removed are those reached from seed through faces that see p, so
/// that the hole is one connected patch even when p lies within rounding of several nearly coplanar
/// faces (EPA converging on a curved core); with seed < 0 every face that sees p goes. Returns
/// false, leaving the polytope unchanged, when the new faces would not fit in kMaxFaces (the caller
/// then stops with the polytope it has, which is still closed).
IMPULSE_HD inline bool expand(SupportVertex* V, int p, Face* F, int& nf, real tol, int seed) {
  int edges[kMaxFaces * 3][2];
  bool sees[kMaxFaces];
  for (int i = 0; i < nf; ++i) sees[i] = seed < 0 && F[i].alive && dot(F[i].n, V[p].w - V[F[i].v[0]].w) > tol;
  if (seed >= 0) {
    int stack[kMaxFaces];
    int top = 0;
    sees[seed] = true;
    stack[top++] = seed;
    while (top > 0) {
      const int f = stack[--top];
      for (int e = 0; e < 3; ++e) {
        const int a = F[f].v[e], b = F[f].v[(e + 1) % 3];
        for (int j = 0; j < nf; ++j) {
          const bool twin = (F[j].v[0] == b && F[j].v[1] == a) || (F[j].v[1] == b && F[j].v[2] == a) ||
                            (F[j].v[2] == b && F[j].v[0] == a);
          if (!twin) continue;
          if (!sees[j] && F[j].alive && dot(F[j].n, V[p].w - V[F[j].v[0]].w) > tol) {
            sees[j] = true;
            stack[top++] = j;
          }
          break;
        }
      }
    }
  }
  int ne = 0, removed = 0;
  for (int i = 0; i < nf; ++i) {
    if (!sees[i]) continue;
    ++removed;
    for (int e = 0; e < 3; ++e) {
      const int a = F[i].v[e], b = F[i].v[(e + 1) % 3];
      int twin = -1;
      for (int j = 0; j < ne; ++j)
        if (edges[j][0] == b && edges[j][1] == a) twin = j;
      if (twin >= 0) {
        edges[twin][0] = edges[ne - 1][0];
        edges[twin][1] = edges[ne - 1][1];
        --ne;
      } else if (ne < kMaxFaces * 3) {
        edges[ne][0] = a;
        edges[ne][1] = b;
        ++ne;
      }
    }
  }
  if (removed == 0) return true;
  if (nf - removed + ne > kMaxFaces) return false;
  int w = 0;  // compact the faces that stay
  for (int i = 0; i < nf; ++i)
    if (F[i].alive && !sees[i]) F[w++] = F[i];
  nf = w;
  for (int j = 0; j < ne; ++j) {
    Face f;
    if (make_face(V, edges[j][0], edges[j][1], p, f)) F[nf++] = f;
  }
  return true;
}
}  // namespace epa_detail

/// Expanding Polytope Algorithm on the Minkowski difference A - B. The start polytope is the hull
/// of GJK's final simplex (which contains the origin) and 14 support points along the axes and
/// diagonals; returns ok = false when the difference is flat (e.g. two coplanar triangles).
namespace epa_detail {
/// Barycentric coordinates (la, lb, lc) of the origin's projection f.dist f.n onto face f.
IMPULSE_HD inline void face_barycentric(const SupportVertex* V, const Face& f, real& la, real& lb, real& lc) {
  const vec3 P = f.dist * f.n;
  const vec3 a = V[f.v[0]].w, b = V[f.v[1]].w, c = V[f.v[2]].w;
  const vec3 n = cross(b - a, c - a);
  const real nn = dot(n, n);
  la = dot(cross(b - P, c - P), n) / nn;
  lb = dot(cross(c - P, a - P), n) / nn;
  lc = 1 - la - lb;
}

/// Whether face i may be the answer: not an inverted sliver (dist >= -tol; one appears when a new
/// support point lies within rounding of several nearly coplanar faces, EPA converging on a curved
/// core) and facing outward, away from the point `inner` inside the polytope. An inward face is a
/// sliver of nearly coplanar points wound the wrong way (the origin on a flat face of the
/// difference, cores touching face to face): at distance ~0 it looked closest and gave the
/// opposite normal (issue 26, a settled cube pile).
IMPULSE_HD inline bool face_may_answer(const SupportVertex* V, const Face& f, real tol, vec3 inner) {
  return f.dist >= -tol && dot(f.n, inner - V[f.v[0]].w) < 0;
}

/// The face that may answer with the smallest distance (the first on ties), or -1.
IMPULSE_HD inline int closest_face(const SupportVertex* V, const Face* F, int nf, real tol, vec3 inner) {
  int fi = -1;
  for (int i = 0; i < nf; ++i)
    if (face_may_answer(V, F[i], tol, inner) && (fi < 0 || F[i].dist < F[fi].dist)) fi = i;
  return fi;
}

/// Face fi, or when the origin's projection falls outside it another face within tol of its
/// distance whose coordinates (la, lb, lc) of the projection are all >= 0 (or the least negative).
/// When the origin lies on the polytope's boundary (cores touching), every face in that plane is at
/// distance ~0 and the closest found may not hold the projection: its coordinates extrapolate, and
/// a sliver face put the contact 6e4 m away (issue 26, two cubes of a settled pile).
IMPULSE_HD inline int face_holding_projection(const SupportVertex* V, const Face* F, int nf, real tol, vec3 inner,
                                              int fi, real& la, real& lb, real& lc) {
  if (fi < 0) return fi;
  face_barycentric(V, F[fi], la, lb, lc);
  if (rmin(la, rmin(lb, lc)) >= -real(1e-9)) return fi;
  const real fd = F[fi].dist;
  for (int i = 0; i < nf; ++i) {
    if (i == fi || !face_may_answer(V, F[i], tol, inner) || F[i].dist > fd + tol) continue;
    real ma, mb, mc;
    face_barycentric(V, F[i], ma, mb, mc);
    if (rmin(ma, rmin(mb, mc)) > rmin(la, rmin(lb, lc))) fi = i, la = ma, lb = mb, lc = mc;
  }
  return fi;
}
}  // namespace epa_detail

IMPULSE_HD inline EpaResult epa_penetration(const ConvexCore& A, const ConvexCore& B, const GjkResult& g) {
  using namespace epa_detail;
  EpaResult out;
  ScratchArray<SupportVertex, kMaxVerts> V;
  int nv = 0;
  for (int i = 0; i < g.simplex_size; ++i) V[nv++] = g.simplex[i];
  const real q = real(0.57735026918962576);
  const vec3 dirs[14] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {q, q, q},
                         {-q, q, q}, {q, -q, q}, {q, q, -q}, {-q, -q, q}, {-q, q, -q}, {q, -q, -q}, {-q, -q, -q}};
  for (int i = 0; i < 14; ++i) V[nv++] = minkowski_support(A, B, dirs[i]);
  // Size scale of the difference, for tolerances.
  real size = 0;
  for (int i = 0; i < nv; ++i) size = rmax(size, length(V[i].w - V[0].w));
  if (size <= 0) return out;
  // Relative 1e-9, or in float32 the rounding of the support points (a face "sees" a point, the
  // expansion stops, below what the coordinates resolve).
  const real tol = precision_tolerance(real(1e-9) * size, real(8), length(V[0].a) + length(V[0].b));
  // Initial tetrahedron: farthest point, farthest from the line, farthest from the plane.
  int i0 = 0, i1 = -1, i2 = -1, i3 = -1;
  real best = 0;
  for (int i = 1; i < nv; ++i) {
    real d = length(V[i].w - V[i0].w);
    if (d > best) best = d, i1 = i;
  }
  if (i1 < 0 || best <= tol) return out;
  best = 0;
  for (int i = 0; i < nv; ++i) {
    real d = length(cross(V[i1].w - V[i0].w, V[i].w - V[i0].w));
    if (d > best) best = d, i2 = i;
  }
  if (i2 < 0 || best <= tol * size) return out;
  best = 0;
  const vec3 pn = cross(V[i1].w - V[i0].w, V[i2].w - V[i0].w);
  for (int i = 0; i < nv; ++i) {
    real d = rabs(dot(pn, V[i].w - V[i0].w));
    if (d > best) best = d, i3 = i;
  }
  if (i3 < 0 || best <= tol * size * size) return out;
  ScratchArray<Face, kMaxFaces> F;
  int nf = 0;
  // Inside the initial tetrahedron, so inside every later polytope (they only grow).
  const vec3 centroid = (V[i0].w + V[i1].w + V[i2].w + V[i3].w) / real(4);
  {
    int t[4] = {i0, i1, i2, i3};
    const int tri[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (int f = 0; f < 4; ++f) {
      int a = t[tri[f][0]], b = t[tri[f][1]], c = t[tri[f][2]];
      Face face;
      if (!make_face(V, a, b, c, face)) return out;
      if (dot(face.n, centroid - V[a].w) > 0) make_face(V, a, c, b, face);  // turn the normal outward
      F[nf++] = face;
    }
  }
  for (int i = 0; i < nv; ++i) {
    if (i == i0 || i == i1 || i == i2 || i == i3) continue;
    if (!expand(V, i, F, nf, tol, -1)) return out;
  }
  // Once every point is in, the origin is inside the polytope, so every face has dist >= 0 up to
  // rounding; the answer is among the faces that may answer (face_may_answer).
  for (int iter = 0; iter < kMaxVerts; ++iter) {
    const int fi = closest_face(V, F, nf, tol, centroid);
    if (fi < 0) return out;
    const real fd = F[fi].dist;
    const SupportVertex w = minkowski_support(A, B, F[fi].n);
    const real wd = dot(F[fi].n, w.w);
    if (wd - fd <= tol || nv >= kMaxVerts) break;
    V[nv] = w;
    if (!expand(V, nv, F, nf, tol, fi)) break;
    ++nv;
  }
  real la, lb, lc;
  const int fi = face_holding_projection(V, F, nf, tol, centroid, closest_face(V, F, nf, tol, centroid), la, lb, lc);
  if (fi < 0) return out;
  const Face& f = F[fi];
  const real fd = f.dist;
  out.point_a = la * V[f.v[0]].a + lb * V[f.v[1]].a + lc * V[f.v[2]].a;
  out.point_b = la * V[f.v[0]].b + lb * V[f.v[1]].b + lc * V[f.v[2]].b;
  out.normal = f.n;
  out.depth = rmax(fd, real(0));
  out.ok = true;
  // On a curved core the polytope has many faces at nearly the closest distance, and the true
  // deepest direction may lie near any of them: the nearest few, well apart, are kept.
  for (int k = 0; k < kEpaCandidates; ++k) {
    int bi = -1;
    for (int i = 0; i < nf; ++i) {
      if (F[i].dist < -tol || (bi >= 0 && F[i].dist >= F[bi].dist)) continue;
      bool apart = true;
      for (int j = 0; j < out.candidate_count; ++j)
        if (dot(F[i].n, out.candidates[j]) > real(0.9986)) apart = false;
      if (apart) bi = i;
    }
    if (bi < 0) break;
    out.candidates[out.candidate_count++] = F[bi].n;
  }
  return out;
}

/// Support value of the Minkowski difference, h_{A-B}(u) = h_A(u) + h_B(-u)   [m].
IMPULSE_HD inline real minkowski_support_value(const ConvexCore& A, const ConvexCore& B, vec3 u) {
  return dot(u, core_support(A, u)) - dot(u, core_support(B, -u));
}

/// Refines a penetration direction: the depth of overlapping cores is min over unit u of
/// h_{A-B}(u), and every u gives an upper bound. EPA's answer is a lower bound that stops early on
/// curved cores (cylinders); a pattern search on the sphere from EPA's normal closes the gap.
/// Returns the refined unit direction (from A to B).
IMPULSE_HD inline vec3 refine_penetration_direction(const ConvexCore& A, const ConvexCore& B, vec3 n) {
  real best = minkowski_support_value(A, B, n);
  real step = real(0.02);
  for (int iter = 0; iter < 400 && step > real(1e-9); ++iter) {
    vec3 t1, t2;
    tangent_basis(n, t1, t2);
    const real phase = real(0.61803398874989485) * iter;
    bool improved = false;
    for (int k = 0; k < 12; ++k) {
      const real a = phase + real(0.52359877559829887) * k;
      const vec3 u = normalize(n + step * (cos(a) * t1 + sin(a) * t2));
      const real v = minkowski_support_value(A, B, u);
      if (v < best) best = v, n = u, improved = true;
    }
    if (!improved) step *= real(0.5);
  }
  return n;
}

/// The best of 64 directions spread over the sphere (a Fibonacci lattice) for the penetration
/// depth min_u h_{A-B}(u): a second start for refine_penetration_direction. The depth function
/// has several local minima (one per face pair, roughly), and EPA's polytope on a curved core can
/// run out of vertices on a poor face, so a refinement started only from EPA's normal can settle
/// in the wrong basin. Returns a unit direction (from A to B).
IMPULSE_HD inline vec3 coarse_penetration_direction(const ConvexCore& A, const ConvexCore& B) {
  constexpr int kN = 64;
  vec3 best{0, 0, 1};
  real bv = real(1e300);
  for (int i = 0; i < kN; ++i) {
    const real z = 1 - 2 * (i + real(0.5)) / kN, r = sqrt(1 - z * z), phi = real(2.39996322972865332) * i;
    const vec3 u{r * cos(phi), r * sin(phi), z};
    const real v = minkowski_support_value(A, B, u);
    if (v < bv) bv = v, best = u;
  }
  return best;
}

}  // namespace impulse
