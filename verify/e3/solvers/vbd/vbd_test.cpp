// Tests of lib/e3/solvers/vbd/vbd_rigid.h (course E3 §6): k_eff of compliant ALM, the fixed-iteration block
// descent with its multiplier history, and the collect_rigid_contact_forces readback contract.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstring>
#include <string>

#include "course/e3/penalty_contact_fixture.h"
#include "core/alloc_count.h"
#include "core/device.h"
#include "core/schedule.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/vbd/vbd_block.h"
#include "e3/solvers/vbd/vbd_rigid.h"
#include "e3/solvers/vbd/vbd_colour_oracle.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"
#include "support/source_scan.h"

using namespace impulse;

namespace {

struct DropResult {
  std::vector<transform> q;
  std::vector<transform> q_prev;
  std::vector<VbdContactForce> forces;
};

// A 1 kg sphere (r = 0.1 m) dropped from rest 1 mm above the ground, stepped n times by VBD.
DropResult sphere_drop(SolverVBD& solver, Model& m, int n, real ke, real kd, real h = 0.01) {
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 4, 0.05, PenaltyMaterial{ke, kd, 0, 0, 0});
  DropResult r;
  for (int i = 0; i < n; ++i) {
    fx.generate(m, s0);
    ContactsView v = fx.view();
    solver.step(s0, s1, c, &v, h);
    std::swap(s0, s1);
    if (i == n - 1) {
      r.q = s0.body_q.to_host();
      r.q_prev = solver.body_q_prev();
      r.forces = solver.collect_rigid_contact_forces(r.q, r.q_prev, v, h);
    }
  }
  return r;
}

}  // namespace

TEST(E3_6_vbd_keff, GoldenDerivedValues) { golden::expect_course_values("E3.6-vbd-keff"); }

RC_GTEST_PROP(E3_6_vbd_keff, BelowBothAndTendsToMaterialK, ()) {
  real k = std::pow(10.0, *gen::in_range(0, 8)), rho = std::pow(10.0, *gen::in_range(0, 8));
  CompliantAlmCoefficients c = compliant_alm_coefficients(k, rho);
  RC_ASSERT(c.k_eff <= std::min(k, rho) * (1 + 1e-12));
  RC_ASSERT(std::abs(c.s + c.a - 1) <= 1e-12);
  RC_ASSERT(std::abs(c.k_eff - k * c.a) <= 1e-9 * c.k_eff);
  CompliantAlmCoefficients big = compliant_alm_coefficients(k, rho * 1e6);
  RC_ASSERT(big.k_eff >= c.k_eff);
  RC_ASSERT(big.k_eff <= k && big.k_eff >= k * (1 - k / (rho * 1e6)) * (1 - 1e-12));
  CompliantAlmCoefficients off = compliant_alm_coefficients(0, rho);
  RC_ASSERT(off.k_eff == 0 && off.a == 1);
}

// The multiplier history keeps the material k: a resting sphere sinks to m g / k, not m g / k_eff,
// although each row only ever uses k_eff = 909 N/m (k = 1e4 N/m, rho = 1e3 N/m).
TEST(E3_6_vbd_structure, SimMultiplierHistoryRestoresMaterialStiffness) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 0.101});
  SolverVBD solver(m, 10, 1e3);
  DropResult r = sphere_drop(solver, m, 300, 1e4, 50);
  real depth = 0.1 - r.q[0].p.z;
  EXPECT_NEAR(depth, 9.81 / 1e4, 2e-5);
  EXPECT_GT(9.81 / compliant_alm_coefficients(1e4, 1e3).k_eff, 10 * depth);
}

// reset() clears the histories: a reset solver repeats a fresh one bit for bit; the iteration
// count is fixed (no residual test), so different counts give different states.
// A joint row's metric is rho or its inertial support 1/(h^2 w), whichever is larger (derived):
// two 1 kg bodies at h = 1 ms give w = 2 1/kg and 5e5 N/m; no dynamic side leaves rho.
TEST(E3_6_vbd_structure, JointRowMetricIsAtLeastTheInertialSupport) {
  EXPECT_DOUBLE_EQ(joint_row_metric(1e5, 2, 1e-3), 5e5);
  EXPECT_DOUBLE_EQ(joint_row_metric(1e7, 2, 1e-3), 1e7);
  EXPECT_DOUBLE_EQ(joint_row_metric(1e5, 0, 1e-3), 1e5);
  EXPECT_DOUBLE_EQ(joint_row_metric(1e5, 1e3, 1e-3), 1e5);  // a light link's angular row: 1e3 N m/rad
}

