// Tests of lib/e3/collision/geometry.h and lib/e3/collision/narrow_phase.h (course E3 §2: geometry routes, gap
// function, reduction), against a slow reference written differently: the signed distance of two
// convex shapes as the best separating direction, max_u [ -h_A(-u) - h_B(u) ], found by sampling
// the unit sphere and refining by pattern search, with each shape's support function written from
// its vertices or analytically (radius and margin included).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iomanip>
#include <limits>
#include <vector>

#include "e3/collision/collision_kernels.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_record.h"
#include "e3/collision/narrow_phase.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

struct OracleShape {
  int type;
  transform X;
  vec3 size;                 // as shape_scale
  std::vector<vec3> points;  // hull vertices (shape frame)
  real margin = 0;
};

// Support value h(u) = max over the (effective) shape of u . x, written without lib/e3 geometry.
real oracle_support(const OracleShape& s, vec3 u) {
  const mat33 R = quat_to_mat33(s.X.q);
  auto world = [&](vec3 p) { return R * p + s.X.p; };
  real h = -1e300;
  switch (s.type) {
    case SHAPE_SPHERE: h = dot(u, s.X.p) + s.size.x; break;
    case SHAPE_CAPSULE:
      h = std::max(dot(u, world({0, 0, s.size.y})), dot(u, world({0, 0, -s.size.y}))) + s.size.x;
      break;
    case SHAPE_BOX:
      for (int i = 0; i < 8; ++i)
        h = std::max(h, dot(u, world({(i & 1) ? s.size.x : -s.size.x, (i & 2) ? s.size.y : -s.size.y,
                                      (i & 4) ? s.size.z : -s.size.z})));
      break;
    case SHAPE_CYLINDER: {
      // Each cap is a disc: h = u . centre + r |u - (u . a) a|.
      const vec3 a = R * vec3{0, 0, 1};
      const vec3 up = u - dot(u, a) * a;
      for (real z : {s.size.y, -s.size.y}) h = std::max(h, dot(u, world({0, 0, z})) + s.size.x * length(up));
      break;
    }
    case SHAPE_CONVEX_HULL:
      for (const vec3& p : s.points) h = std::max(h, dot(u, world(p)));
      break;
  }
  return h + s.margin;
}

// Signed effective distance: max_u -h_A(-u) - h_B(u) (positive = apart, negative = penetration).
// f is concave along great circles near its maximum but only piecewise smooth, so the maximum often
// sits on a ridge: the search samples the sphere (and the face normals of box and cylinder), then
// refines the best eight samples by pattern search with 48 probe directions in a frame that turns
// every step.
real oracle_signed_distance(const OracleShape& A, const OracleShape& B) {
  auto f = [&](vec3 u) { return -oracle_support(A, -u) - oracle_support(B, u); };
  const int N = 4000;
  std::vector<std::pair<real, vec3>> samples;
  for (int i = 0; i < N; ++i) {  // Fibonacci sphere
    const real z = 1 - 2 * (i + 0.5) / N, r = std::sqrt(1 - z * z), phi = i * 2.39996322972865332;
    const vec3 u{r * std::cos(phi), r * std::sin(phi), z};
    samples.push_back({f(u), u});
  }
  // The maximum can sit in a V-shaped peak along a face normal of either shape (a cylinder's cap,
  // a box's face) that the lattice misses: those directions are samples too.
  for (const OracleShape* S : {&A, &B}) {
    const mat33 R = quat_to_mat33(S->X.q);
    for (int axis = 0; axis < 3; ++axis) {
      if (S->type != SHAPE_BOX && !(S->type == SHAPE_CYLINDER && axis == 2)) continue;
      vec3 e{};
      (axis == 0 ? e.x : axis == 1 ? e.y : e.z) = 1;
      for (real sign : {1.0, -1.0}) samples.push_back({f(sign * (R * e)), sign * (R * e)});
    }
  }
  std::partial_sort(samples.begin(), samples.begin() + 8, samples.end(),
                    [](const auto& x, const auto& y) { return x.first > y.first; });
  real overall = -1e300;
  for (int start = 0; start < 8; ++start) {
    vec3 best = samples[start].second;
    real fb = samples[start].first;
    real step = 0.05;
    int turn = 0;
    while (step > 1e-11) {
      bool improved = false;
      const vec3 t1 =
          std::abs(best.x) < 0.57 ? normalize(cross(best, {1, 0, 0})) : normalize(cross(best, {0, 1, 0}));
      const vec3 t2 = cross(best, t1);
      const real phase = 0.61803398874989485 * (turn++);
      for (int k = 0; k < 48; ++k) {
        const real a = phase + k * 0.1308996938995747;
        const vec3 u = normalize(best + step * (std::cos(a) * t1 + std::sin(a) * t2));
        const real v = f(u);
        if (v > fb) fb = v, best = u, improved = true;
      }
      if (!improved) step *= 0.7;
    }
    overall = std::max(overall, fb);
  }
  return overall;
}

// Exact reference for cores that are points, segments or polytopes (sphere, capsule, box, hull):
// the Minkowski difference M = {a_i - b_j} of the core vertices is enumerated. If the origin is
// inside conv(M), the core penetration is the smallest distance to a facet plane (facets found by
// testing every vertex triple); otherwise the distance is the smallest projection of the origin
// onto a vertex, edge or triangle of M that falls inside it. Radii and margins are then subtracted.
std::vector<vec3> oracle_core_vertices(const OracleShape& s) {
  const mat33 R = quat_to_mat33(s.X.q);
  std::vector<vec3> v;
  switch (s.type) {
    case SHAPE_SPHERE: v = {{0, 0, 0}}; break;
    case SHAPE_CAPSULE: v = {{0, 0, s.size.y}, {0, 0, -s.size.y}}; break;
    case SHAPE_BOX:
      for (int i = 0; i < 8; ++i)
        v.push_back({(i & 1) ? s.size.x : -s.size.x, (i & 2) ? s.size.y : -s.size.y, (i & 4) ? s.size.z : -s.size.z});
      break;
    case SHAPE_CONVEX_HULL: v = s.points; break;
  }
  for (vec3& p : v) p = R * p + s.X.p;
  return v;
}

