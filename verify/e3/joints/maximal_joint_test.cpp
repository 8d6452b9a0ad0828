// Joints of the maximal-coordinate solvers (lib/e3/joints/maximal_joint.h): SolverSemiImplicit's penalty
// joints and SolverVBD's hard ALM joint rows (course E3 §6), checked on a compound pendulum whose
// period is known in closed form, plus the joint errors and the rejection of unsupported joints.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include <omp.h>

#include <cstring>

#include "core/device.h"
#include "e1/integrator.h"
#include "e1/kinematics.h"
#include "e3/joints/maximal_joint.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "e3/solvers/vbd/vbd_rigid.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr real kG = 9.81;
// The pendulum: a uniform 1 kg rod (box of half extents 0.02 x 0.02 x 0.5 m) hanging from a
// revolute joint about +y at its top end, its COM d = 0.5 m below the pivot. A rod rather than a
// point-like sphere: the penalty joint's anchor is then a lever arm of 0.5 m from a COM with
// I_c = m (hx^2 + hz^2) / 3, so the anchor's effective mass 1 / (1/m + d^2/I_c) = 0.25 kg keeps
// the attachment spring's frequency sqrt(ke / 0.25 kg) = 200 rad/s within the explicit step.
constexpr real kMass = 1, kHalfWidth = 0.02, kHalfLength = 0.5;

real rod_Ic() { return kMass * (kHalfWidth * kHalfWidth + kHalfLength * kHalfLength) / 3; }

Model rod_pendulum(real theta0) {
  ModelBuilder b;
  real I = rod_Ic();
  quat q = quat_from_axis_angle({0, 1, 0}, theta0);
  vec3 c = quat_rotate(q, vec3{0, 0, -kHalfLength});
  int body = b.add_link({c, q}, MassProperties{kMass, vec3{}, mat33_diag({I, I, I})}, true);
  b.add_joint_revolute(-1, body, transform_identity(), {vec3{0, 0, kHalfLength}, quat_identity()}, {0, 1, 0});
  return b.finalize();
}

// Linear angular frequency [rad/s] of the pendulum whose pivot is held by an isotropic spring of
// stiffness ke [N/m] (ke = infinity: a rigid pivot). Coordinates (u, theta): u the horizontal pivot
// displacement, theta the rod angle; M = [[m, m d], [m d, I_p]], K = diag(ke, m g d) with
// I_p = I_c + m d^2. The slow root of det(K - w^2 M) = 0,
//   (m I_p - m^2 d^2) w^4 - (ke I_p + m g d m) w^2 + ke m g d = 0,
// tends to w0^2 = m g d / I_p as ke -> infinity and is lower by about w0^2 m^2 d^2 / (ke I_p)
// (a 1.1e-3 drop in w^2 at Newton's ke = 1e4 N/m). The static stretch m g / ke only lowers the
// whole pendulum and does not change its period.
real pivot_spring_omega(real ke) {
  const real m = kMass, d = kHalfLength, I_p = rod_Ic() + m * d * d, mgd = m * kG * d;
  if (std::isinf(ke)) return std::sqrt(mgd / I_p);
  const real a = m * I_p - m * m * d * d, b = ke * I_p + m * mgd, c = ke * mgd;
  return std::sqrt((b - std::sqrt(b * b - 4 * a * c)) / (2 * a));
}

// Period [s] of that pendulum at amplitude A [rad]: 2 pi / w (1 + A^2 / 16).
real pendulum_period(real ke, real A) { return 2 * M_PI / pivot_spring_omega(ke) * (1 + A * A / 16); }

struct PendulumRun {
  real period = 0;       // [s] mean spacing of the upward zero crossings of the angle
  real expected = 0;     // [s] mean of pendulum_period(ke, A_k) over the same periods, A_k the
                         //     largest |theta| inside period k (the amplitude may decay)
  real max_stretch = 0;  // [m] largest distance between the two joint anchors
};