TEST(E3_6_vbd_structure, ResetEqualsFreshAndFixedIterations) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 0.101});
  SolverVBD a(m), fresh(m), fewer(m, 2);
  sphere_drop(a, m, 20, 1e4, 50);
  a.reset();
  DropResult ra = sphere_drop(a, m, 20, 1e4, 50), rf = sphere_drop(fresh, m, 20, 1e4, 50), r2 = sphere_drop(fewer, m, 20, 1e4, 50);
  EXPECT_EQ(ra.q[0].p.z, rf.q[0].p.z);
  EXPECT_NE(r2.q[0].p.z, rf.q[0].p.z);
  EXPECT_THROW(SolverVBD(m, 0), std::invalid_argument);
  EXPECT_THROW(SolverVBD(m, 10, 0), std::invalid_argument);
}

// Without contacts the block step lands on the inertial target: a free fall follows the
// semi-implicit sequence z_n = z_0 - g h^2 n (n + 1) / 2, with velocities from the pose history.
TEST(E3_6_vbd_structure, SimFreeFall) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 5});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverVBD solver(m);
  const real h = 0.01;
  for (int i = 0; i < 100; ++i) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
  }
  EXPECT_NEAR(s0.body_q.to_host()[0].p.z, 5 - 9.81 * h * h * 100 * 101 / 2, 1e-9);
  EXPECT_NEAR(s0.body_qd.to_host()[0].lin.z, -9.81 * h * 100, 1e-9);
}

// Readback: the force on body1 (the sphere) balances its weight at rest, the Contacts.force
// convention (body0) is its negative, update_contacts is not the entry point, and the pose history
// must be the one the step used: during an impact the post-step poses give a different force.
TEST(E3_6_vbd_readback, ForceOnBody1AndPoseHistory) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 0.101});
  SolverVBD solver(m);
  DropResult rest = sphere_drop(solver, m, 300, 1e4, 50);
  ASSERT_EQ(rest.forces.size(), 1u);
  EXPECT_EQ(rest.forces[0].body1, 0);
  EXPECT_EQ(rest.forces[0].body0, -1);
  EXPECT_VEC3_NEAR(rest.forces[0].force_on_body1, (vec3{0, 0, 9.81}), 1e-3);
  vec3 on_body0 = -rest.forces[0].force_on_body1;
  EXPECT_LT(on_body0.z, 0);
  ContactsView none;
  EXPECT_THROW(solver.update_contacts(none), UpdateContactsNotImplemented);

  Model fast = ground_sphere_model(1, 0.1, {0, 0, 0.1005});
  State s0 = fast.state(), s1 = fast.state();
  auto qd = s0.body_qd.to_host();
  qd[0].lin.z = -1;  // arriving at 1 m/s
  s0.body_qd.copy_from_host(qd.data());
  Control c = fast.control();
  GroundContactFixture fx(fast.device, 4, 0.05, PenaltyMaterial{1e4, 50, 0, 0, 0});
  SolverVBD impact(fast);
  fx.generate(fast, s0);
  ContactsView v = fx.view();
  impact.step(s0, s1, c, &v, 0.01);
  auto q = s1.body_q.to_host();
  auto used = impact.collect_rigid_contact_forces(q, impact.body_q_prev(), v, 0.01);
  auto wrong = impact.collect_rigid_contact_forces(q, q, v, 0.01);
  EXPECT_GT(std::abs(used[0].force_on_body1.z - wrong[0].force_on_body1.z), 1.0);
}

// Smoothed Coulomb friction: opposite to the slip, never above mu f_n, viscous below eps_v.
RC_GTEST_PROP(E3_6_vbd_structure, FrictionOpposesSlipWithinTheCone, ()) {
  vec3 u = *gen::vector(2);
  real mu = *gen::in_range(0, 1.5), fn = *gen::in_range(0, 100), eps = *gen::in_range(1e-4, 0.1);
  vec3 f = vbd_friction_force(mu, fn, u, eps);
  RC_ASSERT(length(f) <= mu * fn * (1 + 1e-12) + 1e-15);
  RC_ASSERT(dot(f, u) <= 0);
  if (length(u) < eps) RC_ASSERT(tol::near(f, (-mu * fn / eps) * u, 1e-12));
}