real oracle_polytope_signed_distance(const OracleShape& A, const OracleShape& B) {
  std::vector<vec3> M;
  for (const vec3& a : oracle_core_vertices(A))
    for (const vec3& b : oracle_core_vertices(B)) M.push_back(a - b);
  const int n = static_cast<int>(M.size());
  // Facets of conv(M) and whether the origin is inside all of them.
  bool has_facet = false, inside = true;
  real depth = 1e300;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        vec3 nn = cross(M[j] - M[i], M[k] - M[i]);
        if (length(nn) < 1e-12) continue;
        nn = normalize(nn);
        int pos = 0, neg = 0;
        for (int l = 0; l < n; ++l) {
          const real h = dot(nn, M[l] - M[i]);
          pos += h > 1e-12;
          neg += h < -1e-12;
        }
        if (pos && neg) continue;
        if (!pos && !neg) continue;  // flat set: no volume
        if (pos) nn = -nn;           // outward
        has_facet = true;
        const real dist = dot(nn, M[i]);  // distance of the facet plane from the origin (inside: > 0)
        if (dist < 0) inside = false;
        depth = std::min(depth, dist);
      }
  real core;
  if (has_facet && inside) {
    core = -depth;
  } else {
    core = 1e300;
    for (int i = 0; i < n; ++i) {
      core = std::min(core, length(M[i]));
      for (int j = i + 1; j < n; ++j) {
        const vec3 e = M[j] - M[i];
        const real t = -dot(M[i], e) / dot(e, e);
        if (dot(e, e) > 0 && t > 0 && t < 1) core = std::min(core, length(M[i] + t * e));
        for (int k = j + 1; k < n; ++k) {
          const vec3 e2 = M[k] - M[i];
          const vec3 nn = cross(e, e2);
          const real nn2 = dot(nn, nn);
          if (nn2 < 1e-20) continue;
          const vec3 P = (dot(nn, M[i]) / nn2) * nn;  // projection of the origin onto the plane
          const real l1 = dot(cross(M[j] - P, M[k] - P), nn) / nn2, l2 = dot(cross(M[k] - P, M[i] - P), nn) / nn2;
          if (l1 >= 0 && l2 >= 0 && l1 + l2 <= 1) core = std::min(core, length(P));
        }
      }
    }
  }
  auto radius = [](const OracleShape& s) { return (s.type == SHAPE_SPHERE || s.type == SHAPE_CAPSULE) ? s.size.x : 0; };
  return core - radius(A) - radius(B) - A.margin - B.margin;
}

const std::vector<vec3> kHullPoints = {{0.3, 0, 0}, {-0.2, 0.25, 0}, {-0.2, -0.25, 0.05}, {0, 0, 0.35},
                                       {0.05, 0.05, -0.3}, {0.1, -0.2, 0.1}};

// A random primitive of the given type at a random pose near the origin.
rc::Gen<OracleShape> gen_shape(int type) {
  return rc::gen::apply(
      [type](transform X, real a, real b, real c) {
        OracleShape s;
        s.type = type;
        s.X = X;
        s.size = {a, b, c};
        if (type == SHAPE_CONVEX_HULL) s.points = kHullPoints, s.size = {1, 1, 1};
        return s;
      },
      gen::rigid_transform(0.35), gen::in_range(0.1, 0.4), gen::in_range(0.1, 0.4), gen::in_range(0.1, 0.4));
}

// Builds a two-shape model from oracle shapes (both on their own body at identity, shape pose = X).
struct TwoShapes {
  Model model;
  std::vector<transform> body_q;
};
TwoShapes two_shape_model(const OracleShape& A, const OracleShape& B) {
  ModelBuilder b;
  for (const OracleShape* s : {&A, &B}) {
    const int body = b.add_link(s->X);
    ShapeConfig o;
    o.margin = s->margin;
    o.gap = 10;  // keep every pair, whatever its distance
    switch (s->type) {
      case SHAPE_SPHERE: b.add_shape_sphere(body, transform_identity(), s->size.x, o); break;
      case SHAPE_CAPSULE: b.add_shape_capsule(body, transform_identity(), s->size.x, s->size.y, o); break;
      case SHAPE_BOX: b.add_shape_box(body, transform_identity(), s->size.x, s->size.y, s->size.z, o); break;
      case SHAPE_CYLINDER: b.add_shape_cylinder(body, transform_identity(), s->size.x, s->size.y, o); break;
      case SHAPE_CONVEX_HULL: b.add_shape_convex_hull(body, transform_identity(), s->points, {1, 1, 1}, o); break;
    }
  }
  return {b.finalize(), b.body_q};
}

// Minimum d over the pair's contacts (the deepest point is the signed distance).
real engine_min_distance(const TwoShapes& t, PairContacts* out = nullptr) {
  const ShapeView sv = shape_view(t.model);
  View<const transform> bq{t.body_q.data(), 2};
  const transform X0 = shape_world_pose(sv, bq, 0), X1 = shape_world_pose(sv, bq, 1);
  PairContacts pc = collide_shape_pair(sv, 0, 1, X0, X1, 20);
  if (out) *out = pc;
  const real th0 = effective_thickness(core_radius(sv.type[0], sv.scale[0]), sv.margin[0]);
  const real th1 = effective_thickness(core_radius(sv.type[1], sv.scale[1]), sv.margin[1]);
  real d = 1e300;
  for (int k = 0; k < pc.count; ++k)
    d = std::min(d, contact_surface_separation(pc.c[k].a, pc.c[k].b, pc.c[k].n, th0, th1));
  return d;
}

const int kConvexTypes[] = {SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_CONVEX_HULL};