// Steps the pendulum (released from rest at theta0) for `periods` periods with step h, and
// measures the period from the upward zero crossings of theta = atan2(-x, -z) of the COM (linear
// interpolation inside a step). ke [N/m] is the pivot stiffness of the expected period.
PendulumRun run_pendulum(const std::function<void(Model&, State&, State&, Control&, real)>& step, real h,
                         real theta0, real ke, int periods = 4) {
  Model m = rod_pendulum(theta0);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  PendulumRun out;
  std::vector<real> crossings, amplitude;
  real prev = theta0, t = 0, A = 0;
  const int n = int(std::ceil((periods + 0.5) * pendulum_period(ke, 0) / h));
  for (int i = 0; i < n; ++i) {
    step(m, s0, s1, c, h);
    std::swap(s0, s1);
    t += h;
    transform X = s0.body_q.to_host()[0];
    real cur = std::atan2(-X.p.x, -X.p.z);
    A = std::max(A, std::abs(cur));
    if (prev < 0 && cur >= 0) {
      if (!crossings.empty()) amplitude.push_back(A);
      crossings.push_back(t - h * cur / (cur - prev));
      A = 0;
    }
    prev = cur;
    out.max_stretch = std::max(out.max_stretch, length(transform_point(X, vec3{0, 0, kHalfLength})));
  }
  if (amplitude.empty()) return out;
  out.period = (crossings[amplitude.size()] - crossings.front()) / real(amplitude.size());
  for (real a : amplitude) out.expected += pendulum_period(ke, a) / real(amplitude.size());
  return out;
}

PendulumRun semi_implicit_pendulum(real h, real theta0) {
  std::unique_ptr<SolverSemiImplicit> solver;
  return run_pendulum(
      [&](Model& m, State& a, State& b, Control& c, real dt) {
        if (!solver) solver = std::make_unique<SolverSemiImplicit>(m, 0);  // no angular damping
        solver->step(a, b, c, nullptr, dt);
      },
      h, theta0, 1e4);
}

PendulumRun vbd_pendulum(real h, real theta0) {
  std::unique_ptr<SolverVBD> solver;
  return run_pendulum(
      [&](Model& m, State& a, State& b, Control& c, real dt) {
        if (!solver) solver = std::make_unique<SolverVBD>(m, 10, 1e6);
        solver->step(a, b, c, nullptr, dt);
      },
      h, theta0, std::numeric_limits<real>::infinity());
}

}  // namespace

// SolverSemiImplicit's penalty revolute joint (Newton's defaults ke = 1e4 N/m, kd = 1e2 N s/m, no
// angular damping), amplitude 0.05 rad, four periods. Expected period: the pendulum on a spring-held
// pivot (pivot_spring_omega, 5.5e-4 longer than on a rigid pivot) with the amplitude correction
// A^2/16 of each measured period, shortened by semi-implicit Euler's phase error on the slow mode,
// cos(w' h) = 1 - (w h)^2 / 2, i.e. a relative period change of -(w h)^2 / 24 (second order in h).
// Tolerance 2e-6: the terms the linear two-coordinate model leaves out, the compliance shift times
// theta0^2 (5.5e-4 x 2.5e-3 = 1.4e-6) and the attachment damper acting on the pivot's motion.
// That this is not loose: the integrator part alone is 9.8e-6 at h = 4e-3, and the differences
// between successive halvings of h shrink by 4 (second order), not by 2.
TEST(E3_6_semiimplicit_single_pass, SimPendulumPeriodOnPenaltyRevolute) {
  const real w = pivot_spring_omega(1e4);
  std::vector<real> rel;
  for (real h : {4e-3, 2e-3, 1e-3}) {
    PendulumRun r = semi_implicit_pendulum(h, 0.05);
    real shift = -std::pow(w * h, 2) / 24;
    EXPECT_NEAR(r.period / r.expected - 1, shift, 2e-6) << "h = " << h;
    rel.push_back(r.period / r.expected - 1);
    // Attachment stretch: the static m g / ke plus the overshoot of the radial spring (damping
    // ratio kd / (2 sqrt(ke m)) = 0.5) released unstretched: exp(-pi 0.5 / sqrt(0.75)) = 16.3 %.
    EXPECT_NEAR(r.max_stretch, kMass * kG / 1e4 * (1 + std::exp(-M_PI * 0.5 / std::sqrt(0.75))), 0.05e-3);
  }
  real ratio = (rel[0] - rel[1]) / (rel[1] - rel[2]);
  EXPECT_GT(ratio, 3.5);
  EXPECT_LT(ratio, 4.5);
  // The compliance is resolved: the rigid-pivot period would be off by 5.5e-4.
  EXPECT_GT(pendulum_period(1e4, 0) / pendulum_period(std::numeric_limits<real>::infinity(), 0) - 1, 5e-4);
}