namespace {

// Three towers of three 1 kg spheres (r = 0.1 m, 1 mm gaps) on the ground, numbered tower by tower,
// under pipeline contacts, n steps of VBD at h = 1 ms: each sphere touches the ones below and above,
// so the sweep's order matters between neighbours, and each colour holds one sphere of each tower.
// allocations: if not null, the Buffer allocations (core/alloc_count.h) of the steps after the first.
std::vector<transform> towers_run(int n, Device d = Device::cpu, std::uint64_t* allocations = nullptr) {
  ModelBuilder b;
  b.add_shape_plane();
  ShapeConfig massless;
  massless.density = 0;
  const real r = 0.1, I = real(0.4) * r * r;
  for (int t = 0; t < 3; ++t)
    for (int i = 0; i < 3; ++i) {
      int body = b.add_body({vec3{real(0.5) * t, 0, r + i * (2 * r + real(0.001))}, quat_identity()},
                            MassProperties{1, vec3{}, mat33_diag({I, I, I})}, true);
      b.add_shape_sphere(body, transform_identity(), r, massless);
    }
  Model m = b.finalize(d);
  CollisionPipeline pipeline(m);
  Contacts c = pipeline.contacts();
  State s0 = m.state(), s1 = m.state();
  Control control = m.control();
  SolverVBD solver(m);
  for (int i = 0; i < n; ++i) {
    pipeline.collide(s0.body_q.view(), c);
    fill_contact_materials(m, SolverPath::vbd, c);
    const ContactsView v = c.view();
    const std::uint64_t before = allocation_count();
    solver.step(s0, s1, control, &v, 1e-3);
    if (allocations && i > 0) *allocations += allocation_count() - before;
    std::swap(s0, s1);
  }
  return s0.body_q.to_host();
}

// A chain of five hard revolute links swinging from 0.5 rad, n steps (joint rows only).
std::vector<transform> chain_run(int n) {
  Model m = pendulum_chain_model(5, 0.1, 0.1, 0.02, 0.5);
  State s0 = m.state(), s1 = m.state();
  Control control = m.control();
  SolverVBD solver(m);
  for (int i = 0; i < n; ++i) {
    solver.step(s0, s1, control, nullptr, 1e-3);
    std::swap(s0, s1);
  }
  return s0.body_q.to_host();
}

bool bitwise_equal(const std::vector<transform>& a, const std::vector<transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(transform) * a.size()) == 0;
}

}  // namespace

// Colour by colour (colour_bodies): a colour's bodies touch no one else in it, so running its
// launch on the thread team, in reverse or in a seeded permutation (core/schedule.h) gives the
// ordered run's poses bit for bit, on towers (contact rows between neighbours) and a chain (joints).
TEST(E3_6_vbd_structure, ColourSweepIndependentOfTheSchedule) {
  const std::vector<transform> towers = towers_run(40), chain = chain_run(40);
  for (Schedule s : {Schedule{ScheduleKind::parallel, 0, false}, Schedule{ScheduleKind::reverse, 0, false},
                     Schedule{ScheduleKind::shuffle, 1, false}, Schedule{ScheduleKind::shuffle, 7, true}}) {
    const Schedule old = set_cpu_schedule(s);
    const bool same_towers = bitwise_equal(towers_run(40), towers), same_chain = bitwise_equal(chain_run(40), chain);
    set_cpu_schedule(old);
    EXPECT_TRUE(same_towers) << "schedule kind " << int(s.kind) << " seed " << s.seed;
    EXPECT_TRUE(same_chain) << "schedule kind " << int(s.kind) << " seed " << s.seed;
  }
}

// No step after the first allocates: every array is sized at the first step and grown only with a
// capacity (the record's rigid_contact_max stays the same here).
TEST(E3_6_vbd_structure, StepsAfterTheFirstAllocateNothing) {
  std::uint64_t allocations = 0;
  towers_run(20, Device::cpu, &allocations);
  EXPECT_EQ(allocations, 0u);
}

// The model may live on a GPU: the same towers there end where the CPU's ends, within rounding (the
// GPU may contract a * b + c into one fused operation). Skips without a GPU.
TEST(E3_6_vbd_structure, GpuModelAcceptedAndMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU in this build/machine";
  const std::vector<transform> cpu = towers_run(200), gpu = towers_run(200, Device::cuda);
  ASSERT_EQ(cpu.size(), gpu.size());
  for (std::size_t b = 0; b < cpu.size(); ++b) {
    EXPECT_NEAR(cpu[b].p.x, gpu[b].p.x, 1e-9) << b;
    EXPECT_NEAR(cpu[b].p.y, gpu[b].p.y, 1e-9) << b;
    EXPECT_NEAR(cpu[b].p.z, gpu[b].p.z, 1e-9) << b;
  }
}

