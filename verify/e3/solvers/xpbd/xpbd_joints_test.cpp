// Joints in SolverXPBD (course E3 §4: the joint helper's denominator (h + alpha b) w + alpha/h).
#include <gtest/gtest.h>

#include <cmath>

#include "e3/contacts/contacts.h"
#include "e3/solvers/xpbd/solver_xpbd.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr real kH = real(1) / 600;  // [s]

struct JointRun {
  std::vector<transform> q;
  real anchor_error = 0;  // [m] largest anchor separation over the run
  real axis_error = 0;    // [rad] largest misalignment of the joint axis (or full rotation for FIXED/PRISMATIC)
};

// A 0.2 m cube hanging from the world by one joint at (0, 0, 2), its COM 0.5 m out along +x, given
// an initial twist so that every locked direction is loaded. Runs 1 s.
JointRun hang(JointType type, real compliance = 0) {
  ModelBuilder b;
  int body = b.add_link({{real(0.5), 0, 2}, quat_identity()});
  b.add_shape_box(body, transform_identity(), real(0.1), real(0.1), real(0.1));
  transform X_p{{0, 0, 2}, quat_identity()}, X_c{{real(-0.5), 0, 0}, quat_identity()};
  int j = -1;
  if (type == JointType::revolute) j = b.add_joint_revolute(-1, body, X_p, X_c, {0, 1, 0});
  if (type == JointType::prismatic) j = b.add_joint_prismatic(-1, body, X_p, X_c, {0, 0, 1});
  if (type == JointType::ball) j = b.add_joint_ball(-1, body, X_p, X_c);
  if (type == JointType::fixed) j = b.add_joint_fixed(-1, body, X_p, X_c);
  b.add_articulation({j});
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> qd{{{0, real(0.3), 0}, {real(0.5), 0, real(0.5)}}};
  s0.body_qd.copy_from_host(qd.data());
  Control c = m.control();
  SolverXPBD solver(m, 4);
  solver.joint.linear_compliance = compliance;
  JointRun r;
  for (int k = 0; k < 600; ++k) {
    solver.step(s0, s1, c, nullptr, kH);
    std::swap(s0, s1);
    transform X = s0.body_q.to_host()[0];
    transform Xc = transform_multiply(X, X_c);
    vec3 d = Xc.p - X_p.p;
    if (type == JointType::prismatic) d = d - dot(d, vec3{0, 0, 1}) * vec3{0, 0, 1};
    r.anchor_error = std::max(r.anchor_error, length(d));
    if (type == JointType::revolute) r.axis_error = std::max(r.axis_error, length(cross(quat_rotate(Xc.q, {0, 1, 0}), {0, 1, 0})));
    if (type == JointType::fixed || type == JointType::prismatic)
      r.axis_error = std::max(r.axis_error, length(quat_rotation_vector(Xc.q)));
  }
  r.q = s0.body_q.to_host();
  return r;
}

}  // namespace

