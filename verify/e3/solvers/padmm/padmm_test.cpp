// Tests of lib/e3/solvers/padmm/padmm.h and SolverPADMM (course E3 §6, §10 ex. 7; the §1 Delassus operator and
// NCP as PADMM uses them): W against a dense J M^-1 J^T, the NCP at convergence, the stop rule and the per-world status.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "course/e3/penalty_contact_fixture.h"
#include "e3/solvers/padmm/padmm.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "e3/solvers/xpbd/xpbd_contact.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

mat33 random_inv_inertia() {
  mat33 R = quat_to_mat33(*gen::unit_quat());
  vec3 k{*gen::in_range(0.1, 10), *gen::in_range(0.1, 10), *gen::in_range(0.1, 10)};
  return R * mat33_diag(k) * transpose(R);
}

PADMMContactRow random_row(int nb) {
  PADMMContactRow r;
  r.body1 = *rc::gen::inRange(0, nb);
  r.body0 = *rc::gen::inRange(-1, nb - 1);  // -1 (static) or another body
  if (r.body0 >= r.body1) ++r.body0;
  r.n = *gen::unit_vector();
  tangent_basis(r.n, r.t1, r.t2);
  r.r0 = *gen::vector(1);
  r.r1 = *gen::vector(1);
  r.mu = *gen::in_range(0, 1.5);
  return r;
}

// The constraint velocity of row direction e at body k, written from the definition
// u = e . (v + omega x r): [e^T, (r x e)^T] on (v, omega).
Eigen::Matrix<double, 1, 6> velocity_row(vec3 e, vec3 r) {
  vec3 rxe = cross(r, e);
  Eigen::Matrix<double, 1, 6> g;
  g << e.x, e.y, e.z, rxe.x, rxe.y, rxe.z;
  return g;
}

// A resting problem: one sphere of 1 kg on the ground, one step of the solver, the status.
PADMMStatus sphere_on_ground_status(const PADMMSettings& st, int steps = 1) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 0.1});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 4, 0.01, PenaltyMaterial{0, 0, 0, 0, 0.5});
  SolverPADMM solver(m, st);
  for (int i = 0; i < steps; ++i) {
    fx.generate(m, s0);
    ContactsView v = fx.view();
    solver.step(s0, s1, c, &v, 0.01);
    std::swap(s0, s1);
  }
  return solver.status()[0];
}

}  // namespace

// Oracle: the block assembly equals the dense J M^-1 J^T (Eigen), J written row by row from the
// definition of the contact velocity; W is symmetric positive semidefinite.
RC_GTEST_PROP(E3_6_kamino_overview, OracleDelassusEqualsDenseJMinvJT, ()) {
  const int nb = *rc::gen::inRange(1, 4), nc = *rc::gen::inRange(1, 5);
  std::vector<PADMMBodyInverse> bodies(nb);
  Eigen::MatrixXd Minv = Eigen::MatrixXd::Zero(6 * nb, 6 * nb);
  for (int k = 0; k < nb; ++k) {
    bodies[k] = {*gen::in_range(0.05, 5), random_inv_inertia()};
    Minv.block<3, 3>(6 * k, 6 * k) = bodies[k].inv_m * Eigen::Matrix3d::Identity();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Minv(6 * k + 3 + i, 6 * k + 3 + j) = bodies[k].inv_I_w.m[i][j];
  }
  std::vector<PADMMContactRow> rows;
  for (int i = 0; i < nc; ++i) rows.push_back(random_row(nb));
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3 * nc, 6 * nb);
  for (int i = 0; i < nc; ++i) {
    vec3 e[3] = {rows[i].n, rows[i].t1, rows[i].t2};
    for (int a = 0; a < 3; ++a) {
      J.block<1, 6>(3 * i + a, 6 * rows[i].body1) += velocity_row(e[a], rows[i].r1);
      if (rows[i].body0 >= 0) J.block<1, 6>(3 * i + a, 6 * rows[i].body0) -= velocity_row(e[a], rows[i].r0);
    }
  }
  Eigen::MatrixXd dense = J * Minv * J.transpose();
  Eigen::MatrixXd W = assemble_delassus(rows, bodies);
  RC_ASSERT((W - dense).cwiseAbs().maxCoeff() <= 1e-10 * (1 + dense.cwiseAbs().maxCoeff()));
  RC_ASSERT((W - W.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * (1 + W.cwiseAbs().maxCoeff()));
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(W);
  RC_ASSERT(es.eigenvalues().minCoeff() >= -1e-9 * (1 + es.eigenvalues().maxCoeff()));
}

