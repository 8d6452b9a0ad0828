// Tests of route (b), static triangle meshes (lib/e3/collision/narrow_phase.h: triangle_contact_candidates,
// triangle_feature_candidates; lib/e3/collision/collision_model.cpp: mesh adjacency), course E3 §2. The
// references are analytic (distances to a box's edge or corner, to a tetrahedron's apex) or the
// convex-hull route on the same vertices; the properties check that a flat or concave region never
// produces a normal other than its face normals.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "e3/collision/collision_kernels.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/collision/narrow_phase.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

struct TriMesh {
  std::vector<vec3> v;
  std::vector<int> t;
};

// Box [-hx, hx] x [-hy, hy] x [-hz, hz] as 12 triangles, counter-clockwise seen from outside.
TriMesh box_mesh(real hx, real hy, real hz) {
  TriMesh m;
  for (int i = 0; i < 8; ++i) m.v.push_back({(i & 1) ? hx : -hx, (i & 2) ? hy : -hy, (i & 4) ? hz : -hz});
  m.t = {0, 2, 3, 0, 3, 1,  4, 5, 7, 4, 7, 6,  0, 1, 5, 0, 5, 4,
         2, 6, 7, 2, 7, 3,  0, 4, 6, 0, 6, 2,  1, 3, 7, 1, 7, 5};
  return m;
}

// Tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1), outward winding.
TriMesh tetra_mesh() { return {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}}; }

// Regular icosahedron of circumradius r, outward winding.
TriMesh icosahedron(real r) {
  const real g = (1 + std::sqrt(5.0)) / 2, s = r / std::sqrt(1 + g * g);
  TriMesh m;
  m.v = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
         {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  for (vec3& p : m.v) p = s * p;
  m.t = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
         3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
  return m;
}

// An n x n grid of 2 n^2 triangles over [-L, L]^2 at z = 0 (normal +z).
TriMesh grid_mesh(int n, real L) {
  TriMesh m;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) m.v.push_back({-L + 2 * L * i / n, -L + 2 * L * j / n, 0});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i;
      m.t.insert(m.t.end(), {a, a + 1, a + n + 2, a, a + n + 2, a + n + 1});
    }
  return m;
}

// A valley: two faces meeting along the y axis, rising by slope k to x = +-1.
TriMesh valley_mesh(real k) {
  return {{{-1, -1, k}, {0, -1, 0}, {0, 1, 0}, {-1, 1, k}, {1, -1, k}, {1, 1, k}}, {0, 1, 2, 0, 2, 3, 1, 4, 5, 1, 5, 2}};
}

struct Other {
  int type = SHAPE_SPHERE;
  vec3 size{0.1, 0, 0};  // as shape_scale
  transform X = transform_identity();
};

// Shape 0: the static mesh (at pose M); shape 1: the other shape on its own body. Returns the pair's
// contacts with summed gap `accept`.
PairContacts collide_mesh(const TriMesh& mesh, const Other& o, real accept = 0.05, transform M = transform_identity(),
                          Model* model_out = nullptr) {
  ModelBuilder b;
  b.add_shape_mesh(-1, M, mesh.v, mesh.t);
  const int body = b.add_link(o.X);
  const transform I = transform_identity();
  switch (o.type) {
    case SHAPE_SPHERE: b.add_shape_sphere(body, I, o.size.x); break;
    case SHAPE_CAPSULE: b.add_shape_capsule(body, I, o.size.x, o.size.y); break;
    case SHAPE_BOX: b.add_shape_box(body, I, o.size.x, o.size.y, o.size.z); break;
  }
  Model m = b.finalize();
  const ShapeView sv = shape_view(m);
  const std::vector<transform> q = b.body_q;
  View<const transform> bq{q.data(), 1};
  PairContacts pc = collide_shape_pair(sv, 0, 1, shape_world_pose(sv, bq, 0), shape_world_pose(sv, bq, 1), accept);
  if (model_out) *model_out = std::move(m);
  return pc;
}

// d of one contact (the sphere's or capsule's radius is the thickness of shape 1).
real d_of(const PairContact& c, const Other& o) {
  const real th1 = (o.type == SHAPE_SPHERE || o.type == SHAPE_CAPSULE) ? o.size.x : 0;
  return contact_surface_separation(c.a, c.b, c.n, 0, th1);
}