// Newton 1.6.1's SolverXPBD relaxes joint rows by joint_linear_relaxation = 0.7 and
// joint_angular_relaxation = 0.4 (solver_xpbd.py:100-114, newton-source-notes.md (c)). Analytic
// golden for the angular row, one step with one iteration: a free-standing 0.2 m cube (isotropic
// inertia I, COM at its origin) is held by a FIXED joint to the world at its COM, at rest, without
// gravity, and turned by theta about a unit axis n. The row's rotation error is e = theta n and
// w = n^T I^-1 n = 1/I, so with alpha = 0
//   L = relaxation (-theta / (h w)) n,   dw = I^-1 L = -relaxation theta / h n
// (the gyroscopic term vanishes: omega = 0 and I isotropic), and the quaternion update
// q1 = normalize(q0 + (h/2) (dw, 0) (x) q0) with dw parallel to n turns the half angle by
// -atan(relaxation theta / 2):
//   theta_1 = theta - 2 atan(relaxation theta / 2),   omega_1 = -relaxation theta / h n.
// The anchor sits at the COM, so no linear row acts. With relaxation 0.7 (the linear value)
// theta_1 would be 0.0300 rad instead of 0.0600 rad for theta = 0.1 rad.
TEST(E3_4_joint_helper_denominator, OneIterationTurnsAFixedJointBackByNewtonsAngularRelaxation) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  const real theta = real(0.1), h = real(0.01);
  const vec3 n = normalize(vec3{1, 2, 2});
  int body = b.add_link({{0, 0, 1}, quat_from_axis_angle(n, theta)});
  b.add_shape_box(body, transform_identity(), real(0.1), real(0.1), real(0.1));
  int j = b.add_joint_fixed(-1, body, {{0, 0, 1}, quat_identity()}, transform_identity());
  b.add_articulation({j});
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverXPBD solver(m, 1);
  EXPECT_EQ(solver.joint.angular_relaxation, real(0.4));
  EXPECT_EQ(solver.joint.linear_relaxation, real(0.7));
  solver.step(s0, s1, c, nullptr, h);
  const transform X = s1.body_q.to_host()[0];
  const vec3 e1 = quat_rotation_vector(X.q);
  const real theta1 = theta - 2 * std::atan(real(0.4) * theta / 2);
  EXPECT_NEAR(length(e1), theta1, 1e-12);
  EXPECT_NEAR(dot(e1, n), theta1, 1e-12);  // about the same axis
  EXPECT_NEAR(length(X.p - vec3{0, 0, 1}), 0, 1e-12);
  const vec3 w1 = s1.body_qd.to_host()[0].ang;
  EXPECT_NEAR(length(w1 + (real(0.4) * theta / h) * n), 0, 1e-9);
}

// The linear row's two relaxations, analytic, one step with one iteration: the same cube (mass m,
// isotropic I) hangs by a BALL joint whose anchor is r = (0.5, 0, 0) m from its COM, the world's
// anchor 0.01 m above the cube's: err = -0.01 m along n = z, w = 1/m + |r x n|^2 / I, and with
// dlambda = -err / (h w) the translation takes 0.7 dlambda n and the rotation r x (0.4 dlambda n):
//   v_1 = 0.7 dlambda / m n,   omega_1 = 0.4 dlambda / I (r x n).
TEST(E3_4_joint_helper_denominator, OneIterationRelaxesABallJointsTranslationAndRotationApart) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  const real h = real(0.01), err = real(-0.01);
  int body = b.add_link({{0, 0, 1}, quat_identity()});
  b.add_shape_box(body, transform_identity(), real(0.1), real(0.1), real(0.1));
  const vec3 r{real(0.5), 0, 0}, n{0, 0, 1};
  int j = b.add_joint_ball(-1, body, {r + vec3{0, 0, 1 - err}, quat_identity()}, {r, quat_identity()});
  b.add_articulation({j});
  Model m = b.finalize();
  const real mass = m.body_mass.to_host()[0], I = m.body_inertia.to_host()[0].m[0][0];
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverXPBD solver(m, 1);
  solver.step(s0, s1, c, nullptr, h);
  const vec3 rn = cross(r, n);
  const real w = 1 / mass + dot(rn, rn) / I, dlambda = -err / (h * w);
  const spatial_vector v1 = s1.body_qd.to_host()[0];
  EXPECT_NEAR(length(v1.lin - (real(0.7) * dlambda / mass) * n), 0, 1e-9);
  EXPECT_NEAR(length(v1.ang - (real(0.4) * dlambda / I) * rn), 0, 1e-9);
}

TEST(E3_4_joint_helper_denominator, SimRevoluteKeepsAnchorAndAxis) {
  JointRun r = hang(JointType::revolute);
  EXPECT_LT(r.anchor_error, 2e-3);
  EXPECT_LT(r.axis_error, 2e-2);
  EXPECT_LT(r.q[0].p.z, 2 - 0.1);  // it swung down
}

TEST(E3_4_joint_helper_denominator, SimBallKeepsAnchor) {
  JointRun r = hang(JointType::ball);
  EXPECT_LT(r.anchor_error, 2e-3);
  EXPECT_LT(r.q[0].p.z, 2 - 0.1);
}

TEST(E3_4_joint_helper_denominator, SimFixedKeepsPose) {
  JointRun r = hang(JointType::fixed);
  EXPECT_LT(r.anchor_error, 2e-2);
  EXPECT_LT(r.axis_error, 5e-2);
}

