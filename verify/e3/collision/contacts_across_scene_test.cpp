// Contact geometry wherever a pair sits in a 7 m scene (course E3 §2, E3.2-geometry-routes and
// E3.2-reduction), in both precisions (these cases are in the float32 subset, verify/CMakeLists.txt):
// a tilted triangle-mesh floor's edge classes and a box resting on it (route b), and a stack of
// boxes whose faces are clipped against each other (route a), at places from the origin to 7 m. The references are
// analytic (the floor's normal, the sink depth, the box's bottom face) or an independent oracle in
// double (Sutherland-Hodgman clipping of the two faces' footprints). The tolerances follow the
// precision of real: a coordinate of size L carries a rounding of eps L, so points and depths are
// asked to within 32 eps (1 + L) and normals to within 32 eps (1 + L) / a (a: the box's half side);
// in double that is 1e-14..1e-12, in float32 4e-6..1e-4.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contacts.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr double kEps = std::numeric_limits<real>::epsilon();

struct D3 {
  double x, y, z;
};
D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator*(double s, D3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot3(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// A rotation in double (rows), so that the scene's world coordinates are rounded once, to real.
struct Rot {
  D3 r[3];
  D3 apply(D3 p) const { return {dot3(r[0], p), dot3(r[1], p), dot3(r[2], p)}; }
  D3 apply_inv(D3 p) const {
    return {r[0].x * p.x + r[1].x * p.y + r[2].x * p.z, r[0].y * p.x + r[1].y * p.y + r[2].y * p.z,
            r[0].z * p.x + r[1].z * p.y + r[2].z * p.z};
  }
};
// Rodrigues: R = I cos t + sin t [u]x + (1 - cos t) u u^T, u a unit axis.
Rot axis_angle(D3 u, double t) {
  const double c = std::cos(t), s = std::sin(t), k = 1 - c;
  return {{{c + k * u.x * u.x, k * u.x * u.y - s * u.z, k * u.x * u.z + s * u.y},
           {k * u.y * u.x + s * u.z, c + k * u.y * u.y, k * u.y * u.z - s * u.x},
           {k * u.z * u.x - s * u.y, k * u.z * u.y + s * u.x, c + k * u.z * u.z}}};
}
Rot compose(const Rot& a, const Rot& b) {  // a b
  Rot out;
  for (int i = 0; i < 3; ++i) {
    const D3 c0{b.r[0].x, b.r[1].x, b.r[2].x}, c1{b.r[0].y, b.r[1].y, b.r[2].y}, c2{b.r[0].z, b.r[1].z, b.r[2].z};
    out.r[i] = {dot3(a.r[i], c0), dot3(a.r[i], c1), dot3(a.r[i], c2)};
  }
  return out;
}
// The unit quaternion (x, y, z, w) of R (Shepperd's method, the largest of w, x, y, z first).
quat to_quat(const Rot& R) {
  const double m00 = R.r[0].x, m11 = R.r[1].y, m22 = R.r[2].z, tr = m00 + m11 + m22;
  double x, y, z, w;
  if (tr > 0) {
    const double s = 2 * std::sqrt(1 + tr);
    w = s / 4, x = (R.r[2].y - R.r[1].z) / s, y = (R.r[0].z - R.r[2].x) / s, z = (R.r[1].x - R.r[0].y) / s;
  } else if (m00 > m11 && m00 > m22) {
    const double s = 2 * std::sqrt(1 + m00 - m11 - m22);
    w = (R.r[2].y - R.r[1].z) / s, x = s / 4, y = (R.r[0].y + R.r[1].x) / s, z = (R.r[0].z + R.r[2].x) / s;
  } else if (m11 > m22) {
    const double s = 2 * std::sqrt(1 + m11 - m00 - m22);
    w = (R.r[0].z - R.r[2].x) / s, x = (R.r[0].y + R.r[1].x) / s, y = s / 4, z = (R.r[1].z + R.r[2].y) / s;
  } else {
    const double s = 2 * std::sqrt(1 + m22 - m00 - m11);
    w = (R.r[1].x - R.r[0].y) / s, x = (R.r[0].z + R.r[2].x) / s, y = (R.r[1].z + R.r[2].y) / s, z = s / 4;
  }
  return {real(x), real(y), real(z), real(w)};
}
vec3 to_vec(D3 p) { return {real(p.x), real(p.y), real(p.z)}; }
D3 to_d3(vec3 p) { return {double(p.x), double(p.y), double(p.z)}; }

// One collide of the scene at its bodies' poses; rows grouped by shape pair (shape0, shape1).
struct Row {
  vec3 p0, p1, n;
  real d;
};
using Rows = std::map<std::pair<int, int>, std::vector<Row>>;
Rows collide_rows(const Model& m, CollisionPipeline& p, const std::vector<transform>& q) {
  const View<const transform> bq{q.data(), static_cast<std::int64_t>(q.size())};
  Contacts c = p.contacts();
  p.collide(bq, c);
  const ContactGeometrySnapshot s = snapshot_contact_geometry(m, bq, c);
  const std::vector<int> s0 = c.rigid_contact_shape0.to_host(), s1 = c.rigid_contact_shape1.to_host();
  Rows rows;
  for (int i = 0; i < s.count; ++i)
    rows[{s0[i], s1[i]}].push_back({s.point0_world_m[i], s.point1_world_m[i], s.normal_world[i], s.distance_m[i]});
  return rows;
}
Rows collide_rows(const ModelBuilder& b) {
  const Model m = b.finalize();
  CollisionPipeline p(m);
  return collide_rows(m, p, b.body_q);
}

// 2-D polygons in double for the oracle.
struct P2 {
  double x, y;
};
double cross2(P2 o, P2 a, P2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Sutherland-Hodgman: the part of convex polygon `subject` inside convex counter-clockwise `clip`.
std::vector<P2> clip_polygon(std::vector<P2> subject, const std::vector<P2>& clip) {
  for (std::size_t i = 0; i < clip.size() && !subject.empty(); ++i) {
    const P2 a = clip[i], b = clip[(i + 1) % clip.size()];
    std::vector<P2> in;
    for (std::size_t j = 0; j < subject.size(); ++j) {
      const P2 p = subject[j], q = subject[(j + 1) % subject.size()];
      const double dp = cross2(a, b, p), dq = cross2(a, b, q);
      if (dp >= 0) in.push_back(p);
      if ((dp >= 0) != (dq >= 0)) {
        const double t = dp / (dp - dq);
        in.push_back({p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)});
      }
    }
    subject = in;
  }
  // merge vertices that coincide (a corner lying on the other polygon's edge is written twice)
  std::vector<P2> out;
  for (const P2& p : subject)
    if (std::none_of(out.begin(), out.end(), [&](P2 o) { return std::hypot(o.x - p.x, o.y - p.y) < 1e-12; }))
      out.push_back(p);
  return out;
}

// The counter-clockwise footprint of a box face of half sides a (x) and b (y), yawed by psi about
// its centre (cx, cy).
std::vector<P2> square(double cx, double cy, double a, double b, double psi) {
  const double c = std::cos(psi), s = std::sin(psi);
  std::vector<P2> out;
  for (P2 u : {P2{-a, -b}, P2{a, -b}, P2{a, b}, P2{-a, b}}) out.push_back({cx + c * u.x - s * u.y, cy + s * u.x + c * u.y});
  return out;
}

// A floor over [0, 7.5]^2 of N x N square cells, two triangles each, tilted by 0.08 rad about
// (1, 1, 0)/sqrt 2, its vertices given in world coordinates (as a terrain's would be).
struct Floor {
  Rot tilt = axis_angle({std::sqrt(0.5), std::sqrt(0.5), 0}, 0.08);
  std::vector<vec3> v;
  std::vector<int> t;
  explicit Floor(int N) {
    const double cell = 7.5 / N;
    for (int j = 0; j <= N; ++j)
      for (int i = 0; i <= N; ++i) v.push_back(to_vec(tilt.apply({cell * i, cell * j, 0})));
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        const int c = j * (N + 1) + i;
        t.insert(t.end(), {c, c + 1, c + N + 2, c, c + N + 2, c + N + 1});
      }
  }
};

}  // namespace