// Corner i (bits x, y, z) of a box with half extents h, in its own frame [m].
vec3 box_corner(vec3 h, int i) { return {(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z}; }

// A box tilted by a small random angle about a random horizontal axis (after a random turn about
// z), lowered so that its deepest corner is depth [m] below z = top. Returns the pose and the
// analytic heights z_i - top of its eight corners [m].
struct TiltedBox {
  vec3 half;
  transform X;
  std::vector<vec3> corner;   // world corners
  std::vector<real> height;   // corner z - top [m]
};
TiltedBox tilted_box(vec3 half, real tilt, real axis_angle, real yaw, real depth, vec3 centre_xy, real top) {
  const quat q = quat_mul(quat_from_axis_angle({std::cos(axis_angle), std::sin(axis_angle), 0}, tilt),
                               quat_from_axis_angle({0, 0, 1}, yaw));
  const mat33 R = quat_to_mat33(q);
  TiltedBox b{half, {{centre_xy.x, centre_xy.y, 0}, q}, {}, {}};
  real lowest = 1e300;
  for (int i = 0; i < 8; ++i)
    lowest = std::min(lowest, (R * box_corner(half, i)).z);
  b.X.p.z = top - depth - lowest;
  for (int i = 0; i < 8; ++i) {
    const vec3 c = b.X.p + R * box_corner(half, i);
    b.corner.push_back(c);
    b.height.push_back(c.z - top);
  }
  return b;
}

// A random tilted box for the properties below: half extents 0.05-0.3 m, tilt 0.002-0.12 rad,
// its deepest corner 0.1-5 mm below z = top, its centre within +-xy of the origin.
TiltedBox random_tilted_box(real xy, real top) {
  const vec3 half{*gen::in_range(0.05, 0.3), *gen::in_range(0.05, 0.3), *gen::in_range(0.05, 0.3)};
  const real tilt = *gen::in_range(0.002, 0.12), axis = *gen::in_range(-3.14159, 3.14159);
  const real yaw = *gen::in_range(-3.14159, 3.14159), depth = *gen::in_range(1e-4, 5e-3);
  return tilted_box(half, tilt, axis, yaw, depth, {*gen::in_range(-xy, xy), *gen::in_range(-xy, xy), 0}, top);
}

// Collides shapes 0 and 1 of the scene b (one body) under the summed gap accept [m].
PairContacts collide_first_pair(const ModelBuilder& b, real accept) {
  const Model m = b.finalize();
  const std::vector<transform> q = b.body_q;
  const ShapeView sv = shape_view(m);
  View<const transform> bq{q.data(), 1};
  return collide_shape_pair(sv, 0, 1, shape_world_pose(sv, bq, 0), shape_world_pose(sv, bq, 1), accept);
}

// The corners a correct manifold reports under the summed gap accept [m]: those with height <=
// accept, and of them only the kMaxPairContacts deepest (random tilts give no ties).
std::vector<int> expected_corners(const TiltedBox& b, real accept) {
  std::vector<int> in;
  for (int i = 0; i < 8; ++i)
    if (b.height[i] <= accept) in.push_back(i);
  std::sort(in.begin(), in.end(), [&](int x, int y) { return b.height[x] < b.height[y]; });
  if (in.size() > static_cast<std::size_t>(kMaxPairContacts)) in.resize(kMaxPairContacts);
  return in;
}

// Every expected corner appears once as the box-side point of pc, with its analytic depth as s and
// the normal +z (shape0 below, shape1 the box), and nothing else is reported.
void expect_corner_manifold(const PairContacts& pc, const TiltedBox& b, real accept) {
  const std::vector<int> want = expected_corners(b, accept);
  RC_ASSERT(pc.count == static_cast<int>(want.size()));
  for (int i : want) {
    int hits = 0;
    for (int k = 0; k < pc.count; ++k) {
      if (length(pc.c[k].b - b.corner[i]) > 1e-9) continue;
      ++hits;
      RC_ASSERT(std::abs(pc.c[k].s - b.height[i]) <= 1e-9);
      RC_ASSERT(length(pc.c[k].n - vec3{0, 0, 1}) <= 1e-9);
    }
    RC_ASSERT(hits == 1);
  }
}

}  // namespace

// --- E3.2-geometry-routes ------------------------------------------------------------------------

TEST(E3_2_geometry_routes, DispatchByShapeTypes) {
  EXPECT_EQ(geometry_route(SHAPE_SPHERE, SHAPE_BOX), GeometryRoute::convex);
  EXPECT_EQ(geometry_route(SHAPE_CONVEX_HULL, SHAPE_CYLINDER), GeometryRoute::convex);
  EXPECT_EQ(geometry_route(SHAPE_PLANE, SHAPE_CAPSULE), GeometryRoute::plane_convex);
  EXPECT_EQ(geometry_route(SHAPE_BOX, SHAPE_PLANE), GeometryRoute::plane_convex);
  EXPECT_EQ(geometry_route(SHAPE_MESH, SHAPE_SPHERE), GeometryRoute::mesh_bvh);
  EXPECT_EQ(geometry_route(SHAPE_BOX, SHAPE_MESH), GeometryRoute::mesh_bvh);
  EXPECT_EQ(geometry_route(SHAPE_MESH, SHAPE_MESH), GeometryRoute::none);
  EXPECT_EQ(geometry_route(SHAPE_PLANE, SHAPE_PLANE), GeometryRoute::none);
}

TEST(E3_2_geometry_routes, GoldenSphereSphereDistance) {
  // Analytic: |c1 - c0| - r0 - r1 = 1.0 - 0.3 - 0.2 = 0.5 m.
  OracleShape A{SHAPE_SPHERE, {{0, 0, 0}, quat_identity()}, {0.3, 0, 0}, {}};
  OracleShape B{SHAPE_SPHERE, {{0.6, 0.8, 0}, quat_identity()}, {0.2, 0, 0}, {}};
  PairContacts pc;
  EXPECT_NEAR(engine_min_distance(two_shape_model(A, B), &pc), 0.5, 1e-12);
  ASSERT_EQ(pc.count, 1);
  EXPECT_VEC3_NEAR(pc.c[0].n, (vec3{0.6, 0.8, 0}), 1e-12);  // from shape0 to shape1
}

RC_GTEST_PROP(E3_2_geometry_routes, OracleConvexPairDistances, ()) {
  const int ta = *rc::gen::elementOf(std::vector<int>(std::begin(kConvexTypes), std::end(kConvexTypes)));
  const int tb = *rc::gen::elementOf(std::vector<int>(std::begin(kConvexTypes), std::end(kConvexTypes)));
  OracleShape A = *gen_shape(ta), B = *gen_shape(tb);
  B.X.p = B.X.p + vec3{0.5, 0, 0};
  A.margin = *gen::in_range(0, 0.02);
  B.margin = *gen::in_range(0, 0.02);
  const bool smooth = ta == SHAPE_CYLINDER || tb == SHAPE_CYLINDER;
  const real want = smooth ? oracle_signed_distance(A, B) : oracle_polytope_signed_distance(A, B);
  const real got = engine_min_distance(two_shape_model(A, B));
  RC_LOG() << "got " << got << " want " << want << " diff " << got - want << "\n";
  for (const OracleShape* S : {&A, &B})
    RC_LOG() << std::setprecision(17) << "shape " << S->type << " p " << S->X.p.x << " " << S->X.p.y << " " << S->X.p.z << " q "
             << S->X.q.x << " " << S->X.q.y << " " << S->X.q.z << " " << S->X.q.w << " size " << S->size.x << " "
             << S->size.y << " " << S->size.z << " margin " << S->margin << "\n";
  // Point, segment and polytope cores are checked against the exact enumeration (1e-8 m). Pairs
  // with a cylinder (a curved core) are checked against the sampled support search: to 1e-5 m,
  // plus 0.1 % of the depth when the cores overlap (EPA refined along the sphere of directions).
  RC_ASSERT(std::abs(got - want) <= (smooth ? 1e-5 + 1e-3 * std::max(real(0), -want) : 1e-8));
}