Other sphere_at(vec3 p, real r) { return {SHAPE_SPHERE, {r, 0, 0}, {p, quat_identity()}}; }

int count_class(const Model& m, int cls) {
  const std::vector<int> c = m.mesh_edge_class.to_host();
  return static_cast<int>(std::count(c.begin(), c.end(), cls));
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// --- adjacency and edge classes --------------------------------------------------------------

TEST(E3_2_geometry_routes, MeshEdgesAreClassifiedFromTheTwoFaceNormals) {
  Model m;
  collide_mesh(box_mesh(0.5, 0.4, 0.3), sphere_at({2, 0, 0}, 0.1), 0.05, transform_identity(), &m);
  // 18 edges, each stored by both triangles: 12 box edges (convex) and 6 face diagonals (flat).
  EXPECT_EQ(count_class(m, EDGE_CONVEX), 24);
  EXPECT_EQ(count_class(m, EDGE_FLAT), 12);
  EXPECT_EQ(count_class(m, EDGE_BOUNDARY), 0);
  const std::vector<int> nb = m.mesh_edge_neighbor.to_host();
  EXPECT_EQ(std::count(nb.begin(), nb.end(), -1), 0);
  collide_mesh(grid_mesh(3, 1), sphere_at({0, 0, 0.2}, 0.1), 0.05, transform_identity(), &m);
  EXPECT_EQ(count_class(m, EDGE_BOUNDARY), 12);  // 3 per side
  EXPECT_EQ(count_class(m, EDGE_FLAT), 3 * 18 - 12);
  collide_mesh(valley_mesh(0.5), sphere_at({0, 0, 1}, 0.1), 0.05, transform_identity(), &m);
  EXPECT_EQ(count_class(m, EDGE_CONCAVE), 2);  // the fold, seen from the front (+z) side
  EXPECT_EQ(count_class(m, EDGE_FLAT), 4);
  // An unwelded copy of the tetrahedron (every triangle with its own vertices) gets the same
  // adjacency, since vertices at the same position are one vertex.
  TriMesh soup;
  const TriMesh tet = tetra_mesh();
  for (int i : tet.t) soup.t.push_back(static_cast<int>(soup.v.size())), soup.v.push_back(tet.v[i]);
  collide_mesh(soup, sphere_at({2, 0, 0}, 0.1), 0.05, transform_identity(), &m);
  EXPECT_EQ(count_class(m, EDGE_CONVEX), 12);
}

TEST(E3_2_geometry_routes, NonManifoldAndDegenerateMeshesAreErrorsNamingTheShape) {
  ModelBuilder b;
  const transform I = transform_identity();
  // Three triangles on the edge 0-1.
  const std::string fin = message_of([&] {
    b.add_shape_mesh(-1, I, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}}, {0, 1, 2, 1, 0, 3, 0, 1, 4},
                     {1, 1, 1}, {}, "fin");
  });
  EXPECT_NE(fin.find("shape 0 (mesh, 'fin')"), std::string::npos) << fin;
  EXPECT_NE(fin.find("between vertices 0 and 1 is shared by 3 triangles"), std::string::npos) << fin;
  EXPECT_NE(message_of([&] { b.add_shape_mesh(-1, I, {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, {0, 1, 2}); })
                .find("triangle 0 is degenerate"),
            std::string::npos);
  EXPECT_EQ(b.shape_count(), 0);
}

// --- (a) convex edges and vertices: the analytic answer ------------------------------------------

