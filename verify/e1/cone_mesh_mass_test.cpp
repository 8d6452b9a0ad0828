// Mass and inertia of the cone and of a closed triangle mesh (course E1 §3), against independent
// oracles: grid integration of the solid's indicator and the box's closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "e1/mass.h"
#include "e1/model.h"

using namespace impulse;

namespace {

// Mass, COM and inertia about the COM of a solid by midpoint integration over n^3 cells of [-e, e].
MassProperties integrate_solid(const std::function<bool(vec3)>& inside, vec3 e, real rho, int n) {
  double m = 0, c[3] = {}, S[3][3] = {};
  const double dv = 8 * e.x * e.y * e.z / (double(n) * n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const double p[3] = {-e.x + (2 * i + 1) * e.x / n, -e.y + (2 * j + 1) * e.y / n, -e.z + (2 * k + 1) * e.z / n};
        if (!inside({p[0], p[1], p[2]})) continue;
        m += rho * dv;
        for (int a = 0; a < 3; ++a) {
          c[a] += rho * dv * p[a];
          for (int b = 0; b < 3; ++b) S[a][b] += rho * dv * p[a] * p[b];
        }
      }
  MassProperties out;
  out.mass = m;
  for (int a = 0; a < 3; ++a) c[a] /= m;
  out.com = {c[0], c[1], c[2]};
  const double tr = S[0][0] + S[1][1] + S[2][2] - m * (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) out.inertia.m[a][b] = (a == b ? tr : 0) - (S[a][b] - m * c[a] * c[b]);
  return out;
}

void expect_near(const MassProperties& a, const MassProperties& b, real rel, real com_tol) {
  EXPECT_NEAR(a.mass, b.mass, rel * b.mass);
  EXPECT_NEAR(a.com.x, b.com.x, com_tol);
  EXPECT_NEAR(a.com.y, b.com.y, com_tol);
  EXPECT_NEAR(a.com.z, b.com.z, com_tol);
  const real scale = b.inertia.m[0][0] + b.inertia.m[1][1] + b.inertia.m[2][2];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(a.inertia.m[i][j], b.inertia.m[i][j], rel * scale) << i << j;
}

// The 8 corners and 12 outward triangles of a box of half extents h centred at c.
struct BoxMesh {
  std::vector<vec3> v;
  std::vector<int> t;
  BoxMesh(vec3 h, vec3 c) {
    for (int i = 0; i < 8; ++i) v.push_back(c + vec3{(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z});
    t = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
  }
};

std::string message(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// The cone (base at z = -hh, apex at +hh) against the grid: mass, COM a quarter of the height above
// the base, inertia about that COM.
TEST(E1_3_box_mass_inertia, OracleGridIntegrationOfTheCone) {
  const real rho = 700, r = 0.1, hh = 0.15;
  auto inside = [&](vec3 p) {
    const real rz = r * (hh - p.z) / (2 * hh);  // radius at height z
    return p.z >= -hh && p.z <= hh && p.x * p.x + p.y * p.y <= rz * rz;
  };
  const MassProperties cone = cone_mass_properties(rho, r, hh);
  expect_near(cone, integrate_solid(inside, {r, r, hh}, rho, 100), 5e-3, 1e-3);
  EXPECT_NEAR(cone.com.z, -hh / 2, 1e-15);
}

// A closed mesh's solid: a box mesh has the box's closed form, wherever it sits and however it is wound.
TEST(E1_3_box_mass_inertia, OracleClosedBoxMeshHasTheBoxClosedForm) {
  const vec3 h{0.2, 0.1, 0.05}, c{0.3, -0.2, 0.1};
  const real rho = 700;
  BoxMesh box(h, c);
  MassProperties expected = box_mass_properties(rho, h.x, h.y, h.z);
  expected.com = c;
  expect_near(mesh_mass_properties(box.v, box.t, {1, 1, 1}, rho), expected, 1e-12, 1e-12);
  std::vector<int> inward = box.t;
  for (std::size_t k = 0; k < inward.size(); k += 3) std::swap(inward[k + 1], inward[k + 2]);
  expect_near(mesh_mass_properties(box.v, inward, {1, 1, 1}, rho), expected, 1e-12, 1e-12);
  // A per-axis scale scales the solid: box of half extents 2h centred at 2c.
  MassProperties scaled = box_mass_properties(rho, 2 * h.x, 2 * h.y, 2 * h.z);
  scaled.com = 2 * c;
  expect_near(mesh_mass_properties(box.v, box.t, {2, 2, 2}, rho), scaled, 1e-12, 1e-12);
}

// A non-convex closed mesh (an L of two boxes sharing a face) gets its own solid, not its hull's.
TEST(E1_3_box_mass_inertia, OracleNonConvexMeshAgainstTheGrid) {
  // Profile in x-z: the L (0,0) (2,0) (2,1) (1,1) (1,2) (0,2), extruded over y in [0, 1], scaled 0.1 m.
  const real xs[6] = {0, 2, 2, 1, 1, 0}, zs[6] = {0, 0, 1, 1, 2, 2};
  std::vector<vec3> v;
  for (int y = 0; y < 2; ++y)
    for (int k = 0; k < 6; ++k) v.push_back({xs[k], real(y), zs[k]});
  std::vector<int> t;
  for (int k = 0; k < 6; ++k) {  // side quads; every triangle wound alike (inward here: the flip is tested too)
    const int a = k, b = (k + 1) % 6;
    t.insert(t.end(), {a, b, b + 6, a, b + 6, a + 6});
  }
  // Caps y = 0 (outward -y) and y = 1 (outward +y): fans over the two convex parts.
  const int cap0[4][3] = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 4, 5}};
  for (const auto& f : cap0) {
    t.insert(t.end(), {f[0], f[2], f[1]});
    t.insert(t.end(), {f[0] + 6, f[1] + 6, f[2] + 6});
  }
  const real rho = 1000;
  const MassProperties got = mesh_mass_properties(v, t, {0.1, 0.1, 0.1}, rho);
  auto inside = [](vec3 p) {
    const real x = p.x + 0.1, y = p.y + 0.05, z = p.z + 0.1;  // grid box [-e, e] shifted onto [0, 0.2]
    return x >= 0 && x <= 0.2 && y >= 0 && y <= 0.1 && z >= 0 && z <= 0.2 && (x <= 0.1 || z <= 0.1);
  };
  MassProperties grid = integrate_solid(inside, {0.1, 0.05, 0.1}, rho, 80);
  grid.com = grid.com + vec3{0.1, 0.05, 0.1};
  EXPECT_NEAR(got.mass, 3e-3 * rho, 1e-12);  // three 0.1 m cubes
  expect_near(got, grid, 2e-2, 1e-3);
}

// Through the builder: a cone's COM sits a quarter of its height above its base; a closed mesh on a
// body adds its solid; an open mesh on a body is refused in one line; a static open mesh is taken.
TEST(E1_3_mass_accumulation, ConeAndClosedMeshAddTheirSolidsToTheBody) {
  ModelBuilder b;
  const int cone = b.add_body();
  b.add_shape_cone(cone, transform_identity(), 0.2, 0.3);
  const int mesh = b.add_body();
  BoxMesh box({0.1, 0.05, 0.025}, {0.05, 0, 0});
  const int s = b.add_shape_mesh(mesh, transform_identity(), box.v, box.t);
  EXPECT_EQ(b.shape_type[s], ShapeType::convex_hull);  // collides as its hull
  const std::vector<int> open(box.t.begin(), box.t.end() - 3);
  const std::string w = message([&] { b.add_shape_mesh(mesh, transform_identity(), box.v, open); });
  EXPECT_NE(w.find("shape 2 (mesh): the edge between vertices"), std::string::npos) << w;
  EXPECT_NE(w.find("a mesh on a body must be closed"), std::string::npos) << w;
  EXPECT_EQ(w.find('\n'), std::string::npos);
  EXPECT_NO_THROW(b.add_shape_mesh(-1, transform_identity(), box.v, open));
  EXPECT_NE(message([&] { b.add_shape_cone(cone, transform_identity(), 0.2, 0); }).find("half height must be > 0 m"),
            std::string::npos);
  const Model m = b.finalize();
  const std::vector<real> mass = m.body_mass.to_host();
  const std::vector<vec3> com = m.body_com.to_host();
  EXPECT_NEAR(mass[cone], 1000 * kPi * 0.04 * 0.6 / 3, 1e-9);
  EXPECT_NEAR(com[cone].z, -0.15, 1e-12);
  EXPECT_NEAR(mass[mesh], 1.0, 1e-12);  // the course's 1 kg box, as a mesh
  EXPECT_NEAR(com[mesh].x, 0.05, 1e-12);
}