// The sphere pair's closed form (sphere_pair_candidates) against the general convex route it
// replaces in collide_shape_pair: the same contacts to the bit, or -1 exactly where GJK reports
// overlapping cores. Poses within 0.05 m of each other, so pairs in contact, apart beyond the gap,
// and (from a centre copied) coincident centres all occur.
RC_GTEST_PROP(E3_2_geometry_routes, SpherePairClosedFormIsTheConvexRouteBitForBit, ()) {
  const transform XA = *gen::rigid_transform(1.0);
  transform XB = *gen::rigid_transform(1.0);
  XB.p = *rc::gen::element(0, 1, 2) == 0 ? XA.p : XA.p + *gen::vector(0.05);
  const real ra = *gen::in_range(0.01, 0.5), rb = *gen::in_range(0.01, 0.5);
  const real thickness = ra + rb + *gen::in_range(0, 0.01), accept = *gen::in_range(0, 0.02);
  auto core = [](const transform& X, real r) {
    ConvexCore c;
    c.type = SHAPE_SPHERE;
    c.X = X;
    c.scale = {r, 0, 0};
    c.radius = r;
    return c;
  };
  PairContact want[kPairCandidateCap], got[kPairCandidateCap];
  const int n_got = sphere_pair_candidates(XA, XB, thickness, accept, got, kPairCandidateCap);
  if (n_got < 0) {
    RC_ASSERT(gjk_distance(core(XA, ra), core(XB, rb)).overlap);
    return;
  }
  const int n_want = convex_contact_candidates(core(XA, ra), core(XB, rb), thickness, accept, want, kPairCandidateCap);
  RC_ASSERT(n_got == n_want);
  for (int k = 0; k < n_got; ++k) RC_ASSERT(std::memcmp(&got[k], &want[k], sizeof(PairContact)) == 0);
}

TEST(E3_2_geometry_routes, RegressionEpaOnCurvedCoresKeepsItsPolytopeAndFindsTheDeepestBasin) {
  // Pairs the oracle property once failed on (shapes as logged): EPA on a cylinder and a box
  // stitched inverted sliver faces and reported touching cores (0 instead of -2.08 cm), or stopped
  // on a poor face so that the refinement settled in another local minimum of the depth.
  const OracleShape cases[][2] = {
      {{SHAPE_CYLINDER,
        {{-0.21793088912963865, -0.099401473999023438, -0.1469546318054199},
         {0.31699724055797623, 0.35098590507671956, 0.088337589420530244, 0.87665164929490347}},
        {0.1475459098815918, 0.20318164825439455, 0.1}, {}},
       {SHAPE_BOX,
        {{0.19425468444824223, -0.17750072479248047, -0.34143438339233395},
         {0.63961166478522335, 0.33621587130267294, 0.68041065925849264, 0.12205384435683689}},
        {0.19309797286987307, 0.15624027252197267, 0.19457883834838868}, {}}},
      {{SHAPE_CYLINDER,
        {{0.15058488845825191, 0.26083173751831057, -0.34999999999999998},
         {-0.30579489924677161, -0.71860503719196278, 0.52097733103310384, 0.34449804160055603}},
        {0.18520240783691408, 0.13832826614379884, 0.1}, {}},
       {SHAPE_BOX,
        {{0.15000000000000002, -0.037466144561767556, 0.12534399032592775},
         {0.83225936328701478, -0.24027027514281177, -0.49961439841530825, 1.6155445744325867e-15}},
        {0.26769571304321294, 0.30543203353881843, 0.33514060974121096}, {}}},
      {{SHAPE_CYLINDER,
        {{0.023433113098144553, -0.17946071624755858, 0.087000656127929676},
         {0.94213082490975242, -0.017960620866190793, 0.11165255248974421, 0.31559567863881688}},
        {0.11777524948120119, 0.1906984329223633, 0.1}, {}},
       {SHAPE_BOX,
        {{0.26709613800048831, -0.020748138427734375, -0.31845121383666991},
         {-0.061366360056897148, -0.0069081087064798638, -0.0083543943690226937, 0.99805643727306004}},
        {0.18917751312255859, 0.20925846099853518, 0.17727222442626955}, {}}}};
  for (const auto& c : cases) {
    const real want = oracle_signed_distance(c[0], c[1]);
    EXPECT_NEAR(engine_min_distance(two_shape_model(c[0], c[1])), want, 1e-5 + 1e-3 * std::abs(want));
  }
  // A sphere deep in a cylinder, nearest to a cap: the depth's minimum is a narrow V along the
  // cap normal (the reference once missed it; the engine did not).
  const OracleShape s{SHAPE_SPHERE,
                      {{0.030957984924316395, 0.26898212432861324, 0.17504739761352539},
                       {0.57735026918962584, 0.57735026918962584, 0.57735026918962584, 1.6155445744325867e-15}},
                      {0.1, 0.1, 0.1}, {}};
  const OracleShape cyl{SHAPE_CYLINDER,
                        {{0.15000000000000002, 0.14135103225708007, -0.090776443481445312},
                         {-0.19709710494535093, 0.92870246868865558, 0.18508436299535355, 0.25378777442651224}},
                        {0.38228769302368171, 0.3423692703247071, 0.1}, {}};
  EXPECT_NEAR(engine_min_distance(two_shape_model(s, cyl)), oracle_signed_distance(s, cyl), 1e-5);
  // A box and a cylinder, and the same pair moved rigidly: the refinement from EPA's direction
  // alone settled in another local minimum after the move (3.4e-4 m deeper).
  OracleShape box{SHAPE_BOX,
                  {{-0.12949228286743164, -0.26657752990722655, -0.065589618682861339},
                   {-0.12599729023072859, -0.08938065427699951, -0.22319290567954023, 0.96245556175329616}},
                  {0.27199554443359375, 0.14483337402343752, 0.13404617309570313}, {}};
  OracleShape cyl2{SHAPE_CYLINDER,
                   {{0.18018388748168948, -0.21430797576904295, 0.077533149719238303},
                    {0.2076389226780645, 0.89925944436188165, 0.067164370730692133, 0.37908769014490928}},
                   {0.26436977386474614, 0.19671058654785156, 0.1}, {}};
  const real d = engine_min_distance(two_shape_model(box, cyl2));
  const transform T{{-3, -3, -3}, {0.48744996653638711, 0.41893419338073989, 0.11811514837018912, 0.75692501839058812}};
  box.X = transform_multiply(T, box.X);
  cyl2.X = transform_multiply(T, cyl2.X);
  EXPECT_NEAR(engine_min_distance(two_shape_model(box, cyl2)), d, 1e-5);
}

// --- E3.2-gap-function --------------------------------------------------------------------------

TEST(E3_2_gap_function, GoldenSpheresWithZeroMargin) {
  // d = |c1 - c0| - r0 - r1 with the core points at the centres and thickness = radius.
  EXPECT_DOUBLE_EQ(contact_surface_separation({0, 0, 0}, {1, 0, 0}, {1, 0, 0}, 0.25, 0.5), 0.25);
  EXPECT_DOUBLE_EQ(contact_surface_separation({0, 0, 0}, {0.5, 0, 0}, {1, 0, 0}, 0.25, 0.5), -0.25);
}

