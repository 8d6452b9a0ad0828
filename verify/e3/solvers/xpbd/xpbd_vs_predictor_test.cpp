// E1.10-xpbd-not-euler: SolverXPBD is the §10 predictor followed by constraint corrections. For a
// free body with nothing to correct the two agree; with an active joint XPBD differs from the bare
// prediction and keeps the joint together far better.
#include <gtest/gtest.h>

#include <cstring>

#include "e1/integrator.h"
#include "e1/model.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

MassProperties unit_mass() {
  MassProperties p;
  p.mass = 1;
  p.inertia = mat33_diag({0.01, 0.01, 0.01});
  return p;
}

}  // namespace

TEST(E1_10_xpbd_not_euler, SimFreeBodyWithoutConstraintsEqualsThePredictor) {
  ModelBuilder b;
  b.add_body({vec3{0, 0, 1}, quat_from_axis_angle({1, 2, 3}, 0.4)}, unit_mass());
  Model m = b.finalize();
  State a0 = m.state(), a1 = m.state(), x0 = m.state(), x1 = m.state();
  std::vector<spatial_vector> v{{{0.3, -0.2, 1}, {0.5, 1.5, -2}}};
  a0.body_qd.copy_from_host(v.data());
  x0.body_qd.copy_from_host(v.data());
  Control c = m.control();
  SolverRigidPredictor euler(m);
  SolverXPBD xpbd(m);
  for (int i = 0; i < 50; ++i) {
    euler.step(a0, a1, c, 0.01);
    xpbd.step(x0, x1, c, nullptr, 0.01);
    std::swap(a0, a1);
    std::swap(x0, x1);
  }
  transform pa = a0.body_q.to_host()[0], px = x0.body_q.to_host()[0];
  EXPECT_VEC3_NEAR(pa.p, px.p, 1e-12);
  EXPECT_TRUE(tol::same_rotation(pa.q, px.q, 1e-12));
}

TEST(E1_10_xpbd_not_euler, SimPendulumJointIsCorrectedByXpbdButNotByThePredictor) {
  // A link hanging from a world revolute joint, started sideways: the bare prediction lets it fall
  // away from the pivot, XPBD's joint rows pull the anchor back.
  ModelBuilder b;
  int body = b.add_link({vec3{0.5, 0, 1}, quat_identity()}, unit_mass());
  int j = b.add_joint_revolute(-1, body, {vec3{0, 0, 1}, quat_identity()}, {vec3{-0.5, 0, 0}, quat_identity()}, {0, 1, 0});
  b.add_articulation({j});
  Model m = b.finalize();
  Control c = m.control();
  auto anchor_error = [](const State& s) {
    transform X = s.body_q.to_host()[0];
    return length(transform_point(X, {-0.5, 0, 0}) - vec3{0, 0, 1});
  };
  State a0 = m.state(), a1 = m.state(), x0 = m.state(), x1 = m.state();
  SolverRigidPredictor euler(m);
  SolverXPBD xpbd(m, 4);
  for (int i = 0; i < 100; ++i) {
    euler.step(a0, a1, c, 0.005);
    xpbd.step(x0, x1, c, nullptr, 0.005);
    std::swap(a0, a1);
    std::swap(x0, x1);
  }
  double free_error = anchor_error(a0), xpbd_error = anchor_error(x0);
  EXPECT_GT(free_error, 0.1);                // unconstrained: the link has fallen away from the pivot
  EXPECT_LT(xpbd_error, 0.01 * free_error);  // corrected: the anchor stays at the pivot
}
