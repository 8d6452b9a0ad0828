// Tests of lib/e3/solvers/shared/penalty_contact.h and SolverSemiImplicit (course E3 §6): the penalty law, its
// write/adhesion rules, the semi-implicit spring stability bound, and the single-pass step.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <omp.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/device.h"

#include "course/e3/penalty_contact_fixture.h"
#include "e3/solvers/shared/penalty_contact.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

// Sphere of 1 kg, radius 0.1 m, resting on the ground with the given material; kd = 0, kf = 0.
PenaltyMaterial spring_only(real ke) { return {ke, 0, 0, 0, 0}; }

}  // namespace

// Derived from the course's law (seed 000 L267): ke = 1e4 N/m, d = -0.001 m, kd = 0 -> a_n = -10 N.
TEST(E3_6_penalty_law, GoldenNormalScalar) {
  EXPECT_NEAR(penalty_normal_scalar(-0.001, -0.3, 1e4, 0), -10.0, 1e-12);
  // Damping acts only on approach (v_n < 0): kd min(v_n, 0).
  EXPECT_NEAR(penalty_normal_scalar(-0.001, -0.5, 1e4, 20), -20.0, 1e-12);
  EXPECT_NEAR(penalty_normal_scalar(-0.001, +0.5, 1e4, 20), -10.0, 1e-12);
}

// Friction with a_n = -10 N, mu = 0.5 (cap 5 N), kf = 100 N s/m, delta = 1 (Newton's default):
//   |v_t| = 0.01: s = 5e-5, kf s = 5e-3 < 5 -> viscous branch, |f_t| = kf |v_t| = 1 N;
//   |v_t| = 1:    s = 0.5,  kf s = 50  > 5 -> Coulomb branch, |f_t| = 5 |v_t| / s = 10 N, which is
//   above mu |a_n| because Warp's Huber value s is below |v_t| (the inventory's 5 N needs s = |v_t|).
TEST(E3_6_penalty_law, GoldenFrictionBranches) {
  vec3 slow{0.01, 0, 0}, fast{0, 1, 0};
  EXPECT_NEAR(length(penalty_friction(slow, -10, 100, 0.5, 1)), 1.0, 1e-12);
  EXPECT_NEAR(length(penalty_friction(fast, -10, 100, 0.5, 1)), 10.0, 1e-12);
  EXPECT_NEAR(norm_huber(fast, 1), 0.5, 1e-15);
  EXPECT_NEAR(norm_huber(vec3{3, 0, 0}, 1), 2.5, 1e-15);  // delta (|v| - delta/2)
  EXPECT_EQ(length(penalty_friction(vec3{}, -10, 100, 0.5, 1)), 0.0);
}

RC_GTEST_PROP(E3_6_penalty_law, FrictionParallelToSlipAndNormalPushesWhilePenetrating, ()) {
  vec3 v_t = *gen::vector(3);
  real a_n = penalty_normal_scalar(-*gen::in_range(1e-6, 0.1), *gen::in_range(-5, 5), *gen::in_range(1, 1e5),
                                   *gen::in_range(0, 1e3));
  RC_ASSERT(a_n < 0);
  vec3 f = penalty_friction(v_t, a_n, *gen::in_range(0, 1e3), *gen::in_range(0, 2), *gen::in_range(0.01, 2));
  RC_ASSERT(length(cross(f, v_t)) <= 1e-9 * (1 + length(f) * length(v_t)));
  RC_ASSERT(dot(f, v_t) >= 0);
}

