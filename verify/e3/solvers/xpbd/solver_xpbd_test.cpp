// Tests of lib/e3/solvers/xpbd/solver_xpbd.h and lib/e3/solvers/xpbd/xpbd_step.h: the XPBD step of course E3 §4 and §7.
#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>

#include "e1/integrator.h"
#include "course/e3/xpbd_demos.h"
#include "e3/solvers/xpbd/xpbd_step.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr real kH = real(1) / 600;  // [s] the step of the demonstrations

real mass_of(const XpbdWorld& w, int b) { return w.model->body_mass.to_host()[b]; }

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0);
}

// A world with gravity off: two cubes side by side and a third straddling them, pressed 1 mm into both.
ModelBuilder straddle_zero_gravity() {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  const real half = real(0.5), clear = real(0.01);
  for (int i = 0; i < 2; ++i) {
    int body = b.add_body({{(i - real(0.5)) * (2 * half + clear), 0, half}, quat_identity()});
    b.add_shape_box(body, transform_identity(), half, half, half);
  }
  int top = b.add_body({{0, 0, 3 * half - real(0.001)}, quat_identity()});
  b.add_shape_box(top, transform_identity(), half, half, half);
  return b;
}

vec3 momentum(const XpbdWorld& w, const State& s) {
  auto m = w.model->body_mass.to_host();
  auto qd = s.body_qd.to_host();
  vec3 p{};
  for (std::size_t b = 0; b < m.size(); ++b) p += m[b] * qd[b].lin;
  return p;
}

// One step of a pendulum on a revolute joint with a joint torque: returns (body_f before, after, omega).
struct PendulumRun {
  std::vector<spatial_vector> f_before, f_after;
  vec3 omega;
};
PendulumRun pendulum_step(real joint_torque) {
  ModelBuilder b;
  int body = b.add_link({{1, 0, 0}, quat_identity()});
  b.add_shape_box(body, transform_identity(), real(0.1), real(0.1), real(0.1));
  int j = b.add_joint_revolute(-1, body, transform_identity(), {{-1, 0, 0}, quat_identity()}, {0, 1, 0});
  b.add_articulation({j});
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> f(1, spatial_vector{{0, 0, 1}, {0, 0, 0}});
  s0.body_f.copy_from_host(f.data());
  Control c = m.control();
  c.joint_f[0] = joint_torque;
  SolverXPBD solver(m);
  PendulumRun r;
  r.f_before = s0.body_f.to_host();
  solver.step(s0, s1, c, nullptr, kH);
  r.f_after = s0.body_f.to_host();
  r.omega = s1.body_qd.to_host()[0].ang;
  return r;
}

}  // namespace

// ---- E3.4-step-order ------------------------------------------------------------------------

TEST(E3_4_step_order, SimTraceRunsTheContactPassOncePerIteration) {
  XpbdWorld w(demo_box_on_plane(real(0.5), real(-0.001)), 64, {}, 3);
  w.step(kH);
  const XpbdStepTrace& t = w.solver->trace();
  EXPECT_EQ(t.contact_passes, 3);
  EXPECT_EQ(t.joint_passes, 0);
  ASSERT_EQ(t.active_contacts.size(), 3u);
  EXPECT_EQ(t.active_contacts[0], 4);
  EXPECT_FALSE(t.restitution_ran);
}

TEST(E3_4_step_order, SimJointPassFollowsEachContactPass) {
  ModelBuilder b = demo_box_on_plane(real(0.5), real(-0.001));
  int link = b.add_link({{0, 0, 3}, quat_identity()});
  b.add_shape_sphere(link, transform_identity(), real(0.1));
  int j = b.add_joint_ball(-1, link, {{0, 0, 3}, quat_identity()}, transform_identity());
  b.add_articulation({j});
  XpbdWorld w(b, 64, {}, 4);
  w.step(kH);
  EXPECT_EQ(w.solver->trace().contact_passes, 4);
  EXPECT_EQ(w.solver->trace().joint_passes, 4);
}

// ---- E3.4-impulse-buffers / E3.4-no-warm-start -------------------------------------------------