// A single normal row between two bodies equals the XPBD inverse effective mass w (E3.4-xpbd-w).
RC_GTEST_PROP(E3_6_kamino_overview, DelassusNormalRowEqualsXpbdW, ()) {
  std::vector<PADMMBodyInverse> bodies = {{*gen::in_range(0.05, 5), random_inv_inertia()},
                                          {*gen::in_range(0.05, 5), random_inv_inertia()}};
  PADMMContactRow r = random_row(2);
  r.body0 = 0;
  r.body1 = 1;
  real w = xpbd_inverse_effective_mass(bodies[0].inv_m, bodies[0].inv_I_w, r.r0, bodies[1].inv_m, bodies[1].inv_I_w,
                                       r.r1, r.n);
  RC_ASSERT(std::abs(assemble_delassus({r}, bodies)(0, 0) - w) <= 1e-10 * w);
}

// With p = 0 the update is v + h M^-1 f; with an impulse the momentum change is h f + J^T p.
RC_GTEST_PROP(E3_6_kamino_overview, VelocityUpdateMomentumChangeEqualsImpulse, ()) {
  real inv_m = *gen::in_range(0.05, 5), h = *gen::in_range(1e-4, 0.1);
  mat33 inv_I = random_inv_inertia();
  spatial_vector v{*gen::vector(3), *gen::vector(3)}, f{*gen::vector(10), *gen::vector(10)},
      p{*gen::vector(2), *gen::vector(2)};
  spatial_vector free = discrete_velocity_update(v, inv_m, inv_I, h, f, spatial_vector{});
  RC_ASSERT(tol::near(free.lin, v.lin + h * inv_m * f.lin, 1e-12));
  RC_ASSERT(tol::near(free.ang, v.ang + inv_I * (h * f.ang), 1e-10));
  spatial_vector next = discrete_velocity_update(v, inv_m, inv_I, h, f, p);
  RC_ASSERT(tol::near((next.lin - v.lin) / inv_m, h * f.lin + p.lin, 1e-9));
}

// At convergence the hard-contact conditions hold: p_n >= 0, u_n >= 0, p_n u_n = 0, |p_t| <= mu p_n
// (eps from the tolerances). Random two-body problems with a ground.
RC_GTEST_PROP(E3_6_padmm_convergence, NcpHoldsAtConvergence, ()) {
  const int nc = *rc::gen::inRange(1, 4);
  std::vector<PADMMBodyInverse> bodies = {{*gen::in_range(0.2, 2), random_inv_inertia()},
                                          {*gen::in_range(0.2, 2), random_inv_inertia()}};
  std::vector<PADMMContactRow> rows;
  std::vector<real> mu;
  for (int i = 0; i < nc; ++i) {
    rows.push_back(random_row(2));
    mu.push_back(rows.back().mu);
  }
  Eigen::MatrixXd W = assemble_delassus(rows, bodies);
  Eigen::VectorXd b(3 * nc);
  for (int i = 0; i < 3 * nc; ++i) b[i] = *gen::in_range(-1, 1);
  PADMMSettings st;
  st.max_iterations = 20000;
  st.primal_tolerance = st.dual_tolerance = st.compl_tolerance = 1e-9;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(3 * nc), u;
  PADMMStatus s = padmm_solve(W, b, mu, st, x, &u);
  RC_PRE(s.converged);
  const real eps = 1e-5;
  for (int i = 0; i < nc; ++i) {
    real pn = x[3 * i], un = u[3 * i];
    RC_ASSERT(pn >= -eps);
    RC_ASSERT(un >= -eps);
    RC_ASSERT(std::abs(pn * un) <= eps);
    RC_ASSERT(std::hypot(x[3 * i + 1], x[3 * i + 2]) <= mu[i] * pn + eps);
  }
}

TEST(E3_6_padmm_defaults, GoldenDefaults) {
  PADMMSettings st;
  EXPECT_EQ(st.primal_tolerance, 1e-6);
  EXPECT_EQ(st.dual_tolerance, 1e-6);
  EXPECT_EQ(st.compl_tolerance, 1e-6);
  EXPECT_EQ(st.max_iterations, 200);
  EXPECT_EQ(st.warmstart_mode, WarmstartMode::containers);
  EXPECT_EQ(st.warmstart_scale, 0.9);
}