RC_GTEST_PROP(E3_2_gap_function, InvariantUnderRigidMotionOfTheScene, ()) {
  const int ta = *rc::gen::elementOf(std::vector<int>(std::begin(kConvexTypes), std::end(kConvexTypes)));
  const int tb = *rc::gen::elementOf(std::vector<int>(std::begin(kConvexTypes), std::end(kConvexTypes)));
  OracleShape A = *gen_shape(ta), B = *gen_shape(tb);
  B.X.p = B.X.p + vec3{0.4, 0, 0};
  const transform T = *gen::rigid_transform(3);
  for (const OracleShape* S : {&A, &B})
    RC_LOG() << std::setprecision(17) << "shape " << S->type << " p " << S->X.p.x << " " << S->X.p.y << " " << S->X.p.z << " q "
             << S->X.q.x << " " << S->X.q.y << " " << S->X.q.z << " " << S->X.q.w << " size " << S->size.x << " "
             << S->size.y << " " << S->size.z << "\n";
  RC_LOG() << "T p " << T.p.x << " " << T.p.y << " " << T.p.z << " q " << T.q.x << " " << T.q.y << " " << T.q.z << " "
           << T.q.w << "\n";
  const real d = engine_min_distance(two_shape_model(A, B));
  A.X = transform_multiply(T, A.X);
  B.X = transform_multiply(T, B.X);
  const real dT = engine_min_distance(two_shape_model(A, B));
  const bool smooth = ta == SHAPE_CYLINDER || tb == SHAPE_CYLINDER;
  RC_LOG() << "d " << d << " dT " << dT << "\n";
  RC_ASSERT(std::abs(d - dT) <= (smooth ? 2e-4 : 1e-8));
}

// --- E3.2-margin ---------------------------------------------------------------------------------

RC_GTEST_PROP(E3_2_margin, RaisingAMarginLowersDByExactlyThatMuch, ()) {
  const int ta = *rc::gen::elementOf(std::vector<int>(std::begin(kConvexTypes), std::end(kConvexTypes)));
  OracleShape A = *gen_shape(ta), B = *gen_shape(SHAPE_BOX);
  B.X.p = B.X.p + vec3{0.5, 0, 0};
  const real delta = *gen::in_range(0, 0.05);
  const real d = engine_min_distance(two_shape_model(A, B));
  A.margin += delta;
  const real d1 = engine_min_distance(two_shape_model(A, B));
  RC_ASSERT(std::abs((d - d1) - delta) <= 1e-9);
}

// --- E3.2-reduction ------------------------------------------------------------------------------

RC_GTEST_PROP(E3_2_reduction, BoundedSubsetKeepsTheDeepestAndIsDeterministic, ()) {
  const int n = *rc::gen::inRange(1, 40);
  std::vector<PairContact> c(n);
  for (int i = 0; i < n; ++i) c[i] = {*gen::vector(1), *gen::vector(1), {0, 0, 1}, *gen::in_range(-0.1, 0.1)};
  std::vector<PairContact> a = c, b = c;
  const int m = reduce_contacts(a.data(), n);
  reduce_contacts(b.data(), n);
  RC_ASSERT(m <= kMaxPairContacts);
  RC_ASSERT(m <= n);
  real deepest = 1e9, kept_deepest = 1e9;
  for (const PairContact& x : c) deepest = std::min(deepest, x.s);
  for (int k = 0; k < m; ++k) {
    kept_deepest = std::min(kept_deepest, a[k].s);
    RC_ASSERT(a[k].s == b[k].s && a[k].a.x == b[k].a.x);  // identical input, identical output
    bool member = false;
    for (const PairContact& x : c) member = member || (x.s == a[k].s && x.a.x == a[k].a.x && x.a.y == a[k].a.y);
    RC_ASSERT(member);
  }
  RC_ASSERT(kept_deepest == deepest);
}

RC_GTEST_PROP(E3_2_reduction, PlaneLayerKeepsTheDeepestPoints, ()) {
  const int n = *rc::gen::inRange(1, 40);
  std::vector<PairContact> c(n);
  for (int i = 0; i < n; ++i) c[i] = {*gen::vector(1), *gen::vector(1), {0, 0, 1}, *gen::in_range(-0.1, 0.1)};
  std::vector<PairContact> a = c;
  const int m = keep_deepest_layer(a.data(), n, 0);
  RC_ASSERT(m == std::min(n, kMaxPairContacts));
  std::vector<real> depth;
  for (const PairContact& x : c) depth.push_back(x.s);
  std::sort(depth.begin(), depth.end());
  std::vector<real> kept;
  for (int k = 0; k < m; ++k) kept.push_back(a[k].s);
  std::sort(kept.begin(), kept.end());
  for (int k = 0; k < m; ++k) RC_ASSERT(kept[k] == depth[k]);  // the m deepest (random depths: no ties)
}

// A tilted box on a plane: every corner within the summed gap is a contact with its analytic depth,
// at most kMaxPairContacts of them and always the deepest. Under a small gap these are the 1 to 4
// penetrating or nearly touching bottom corners; under a large one also the top corners are inside
// the gap, and the four deepest (the bottom face) are kept.
RC_GTEST_PROP(E3_2_reduction, OracleTiltedBoxOnAPlaneKeepsEveryCornerWithinTheGap, ()) {
  const real accept = *rc::gen::element(0.0, 0.004, 0.03, 1.0);
  const TiltedBox box = random_tilted_box(1, 0);
  const vec3 half = box.half;
  ModelBuilder b;
  b.add_shape_plane(-1);
  b.add_shape_box(b.add_link(box.X), transform_identity(), half.x, half.y, half.z);
  expect_corner_manifold(collide_first_pair(b, accept), box, accept);
}

// The same through the convex route: a tilted box resting on a large static box (top face z = 0.5)
// gets every bottom corner within the gap, found by clipping its incident face (the face most
// aligned with -n) against the reference face of the large box.
RC_GTEST_PROP(E3_2_reduction, OracleTiltedBoxOnALargeBoxKeepsEveryCornerWithinTheGap, ()) {
  const real accept = *rc::gen::element(0.0, 0.004, 0.03);
  const TiltedBox box = random_tilted_box(0.5, 0.5);
  const vec3 half = box.half;
  ModelBuilder b;
  b.add_shape_box(-1, transform_identity(), 2, 2, 0.5);
  b.add_shape_box(b.add_link(box.X), transform_identity(), half.x, half.y, half.z);
  expect_corner_manifold(collide_first_pair(b, accept), box, accept);
}