TEST(E3_4_impulse_buffers, SimImpulseHoldsOnlyThisStep) {
  XpbdWorld w(demo_box_on_plane(), 64);
  for (int k = 0; k < 30; ++k) w.step(kH);
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  ContactsView v = w.contacts->view();
  w.solver->step(*w.state_0, *w.state_1, w.control, &v, kH);
  auto seasoned = w.solver->contact_impulse().to_host();
  SolverXPBD fresh(*w.model);
  State out = w.model->state();
  fresh.step(*w.state_0, out, w.control, &v, kH);
  EXPECT_TRUE(bitwise_equal(seasoned, fresh.contact_impulse().to_host()));
  EXPECT_LT(seasoned[0].lin.z, 0);  // impulse on body0 (the plane): the box pushes it down
}

TEST(E3_4_no_warm_start, SimStepIgnoresPreviousImpulses) {
  XpbdWorld w(demo_pyramid(), 256);
  for (int k = 0; k < 40; ++k) w.step(kH);
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  ContactsView v = w.contacts->view();
  State a = w.model->state(), c = w.model->state();
  w.solver->step(*w.state_0, a, w.control, &v, kH);
  SolverXPBD fresh(*w.model);
  fresh.step(*w.state_0, c, w.control, &v, kH);
  EXPECT_TRUE(bitwise_equal(a.body_q.to_host(), c.body_q.to_host()));
  EXPECT_TRUE(bitwise_equal(a.body_qd.to_host(), c.body_qd.to_host()));
}

// ---- E3.4-jointf-temp-wrench / E3.8-body-f-semantics ----------------------------------------------

TEST(E3_4_jointf_temp_wrench, SimBodyFUnchangedAndJointTorqueActs) {
  PendulumRun with = pendulum_step(2), without = pendulum_step(0);
  EXPECT_TRUE(bitwise_equal(with.f_before, with.f_after));
  EXPECT_GT(std::abs(with.omega.y - without.omega.y), 1e-6);
}

TEST(E3_8_body_f_semantics, SimStepReadsButNeverWritesBodyF) {
  XpbdWorld w(demo_box_on_plane(), 64);
  std::vector<spatial_vector> f(1, spatial_vector{{1, 2, 3}, {0.1, 0.2, 0.3}});
  w.state_0->body_f.copy_from_host(f.data());
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  ContactsView v = w.contacts->view();
  w.solver->step(*w.state_0, *w.state_1, w.control, &v, kH);
  EXPECT_TRUE(bitwise_equal(f, w.state_0->body_f.to_host()));
}

// ---- E3.4-kinematic-restore / E3.4-friction-anchor ---------------------------------------------------

TEST(E3_4_kinematic_restore, SimKinematicPlatformKeepsItsPrescribedState) {
  XpbdWorld w(demo_platform(true), 64);
  std::vector<spatial_vector> qd = w.state_0->body_qd.to_host();
  qd[0] = {{1, 0, 0}, {0, 0, 0}};
  w.state_0->body_qd.copy_from_host(qd.data());
  auto q_before = w.state_0->body_q.to_host();
  w.step(kH);
  EXPECT_TRUE(bitwise_equal(std::vector<transform>{q_before[0]}, std::vector<transform>{w.state_0->body_q.to_host()[0]}));
  EXPECT_TRUE(bitwise_equal(std::vector<spatial_vector>{qd[0]}, std::vector<spatial_vector>{w.state_0->body_qd.to_host()[0]}));
}

TEST(E3_4_friction_anchor, KinematicSurfaceAddsHVt) {
  XpbdSide A, B;
  A.body = 0;
  A.v = {{1, 0, 0}, {0, 0, 0}};
  B.body = 1;
  B.inv_m = 1;
  B.inv_I = mat33_identity();
  B.com = {0, 0, 1};
  B.X = {{0, 0, 1}, quat_identity()};
  vec3 p0{0, 0, 0}, p1{0, 0, -1 - real(0.001)};  // 1 mm penetration, anchors on one vertical line
  A.kinematic = false;
  XpbdContactDelta dynamic = xpbd_contact_delta(A, B, p0, p1, {}, {}, {0, 0, 1}, 0, 0, 1, 0, 0, real(0.8), kH);
  A.kinematic = true;
  XpbdContactDelta kinematic = xpbd_contact_delta(A, B, p0, p1, {}, {}, {0, 0, 1}, 0, 0, 1, 0, 0, real(0.8), kH);
  EXPECT_EQ(dynamic.dB.lin.x, 0);          // a moving dynamic surface: only the displacement counts
  EXPECT_GT(kinematic.dB.lin.x, 0);        // a kinematic conveyor drags B along +x by its h v_t
  EXPECT_NEAR(dynamic.dB.lin.z, kinematic.dB.lin.z, 1e-15);
}