TEST(E3_6_padmm_defaults, RejectsNonPositiveSettings) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 1});
  for (int which = 0; which < 5; ++which) {
    PADMMSettings st;
    if (which == 0) st.primal_tolerance = 0;
    if (which == 1) st.dual_tolerance = -1;
    if (which == 2) st.compl_tolerance = 0;
    if (which == 3) st.max_iterations = 0;
    if (which == 4) st.rho = 0;
    EXPECT_THROW(SolverPADMM(m, st), std::invalid_argument) << which;
  }
}

// Warm starting from the containers: the second step of a resting sphere needs fewer iterations.
TEST(E3_6_padmm_defaults, WarmStartFromContainersSavesIterations) {
  PADMMSettings warm, cold;
  cold.warmstart_mode = WarmstartMode::none;
  EXPECT_LT(sphere_on_ground_status(warm, 3).iterations, sphere_on_ground_status(cold, 3).iterations);
}

// Converging: a resting sphere. Exhausted: the same problem with 3 iterations.
TEST(E3_6_padmm_convergence, ConvergingAndExhaustedProblems) {
  PADMMStatus ok = sphere_on_ground_status({});
  EXPECT_TRUE(ok.converged);
  EXPECT_GT(ok.iterations, 1);
  EXPECT_LE(ok.r_p, 1e-6);
  EXPECT_LE(ok.r_d, 1e-6);
  EXPECT_LE(ok.r_c, 1e-6);
  PADMMSettings tight;
  tight.max_iterations = 3;
  PADMMStatus ex = sphere_on_ground_status(tight);
  EXPECT_FALSE(ex.converged);
  EXPECT_EQ(ex.iterations, 3);
  EXPECT_GT(std::max({ex.r_p / 1e-6, ex.r_d / 1e-6, ex.r_c / 1e-6}), 1.0);
}

// One iteration never counts as converged, even with zero residuals.
TEST(E3_6_padmm_convergence, FirstIterationNeverConverged) {
  EXPECT_FALSE(padmm_converged(1, 0, 0, 0, 1e-6, 1e-6, 1e-6));
  EXPECT_TRUE(padmm_converged(2, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6));  // <=, as in Kamino
  EXPECT_FALSE(padmm_converged(2, 1e-6, 2e-6, 0, 1e-6, 1e-6, 1e-6));
}

RC_GTEST_PROP(E3_6_padmm_convergence, ConvergedImpliesWithinTolerance, ()) {
  const int nc = *rc::gen::inRange(1, 4);
  std::vector<PADMMBodyInverse> bodies = {{*gen::in_range(0.2, 2), random_inv_inertia()},
                                          {*gen::in_range(0.2, 2), random_inv_inertia()}};
  std::vector<PADMMContactRow> rows;
  std::vector<real> mu;
  for (int i = 0; i < nc; ++i) {
    rows.push_back(random_row(2));
    mu.push_back(rows.back().mu);
  }
  Eigen::VectorXd b(3 * nc);
  for (int i = 0; i < 3 * nc; ++i) b[i] = *gen::in_range(-1, 1);
  PADMMSettings st;
  st.max_iterations = *rc::gen::inRange(1, 300);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(3 * nc);
  PADMMStatus s = padmm_solve(assemble_delassus(rows, bodies), b, mu, st, x);
  if (s.converged) {
    RC_ASSERT(s.iterations > 1);
    RC_ASSERT(s.r_p <= st.primal_tolerance && s.r_d <= st.dual_tolerance && s.r_c <= st.compl_tolerance);
  }
  RC_ASSERT(s.iterations <= st.max_iterations);
  if (s.iterations == st.max_iterations &&
      (s.r_p > st.primal_tolerance || s.r_d > st.dual_tolerance || s.r_c > st.compl_tolerance))
    RC_ASSERT(!s.converged);
}

// Status per world: one world in this engine; readable after every step without any extra switch.
TEST(E3_6_kamino_status, OneEntryPerWorldWithUnits) {
  Model m = ground_box_model(2, {0.1, 0.2, 0.1}, {0, 0, 0.1});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 16, 0.01, PenaltyMaterial{0, 0, 0, 0, 0.5});
  SolverPADMM solver(m);
  fx.generate(m, s0);
  ContactsView v = fx.view();
  solver.step(s0, s1, c, &v, 0.01);
  ASSERT_EQ(solver.status().size(), 1u);
  EXPECT_TRUE(solver.status()[0].converged);
  EXPECT_GE(solver.status()[0].r_p, 0);
}