// SolverVBD's hard revolute joint (rho = 1e6, 10 iterations), amplitude 0.05 rad, four periods.
// Expected period: the rigid-pivot compound pendulum with each period's amplitude correction,
// lengthened by the implicit (backward) Euler step that the block descent converges to:
// w' h = atan(w h), a relative change of +(w h)^2 / 3 (second order); the amplitude also decays
// (by exp(-pi w h) per period). Tolerance (theta0^2/16) pi w h: the amplitude of a period is taken
// as its largest |theta|, which over-states the mean amplitude by about the decay within that
// period, so the expected period is high by up to that much (first order in h, 7.5e-6 at
// h = 4e-3 against the integrator's 7.8e-5). Not loose: successive differences shrink by 4.
TEST(E3_6_vbd_structure, SimPendulumPeriodOnHardRevolute) {
  const real w = pivot_spring_omega(std::numeric_limits<real>::infinity()), th0 = 0.05;
  std::vector<real> rel;
  for (real h : {4e-3, 2e-3, 1e-3}) {
    PendulumRun r = vbd_pendulum(h, th0);
    real shift = std::pow(w * h, 2) / 3;
    EXPECT_NEAR(r.period / r.expected - 1, shift, th0 * th0 / 16 * M_PI * w * h) << "h = " << h;
    rel.push_back(r.period / r.expected - 1);
    EXPECT_LT(r.max_stretch, 1e-6);  // the multiplier carries the reaction: no attachment stretch
  }
  real ratio = (rel[0] - rel[1]) / (rel[1] - rel[2]);
  EXPECT_GT(ratio, 3.5);
  EXPECT_LT(ratio, 4.5);
}

// The joint multiplier is the joint's reaction: at the bottom of a resting pendulum the pivot
// holds the rod's weight, so lambda (the force on the child) is (0, 0, m g) with no torque.
TEST(E3_6_vbd_structure, SimJointMultiplierCarriesTheWeight) {
  Model m = rod_pendulum(0);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverVBD solver(m, 10, 1e6);
  for (int i = 0; i < 50; ++i) {
    solver.step(s0, s1, c, nullptr, 1e-2);
    std::swap(s0, s1);
  }
  EXPECT_VEC3_NEAR(solver.joint_lambda(0).lin, (vec3{0, 0, kMass * kG}), 1e-6);
  EXPECT_VEC3_NEAR(solver.joint_lambda(0).ang, (vec3{0, 0, 0}), 1e-9);
  solver.reset();
  EXPECT_VEC3_NEAR(solver.joint_lambda(0).lin, (vec3{0, 0, 0}), 0);
  EXPECT_THROW(solver.joint_lambda(1), std::invalid_argument);
}

namespace {

// A body on a vertical PRISMATIC joint (axis +z) to the world, released from rest 1 m up.
Model vertical_slider() {
  ModelBuilder b;
  int body = b.add_link({vec3{0, 0, 1}, quat_identity()}, MassProperties{2, vec3{}, mat33_diag({0.1, 0.2, 0.3})}, true);
  b.add_joint_prismatic(-1, body, transform_identity(), transform_identity(), {0, 0, 1});
  return b.finalize();
}

// 50 steps of 0.01 s on the slider: z_50 = 1 - g h^2 50 51 / 2 within tol [m], x = y = 0.
template <class Solver>
void expect_free_fall_along_slider(real tol) {
  Model m = vertical_slider();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  Solver solver(m);
  const real h = 0.01;
  for (int i = 0; i < 50; ++i) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
  }
  transform X = s0.body_q.to_host()[0];
  EXPECT_NEAR(X.p.z, 1 - kG * h * h * 50 * 51 / 2, tol);
  EXPECT_VEC3_NEAR((vec3{X.p.x, X.p.y, 0}), (vec3{0, 0, 0}), 1e-12);
}

}  // namespace

// The free axis is left free: on a vertical prismatic joint a body falls exactly as a free body
// does, z_n = z_0 - g h^2 n (n + 1) / 2 (semi-implicit Euler; VBD's implicit step without
// constraint forces lands on the same inertial target), and stays on its axis.
TEST(E3_6_semiimplicit_single_pass, SimFreeFallAlongPrismaticAxis) {
  expect_free_fall_along_slider<SolverSemiImplicit>(1e-10);
}

TEST(E3_6_vbd_structure, SimFreeFallAlongPrismaticAxis) { expect_free_fall_along_slider<SolverVBD>(1e-9); }