TEST(E3_4_friction_anchor, SimConveyorDragsBox) {
  XpbdWorld w(demo_platform(true), 64, {real(0.01), 1});
  std::vector<spatial_vector> qd = w.state_0->body_qd.to_host();
  qd[0] = {{1, 0, 0}, {0, 0, 0}};
  w.state_0->body_qd.copy_from_host(qd.data());
  for (int k = 0; k < 60; ++k) w.step(kH);
  EXPECT_GT(w.state_0->body_qd.to_host()[1].lin.x, 0.5);
}

// ---- E3.4-predict-* and E3.4-not-backward-euler ------------------------------------------------------

TEST(E3_4_predict_linear, GoldenDerivedFreeFall) { golden::expect_course_values("E3.4-predict-linear"); }

TEST(E3_4_predict_linear, SimOneStepOfFreeFall) {
  ModelBuilder b;
  int body = b.add_body({{0, 0, 2}, quat_identity()});
  b.add_shape_sphere(body, transform_identity(), real(0.1));
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverXPBD solver(m);
  solver.step(s0, s1, c, nullptr, real(0.01));
  EXPECT_NEAR(s1.body_qd.to_host()[0].lin.z, -0.0981, 1e-15);
  EXPECT_NEAR(s1.body_q.to_host()[0].p.z, 2 - 0.000981, 1e-15);
}

RC_GTEST_PROP(E3_4_predict_angular, SphericalTorqueFreeKeepsOmegaAndUnitQuat, ()) {
  quat q = *gen::unit_quat();
  vec3 w = *gen::vector(5);
  real k = *gen::in_range(0.1, 10);
  mat33 I = mat33_diag({k, k, k}), I_inv = mat33_diag({1 / k, 1 / k, 1 / k});
  vec3 w1 = angular_update(q, w, {}, I, I_inv, real(0.01));
  RC_ASSERT(tol::near(w1, w, 1e-12));
  RC_ASSERT(std::abs(quat_norm(quat_update(q, w1, real(0.01))) - 1) < 1e-12);
}

TEST(E3_4_angular_damping, GoldenFactorIsNotExponential) { golden::expect_course_values("E3.4-angular-damping"); }

TEST(E3_4_not_backward_euler, SimWithoutConstraintsIsTheExplicitPredictor) {
  ModelBuilder b;
  int body = b.add_body({{0, 0, 2}, quat_from_axis_angle({1, 1, 0}, real(0.3))});
  b.add_shape_box(body, transform_identity(), real(0.1), real(0.2), real(0.3));
  Model m = b.finalize();
  State s0 = m.state(), a = m.state(), p = m.state();
  std::vector<spatial_vector> qd{{{1, 0, 0}, {3, -2, 5}}};
  s0.body_qd.copy_from_host(qd.data());
  Control c = m.control();
  SolverXPBD xpbd(m);
  SolverRigidPredictor predictor(m);
  xpbd.step(s0, a, c, nullptr, real(0.01));
  predictor.step(s0, p, c, real(0.01));
  EXPECT_TRUE(bitwise_equal(a.body_q.to_host(), p.body_q.to_host()));
  EXPECT_TRUE(bitwise_equal(a.body_qd.to_host(), p.body_qd.to_host()));
}

// ---- E3.4-apply-deltas / E3.7-small-velocity-clamp --------------------------------------------------

RC_GTEST_PROP(E3_4_apply_deltas, PositionMovesByHTimesVelocityChange, ()) {
  transform X = *gen::rigid_transform(2);
  spatial_vector v{*gen::vector(3), *gen::vector(3)};
  spatial_vector d{*gen::vector(1), *gen::vector(1)};
  real k = *gen::in_range(0.5, 2), inv_m = *gen::in_range(0.1, 2), h = *gen::in_range(1e-4, 0.02);
  vec3 com = *gen::vector(real(0.2));
  mat33 I = mat33_diag({k, 2 * k, 3 * k}), I_inv = mat33_diag({1 / k, 1 / (2 * k), 1 / (3 * k)});
  vec3 c0 = transform_point(X, com);
  transform X1 = X;
  spatial_vector v1 = v;
  xpbd_apply_body_delta(X1, v1, com, I, I_inv, inv_m, d, real(0.5), h);
  RC_PRE(length(v1.lin) > 0);  // not clamped
  RC_ASSERT(tol::near(transform_point(X1, com) - c0, h * (v1.lin - v.lin), 1e-12));
  RC_ASSERT(tol::near(v1.lin - v.lin, real(0.5) * inv_m * d.lin, 1e-12));
  RC_ASSERT(std::abs(quat_norm(X1.q) - 1) < 1e-12);
}