// The same with convex hulls: the tilted box is the hull of its eight corners (given at full size,
// or as a unit cube scaled per axis, which turns the stored face normals), and the large box under
// it is a box or a hull too. The hull clips its face most aligned with -n (hull_face), so every
// bottom corner within the gap is reported with its analytic depth, as for the box.
RC_GTEST_PROP(E3_2_reduction, OracleTiltedHullBoxOnALargeBoxKeepsEveryCornerWithinTheGap, ()) {
  const real accept = *rc::gen::element(0.0, 0.004, 0.03);
  const bool scaled = *rc::gen::arbitrary<bool>(), lower_hull = *rc::gen::arbitrary<bool>();
  const TiltedBox box = random_tilted_box(0.5, 0.5);
  const vec3 half = box.half;
  auto corners = [](vec3 h) {
    std::vector<vec3> c;
    for (int i = 0; i < 8; ++i) c.push_back(box_corner(h, i));
    return c;
  };
  ModelBuilder b;
  if (lower_hull) b.add_shape_convex_hull(-1, transform_identity(), corners({2, 2, 0.5}));
  else b.add_shape_box(-1, transform_identity(), 2, 2, 0.5);
  const int body = b.add_link(box.X);
  if (scaled) b.add_shape_convex_hull(body, transform_identity(), corners({1, 1, 1}), half);
  else b.add_shape_convex_hull(body, transform_identity(), corners(half));
  expect_corner_manifold(collide_first_pair(b, accept), box, accept);
}

namespace {
// The faces stored for hull shape s: Qhull's polygons checked against the hull's own points.
struct StoredFaces {
  std::vector<int> start, vertices;
  std::vector<vec3> normals;
};
StoredFaces stored_faces(const Model& m, int s) {
  const std::vector<int> shape_start = m.shape_face_start.to_host(), start = m.hull_face_start.to_host(),
                         vertices = m.hull_face_vertices.to_host();
  const std::vector<vec3> normals = m.hull_face_normals.to_host();
  StoredFaces f;
  for (int k = shape_start[s]; k <= shape_start[s + 1]; ++k) f.start.push_back(start[k] - start[shape_start[s]]);
  f.vertices.assign(vertices.begin() + start[shape_start[s]], vertices.begin() + start[shape_start[s + 1]]);
  f.normals.assign(normals.begin() + shape_start[s], normals.begin() + shape_start[s + 1]);
  return f;
}

// Every face: unit outward normal, vertices on its plane and counter-clockwise seen from outside
// (the polygon's own normal, by Newell's formula, agrees), every point on the inner side, the face
// size within kMaxFeature; together the faces close the surface (V - E + F = 2, each edge shared by
// two faces in opposite directions).
void expect_closed_outward_faces(const StoredFaces& f, const std::vector<vec3>& points) {
  real size = 0;
  for (const vec3& p : points) size = std::max(size, length(p - points[0]));
  const int nf = static_cast<int>(f.normals.size());
  RC_ASSERT(nf >= 4);
  std::vector<std::pair<int, int>> edges;
  std::vector<int> used;
  for (int k = 0; k < nf; ++k) {
    const vec3 n = f.normals[k];
    const int first = f.start[k], m = f.start[k + 1] - first;
    RC_ASSERT(m >= 3);
    RC_ASSERT(m <= kMaxFeature);
    RC_ASSERT(std::abs(length(n) - 1) <= 1e-12);
    const vec3 o = points[f.vertices[first]];
    vec3 newell{};
    for (int i = 0; i < m; ++i) {
      const int a = f.vertices[first + i], b = f.vertices[first + (i + 1) % m];
      const vec3 u = points[a], v = points[b];
      RC_ASSERT(std::abs(dot(n, u - o)) <= 1e-9 * size);
      newell += vec3{(u.y - v.y) * (u.z + v.z), (u.z - v.z) * (u.x + v.x), (u.x - v.x) * (u.y + v.y)};
      edges.push_back({a, b});
      used.push_back(a);
    }
    RC_ASSERT(dot(normalize(newell), n) >= 1 - 1e-9);
    for (const vec3& p : points) RC_ASSERT(dot(n, p - o) <= 1e-9 * size);
  }
  std::sort(edges.begin(), edges.end());
  for (const auto& e : edges) RC_ASSERT(std::binary_search(edges.begin(), edges.end(), std::make_pair(e.second, e.first)));
  RC_ASSERT(std::adjacent_find(edges.begin(), edges.end()) == edges.end());
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  RC_ASSERT(static_cast<int>(used.size()) - static_cast<int>(edges.size()) / 2 + nf == 2);
}
}  // namespace

// The faces of a random point cloud's hull, and of an octahedron (whose eight faces
// are known: normals (+-1, +-1, +-1) / sqrt 3) and cube (six merged quadrilaterals, not twelve
// triangles), satisfy expect_closed_outward_faces.
RC_GTEST_PROP(E3_2_reduction, HullFacesAreOutwardClosedAndHoldEveryPoint, ()) {
  // A tetrahedron (so that the cloud has volume even when RapidCheck shrinks it) and random points.
  const real t = *gen::in_range(0.1, 1);
  std::vector<vec3> cloud = {{t, t, t}, {t, -t, -t}, {-t, t, -t}, {-t, -t, t}};
  const int n = *rc::gen::inRange(0, 40);
  for (int i = 0; i < n; ++i) cloud.push_back(*gen::vector(0.5));
  const real r = *gen::in_range(0.05, 2);
  const std::vector<vec3> octahedron = {{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}};
  const std::vector<vec3> cube = {{0, 0, 0}, {r, 0, 0}, {0, r, 0}, {r, r, 0}, {0, 0, r}, {r, 0, r}, {0, r, r}, {r, r, r}};
  ModelBuilder b;
  b.add_shape_box(-1, transform_identity(), 1, 1, 1);  // a shape without faces in front of the hulls
  const int s_cloud = b.add_shape_convex_hull(-1, transform_identity(), cloud);
  const int s_oct = b.add_shape_convex_hull(-1, transform_identity(), octahedron);
  const int s_cube = b.add_shape_convex_hull(-1, transform_identity(), cube);
  const Model m = b.finalize();
  RC_ASSERT(m.shape_face_start.to_host()[1] == 0);
  expect_closed_outward_faces(stored_faces(m, s_cloud), cloud);
  const StoredFaces oct = stored_faces(m, s_oct), cb = stored_faces(m, s_cube);
  expect_closed_outward_faces(oct, octahedron);
  expect_closed_outward_faces(cb, cube);
  RC_ASSERT(oct.normals.size() == 8u);
  for (const vec3& nk : oct.normals)
    RC_ASSERT(std::abs(std::abs(nk.x) - 1 / std::sqrt(3.0)) + std::abs(std::abs(nk.y) - 1 / std::sqrt(3.0)) +
                  std::abs(std::abs(nk.z) - 1 / std::sqrt(3.0)) <=
              1e-12);
  RC_ASSERT(cb.normals.size() == 6u);
  for (std::size_t k = 0; k < 6; ++k) RC_ASSERT(cb.start[k + 1] - cb.start[k] == 4);
}