TEST(E3_2_geometry_routes, OracleSphereOnAConvexMeshEdgeOrVertexGetsTheAnalyticContact) {
  const real r = 0.1, pen = 0.001;
  const TriMesh box = box_mesh(0.5, 0.5, 0.5);
  struct Case {
    vec3 feature;  // closest point on the mesh
    vec3 dir;      // direction from it to the sphere centre
  };
  const real c30 = std::cos(0.5235987755982988), s30 = std::sin(0.5235987755982988);
  const Case cases[] = {
      {{0.5, 0.1, 0.5}, {1, 0, 1}},           // top edge, bisector
      {{0.5, -0.2, 0.5}, {s30, 0, c30}},      // top edge, 30 degrees from the top face
      {{0.5, 0.5, 0.5}, {1, 1, 1}},           // corner
      {{0.5, 0.5, 0.5}, {1, 2, 3}},           // corner, off the diagonal
  };
  for (const Case& k : cases) {
    const vec3 u = normalize(k.dir);
    const Other s = sphere_at(k.feature + (r - pen) * u, r);
    const PairContacts pc = collide_mesh(box, s);
    ASSERT_EQ(pc.count, 1) << "feature " << k.feature.x << " " << k.feature.y << " " << k.feature.z;
    EXPECT_VEC3_NEAR(pc.c[0].n, u, 1e-9);
    EXPECT_VEC3_NEAR(pc.c[0].a, k.feature, 1e-9);
    EXPECT_NEAR(d_of(pc.c[0], s), -pen, 1e-9);
  }
  // Tetrahedron: the apex (0,0,1), whose cone is n.z >= max(n.x, n.y, 0), and the bottom edge
  // (1,0,0)-(0,1,0) between the faces with normals (1,1,1)/sqrt 3 and -z.
  const TriMesh tet = tetra_mesh();
  const Case tcases[] = {{{0, 0, 1}, {0.2, -0.5, 1}}, {{0.5, 0.5, 0}, {1, 1, 1 - std::sqrt(3.0)}}};
  for (const Case& k : tcases) {
    const vec3 u = normalize(k.dir);
    const Other s = sphere_at(k.feature + (r + 0.01) * u, r);  // 1 cm apart, within the gap
    const PairContacts pc = collide_mesh(tet, s);
    ASSERT_EQ(pc.count, 1);
    EXPECT_VEC3_NEAR(pc.c[0].n, u, 1e-9);
    EXPECT_NEAR(d_of(pc.c[0], s), 0.01, 1e-9);
  }
  // Outside the gap: nothing.
  EXPECT_EQ(collide_mesh(box, sphere_at(vec3{0.5, 0.5, 0.5} + (r + 0.06) * normalize(vec3{1, 1, 1}), r)).count, 0);
}

TEST(E3_2_geometry_routes, OracleBoxCornerBesideAMeshBoundaryEdgeGetsTheEdgeContact) {
  // A square sheet [-1, 1]^2 at z = 0 and a box standing beside its edge x = 1, turned 45 degrees
  // about z so that a vertical box edge faces the sheet's boundary edge 2 mm away: the contact is
  // that crossing point, normal +x, d = 2 mm (the face of the sheet sees nothing over it).
  const TriMesh sheet{{{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}}, {0, 1, 2, 0, 2, 3}};
  const real h = 0.2, gap = 0.002;
  const Other box{SHAPE_BOX, {h, h, h},
                  {{1 + gap + h * std::sqrt(2.0), 0, -0.05}, quat_from_axis_angle({0, 0, 1}, 0.7853981633974483)}};
  const PairContacts pc = collide_mesh(sheet, box);
  ASSERT_EQ(pc.count, 1);
  EXPECT_VEC3_NEAR(pc.c[0].n, (vec3{1, 0, 0}), 1e-9);
  EXPECT_VEC3_NEAR(pc.c[0].a, (vec3{1, 0, 0}), 1e-9);
  EXPECT_NEAR(d_of(pc.c[0], box), gap, 1e-9);
}

// --- (b) flat regions: the plane normal only -------------------------------------------------------