TEST(E3_7_small_velocity_clamp, GoldenThresholdIsOneEMinusFour) {
  auto apply = [](vec3 v, vec3 w) {
    transform X = transform_identity();
    spatial_vector s{v, w};
    xpbd_apply_body_delta(X, s, {}, mat33_identity(), mat33_identity(), 1, {}, 1, kH);
    return s;
  };
  EXPECT_EQ(length(apply({5e-5, 0, 0}, {1, 0, 0}).lin), 0);
  EXPECT_EQ(apply({2e-4, 0, 0}, {1, 0, 0}).lin.x, 2e-4);
  EXPECT_EQ(length(apply({1, 0, 0}, {0, 5e-5, 0}).ang), 0);  // angular clamped on its own
  EXPECT_EQ(apply({1, 0, 0}, {0, 5e-5, 0}).lin.x, 1);
}

// ---- E3.4-friction-limit / E3.4-torsion-rolling-limit ------------------------------------------------

namespace {
struct RandomContact {
  XpbdSide A, B;
  vec3 p0, p1, n;
};
RandomContact random_contact() {
  RandomContact c;
  c.n = *gen::unit_vector();
  c.A.body = 0;
  c.A.X = *gen::rigid_transform(1);
  c.A.com = c.A.X.p;
  c.A.inv_m = *gen::in_range(0.1, 2);
  c.A.inv_I = mat33_diag({*gen::in_range(0.5, 3), *gen::in_range(0.5, 3), *gen::in_range(0.5, 3)});
  c.A.v = {*gen::vector(2), *gen::vector(5)};
  c.B = c.A;
  c.B.body = 1;
  c.B.X = *gen::rigid_transform(1);
  c.B.com = c.B.X.p;
  c.B.v = {*gen::vector(2), *gen::vector(5)};
  vec3 x = *gen::vector(1), slip = *gen::vector(real(0.01));
  real depth = *gen::in_range(1e-4, 1e-2);
  c.p0 = transform_point(transform_inverse(c.A.X), x);
  c.p1 = transform_point(transform_inverse(c.B.X), x - depth * c.n + slip - dot(slip, c.n) * c.n);
  return c;
}
}  // namespace

RC_GTEST_PROP(E3_4_friction_limit, TangentialIncrementWithinMuPn, ()) {
  RandomContact c = random_contact();
  real mu = *gen::in_range(0, 1.5);
  XpbdContactDelta r = xpbd_contact_delta(c.A, c.B, c.p0, c.p1, {}, {}, c.n, 0, 0, mu, 0, 0, real(0.8), kH);
  RC_ASSERT(r.active == 1);
  vec3 t = r.dB.lin - dot(r.dB.lin, c.n) * c.n;
  RC_ASSERT(length(t) <= mu * r.p_n * (1 + 1e-12) + 1e-15);
  RC_ASSERT(std::abs(dot(r.dB.lin, c.n) - r.p_n) <= 1e-12 * r.p_n);
}

RC_GTEST_PROP(E3_4_torsion_rolling_limit, FreeMomentsWithinMuTimesPn, ()) {
  RandomContact c = random_contact();
  real mt = *gen::in_range(0, 0.05), mr = *gen::in_range(0, 0.05);
  XpbdContactDelta r = xpbd_contact_delta(c.A, c.B, c.p0, c.p1, {}, {}, c.n, 0, 0, 0, mt, mr, real(0.8), kH);
  vec3 r_b = transform_point(c.B.X, c.p1) - c.B.com;
  vec3 free_moment = r.dB.ang - cross(r_b, r.dB.lin);
  real tor = dot(free_moment, c.n);
  RC_ASSERT(std::abs(tor) <= mt * r.p_n * (1 + 1e-9) + 1e-15);
  RC_ASSERT(length(free_moment - tor * c.n) <= mr * r.p_n * (1 + 1e-9) + 1e-15);
}

// ---- E3.4-iterations-fixed / E3.4-iterations-not-substeps / E3.7-h-vs-iterations -------------------

TEST(E3_4_iterations_fixed, GoldenDefaultIsTwo) {
  Model m = demo_box_on_plane().finalize();
  EXPECT_EQ(SolverXPBD(m).iterations, 2);
  EXPECT_EQ(SolverXPBD(m).rigid_contact_relaxation, real(0.8));
  EXPECT_TRUE(SolverXPBD(m).rigid_contact_con_weighting);
  EXPECT_EQ(SolverXPBD(m).angular_damping, 0);
  EXPECT_FALSE(SolverXPBD(m).enable_restitution);
}