TEST(E3_2_geometry_routes, EveryInteriorEdgeOfATiltedFloorAcross7mIsFlat) {
  // classify_mesh_edge on the floors below: the 3 N^2 - 2 N interior edges (seen from both
  // triangles) are flat, the 4 N on the rim boundary. In float32 the vertices' rounding turns the
  // normals of 5 cm cells at 7 m by ~1e-6, which a fixed 1e-6 called folds (1756 of 134400 edge
  // sides at N = 150 before the tolerance followed the precision).
  for (int N : {15, 75, 150}) {
    SCOPED_TRACE(testing::Message() << "N " << N);
    const Floor f(N);
    ModelBuilder b;
    b.add_shape_mesh(-1, transform_identity(), f.v, f.t);
    const std::vector<int> cls = b.finalize().mesh_edge_class.to_host();
    EXPECT_EQ(std::count(cls.begin(), cls.end(), int(EDGE_FLAT)), 6 * N * N - 4 * N);
    EXPECT_EQ(std::count(cls.begin(), cls.end(), int(EDGE_BOUNDARY)), 4 * N);
  }
}

TEST(E3_2_geometry_routes, BoxRestingOnATiltedMeshFloorAnywhereInA7mSceneGetsItsBottomFace) {
  // A 0.2 m cube on the floors of 15 x 15 cells (0.5 m) and 150 x 150 (5 cm), turned by psi about
  // the floor's normal, sunk by depth into it at places from the origin to 7 m, some with corners
  // exactly over the coarse grid's lines. Analytic: every row has the floor's normal and
  // d = -depth, its box point lies on the box's bottom face, and the 3 or 4 rows span the face.
  // (They need not hold the box's centre: every mesh vertex under the face is a row as deep as the
  // corners, and when rounding makes one of them the deepest, the reduction's four may leave the
  // centre outside; measured here in float32 on the 5 cm floor, 2 of 36 placements.)
  const double a = 0.1;
  for (int N : {15, 150}) {
    const Floor floor(N);
    const D3 up = floor.tilt.apply({0, 0, 1});
    ModelBuilder b;
    b.rigid_gap = 0.01;  // as the piles (bench/peers/scenes/pile.toml)
    b.add_shape_mesh(-1, transform_identity(), floor.v, floor.t);
    b.add_shape_box(b.add_link(), transform_identity(), real(a), real(a), real(a));
    const Model m = b.finalize();
    CollisionPipeline pipeline(m);
    for (P2 at : {P2{0.3, 0.3}, P2{3.6, 1.1}, P2{3.5, 3.5}, P2{5.2, 0.9}, P2{6.9, 6.9}, P2{7.1, 3.0}})
      for (double psi : {0.0, 0.4})
        for (double depth : {1e-5, 1e-4, 1e-3}) {
          SCOPED_TRACE(testing::Message() << "N " << N << " at " << at.x << "," << at.y << " psi " << psi << " depth " << depth);
          const Rot R = compose(floor.tilt, axis_angle({0, 0, 1}, psi));
          const D3 centre = floor.tilt.apply({at.x, at.y, a - depth});
          const Rows rows = collide_rows(m, pipeline, {{to_vec(centre), to_quat(R)}});
          const double L = std::hypot(at.x, at.y) + 1, tol = 32 * kEps * L, ntol = 32 * kEps * L / a;
          ASSERT_EQ(rows.size(), 1u);
          const std::vector<Row>& r = rows.begin()->second;
          ASSERT_GE(r.size(), 3u);
          ASSERT_LE(r.size(), std::size_t(kMaxPairContacts));
          std::vector<P2> feet;
          for (const Row& row : r) {
            EXPECT_VEC3_NEAR(row.n, to_vec(up), ntol);
            EXPECT_NEAR(row.d, -depth, tol);
            const D3 local = R.apply_inv(to_d3(row.p1) + (-1.0) * centre);  // box point in the box's frame
            EXPECT_NEAR(local.z, -a, tol);
            EXPECT_LE(std::max(std::abs(local.x), std::abs(local.y)), a + tol);
            feet.push_back({local.x, local.y});
          }
          // the reduction keeps the farthest row from its first: a corner, at least half the
          // face's diagonal away whichever tied row came first
          double spread = 0;
          for (P2 f : feet)
            for (P2 g : feet) spread = std::max(spread, std::hypot(f.x - g.x, f.y - g.y));
          EXPECT_GE(spread, std::sqrt(2.0) * a - tol);
        }
  }
}

