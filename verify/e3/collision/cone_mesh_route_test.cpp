// The cone in the collision pipeline (route a: its support function for GJK/EPA and its base for the
// plane route) and a closed mesh on a dynamic body, which collides as its convex hull (course E3 §2).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

#include "e1/model.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/collision/geometry.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/generators.h"

using namespace impulse;

namespace {

// Oracle: the largest d . x over a dense sample of the cone's surface (apex, base rim, base disk,
// mantle lines), base radius r at z = -hh, apex at +hh.
real sampled_support_value(real r, real hh, vec3 d) {
  real best = hh * d.z;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const real t = 2 * kPi * i / n;
    for (int k = 0; k <= 10; ++k) {
      const real f = real(k) / 10;  // from the axis (0) to the rim (1), on the base and on the mantle
      const vec3 base{f * r * std::cos(t), f * r * std::sin(t), -hh};
      const vec3 mantle{f * r * std::cos(t), f * r * std::sin(t), hh - 2 * hh * f};
      best = std::max({best, dot(base, d), dot(mantle, d)});
    }
  }
  return best;
}

struct Resting {
  transform X;
  spatial_vector V;
  int rows;
};

// A body holding one shape (added by add) dropped 1 cm onto the ground, stepped 2 s by SolverXPBD.
template <class Add>
Resting drop_on_ground(real z0, Add add) {
  ModelBuilder b;
  b.add_ground_plane();
  const int body = b.add_body({vec3{0, 0, z0}, quat_identity()});
  add(b, body);
  Model m = b.finalize();
  CollisionPipeline pipeline(m);
  Contacts contacts(m, pipeline.rigid_contact_max());
  SolverXPBD solver(m, 4);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  for (int i = 0; i < 480; ++i) {
    pipeline.collide(s0.body_q.view(), contacts);
    fill_contact_materials(m, SolverPath::xpbd, contacts);
    const ContactsView v = contacts.view();
    solver.step(s0, s1, c, &v, real(1) / 240);
    std::swap(s0, s1);
  }
  return {s0.body_q.to_host()[0], s0.body_qd.to_host()[0], contacts.checked_count()};
}

}  // namespace

// The cone's support point reaches as far along every direction as the densest surface sample, and
// it is a point of the cone (apex or base rim).
RC_GTEST_PROP(E3_2_geometry_routes, ConeSupportMatchesTheSampledSurface, ()) {
  const real r = *gen::in_range(0.02, 0.5), hh = *gen::in_range(0.02, 0.5);
  const vec3 d = normalize(vec3{*gen::in_range(-1, 1), *gen::in_range(-1, 1), *gen::in_range(-1, 1)});
  RC_PRE(length(d) > 0.5);
  const vec3 s = cone_support(r, hh, d);
  const real oracle = sampled_support_value(r, hh, d);
  RC_ASSERT(dot(s, d) >= oracle - 1e-12);
  RC_ASSERT(dot(s, d) <= oracle + 2e-5 * (r + hh));  // the sample's angular step
  const bool apex = s.x == 0 && s.y == 0 && s.z == hh;
  const bool rim = std::abs(s.z + hh) < 1e-15 && std::abs(std::hypot(s.x, s.y) - r) < 1e-12 * r;
  RC_ASSERT(apex || rim);
}

// A cone dropped on its base comes to rest on it: origin hh above the ground (its base at z = 0), upright,
// still, with a base manifold of several rim points.
TEST(E3_2_geometry_routes, SimConeRestsOnItsBase) {
  const real r = 0.1, hh = 0.15;
  const Resting s = drop_on_ground(hh + 0.01, [&](ModelBuilder& b, int body) {
    b.add_shape_cone(body, transform_identity(), r, hh);
  });
  EXPECT_NEAR(s.X.p.z, hh, 2e-3);
  EXPECT_GT(quat_rotate(s.X.q, vec3{0, 0, 1}).z, 0.9999);
  EXPECT_LT(length(s.V.lin), 1e-2);
  EXPECT_LT(length(s.V.ang), 1e-1);
  EXPECT_GE(s.rows, 3);
}

// A cone against a box (GJK/EPA with the cone's support): a cone standing on a box's top face is
// held by it, base down.
TEST(E3_2_geometry_routes, ConeOnABoxTouchesWithItsBase) {
  ModelBuilder b;
  b.add_shape_box(-1, {vec3{0, 0, -0.05}, quat_identity()}, 0.5, 0.5, 0.05);
  const int body = b.add_body({vec3{0, 0, 0.15 - 0.001}, quat_identity()});
  b.add_shape_cone(body, transform_identity(), 0.1, 0.15);
  const Model m = b.finalize();
  CollisionPipeline pipeline(m);
  Contacts contacts = pipeline.contacts();
  const State s = m.state();
  pipeline.collide(s.body_q.view(), contacts);
  const int n = contacts.checked_count();
  ASSERT_GE(n, 3);
  const std::vector<vec3> normal = contacts.rigid_contact_normal.to_host();
  const std::vector<vec3> p1 = contacts.rigid_contact_point1.to_host();
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(std::abs(normal[i].z), 1, 1e-6) << i;
    EXPECT_NEAR(p1[i].z, -0.15, 1e-6) << i;  // a base point, in the cone's body frame
  }
}

// A closed box mesh on a body collides as its hull: it rests like the box it is.
TEST(E3_2_geometry_routes, SimClosedMeshOnABodyRestsAsItsHull) {
  const vec3 h{0.1, 0.05, 0.025};
  std::vector<vec3> v;
  for (int i = 0; i < 8; ++i) v.push_back({(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z});
  const std::vector<int> t = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                              2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
  const Resting s = drop_on_ground(h.z + 0.01, [&](ModelBuilder& b, int body) {
    b.add_shape_mesh(body, transform_identity(), v, t);
  });
  EXPECT_NEAR(s.X.p.z, h.z, 2e-3);
  EXPECT_LT(length(s.V.lin), 1e-2);
  EXPECT_GE(s.rows, 4);
}