RC_GTEST_PROP(E3_4_iterations_fixed, RunsExactlyIterationsWhateverTheResidual, ()) {
  int iters = *rc::gen::inRange(1, 7);
  real gap = *gen::in_range(-0.001, 0.005);  // penetrating, touching or separated within the gap
  XpbdWorld w(demo_box_on_plane(real(0.5), gap), 64, {}, iters);
  w.step(kH);
  RC_ASSERT(w.solver->trace().contact_passes == iters);
}

TEST(E3_4_iterations_not_substeps, SimStepLeavesTheRecordUnchanged) {
  XpbdWorld w(demo_pyramid(), 256);
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  auto n0 = w.contacts->rigid_contact_normal.to_host();
  auto s0 = w.contacts->rigid_contact_shape0.to_host();
  auto p0 = w.contacts->rigid_contact_point0.to_host();
  int c0 = w.contacts->count();
  ContactsView v = w.contacts->view();
  w.solver->iterations = 10;
  w.solver->step(*w.state_0, *w.state_1, w.control, &v, kH);
  EXPECT_EQ(w.contacts->count(), c0);
  EXPECT_TRUE(bitwise_equal(n0, w.contacts->rigid_contact_normal.to_host()));
  EXPECT_TRUE(bitwise_equal(s0, w.contacts->rigid_contact_shape0.to_host()));
  EXPECT_TRUE(bitwise_equal(p0, w.contacts->rigid_contact_point0.to_host()));
}

TEST(E3_7_collision_frequency, SimXpbdDoesNotRedetect) {
  // The body moves during the step, yet the record keeps the normals and count of its collide call.
  XpbdWorld w(demo_box_on_plane(real(0.5), real(-0.01)), 64);
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  auto n0 = w.contacts->rigid_contact_normal.to_host();
  ContactsView v = w.contacts->view();
  w.solver->step(*w.state_0, *w.state_1, w.control, &v, kH);
  EXPECT_NE(w.state_0->body_q.to_host()[0].p.z, w.state_1->body_q.to_host()[0].p.z);
  EXPECT_EQ(w.contacts->count(), 4);
  EXPECT_TRUE(bitwise_equal(n0, w.contacts->rigid_contact_normal.to_host()));
}

TEST(E3_7_h_vs_iterations, SimIterationsDoNotAdvanceTime) {
  // A box falling past a plane record kept inside the gap: the record is inactive, so the only
  // motion is the predictor's. 10 iterations reach the same height as 1: time moved by N h only.
  for (int iters : {1, 10}) {
    XpbdWorld w(demo_box_on_plane(real(0.5), real(0.009)), 64, {}, iters);
    for (int k = 0; k < 3; ++k) w.step(real(0.001));
    real z = w.state_0->body_q.to_host()[0].p.z;
    real expected = real(0.5) + real(0.009) - real(9.81) * real(0.001) * real(0.001) * 6;  // sum_{k=1..3} k g h^2
    EXPECT_NEAR(z, expected, 1e-12) << iters << " iterations";
    EXPECT_NEAR(w.t, real(0.003), 1e-15);
  }
}

TEST(E3_7_h_vs_iterations, SimReadbackOfARestingBoxIsMgForAnyIterationsAndH) {
  for (int iters : {1, 2, 8})
    for (real h : {real(1) / 240, real(1) / 1000}) {
      XpbdWorld w(demo_box_on_plane(), 64, {}, iters);
      for (int k = 0; k < 400; ++k) w.step(h);
      real mg = mass_of(w, 0) * real(9.81);
      EXPECT_NEAR(w.contact_force_on(0).z / mg, 1, 1e-6) << iters << " iterations, h " << h;
    }
}

// ---- E3.4-jacobi-atomics / E3.7-determinism -------------------------------------------------------------

namespace {
std::vector<transform> pyramid_after(int threads, int steps) {
  int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  XpbdWorld w(demo_pyramid(), 256);
  w.solver->enable_restitution = true;
  for (int k = 0; k < steps; ++k) w.step(kH);
  omp_set_num_threads(saved);
  return w.state_0->body_q.to_host();
}
}  // namespace

TEST(E3_7_determinism, DeterminismOneAndTwoThreadsBitwise) {
  EXPECT_TRUE(bitwise_equal(pyramid_after(1, 60), pyramid_after(2, 60)));
}