namespace {

// The solver's colours after each of `steps` VBD steps (h = 1 ms) under pipeline contacts, against
// the walk in body order (vbd_colour_oracle.h) over the same contact rows and joints; stops at the
// first step where they differ. allocations: as towers_run.
struct ColourRun {
  std::vector<int> solver, oracle;
  int step = 0;
};
ColourRun colours_against_oracle(Model& m, int steps, std::uint64_t* allocations = nullptr) {
  CollisionPipeline pipeline(m);
  Contacts c = pipeline.contacts();
  State s0 = m.state(), s1 = m.state();
  Control control = m.control();
  SolverVBD solver(m);
  ColourRun r;
  for (r.step = 0; r.step < steps; ++r.step) {
    pipeline.collide(s0.body_q.view(), c);
    fill_contact_materials(m, SolverPath::vbd, c);
    const ContactsView v = c.view();
    const std::uint64_t before = allocation_count();
    solver.step(s0, s1, control, &v, 1e-3);
    if (allocations && r.step > 0) *allocations += allocation_count() - before;
    std::swap(s0, s1);
    r.solver = solver.body_colours();
    r.oracle = colour_in_body_order(m, vbd_coupled_pairs(m, &v));
    if (r.solver != r.oracle) break;
  }
  return r;
}

// A column of n spheres (r = 0.1 m) on the ground, each overlapping the one below by 0.1 mm, on device d.
Model sphere_column(int n, Device d = Device::cpu) {
  ModelBuilder b;
  b.add_shape_plane();
  ShapeConfig massless;
  massless.density = 0;
  const real r = 0.1, I = real(0.4) * r * r;
  for (int i = 0; i < n; ++i) {
    int body = b.add_body({vec3{0, 0, r + i * (2 * r - real(1e-4))}, quat_identity()},
                          MassProperties{1, vec3{}, mat33_diag({I, I, I})}, true);
    b.add_shape_sphere(body, transform_identity(), r, massless);
  }
  return b.finalize(d);
}

}  // namespace

// Oracle: the relaxation rounds give the walk in body order's colours on random scenes: a cloud of
// 2..40 spheres in a 1 m box (about one in eight kinematic), many touching, and a chain of 0..6
// ball-jointed links whose bodies are numbered in a shuffled order among the spheres. A cloud's
// longest chain often passes the first step's 8 rounds, so the extension is exercised too.
RC_GTEST_PROP(E3_6_vbd_structure, OracleColoursEqualTheWalkInBodyOrder, ()) {
  ModelBuilder b;
  b.add_shape_plane();
  ShapeConfig massless;
  massless.density = 0;
  const real r = 0.1, I = real(0.4) * r * r;
  const int spheres = *rc::gen::inRange(2, 41), links = *rc::gen::inRange(0, 7);
  const auto is_link = *rc::gen::container<std::vector<bool>>(std::size_t(spheres + links), rc::gen::arbitrary<bool>());
  std::vector<int> link_bodies;
  int made_spheres = 0;
  for (std::size_t k = 0; k < is_link.size(); ++k) {
    const bool link = int(link_bodies.size()) < links && (is_link[k] || made_spheres == spheres);
    if (link) {
      link_bodies.push_back(b.add_link({vec3{real(3 + link_bodies.size()), 0, 1}, quat_identity()},
                                       MassProperties{1, vec3{}, mat33_diag({I, I, I})}, true));
      continue;
    }
    if (made_spheres == spheres) continue;
    ++made_spheres;
    const vec3 p{*gen::in_range(-0.5, 0.5), *gen::in_range(-0.5, 0.5), *gen::in_range(0.1, 1.0)};
    const bool kinematic = *rc::gen::inRange(0, 8) == 0;
    int body = b.add_body({p, quat_identity()}, MassProperties{1, vec3{}, mat33_diag({I, I, I})}, true, kinematic);
    b.add_shape_sphere(body, transform_identity(), r, massless);
  }
  const auto order = *rc::gen::arbitrary<std::uint32_t>();
  for (std::size_t k = 1; k < link_bodies.size(); ++k)
    std::swap(link_bodies[k], link_bodies[(order >> k) % (k + 1)]);
  std::vector<int> joints;
  for (std::size_t k = 0; k < link_bodies.size(); ++k)
    joints.push_back(b.add_joint_ball(k ? link_bodies[k - 1] : -1, link_bodies[k],
                                      {vec3{k ? real(0) : real(3), 0, k ? real(-0.5) : real(1)}, quat_identity()},
                                      transform_identity()));
  if (!joints.empty()) b.add_articulation(joints);
  Model m = b.finalize();
  const ColourRun run = colours_against_oracle(m, 2);
  RC_ASSERT(run.solver == run.oracle);
}