// The pair's forces are equal and opposite, d >= ka is skipped, 0 <= d < ka has no friction.
RC_GTEST_PROP(E3_6_penalty_write_and_adhesion, EqualOppositeAndAdhesionBand, ()) {
  transform X_A = *gen::rigid_transform(1), X_B = *gen::rigid_transform(1);
  spatial_vector V_A{*gen::vector(2), *gen::vector(2)}, V_B{*gen::vector(2), *gen::vector(2)};
  vec3 n = *gen::unit_vector(), p0 = *gen::vector(0.5), p1 = *gen::vector(0.5);
  PenaltyMaterial mat{*gen::in_range(1, 1e4), *gen::in_range(0, 100), *gen::in_range(0, 100),
                      *gen::in_range(0, 0.05), *gen::in_range(0, 1)};
  PenaltyContactWrench w = eval_body_contact(X_A, X_A.p, V_A, X_B, X_B.p, V_B, p0, p1, n, 0.01, 0.02, mat, 1);
  real d = dot(n, transform_point(X_B, p1) - transform_point(X_A, p0)) - 0.03;  // course E3 §2 gap function
  RC_ASSERT(std::abs(w.d - d) <= 1e-12);
  if (d >= mat.ka) {
    RC_ASSERT(!w.active);
    RC_ASSERT(w.on_A.lin.x == 0 && w.on_A.lin.y == 0 && w.on_A.lin.z == 0);
    RC_ASSERT(w.on_B.lin.x == 0 && w.on_B.ang.x == 0);
    return;
  }
  RC_ASSERT(tol::near(w.on_A.lin + w.on_B.lin, vec3{}, 1e-9));
  if (d >= 0) {
    RC_ASSERT(w.f_t.x == 0 && w.f_t.y == 0 && w.f_t.z == 0);
    RC_ASSERT(w.a_n >= 0);  // attraction inside the adhesion band
  }
}

// A sphere 1 mm into the ground (ke = 1e4 N/m) is pushed up with 10 N; the static ground side
// receives the reaction.
TEST(E3_6_penalty_write_and_adhesion, GoldenSignPushesOutOfGround) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 0.099});
  State s = m.state();
  GroundContactFixture fx(m.device, 4, 0.01, spring_only(1e4));
  fx.generate(m, s);
  ASSERT_EQ(fx.count(), 1);
  SolverSemiImplicit solver(m);
  Control c = m.control();
  Buffer<spatial_vector> f(m.device, 1);
  ContactsView v = fx.view();
  s.clear_forces();
  solver.assemble_body_forces(s, c, &v, f.view());
  spatial_vector got = f.to_host()[0];
  EXPECT_VEC3_NEAR(got.lin, (vec3{0, 0, 10}), 1e-9);
  EXPECT_VEC3_NEAR(got.ang, (vec3{}), 1e-12);
}

// Derived: k = 1e4 N/m, m = 1 kg -> h_crit = 2 sqrt(m/k) = 0.02 s.
TEST(E3_6_symplectic_stability, GoldenCriticalStep) { EXPECT_NEAR(semi_implicit_critical_step(1e4, 1), 0.02, 1e-15); }

// The one-step matrix has det 1 and trace 2 - h^2 k/m; its spectral radius is 1 below the bound
// and above 1 beyond it.
RC_GTEST_PROP(E3_6_symplectic_stability, UpdateMatrixDeterminantTraceRadius, ()) {
  real k = *gen::in_range(1, 1e5), m = *gen::in_range(0.01, 10);
  real hc = semi_implicit_critical_step(k, m);
  real h = hc * *gen::in_range(0.05, 1.95);
  real A[2][2];
  for (int col = 0; col < 2; ++col) {
    real x = col == 0, v = col == 1;
    semi_implicit_spring_step(x, v, k, m, h);
    A[0][col] = x;
    A[1][col] = v;
  }
  real det = A[0][0] * A[1][1] - A[0][1] * A[1][0], tr = A[0][0] + A[1][1];
  RC_ASSERT(std::abs(det - 1) <= 1e-9);
  RC_ASSERT(std::abs(tr - (2 - h * h * k / m)) <= 1e-9);
  real disc = tr * tr / 4 - det;
  real radius = disc < 0 ? std::sqrt(det) : std::abs(tr) / 2 + std::sqrt(disc);
  if (h < hc * 0.999) RC_ASSERT(std::abs(radius - 1) <= 1e-6);
  if (h > hc * 1.001) RC_ASSERT(radius > 1);
}

// Both sides of the bound over 1e4 steps: bounded at 0.95 h_crit, growing at 1.05 h_crit.
TEST(E3_6_symplectic_stability, SimBothSidesOfTheBound) {
  auto peak = [](real h) {
    real x = 1, v = 0, mx = 0;
    for (int i = 0; i < 10000; ++i) {
      semi_implicit_spring_step(x, v, 1e4, 1, h);
      mx = std::max(mx, std::abs(x));
    }
    return mx;
  };
  EXPECT_LT(peak(0.95 * 0.02), 10.0);  // amplitude stays O(1): the energy-like invariant is bounded
  EXPECT_GT(peak(1.05 * 0.02), 1e10);
}