TEST(E3_7_determinism, GpuRunToRunBitwiseAndNearCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  auto run = [](Device d) {
    XpbdWorld w(demo_pyramid(), 256, {}, 2, d);
    w.solver->enable_restitution = true;
    for (int k = 0; k < 60; ++k) w.step(kH);
    return w.state_0->body_q.to_host();
  };
  auto g1 = run(Device::cuda), g2 = run(Device::cuda), c = run(Device::cpu);
  EXPECT_TRUE(bitwise_equal(g1, g2));
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_VEC3_NEAR(g1[i].p, c[i].p, 1e-9);
}

TEST(E3_4_jacobi_atomics, SimReversedContactOrderAgreesWithinRounding) {
  XpbdWorld w(demo_pyramid(), 256);
  for (int k = 0; k < 20; ++k) w.step(kH);
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  int n = w.contacts->count();
  Contacts reversed(*w.model, 256, w.attributes.force);
  auto rev = [n](auto& dst, const auto& src) {
    auto h = src.to_host();
    std::reverse(h.begin(), h.begin() + n);
    dst.copy_from_host(h.data());
  };
  reversed.rigid_contact_count.copy_from_host(&n);
  rev(reversed.rigid_contact_shape0, w.contacts->rigid_contact_shape0);
  rev(reversed.rigid_contact_shape1, w.contacts->rigid_contact_shape1);
  rev(reversed.rigid_contact_point0, w.contacts->rigid_contact_point0);
  rev(reversed.rigid_contact_point1, w.contacts->rigid_contact_point1);
  rev(reversed.rigid_contact_offset0, w.contacts->rigid_contact_offset0);
  rev(reversed.rigid_contact_offset1, w.contacts->rigid_contact_offset1);
  rev(reversed.rigid_contact_normal, w.contacts->rigid_contact_normal);
  rev(reversed.rigid_contact_margin0, w.contacts->rigid_contact_margin0);
  rev(reversed.rigid_contact_margin1, w.contacts->rigid_contact_margin1);
  rev(reversed.rigid_contact_mu, w.contacts->rigid_contact_mu);
  rev(reversed.rigid_contact_mu_torsional, w.contacts->rigid_contact_mu_torsional);
  rev(reversed.rigid_contact_mu_rolling, w.contacts->rigid_contact_mu_rolling);
  rev(reversed.rigid_contact_restitution, w.contacts->rigid_contact_restitution);
  ContactsView a = w.contacts->view(), b = reversed.view();
  State sa = w.model->state(), sb = w.model->state();
  w.solver->step(*w.state_0, sa, w.control, &a, kH);
  SolverXPBD other(*w.model);
  other.step(*w.state_0, sb, w.control, &b, kH);
  auto qa = sa.body_q.to_host(), qb = sb.body_q.to_host();
  for (std::size_t i = 0; i < qa.size(); ++i) EXPECT_VEC3_NEAR(qa[i].p, qb[i].p, 1e-12);
}

// ---- E3.4-contact-weighting / E3.4-readback-scale / E3.4-count-by-body-id -----------------------------

TEST(E3_4_contact_weighting, SimEachBodyDividesByItsCount) {
  // Box pressed 1 mm into the plane, gravity off: 4 equal corner impulses; weighted, the box gets
  // their sum / 4, unweighted their full sum.
  real dv[2];
  for (int weighting = 0; weighting < 2; ++weighting) {
    ModelBuilder b(Axis::z, vec3{0, 0, 0});
    b.add_shape_plane();
    int body = b.add_body({{0, 0, real(0.499)}, quat_identity()});
    b.add_shape_box(body, transform_identity(), real(0.5), real(0.5), real(0.5));
    XpbdWorld w(b, 64, {}, 1);
    w.solver->rigid_contact_con_weighting = weighting;
    w.step(kH);
    dv[weighting] = w.state_0->body_qd.to_host()[0].lin.z;
  }
  EXPECT_GT(dv[1], 0);
  EXPECT_NEAR(dv[0] / dv[1], 4, 1e-9);
}