// Static equilibrium of a box on the ground: the contact impulses carry m g h, and update_contacts
// reports the average force on body0 (the ground) as -m g in total.
TEST(E3_6_kamino_overview, SimBoxRestsAndUpdateContactsGivesWeight) {
  const real mass = 2, h = 0.01;
  Model m = ground_box_model(mass, {0.1, 0.2, 0.1}, {0, 0, 0.1});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 16, 0.01, PenaltyMaterial{0, 0, 0, 0, 0.5}, true);
  SolverPADMM solver(m);
  for (int i = 0; i < 50; ++i) {
    fx.generate(m, s0);
    ContactsView v = fx.view();
    solver.step(s0, s1, c, &v, h);
    std::swap(s0, s1);
  }
  ContactsView v = fx.view();
  EXPECT_EQ(fx.count(), 4);  // the last step's record: the four bottom corners
  solver.update_contacts(v, s0);
  vec3 total{};
  for (int i = 0; i < fx.count(); ++i) total += fx.force_host()[i].lin;
  EXPECT_VEC3_NEAR(total, (vec3{0, 0, -mass * 9.81}), 1e-4);
  EXPECT_NEAR(s0.body_q.to_host()[0].p.z, 0.1, 1e-4);
}

// Euler: forward dynamics, then velocity, then pose: without contacts a free fall follows the
// semi-implicit sequence z_n = z_0 - g h^2 n (n + 1) / 2.
TEST(E3_6_kamino_overview, SimFreeFallVelocityThenPose) {
  Model m = ground_sphere_model(1, 0.1, {0, 0, 5});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverPADMM solver(m);
  const real h = 0.01;
  for (int i = 0; i < 100; ++i) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
  }
  EXPECT_NEAR(s0.body_q.to_host()[0].p.z, 5 - 9.81 * h * h * 100 * 101 / 2, 1e-10);
}

// Exercise 7: an exhausted budget is reported as "not converged: iteration budget exhausted".
TEST(E3_10_ex7_padmm_vs_xpbd, ReportsExhaustedBudgetAsNotConverged) {
  PADMMSettings tight;
  tight.max_iterations = 3;
  PADMMStatus ex = sphere_on_ground_status(tight);
  EXPECT_EQ(padmm_status_report(ex, tight.max_iterations), "not converged: iteration budget exhausted");
  EXPECT_EQ(padmm_status_report(sphere_on_ground_status({}), 200), "converged");
}

// Islands: four spheres resting apart on the ground are four independent problems. Sphere 0 of the
// four-sphere world must move bitwise as it does alone, although its neighbours slide with other
// velocities and need other iteration counts; the world's status is the worst of its islands.
TEST(E3_6_padmm_convergence, SimIslandsSolveLikeTheirBodiesAlone) {
  auto run = [](int n, PADMMStatus& worst) {
    Model m = sphere_grid_model(n, 1, 0.1, real(0.099));
    State s0 = m.state(), s1 = m.state();
    Control c = m.control();
    auto qd = s0.body_qd.to_host();
    for (int b = 0; b < n; ++b) qd[b] = {{real(0.3) + real(0.7) * b, real(-0.2) * b, 0}, {0, 0, real(b)}};
    s0.body_qd.copy_from_host(qd.data());
    GroundContactFixture fx(m.device, 4 * n, 0.01, PenaltyMaterial{0, 0, 0, 0, 0.5});
    SolverPADMM solver(m);
    worst = PADMMStatus{};
    for (int k = 0; k < 5; ++k) {
      fx.generate(m, s0);
      ContactsView v = fx.view();
      solver.step(s0, s1, c, &v, 0.01);
      std::swap(s0, s1);
      worst.iterations = std::max(worst.iterations, solver.status()[0].iterations);
    }
    return std::make_pair(s0.body_q.to_host()[0], s0.body_qd.to_host()[0]);
  };
  PADMMStatus alone, together;
  const auto [q1, v1] = run(1, alone);
  const auto [q4, v4] = run(4, together);
  EXPECT_EQ(q1.p.x, q4.p.x);
  EXPECT_EQ(q1.p.z, q4.p.z);
  EXPECT_EQ(q1.q.z, q4.q.z);
  EXPECT_EQ(v1.lin.x, v4.lin.x);
  EXPECT_EQ(v1.ang.z, v4.ang.z);
  EXPECT_GT(together.iterations, alone.iterations);  // the faster neighbours need more iterations
}