RC_GTEST_PROP(E3_2_geometry_routes, FlatTriangulatedRegionsGiveOnlyThePlaneNormal, ()) {
  // A 2-triangle quad or an 8 x 8 grid over [-2, 2]^2; a sphere or a box anywhere above the inner
  // part, often exactly over an internal edge or vertex. Every contact has the normal +z (from the
  // mesh, shape0, to the body) and the smallest d is the analytic height above z = 0.
  const bool quad = *rc::gen::arbitrary<bool>();
  const TriMesh mesh = quad ? grid_mesh(1, 2) : grid_mesh(8, 2);
  const real cell = quad ? 4 : 0.5;
  const int where = *rc::gen::inRange(0, 4);
  real x = *gen::in_range(-1.2, 1.2), y = *gen::in_range(-1.2, 1.2);
  const real snap_x = cell * std::round(x / cell), snap_y = cell * std::round(y / cell);
  if (where == 1) y = x;  // on a diagonal of the cells
  if (where == 2) x = snap_x;
  if (where == 3) x = snap_x, y = snap_y;
  const bool sphere = *rc::gen::arbitrary<bool>();
  const real height = *gen::in_range(-0.02, 0.05);  // of the lowest point above the plane [m]
  Other o;
  real want;
  if (sphere) {
    o = sphere_at({x, y, 0.1 + height}, 0.1);
    want = height;
  } else {
    const quat qz = quat_from_axis_angle({0, 0, 1}, *gen::in_range(0, 6.3));
    const quat tilt = *rc::gen::arbitrary<bool>() ? quat_identity() : *gen::unit_quat();
    o = {SHAPE_BOX, {0.15, 0.1, 0.05}, {{x, y, 0}, quat_mul(qz, tilt)}};
    real low = 1e9;
    for (int i = 0; i < 8; ++i)
      low = std::min(low, quat_rotate(o.X.q, vec3{(i & 1) ? 0.15 : -0.15, (i & 2) ? 0.1 : -0.1, (i & 4) ? 0.05 : -0.05}).z);
    o.X.p.z = height - low;
    want = height;
  }
  const PairContacts pc = collide_mesh(mesh, o, 0.06);
  RC_ASSERT(pc.count >= 1);
  real dmin = 1e9;
  for (int k = 0; k < pc.count; ++k) {
    RC_LOG() << "n " << pc.c[k].n.x << " " << pc.c[k].n.y << " " << pc.c[k].n.z << "\n";
    RC_ASSERT(std::abs(pc.c[k].n.x) <= 1e-12 && std::abs(pc.c[k].n.y) <= 1e-12 && pc.c[k].n.z == 1);
    dmin = std::min(dmin, d_of(pc.c[k], o));
  }
  RC_ASSERT(std::abs(dmin - want) <= 1e-9);
}

// --- (c) a concave fold: face normals only ---------------------------------------------------------

RC_GTEST_PROP(E3_2_geometry_routes, AConcaveFoldGivesOnlyFaceNormals, ()) {
  const real k = *gen::in_range(0.05, 1.0);
  const TriMesh mesh = valley_mesh(k);
  const vec3 nl = normalize(vec3{k, 0, 1}), nr = normalize(vec3{-k, 0, 1});  // left and right faces
  // A sphere in the valley: over the fold or anywhere near it, touching or nearly touching.
  const real r = *gen::in_range(0.05, 0.3);
  const real x = *rc::gen::arbitrary<bool>() ? 0 : *gen::in_range(-0.3, 0.3);
  const real y = *gen::in_range(-0.5, 0.5);
  // Height at which the sphere touches the nearer face(s) (centre on the face normal offset).
  const real touch = std::max(r * std::sqrt(1 + k * k) + k * x, r * std::sqrt(1 + k * k) - k * x);
  const Other s = sphere_at({x, y, touch + *gen::in_range(-0.01, 0.02)}, r);
  const PairContacts pc = collide_mesh(mesh, s, 0.05);
  RC_ASSERT(pc.count >= 1);
  for (int i = 0; i < pc.count; ++i) {
    const vec3 n = pc.c[i].n;
    RC_LOG() << "n " << n.x << " " << n.y << " " << n.z << "\n";
    RC_ASSERT(length(n - nl) <= 1e-9 || length(n - nr) <= 1e-9);
  }
}

TEST(E3_2_geometry_routes, AConcaveFoldSeenFromBehindIsARidge) {
  // Triangles are two-sided: under the valley the fold is a convex ridge, and a sphere straight
  // below it gets one edge contact with normal -z (mesh to sphere) and the analytic distance.
  const Other s = sphere_at({0, 0.2, -0.11}, 0.1);
  const PairContacts pc = collide_mesh(valley_mesh(0.5), s);
  ASSERT_EQ(pc.count, 1);
  EXPECT_VEC3_NEAR(pc.c[0].n, (vec3{0, 0, -1}), 1e-9);
  EXPECT_NEAR(d_of(pc.c[0], s), 0.01, 1e-9);
}

TEST(E3_2_geometry_routes, RegressionLongCapsuleOverARidgeGetsNoInwardFaceNormal) {
  // A roof (the valley with negative slope: faces z = 0.3 x for x < 0 and z = -0.3 x for x > 0)
  // and a horizontal capsule 2 cm above its ridge, its centre at x = 0.2, i.e. behind the plane
  // of the left face extended. The analytic contact is the ridge: n = +z, d = 0.02 - 0.05 m.
  // Turning the left face's normal toward the capsule's centre gave a 13 cm deep ghost instead.
  const Other cap{SHAPE_CAPSULE, {0.05, 0.4, 0}, {{0.2, 0.1, 0.02}, quat_from_axis_angle({0, 1, 0}, 1.5707963267948966)}};
  const PairContacts pc = collide_mesh(valley_mesh(-0.3), cap);
  ASSERT_GE(pc.count, 1);
  real dmin = 1e9;
  for (int k = 0; k < pc.count; ++k) {
    EXPECT_GT(pc.c[k].n.z, 0.9);
    dmin = std::min(dmin, d_of(pc.c[k], cap));
  }
  EXPECT_NEAR(dmin, -0.03, 1e-9);
}