TEST(E3_4_contact_weighting, SimMomentumNotConservedWhenCountsDiffer) {
  // The top cube has 8 contacts, each bottom cube 4: weighted, the pair impulses no longer cancel.
  vec3 dp[2];
  for (int weighting = 0; weighting < 2; ++weighting) {
    XpbdWorld w(straddle_zero_gravity(), 64, {}, 1);
    w.solver->rigid_contact_con_weighting = weighting;
    vec3 p0 = momentum(w, *w.state_0);
    w.step(kH);
    dp[weighting] = momentum(w, *w.state_0) - p0;
  }
  EXPECT_LT(length(dp[0]), 1e-9);   // unweighted: equal and opposite pair impulses
  EXPECT_GT(std::abs(dp[1].z), 1);  // weighted: net downward momentum appears [kg m/s]
}

TEST(E3_4_readback_scale, SimBoxOnPlaneReadsItsWeight) {
  XpbdWorld w(demo_box_on_plane(), 64);
  for (int k = 0; k < 300; ++k) w.step(kH);
  real mg = mass_of(w, 0) * real(9.81);
  EXPECT_NEAR(w.contact_force_on(0).z, mg, 1e-6 * mg);
  EXPECT_NEAR(w.contact_force_on(0).x, 0, 1e-9 * mg);
}

TEST(E3_4_count_by_body_id, SimKinematicPlatformWithAnIdIsCounted) {
  // Two cubes (4 contacts each) on a platform. Static platform (body -1): scale 1/4, each cube reads
  // m g. Kinematic platform with an id (8 contacts): scale 2/(4 + 8) = 1/6 against the 1/4 applied,
  // so each cube reads (1/6)/(1/4) = 2/3 of its weight, although the platform never moves.
  for (bool kinematic : {false, true}) {
    XpbdWorld w(demo_platform(kinematic), 64);
    for (int k = 0; k < 200; ++k) w.step(kH);
    int cube = w.model->body_count - 1;
    real mg = mass_of(w, cube) * real(9.81);
    EXPECT_NEAR(w.contact_force_on(cube).z / mg, kinematic ? real(2) / 3 : real(1), 1e-6) << kinematic;
  }
}

// ---- E3.7-stable-vs-accurate: the resting pyramid ---------------------------------------------------------

TEST(E3_7_stable_vs_accurate, SimRestingPyramidDoesNotBalanceItsReadback) {
  XpbdWorld w(demo_pyramid(), 256);
  for (int k = 0; k < 600; ++k) w.step(kH);
  real mg = mass_of(w, 0) * real(9.81);
  auto qd = w.state_0->body_qd.to_host();
  for (auto& v : qd) EXPECT_EQ(length(v.lin), 0);  // at rest (stable) ...
  // ... yet the top cube (8 contacts) on the middle ones (12 each) reads 2*8/(8+12) = 0.8 of its weight,
  real top = w.support_force_on(5).z / mg;
  EXPECT_NEAR(top, 0.8, 1e-6);
  // and the ground pushes up more than the pyramid weighs (6 m g).
  real ground = (w.support_force_on(0).z + w.support_force_on(1).z + w.support_force_on(2).z) / mg;
  EXPECT_GT(ground, 6.2);
}

TEST(E3_7_stable_vs_accurate, SimUnweightedPyramidBalancesOnAverage) {
  // Without weighting the pair impulses are equal and opposite: averaged over 1 s the readback
  // balances statics: ground 6 m g, each middle cube carries 1.5 m g, the top cube 1 m g.
  XpbdWorld w(demo_pyramid(), 256);
  w.solver->rigid_contact_con_weighting = false;
  for (int k = 0; k < 300; ++k) w.step(kH);
  real mg = mass_of(w, 0) * real(9.81), s[6] = {};
  const int K = 600;
  for (int k = 0; k < K; ++k) {
    w.step(kH);
    for (int b = 0; b < 6; ++b) s[b] += w.support_force_on(b).z / (K * mg);
  }
  EXPECT_NEAR(s[0] + s[1] + s[2], 6, 0.06);
  EXPECT_NEAR(s[3], 1.5, 0.03);
  EXPECT_NEAR(s[4], 1.5, 0.03);
  EXPECT_NEAR(s[5], 1, 0.02);
}

// ---- Bad input --------------------------------------------------------------------------------------------