// A horizontal rod welded to the world (FIXED) or hung on a BALL joint: the weld holds it
// (semi-implicit: a small sag set by the penalty springs, VBD: none), the ball joint lets it swing.
TEST(E3_6_semiimplicit_single_pass, SimFixedJointHoldsAndBallJointSwings) {
  for (bool fixed : {true, false}) {
    ModelBuilder b;
    real I = rod_Ic();
    quat q = quat_from_axis_angle({0, 1, 0}, M_PI / 2);  // the rod's +z along world +x, COM at x = d
    int body = b.add_link({vec3{kHalfLength, 0, 0}, q},
                          MassProperties{kMass, vec3{}, mat33_diag({I, I, I})}, true);
    transform X_c{vec3{0, 0, -kHalfLength}, quat_identity()};
    transform X_p{vec3{}, q};
    if (fixed)
      b.add_joint_fixed(-1, body, X_p, X_c);
    else
      b.add_joint_ball(-1, body, X_p, X_c);
    Model m = b.finalize();
    for (int solver_kind = 0; solver_kind < 2; ++solver_kind) {
      State s0 = m.state(), s1 = m.state();
      Control c = m.control();
      SolverSemiImplicit semi(m, 0);
      SolverVBD vbd(m, 10, 1e6);
      for (int i = 0; i < 300; ++i) {
        if (solver_kind == 0)
          semi.step(s0, s1, c, nullptr, 1e-3);
        else
          vbd.step(s0, s1, c, nullptr, 1e-3);
        std::swap(s0, s1);
      }
      vec3 com = s0.body_q.to_host()[0].p;
      if (fixed)
        EXPECT_NEAR(com.z, 0, solver_kind == 0 ? 5e-3 : 1e-4) << "solver " << solver_kind;
      else
        EXPECT_LT(com.z, -0.1) << "solver " << solver_kind;  // fell by more than 0.1 m in 0.3 s
    }
  }
}

// A consistent joint (the child placed by a motion along the joint's free axes) has zero errors
// and, at rest, a zero penalty wrench; the force on the parent and on the child sum to zero.
RC_GTEST_PROP(E3_6_semiimplicit_single_pass, FreeAxesCarryNoWrench, ()) {
  const JointType types[] = {JointType::revolute, JointType::ball, JointType::fixed, JointType::prismatic};
  JointType t = types[*rc::gen::inRange(0, 4)];
  JointAxes axes;
  axes.axis[0] = *gen::unit_vector();
  axes.n_ang = t == JointType::revolute ? 1 : 0;
  axes.n_lin = t == JointType::prismatic ? 1 : 0;
  transform X_body_p = *gen::rigid_transform(2), X_pj = *gen::rigid_transform(1), X_cj = *gen::rigid_transform(1);
  real s = *gen::in_range(-2, 2);
  transform motion = transform_identity();  // the joint's own motion, in the parent joint frame
  if (t == JointType::revolute) motion.q = quat_from_axis_angle(axes.axis[0], s);
  if (t == JointType::prismatic) motion.p = s * axes.axis[0];
  if (t == JointType::ball) motion.q = *gen::unit_quat();
  // X_body_c X_cj = X_body_p X_pj motion  ->  X_body_c = X_body_p X_pj motion X_cj^-1
  transform X_body_c = transform_multiply(transform_multiply(transform_multiply(X_body_p, X_pj), motion), transform_inverse(X_cj));
  vec3 com_p = *gen::vector(0.3), com_c = *gen::vector(0.3);
  JointFrames fr = joint_frames(true, X_body_p, com_p, X_body_c, com_c, X_pj, X_cj);
  JointErrors e = joint_errors(t, axes, fr);
  RC_ASSERT(length(e.lin) < 1e-9);
  RC_ASSERT(length(e.ang) < 1e-9);
  JointWrench w = eval_body_joint(t, axes, fr, spatial_vector{}, spatial_vector{}, nullptr, 1e4, 1e2);
  RC_ASSERT(length(w.on_child.lin) < 1e-4);
  RC_ASSERT(length(w.on_child.ang) < 1e-4);
  // A random error: the two forces are equal and opposite.
  spatial_vector Vp{*gen::vector(1), *gen::vector(1)}, Vc{*gen::vector(1), *gen::vector(1)};
  fr.X_wc.p += *gen::vector(0.1);
  JointWrench w2 = eval_body_joint(t, axes, fr, Vp, Vc, nullptr, 1e4, 1e2);
  RC_ASSERT(length(w2.on_parent.lin + w2.on_child.lin) < 1e-9 * (1 + length(w2.on_parent.lin)));
}