// The same bound for the contact spring of SolverSemiImplicit: a 1 kg sphere resting on a ke = 1e4
// N/m ground without damping, gravity 9.81: below h_crit the height stays near its equilibrium,
// above it the oscillation grows until the sphere is thrown off the ground.
TEST(E3_6_symplectic_stability, SimContactSpringOfSemiImplicit) {
  auto excursion = [](real h) {
    Model m = ground_sphere_model(1, 0.1, {0, 0, 0.1 - 9.81 / 1e4 + 1e-4});
    State s0 = m.state(), s1 = m.state();
    Control c = m.control();
    GroundContactFixture fx(m.device, 4, 0.5, spring_only(1e4));
    SolverSemiImplicit solver(m, 0);
    real mx = 0;
    for (int i = 0; i < 2000; ++i) {
      fx.generate(m, s0);
      ContactsView v = fx.view();
      s0.clear_forces();
      solver.step(s0, s1, c, &v, h);
      std::swap(s0, s1);
      mx = std::max(mx, std::abs(s0.body_q.to_host()[0].p.z - (0.1 - 9.81 / 1e4)));
    }
    return mx;
  };
  // Below the bound the discrete invariant x^2 + (m/k) v_n v_{n+1} keeps |x| under
  // x0 / sqrt(1 - (h w / 2)^2) (2.29 x0 at h w = 1.8) for the initial offset x0 = 1e-4 m.
  EXPECT_LT(excursion(0.9 * 0.02), 1.05 * 1e-4 / std::sqrt(1 - 0.81));
  EXPECT_GT(excursion(1.1 * 0.02), 1e-2);
}

// One contact pass per step, no iteration.
TEST(E3_6_semiimplicit_single_pass, OneContactPassPerStep) {
  Model m = ground_box_model(1, {0.1, 0.1, 0.1}, {0, 0, 0.0995});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 16, 0.01, PenaltyMaterial{});
  SolverSemiImplicit solver(m);
  for (int i = 0; i < 7; ++i) {
    fx.generate(m, s0);
    ContactsView v = fx.view();
    solver.step(s0, s1, c, &v, 1e-3);
    std::swap(s0, s1);
  }
  EXPECT_EQ(solver.contact_passes(), 7);
}

// Free fall without contacts: semi-implicit Euler gives z_n = z_0 - g h^2 n (n + 1) / 2 exactly.
TEST(E3_6_semiimplicit_single_pass, SimFreeFallMatchesDiscreteSolution) {
  Model m = ground_sphere_model(2, 0.1, {0, 0, 5});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverSemiImplicit solver(m);
  const real h = 0.01;
  for (int i = 0; i < 100; ++i) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
  }
  EXPECT_NEAR(s0.body_q.to_host()[0].p.z, 5 - 9.81 * h * h * 100 * 101 / 2, 1e-10);
}

// Unsupported joint types are refused in maximal_joint_test.cpp.
TEST(E3_6_semiimplicit_single_pass, RejectsBadInput) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 1});
  EXPECT_THROW(SolverSemiImplicit(m, -1), std::invalid_argument);
  EXPECT_THROW(SolverSemiImplicit(m, 0.05, 0), std::invalid_argument);
  SolverSemiImplicit ok(m);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  EXPECT_THROW(ok.step(s0, s1, c, nullptr, 0), std::invalid_argument);
}

// update_contacts is an error for SemiImplicit, and step never writes contacts.force.
TEST(E3_6_no_update_contacts, SemiImplicitHasNoProducer) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 0.099});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 4, 0.01, PenaltyMaterial{}, true);
  fx.generate(m, s0);
  ContactsView v = fx.view();
  std::vector<spatial_vector> sentinel(4, spatial_vector{{NAN, NAN, NAN}, {NAN, NAN, NAN}});
  device_copy(v.force.data, m.device, sentinel.data(), Device::cpu, sizeof(spatial_vector) * 4);
  SolverSemiImplicit solver(m);
  solver.step(s0, s1, c, &v, 1e-3);
  EXPECT_THROW(solver.update_contacts(v), UpdateContactsNotImplemented);
  for (const auto& f : fx.force_host()) EXPECT_TRUE(std::isnan(f.lin.x));
}