TEST(E3_2_reduction, ClippedFacesOfABoxStackAnywhereInA7mSceneGiveTheOverlapCorners) {
  // A stack tilted by 0.05 rad about (1, 2, 0)/sqrt 5: a 0.4 m base box, on it a 0.2 m cube turned
  // by 0.3 rad and set off the base's centre, on that an equal cube exactly aligned with it (every
  // corner over the other face's edge), each sunk by depth into the one below, at places from the
  // origin to 7 m. Oracle: the overlap of the two faces' footprints (Sutherland-Hodgman, double);
  // every row has the stack's axis as normal, d = -depth, and a point at a vertex of that overlap
  // (at most kMaxPairContacts of them, all of them when the overlap has that many or fewer).
  // In float32, before manifold_points' on-edge and parallel-edge tests followed the precision, the
  // aligned cubes got a row 0.082 m from every overlap vertex (at 0.7 m) or lost a corner (at 6.9 m).
  const Rot tilt = axis_angle({1 / std::sqrt(5.0), 2 / std::sqrt(5.0), 0}, 0.05);
  const double A = 0.2, a = 0.1, psi = 0.3;
  const D3 up = tilt.apply({0, 0, 1});
  for (P2 at : {P2{0, 0}, P2{0.7, 0.2}, P2{3.0, 3.0}, P2{6.9, 0.4}, P2{4.9, 4.9}})
    for (P2 off : {P2{0.05, 0.02}, P2{0.13, -0.08}})
      for (double depth : {1e-5, 1e-4, 1e-3}) {
        SCOPED_TRACE(testing::Message() << "at " << at.x << "," << at.y << " off " << off.x << "," << off.y
                                        << " depth " << depth);
        // stack frame: base centre (at, A), middle centre (at + off, 2A + a - depth), top (.., 2A + 3a - 2 depth)
        const D3 c0{at.x, at.y, A}, c1{at.x + off.x, at.y + off.y, 2 * A + a - depth},
            c2{at.x + off.x, at.y + off.y, 2 * A + 3 * a - 2 * depth};
        const Rot R0 = tilt, R1 = compose(tilt, axis_angle({0, 0, 1}, psi));
        ModelBuilder b;
        b.rigid_gap = 0.01;  // the pairs of neighbours only
        b.add_shape_box(b.add_link({to_vec(tilt.apply(c0)), to_quat(R0)}), transform_identity(), real(A), real(A), real(A));
        b.add_shape_box(b.add_link({to_vec(tilt.apply(c1)), to_quat(R1)}), transform_identity(), real(a), real(a), real(a));
        b.add_shape_box(b.add_link({to_vec(tilt.apply(c2)), to_quat(R1)}), transform_identity(), real(a), real(a), real(a));
        const auto rows = collide_rows(b);
        const double L = std::hypot(at.x, at.y) + 1, tol = 32 * kEps * L, ntol = 32 * kEps * L / a;
        const std::vector<P2> base = square(at.x, at.y, A, A, 0), cube = square(at.x + off.x, at.y + off.y, a, a, psi);
        const std::vector<P2> overlap[2] = {clip_polygon(cube, base), clip_polygon(cube, cube)};
        const std::pair<int, int> pairs[2] = {{0, 1}, {1, 2}};
        ASSERT_EQ(rows.size(), 2u);
        for (int k = 0; k < 2; ++k) {
          SCOPED_TRACE(k == 0 ? "base and middle" : "middle and top");
          ASSERT_EQ(rows.count(pairs[k]), 1u);
          const std::vector<Row>& r = rows.at(pairs[k]);
          EXPECT_EQ(r.size(), std::min<std::size_t>(overlap[k].size(), kMaxPairContacts));
          for (const Row& row : r) {
            EXPECT_VEC3_NEAR(row.n, to_vec(up), ntol);
            EXPECT_NEAR(row.d, -depth, tol);
            const D3 p = tilt.apply_inv(to_d3(row.p0));  // the lower box's point, stack frame
            double nearest = 1e300;
            for (P2 o : overlap[k]) nearest = std::min(nearest, std::hypot(p.x - o.x, p.y - o.y));
            EXPECT_LE(nearest, tol);
          }
        }
      }
}