// A hull without volume (coplanar or collinear points, fewer than 4 points) and a hull with a face
// of more than kMaxFeature vertices (a 20-sided prism) are errors that name the shape.
TEST(E3_2_reduction, DegenerateOrTooFinelyFacetedHullsAreRejected) {
  auto message = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  ModelBuilder b;

  const std::vector<vec3> flat = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.3, 0.4, 0}};
  const std::vector<vec3> line = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
  EXPECT_NE(message([&] { b.add_shape_convex_hull(-1, transform_identity(), flat, {1, 1, 1}, {}, "lid"); })
                .find("shape 0 (convex_hull, 'lid')"),
            std::string::npos);
  EXPECT_NE(message([&] { b.add_shape_convex_hull(-1, transform_identity(), flat); }).find("coplanar"), std::string::npos);
  EXPECT_NE(message([&] { b.add_shape_convex_hull(-1, transform_identity(), line); }).find("coplanar"), std::string::npos);
  EXPECT_NE(message([&] { b.add_shape_convex_hull(-1, transform_identity(), {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}); }).find("at least 4"),
            std::string::npos);
  std::vector<vec3> prism;
  for (int k = 0; k < 20; ++k)
    for (real z : {-0.1, 0.1}) prism.push_back({0.2 * std::cos(0.1 * M_PI * k), 0.2 * std::sin(0.1 * M_PI * k), z});
  const std::string big = message([&] { b.add_shape_convex_hull(-1, transform_identity(), prism); });
  EXPECT_NE(big.find("shape 0 (convex_hull)"), std::string::npos) << big;
  EXPECT_NE(big.find("has 20 vertices"), std::string::npos) << big;
  EXPECT_EQ(b.shape_count(), 0);
  prism.resize(2 * kMaxFeature);  // a 16-sided prism is within the bound
  EXPECT_EQ(b.add_shape_convex_hull(-1, transform_identity(), prism), 0);
}

namespace {
// The pair (plane, core) when plane_first, else (core, plane); shape0 is the lower shape index.
PairContacts plane_pair(const std::function<void(ModelBuilder&, int)>& add_core, const transform& X,
                        real accept, bool plane_first = true) {
  ModelBuilder b;
  const int body = b.add_link(X);
  if (plane_first) b.add_shape_plane(-1);
  add_core(b, body);
  if (!plane_first) b.add_shape_plane(-1);
  return collide_first_pair(b, accept);
}
}  // namespace

// A flat box 1 mm into a plane under a gap that holds all eight corners: exactly its four bottom
// corners, never a top corner chosen for spread, whichever of the two is shape0.
TEST(E3_2_reduction, FlatBoxUnderALargeGapKeepsExactlyItsBottomCorners) {
  const transform X{{0.3, -0.2, 0.1 - 0.001}, quat_from_axis_angle({0, 0, 1}, 0.4)};
  for (bool plane_first : {true, false}) {
    const PairContacts pc = plane_pair(
        [](ModelBuilder& b, int body) { b.add_shape_box(body, transform_identity(), 0.2, 0.15, 0.1); }, X, 1.0, plane_first);
    ASSERT_EQ(pc.count, 4);
    for (int k = 0; k < pc.count; ++k) {
      EXPECT_NEAR(pc.c[k].s, -0.001, 1e-12);
      EXPECT_NEAR((plane_first ? pc.c[k].b : pc.c[k].a).z, -0.001, 1e-12) << plane_first;
    }
  }
}

// A tilted cylinder on a plane: the deepest contact is the exact deepest rim point of its lower cap,
// z = c_z - h cos(theta) - r sin(theta), not a rim sample; at most kMaxPairContacts points.
TEST(E3_2_reduction, TiltedCylinderOnAPlaneKeepsTheExactDeepestRimPoint) {
  const real r = 0.1, hh = 0.2, theta = 0.3, cz = hh * std::cos(theta) + r * std::sin(theta) - 0.002;
  const transform X{{0, 0, cz}, quat_from_axis_angle(normalize(vec3{1, 2, 0}), theta)};
  const PairContacts pc = plane_pair([&](ModelBuilder& b, int body) { b.add_shape_cylinder(body, transform_identity(), r, hh); },
                                     X, 0.01);
  ASSERT_GE(pc.count, 1);
  ASSERT_LE(pc.count, kMaxPairContacts);
  real deepest = 1e9;
  for (int k = 0; k < pc.count; ++k) deepest = std::min(deepest, pc.c[k].s);
  EXPECT_NEAR(deepest, -0.002, 1e-12);
}

// A cylinder standing on a large box, tilted by 2 degrees and sunk 1 mm at its deepest rim point:
// most of its rim penetrates, and the manifold must span the cap so that the projection of its
// centre lies inside the support polygon (a single deepest point would let it tip over).
TEST(E3_2_reduction, TiltedCylinderOnABoxGetsASupportPolygonUnderItsCentre) {
  const real r = 0.1, hh = 0.2, theta = 0.035;
  const real cz = 0.5 + hh * std::cos(theta) + r * std::sin(theta) - 0.001;
  OracleShape A{SHAPE_BOX, {{0, 0, 0}, quat_identity()}, {1, 1, 0.5}, {}};
  OracleShape B{SHAPE_CYLINDER, {{0.1, 0.2, cz}, quat_from_axis_angle({0, 1, 0}, theta)}, {r, hh, 0}, {}};
  PairContacts pc;
  EXPECT_NEAR(engine_min_distance(two_shape_model(A, B), &pc), -0.001, 1e-9);
  ASSERT_GE(pc.count, 3);
  // The centre's projection (x, y) must lie inside the convex hull of the contact points (x, y).
  std::vector<std::pair<real, real>> p;
  for (int k = 0; k < pc.count; ++k) p.push_back({pc.c[k].b.x, pc.c[k].b.y});
  const real cx = 0.1, cy = 0.2;
  std::sort(p.begin(), p.end(), [&](auto u, auto v) {
    return std::atan2(u.second - cy, u.first - cx) < std::atan2(v.second - cy, v.first - cx);
  });
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto u = p[i], v = p[(i + 1) % p.size()];
    EXPECT_GT((v.first - u.first) * (cy - u.second) - (v.second - u.second) * (cx - u.first), 0) << i;
  }
}