TEST(E3_6_penalty_law, GoldenDerivedValues) { golden::expect_course_values("E3.6-penalty-law"); }
TEST(E3_6_symplectic_stability, GoldenDerivedValues) { golden::expect_course_values("E3.6-symplectic-stability"); }

namespace {

// 30 steps of SolverSemiImplicit on a grid of nine spheres dropped onto the ground, on device d.
std::vector<transform> sphere_grid_run(Device d) {
  Model m = sphere_grid_model(9, 1, 0.05, 0.0502, d);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 32, 0.01, PenaltyMaterial{1e5, 300, 100, 0, 0.5});
  SolverSemiImplicit solver(m);
  auto qd = s0.body_qd.to_host();
  for (std::size_t b = 0; b < qd.size(); ++b) qd[b] = {{0.1 * b, -0.2, -0.3}, {0, 0.5, 0.1 * b}};
  s0.body_qd.copy_from_host(qd.data());
  for (int i = 0; i < 30; ++i) {
    fx.generate(m, s0);
    ContactsView v = fx.view();
    s0.clear_forces();
    solver.step(s0, s1, c, &v, 1e-3);
    std::swap(s0, s1);
  }
  return s0.body_q.to_host();
}

}  // namespace

// Per-body sums run in contact order, so the result does not depend on the number of threads.
TEST(E3_6_shared_penalty_kernel, DeterminismAcrossThreadCounts) {
  int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  auto one = sphere_grid_run(Device::cpu);
  omp_set_num_threads(4);
  auto four = sphere_grid_run(Device::cpu);
  omp_set_num_threads(saved);
  ASSERT_EQ(one.size(), four.size());
  EXPECT_EQ(std::memcmp(one.data(), four.data(), sizeof(transform) * one.size()), 0);
}

// The same steps on the GPU agree with the CPU within rounding (skips without a GPU).
TEST(E3_6_semiimplicit_single_pass, GpuParityWithCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU in this build/machine";
  auto cpu = sphere_grid_run(Device::cpu), gpu = sphere_grid_run(Device::cuda);
  for (std::size_t b = 0; b < cpu.size(); ++b) {
    EXPECT_VEC3_NEAR(cpu[b].p, gpu[b].p, 1e-10);
    EXPECT_TRUE(tol::same_rotation(cpu[b].q, gpu[b].q, 1e-10));
  }
}

// With ke = 0 only damping and friction act; their power on the two bodies, summed over force and
// torque (sum of f . v_COM + tau . omega), is never positive. This checks the lever-arm torques.
RC_GTEST_PROP(E3_6_penalty_write_and_adhesion, DampingAndFrictionNeverAddPower, ()) {
  transform X_A = *gen::rigid_transform(1), X_B = *gen::rigid_transform(1);
  vec3 c_A = X_A.p + *gen::vector(0.2), c_B = X_B.p + *gen::vector(0.2);
  spatial_vector V_A{*gen::vector(2), *gen::vector(2)}, V_B{*gen::vector(2), *gen::vector(2)};
  vec3 n = *gen::unit_vector(), p0 = *gen::vector(0.5);
  // Put p1 so that the gap is negative: x_B = x_A - depth n.
  real depth = *gen::in_range(1e-4, 0.05);
  vec3 p1 = transform_point(transform_inverse(X_B), transform_point(X_A, p0) - depth * n);
  PenaltyMaterial mat{0, *gen::in_range(0, 100), *gen::in_range(0, 100), 0, *gen::in_range(0, 1)};
  PenaltyContactWrench w = eval_body_contact(X_A, c_A, V_A, X_B, c_B, V_B, p0, p1, n, 0, 0, mat, 1);
  RC_ASSERT(w.active);
  real power = dot(w.on_A.lin, V_A.lin) + dot(w.on_A.ang, V_A.ang) + dot(w.on_B.lin, V_B.lin) + dot(w.on_B.ang, V_B.ang);
  RC_ASSERT(power <= 1e-9);
}