TEST(E3_4_joint_helper_denominator, SimPrismaticSlidesAlongItsAxisOnly) {
  JointRun r = hang(JointType::prismatic);
  EXPECT_LT(r.anchor_error, 2e-2);
  EXPECT_LT(r.axis_error, 5e-2);
  EXPECT_LT(r.q[0].p.z, 2 - 1);  // it fell along z
}

TEST(E3_4_joint_helper_denominator, SimComplianceSoftensTheJoint) {
  real stiff = hang(JointType::ball).anchor_error, soft = hang(JointType::ball, real(1e-4)).anchor_error;
  EXPECT_GT(soft, 5 * stiff);
}

// A two-link chain hanging straight down from the world on revolute joints. At rest, the wrench
// the parent exerts on each link through its joint carries what hangs below it: m g on the end
// link, 2 m g on the first (E3.8-body-parent-f-semantics). A joint torque changes it.
TEST(E3_8_body_parent_f_semantics, SimHangingChainCarriesItsWeight) {
  auto build = [] {
    ModelBuilder b;
    std::vector<int> joints;
    int parent = -1;
    for (int i = 0; i < 2; ++i) {
      int link = b.add_link({{0, 0, real(-0.5) - i}, quat_identity()});
      b.add_shape_box(link, transform_identity(), real(0.05), real(0.05), real(0.5));
      transform X_p = parent < 0 ? transform_identity() : transform{{0, 0, real(-0.5)}, quat_identity()};
      joints.push_back(b.add_joint_revolute(parent, link, X_p, {{0, 0, real(0.5)}, quat_identity()}, {0, 1, 0}));
      parent = link;
    }
    b.add_articulation(joints);
    return b.finalize();
  };
  Model m = build();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverXPBD solver(m, 4);
  for (int k = 0; k < 300; ++k) {
    solver.step(s0, s1, c, nullptr, kH);
    std::swap(s0, s1);
  }
  real mg = m.body_mass.to_host()[1] * real(9.81);
  auto bpf = solver.body_parent_f().to_host();
  EXPECT_NEAR(bpf[1].lin.z / mg, 1, 0.02);
  EXPECT_NEAR(bpf[0].lin.z / mg, 2, 0.04);
  EXPECT_NEAR(bpf[1].lin.x / mg, 0, 0.02);
  c.joint_f[1] = 5;  // [N m] about the second hinge
  solver.step(s0, s1, c, nullptr, kH);
  EXPECT_GT(std::abs(solver.body_parent_f().to_host()[1].ang.y - bpf[1].ang.y), 1);
}

TEST(SolverXPBD, RefusesAD6WithTwoAngularAxes) {
  ModelBuilder b;
  int link = b.add_link({{0, 0, 1}, quat_identity()});
  b.add_shape_box(link, transform_identity(), real(0.1), real(0.1), real(0.1));
  int j = b.add_joint_d6(-1, link, transform_identity(), transform_identity(), {}, {{1, 0, 0}, {0, 1, 0}});
  b.add_articulation({j});
  Model m = b.finalize();
  EXPECT_THROW(SolverXPBD{m}, std::invalid_argument);
}

// Control.joint_f is an actuation input: the step reads it and never writes it, and it shows up in
// the joint's body_parent_f, not in any contact readback (the pendulum has no contacts at all).
TEST(E3_8_joint_f_is_input, SimJointTorqueIsReadNotMeasured) {
  ModelBuilder b;
  int body = b.add_link({{1, 0, 0}, quat_identity()});
  b.add_shape_box(body, transform_identity(), real(0.1), real(0.1), real(0.1));
  int j = b.add_joint_revolute(-1, body, transform_identity(), {{-1, 0, 0}, quat_identity()}, {0, 1, 0});
  b.add_articulation({j});
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  c.joint_f[0] = real(2.5);
  SolverXPBD solver(m);
  solver.step(s0, s1, c, nullptr, kH);
  EXPECT_EQ(c.joint_f[0], real(2.5));
  EXPECT_EQ(solver.contact_impulse().size(), 0);  // nothing was measured at a contact
  EXPECT_THROW(
      {
        ContactAttributes a;
        request_contact_attributes(a, "force");
        Contacts none(m, 4, a.force);
        ContactsView v = none.view();
        solver.update_contacts(v);
      },
      std::runtime_error);  // no step with contacts: there is no contact force to report
}