// DISTANCE and D6 joints are refused at construction, naming the joint; bad joint parameters too.
TEST(E3_6_semiimplicit_single_pass, RejectsUnsupportedJointsNamingThem) {
  ModelBuilder b;
  int a = b.add_link({vec3{0, 0, -1}, quat_identity()}, MassProperties{1, vec3{}, mat33_diag({1, 1, 1})}, true);
  b.add_joint_d6(-1, a, transform_identity(), transform_identity(), {{1, 0, 0}}, {}, "slider6");
  Model m = b.finalize();
  for (int k = 0; k < 2; ++k) {
    try {
      if (k == 0)
        SolverSemiImplicit{m};
      else
        SolverVBD{m};
      ADD_FAILURE() << "a D6 joint was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("joint 0 (slider6) has type D6"), std::string::npos) << e.what();
    }
  }
  Model ok = rod_pendulum(0);
  EXPECT_THROW(SolverSemiImplicit(ok, 0.05, 1, 0), std::invalid_argument);
  EXPECT_THROW(SolverSemiImplicit(ok, 0.05, 1, 1e4, -1), std::invalid_argument);
}

namespace {

// A hanging chain of four rods (REVOLUTE from the world, then BALL, PRISMATIC along the rod and
// FIXED), released 0.3 rad off vertical and stepped 300 times by SolverSemiImplicit on device d.
std::vector<transform> mixed_chain_run(Device d) {
  ModelBuilder b;
  const real I = rod_Ic();
  quat q = quat_from_axis_angle({0, 1, 0}, 0.3);
  int parent = -1;
  for (int i = 0; i < 4; ++i) {
    vec3 c = quat_rotate(q, vec3{0, 0, -kHalfLength * (2 * i + 1)});
    int body = b.add_link({c, q}, MassProperties{kMass, vec3{}, mat33_diag({I, I, I})}, true);
    transform X_p = parent < 0 ? transform_identity() : transform{vec3{0, 0, -kHalfLength}, quat_identity()};
    if (parent < 0) X_p.q = q;
    transform X_c{vec3{0, 0, kHalfLength}, quat_identity()};
    if (i == 0) b.add_joint_revolute(parent, body, X_p, X_c, {0, 1, 0});
    if (i == 1) b.add_joint_ball(parent, body, X_p, X_c);
    if (i == 2) b.add_joint_prismatic(parent, body, X_p, X_c, {0, 0, 1});
    if (i == 3) b.add_joint_fixed(parent, body, X_p, X_c);
    parent = body;
  }
  Model m = b.finalize(d);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverSemiImplicit solver(m);
  for (int i = 0; i < 300; ++i) {
    solver.step(s0, s1, c, nullptr, 1e-3);
    std::swap(s0, s1);
  }
  return s0.body_q.to_host();
}

}  // namespace

// The joint wrenches are summed per body in joint order: bitwise the same for any thread count.
TEST(E3_6_semiimplicit_single_pass, DeterminismOfJointSumsAcrossThreadCounts) {
  int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  auto one = mixed_chain_run(Device::cpu);
  omp_set_num_threads(4);
  auto four = mixed_chain_run(Device::cpu);
  omp_set_num_threads(saved);
  ASSERT_EQ(one.size(), four.size());
  EXPECT_EQ(std::memcmp(one.data(), four.data(), sizeof(transform) * one.size()), 0);
  // The chain holds together (the PRISMATIC joint 2 may slide along its axis and is left out).
  EXPECT_LT(length(transform_point(one[0], {0, 0, kHalfLength})), 5e-3);
  for (int i : {1, 3})
    EXPECT_LT(length(transform_point(one[i - 1], {0, 0, -kHalfLength}) - transform_point(one[i], {0, 0, kHalfLength})),
              5e-3)
        << "joint " << i;
}

// The joint kernel on the GPU agrees with the CPU within rounding (skips without a GPU).
TEST(E3_6_semiimplicit_single_pass, GpuJointChainParityWithCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU in this build/machine";
  auto cpu = mixed_chain_run(Device::cpu), gpu = mixed_chain_run(Device::cuda);
  for (std::size_t b = 0; b < cpu.size(); ++b) {
    EXPECT_VEC3_NEAR(cpu[b].p, gpu[b].p, 1e-10);
    EXPECT_TRUE(tol::same_rotation(cpu[b].q, gpu[b].q, 1e-10));
  }
}