TEST(SolverXPBD, BadInputIsRefusedWithClearErrors) {
  XpbdWorld w(demo_box_on_plane(), 4);
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  ContactsView v = w.contacts->view();
  EXPECT_THROW(w.solver->step(*w.state_0, *w.state_1, w.control, &v, 0), std::invalid_argument);
  EXPECT_THROW(w.solver->step(*w.state_0, *w.state_1, w.control, &v, -kH), std::invalid_argument);
  EXPECT_THROW(w.solver->step(*w.state_0, *w.state_0, w.control, &v, kH), std::invalid_argument);
  w.solver->iterations = 0;
  EXPECT_THROW(w.solver->step(*w.state_0, *w.state_1, w.control, &v, kH), std::invalid_argument);
  w.solver->iterations = 2;
  Model other = demo_box_on_plane().finalize();
  Contacts foreign(other, 4, w.attributes.force);
  ContactsView fv = foreign.view();
  EXPECT_THROW(w.solver->step(*w.state_0, *w.state_1, w.control, &fv, kH), std::invalid_argument);
  int too_many = 5;
  w.contacts->rigid_contact_count.copy_from_host(&too_many);
  try {
    w.solver->step(*w.state_0, *w.state_1, w.control, &v, kH);
    ADD_FAILURE() << "an overflowed record was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("overflow"), std::string::npos) << e.what();
  }
}

// The record's shapes are checked on the device (no read before the loop) and refused by the step's
// one readback at its end, naming the first bad row and its shape.
TEST(SolverXPBD, RowNamingAShapeOutsideTheModelIsRefused) {
  XpbdWorld w(demo_box_on_plane(), 8);
  collide_fixture(*w.model, *w.state_0, *w.contacts);
  ASSERT_GE(w.contacts->count(), 3);
  const int bad = 99;
  device_copy(w.contacts->rigid_contact_shape1.data() + 2, w.model->device, &bad, Device::cpu, sizeof(int));
  device_copy(w.contacts->rigid_contact_shape0.data() + 1, w.model->device, &bad, Device::cpu, sizeof(int));
  ContactsView v = w.contacts->view();
  try {
    w.solver->step(*w.state_0, *w.state_1, w.control, &v, kH);
    ADD_FAILURE() << "a row naming shape 99 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("contact 1 names shape 99"), std::string::npos) << e.what();
  }
}

// A sphere resting on the plane and spinning about the normal: torsional friction brakes the spin,
// without it the spin is untouched; rolling friction brakes a rolling sphere. The limits saturate,
// so over T the spin drops by mu m g T / I = mu g T / (0.4 r^2) (support impulse m g T).
TEST(E3_4_torsion_rolling_limit, SimTorsionBrakesSpinRollingBrakesRolling) {
  const real r = real(0.1), T = 120 * kH;
  auto run = [&](real mu_t, real mu_r, spatial_vector v0) {
    FixtureOptions fx;
    fx.mu = 0;
    fx.mu_torsional = mu_t;
    fx.mu_rolling = mu_r;
    XpbdWorld w(demo_sphere_drop(r, 0), 16, fx);
    std::vector<spatial_vector> qd{v0};
    w.state_0->body_qd.copy_from_host(qd.data());
    for (int k = 0; k < 120; ++k) w.step(kH);
    return w.state_0->body_qd.to_host()[0].ang;
  };
  auto drop = [&](real mu) { return mu * real(9.81) * T / (real(0.4) * r * r); };
  spatial_vector spin{{0, 0, 0}, {0, 0, 5}}, roll{{1, 0, 0}, {0, 10, 0}};
  EXPECT_NEAR(run(0, 0, spin).z, 5, 1e-9);
  EXPECT_NEAR(5 - run(real(0.005), 0, spin).z, drop(real(0.005)), 0.03 * drop(real(0.005)));
  EXPECT_NEAR(run(0, 0, roll).y, 10, 1e-9);
  EXPECT_NEAR(10 - run(0, real(0.001), roll).y, drop(real(0.001)), 0.03 * drop(real(0.001)));
}

// A box sliding on the plane decelerates at mu g: each iteration's friction is capped at mu p_n, and
// the normal impulses add up to the weight's m g h per step.
TEST(E3_4_friction_limit, SimSlidingBoxDeceleratesAtMuG) {
  FixtureOptions fx;
  fx.mu = real(0.5);
  XpbdWorld w(demo_box_on_plane(), 64, fx);
  for (int k = 0; k < 60; ++k) w.step(kH);  // settle
  std::vector<spatial_vector> qd{{{2, 0, 0}, {0, 0, 0}}};
  w.state_0->body_qd.copy_from_host(qd.data());
  const int n = 120;
  for (int k = 0; k < n; ++k) w.step(kH);
  real expected = 2 - real(0.5) * real(9.81) * n * kH;
  EXPECT_NEAR(w.state_0->body_qd.to_host()[0].lin.x, expected, 0.03 * (2 - expected));
}