TEST(E3_2_reduction, BoxFaceOnBoxGivesAFourPointManifold) {
  // A 0.2 m cube resting 1 mm into a larger box: the face-face manifold is the four corners.
  OracleShape A{SHAPE_BOX, {{0, 0, 0}, quat_identity()}, {1, 1, 0.5}, {}};
  OracleShape B{SHAPE_BOX, {{0.1, -0.2, 0.5 + 0.1 - 0.001}, quat_from_axis_angle({0, 0, 1}, 0.3)}, {0.1, 0.1, 0.1}, {}};
  PairContacts pc;
  EXPECT_NEAR(engine_min_distance(two_shape_model(A, B), &pc), -0.001, 1e-12);
  ASSERT_EQ(pc.count, 4);
  for (int k = 0; k < pc.count; ++k) {
    EXPECT_VEC3_NEAR(pc.c[k].n, (vec3{0, 0, 1}), 1e-12);
    EXPECT_NEAR(pc.c[k].s, -0.001, 1e-12);
  }
}

TEST(E3_2_reduction, RegressionCubesTouchingFaceToFaceGiveContactsOnTheirFaces) {
  // Two 0.2 m cubes of a settled pile (poses as the XPBD solver left them, to the bit: yawed by
  // up to 1e-5 rad, the upper one shifted by 5 cm and touching to 1e-15 m or apart by 2.6e-6 m
  // less its tilt). Analytic: normal +z, the four
  // corners of the overlap square at the gap (0 or 2.6e-6 m), every point on the touching faces. Before the fix
  // EPA took a sliver face not containing the origin's projection and the contact landed 6e4 m away;
  // in the third, GJK called a flat enclosing tetrahedron a separation of 1.2e-10 m and the
  // contact came out upside down (normal -z, depth 0.4 m). The warm-started XPBD pile exploded.
  const struct {
    vec3 p0;
    quat q0;
    vec3 p1;
    quat q1;
  } cases[] = {
      {{-2.0524230558061623e-07, -1.6409633589378116e-07, 0.099999999999999992},
       {-5.2820177885711302e-17, 4.7856705989701975e-17, 7.9440650958222638e-07, 0.99999999999968459},
       {0.05000108881092858, 0.050000844806599373, 0.29999999999999999},
       {-4.9843071378400753e-17, -6.9758391993635847e-18, 4.9918382386523537e-07, 0.99999999999987543}},
      {{0.29999956649846821, -4.2005390905203752e-07, 0.10000000000000013},
       {4.9885300455021889e-16, -2.9240306726964997e-16, -8.2373713541327275e-07, 0.99999999999966072},
       {0.35000255704947081, 0.050002469871098264, 0.30000000000000054},
       {2.0610502023867525e-15, -2.15105813319722e-15, 1.1349600166950322e-06, 0.99999999999935596}},
      {{4.5000045458964193, 4.4999960165508028, 0.1000000994414991},
       {1.325693606804418e-05, -1.1967070100322866e-05, 9.6583731229998329e-06, 0.99999999979387932},
       {4.550006935926258, 4.5499993631779176, 0.30000265981380531},
       {1.3911881691488937e-05, -1.1959218451543444e-05, 7.0723184671648197e-07, 0.99999999983146837}},
      {{4.500016215381704, 5.1000193288716709, 0.099999999930928646},
       {-4.8301987526325541e-10, 4.0643183970619247e-10, 6.6898442642216519e-06, 0.99999999997762301},
       {4.5500377306591915, 5.1500419710732537, 0.2999999997151665},
       {-1.7895232013667834e-09, 1.4327613602729932e-09, -4.1501800652427835e-05, 0.99999999913880033}}};
  for (const auto& c : cases) {
    OracleShape A{SHAPE_BOX, {c.p0, c.q0}, {0.1, 0.1, 0.1}, {}};
    OracleShape B{SHAPE_BOX, {c.p1, c.q1}, {0.1, 0.1, 0.1}, {}};
    PairContacts pc;
    const real gap = c.p1.z - c.p0.z - 0.2;  // to the tilt's 2e-6 m
    EXPECT_NEAR(engine_min_distance(two_shape_model(A, B), &pc), gap, 5e-6);
    ASSERT_EQ(pc.count, 4);
    for (int k = 0; k < pc.count; ++k) {
      EXPECT_VEC3_NEAR(pc.c[k].n, (vec3{0, 0, 1}), 1e-4);
      EXPECT_NEAR(pc.c[k].a.z, c.p0.z + 0.1, 2e-5) << k;  // corners move by the tilt (1e-5 rad) x 0.14 m
      EXPECT_NEAR(pc.c[k].b.z, c.p1.z - 0.1, 2e-5) << k;
      // inside the overlap square [p1 - 0.1, p0 + 0.1] in x and y, to 1e-5 m (the yaw and tilt)
      EXPECT_GE(pc.c[k].a.x, c.p1.x - 0.1 - 1e-5) << k;
      EXPECT_LE(pc.c[k].a.x, c.p0.x + 0.1 + 1e-5) << k;
      EXPECT_GE(pc.c[k].a.y, c.p1.y - 0.1 - 1e-5) << k;
      EXPECT_LE(pc.c[k].a.y, c.p0.y + 0.1 + 1e-5) << k;
    }
  }
}

TEST(E3_2_reduction, StackedCubesSinkingBySubMillimetresGiveTheFaceNormalAndDepthAnywhereInThePile) {
  // Two 0.2 m cubes, the upper one offset sideways and sunk by `depth` into the lower one, at
  // places across a 1000-cube pile (7 m wide). Analytic: normal +z, every point at s = -depth, the
  // overlap square's four corners. In float32 GJK's distance of such cores stalls at a few eps times
  // the coordinates (3e-8 m here); with an overlap threshold of 1e-10 m the pair read as separated
  // and the contact got a sideways normal (s = -0.25 m). Tolerances: 20 eps of the coordinates.
  for (real x0 : {0.0, 0.3, 3.0, 6.9})
    for (real depth : {1e-5, 1e-4, 1e-3, 5e-3})
      for (vec3 off : {vec3{0.05, 0.05, 0}, vec3{-0.03, 0.07, 0}}) {
        SCOPED_TRACE(testing::Message() << "x0 " << x0 << " depth " << depth << " off " << off.x << "," << off.y);
        OracleShape A{SHAPE_BOX, {{x0, x0, 0.1}, quat_identity()}, {0.1, 0.1, 0.1}, {}};
        OracleShape B{SHAPE_BOX, {{x0 + off.x, x0 + off.y, 0.3 - depth}, quat_identity()}, {0.1, 0.1, 0.1}, {}};
        const real tol = 20 * std::numeric_limits<real>::epsilon() * (1 + 2 * x0);
        PairContacts pc;
        EXPECT_NEAR(engine_min_distance(two_shape_model(A, B), &pc), -depth, tol);
        ASSERT_EQ(pc.count, 4);
        for (int k = 0; k < pc.count; ++k) {
          EXPECT_VEC3_NEAR(pc.c[k].n, (vec3{0, 0, 1}), 1e-4);
          EXPECT_NEAR(pc.c[k].s, -depth, tol);
        }
      }
}