// --- (d) oracle: a closed convex mesh against the convex-hull route --------------------------------

RC_GTEST_PROP(E3_2_geometry_routes, OracleConvexMeshDistanceMatchesBoxAndHullReferences, ()) {
  // A sphere against a triangulated box: the analytic point-box distance. A sphere, capsule or box
  // against an icosahedron mesh: the convex-hull route (GJK) on the same vertices, for separated
  // cores. Whenever the reference d is within the gap, the mesh route reports it.
  const transform M = *gen::rigid_transform(0.2);
  const real accept = 0.05;
  if (*rc::gen::arbitrary<bool>()) {
    const vec3 h{0.3, 0.2, 0.4};
    const vec3 pl = *gen::vector(0.8);  // centre in the box frame
    const vec3 q{std::max(std::abs(pl.x) - h.x, 0.0), std::max(std::abs(pl.y) - h.y, 0.0),
                 std::max(std::abs(pl.z) - h.z, 0.0)};
    const real dist = length(q);
    RC_PRE(dist > 1e-3);
    const real r = *gen::in_range(0.05, 0.2);
    const Other s = sphere_at(transform_point(M, pl), r);
    const PairContacts pc = collide_mesh(box_mesh(h.x, h.y, h.z), s, accept, M);
    const real want = dist - r;
    real dmin = 1e9;
    for (int k = 0; k < pc.count; ++k) dmin = std::min(dmin, d_of(pc.c[k], s));
    RC_LOG() << "want " << want << " got " << dmin << "\n";
    if (want <= accept) RC_ASSERT(std::abs(dmin - want) <= 1e-9);
    else RC_ASSERT(pc.count == 0);
    return;
  }
  const TriMesh ico = icosahedron(0.4);
  Other o;
  o.type = *rc::gen::element(SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_BOX);
  o.size = {*gen::in_range(0.05, 0.2), *gen::in_range(0.05, 0.2), *gen::in_range(0.05, 0.2)};
  o.X = {*gen::vector(0.8), *gen::unit_quat()};
  // Reference: the same vertices as a convex hull, at the mesh's pose, through route (a).
  ModelBuilder b;
  const transform I = transform_identity();
  const int hb = b.add_link(M);
  ShapeConfig go;
  go.gap = 10;
  b.add_shape_convex_hull(hb, I, ico.v, {1, 1, 1}, go);
  const int ob = b.add_link(o.X);
  if (o.type == SHAPE_SPHERE) b.add_shape_sphere(ob, I, o.size.x, go);
  if (o.type == SHAPE_CAPSULE) b.add_shape_capsule(ob, I, o.size.x, o.size.y, go);
  if (o.type == SHAPE_BOX) b.add_shape_box(ob, I, o.size.x, o.size.y, o.size.z, go);
  const Model hm = b.finalize();
  const ShapeView hv = shape_view(hm);
  const std::vector<transform> hq = b.body_q;
  View<const transform> bq{hq.data(), 2};
  const transform X0 = shape_world_pose(hv, bq, 0), X1 = shape_world_pose(hv, bq, 1);
  const GjkResult g = gjk_distance(shape_core(hv, 0, X0), shape_core(hv, 1, X1));
  RC_PRE(!g.overlap && g.distance > 1e-3);
  const real th1 = (o.type == SHAPE_BOX) ? 0 : o.size.x;
  const real want = g.distance - th1;
  const PairContacts pc = collide_mesh(ico, o, accept, M);
  real dmin = 1e9;
  for (int k = 0; k < pc.count; ++k) dmin = std::min(dmin, d_of(pc.c[k], o));
  RC_LOG() << "type " << o.type << " want " << want << " got " << dmin << "\n";
  if (want <= accept) RC_ASSERT(std::abs(dmin - want) <= 1e-8);
  else RC_ASSERT(pc.count == 0);
}