// A column of 30 spheres needs colours 0..29: the first step's 8 rounds are extended twice (8 + 8 +
// 16), the next steps start from the last count; each step's colours equal the walk's, and no step
// after the first allocates.
TEST(E3_6_vbd_structure, OracleTallColumnColoursAcrossExtendedRounds) {
  Model m = sphere_column(30);
  std::uint64_t allocations = 0;
  const ColourRun run = colours_against_oracle(m, 5, &allocations);
  EXPECT_EQ(run.solver, run.oracle) << "step " << run.step;
  ASSERT_EQ(run.solver.size(), 30u);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(run.solver[std::size_t(i)], i);
  EXPECT_EQ(allocations, 0u);
}

// The colouring's rounds and their extension on a GPU: the 30-sphere column (first step 8 + 8 + 16
// rounds) gets the CPU's colours there, 0..29, and ends 5 steps where the CPU's ends, within
// rounding. Skips without a GPU.
TEST(E3_6_vbd_structure, GpuTallColumnColoursMatchCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU in this build/machine";
  std::vector<int> colours[2];
  std::vector<transform> poses[2];
  for (int k = 0; k < 2; ++k) {
    Model m = sphere_column(30, k == 0 ? Device::cpu : Device::cuda);
    CollisionPipeline pipeline(m);
    Contacts c = pipeline.contacts();
    State s0 = m.state(), s1 = m.state();
    Control control = m.control();
    SolverVBD solver(m);
    for (int i = 0; i < 5; ++i) {
      pipeline.collide(s0.body_q.view(), c);
      fill_contact_materials(m, SolverPath::vbd, c);
      const ContactsView v = c.view();
      solver.step(s0, s1, control, &v, 1e-3);
      std::swap(s0, s1);
    }
    colours[k] = solver.body_colours();
    poses[k] = s0.body_q.to_host();
  }
  EXPECT_EQ(colours[1], colours[0]);
  ASSERT_EQ(poses[0].size(), poses[1].size());
  for (std::size_t b = 0; b < poses[0].size(); ++b) EXPECT_NEAR(poses[1][b].p.z, poses[0][b].p.z, 1e-9) << b;
}

// One path: the solver's sources never compare a Device nor test __CUDA_ARCH__ (lib/core's
// primitives alone know the backend).
TEST(E3_6_vbd_structure, SolverSourcesCompareNoDevice) {
  test::expect_no_device_branch("e3/solvers/vbd", {"vbd_rigid.h", "vbd_rigid.cpp", "vbd_block.h"});
}

// Oracle: the hand-written 6x6 LDL^T solve a kernel item runs (vbd_block.h) against Eigen's LDLT
// (what the solver called before it ran on both backends) on random SPD blocks H = B B^T + M, M the
// block's inertial diagonal, with entries spanning the mass / h^2 and contact-stiffness scales.
RC_GTEST_PROP(E3_6_vbd_structure, OracleLdltSolveEqualsEigen, ()) {
  Eigen::Matrix<double, 6, 6> B, A;
  Eigen::Matrix<double, 6, 1> g;
  const double scale = std::pow(10.0, *gen::in_range(0, 8));
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) B(i, j) = *gen::in_range(-1, 1);
    g[i] = *gen::in_range(-5, 5);
  }
  A = scale * B * B.transpose();
  for (int i = 0; i < 6; ++i) A(i, i) += *gen::in_range(0.1, 10);
  VbdBlock blk;
  for (int i = 0; i < 6; ++i) {
    blk.g[i] = g[i];
    for (int j = 0; j < 6; ++j) blk.H[i][j] = A(i, j);
  }
  real d[6];
  ldlt_solve6(blk, d);
  Eigen::Matrix<double, 6, 1> ref = -A.ldlt().solve(g);
  const double cond = scale * 36 / 0.1;
  for (int i = 0; i < 6; ++i) RC_ASSERT(std::abs(d[i] - ref[i]) <= 1e-15 * cond * (1 + ref.norm()));
}
