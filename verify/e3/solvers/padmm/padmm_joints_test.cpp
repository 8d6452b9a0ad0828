// Joints in SolverPADMM (course E3 §6, Kamino's maximal coordinates): joint rows as bilateral rows of
// the same Delassus problem as the contacts. Jacobians against finite differences of the joint
// errors, W against a dense J M^-1 J^T, a pendulum period, a two-link chain, a pendulum resting on
// the ground (joint + contact rows converging together) and the joint types it rejects.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "e1/constants.h"
#include "e1/mass.h"
#include "e3/solvers/padmm/padmm.h"
#include "course/e3/penalty_contact_fixture.h"
#include "e3/solvers/padmm/solver_padmm.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

constexpr real kG = real(9.81);  // [m/s^2] the builder's default gravity

struct Body {
  transform X;  // world pose of the body origin (= its COM here)
  PADMMBodyInverse inv;
};

// Joint rows of a joint between body0 (or the world when null) and body1.
std::vector<PADMMJointRow> rows_of(JointType type, const Body* b0, const Body& b1, const transform& X_p,
                                   const transform& X_c, const JointAxes& axes) {
  std::vector<PADMMJointRow> out;
  transform Xwp = b0 ? transform_multiply(b0->X, X_p) : X_p;
  append_joint_rows(0, type, b0 ? 0 : -1, 1, Xwp, transform_multiply(b1.X, X_c), b0 ? b0->X.p : vec3{}, b1.X.p, axes,
                    out);
  return out;
}

// Moves a pose along the twist (v, omega) for time s: COM by s v, orientation by exp(s omega).
transform advance(transform X, vec3 v, vec3 w, real s) {
  real a = length(w);
  quat dq = a > 0 ? quat_from_axis_angle(w / a, a * s) : quat_identity();
  return {X.p + s * v, quat_normalize(quat_mul(dq, X.q))};
}

// A model of bodies hung on revolute joints about y. Each link: mass m [kg], COM half_length [m]
// from both its pivots, a thin-rod-like inertia plus a small sphere; the first pivot at `pivot`.
// angles[i]: initial angle of link i from straight down, about +y [rad].
Model chain_model(const std::vector<real>& angles, real m, real d, real I_c, vec3 pivot, bool bob_shape = false) {
  ModelBuilder b;
  if (bob_shape) b.add_shape_plane();
  vec3 p = pivot;
  int parent = -1;
  std::vector<int> joints;
  for (size_t i = 0; i < angles.size(); ++i) {
    quat r = quat_from_axis_angle({0, 1, 0}, angles[i]);
    vec3 com = p + quat_rotate(r, {0, 0, -d});
    ShapeConfig massless;
    massless.density = 0;
    int body = b.add_link({com, r}, MassProperties{m, vec3{}, mat33_diag({I_c, I_c, I_c})}, true);
    if (bob_shape) b.add_shape_sphere(body, transform_identity(), real(0.05), massless);
    transform X_p = parent < 0 ? transform{pivot, quat_identity()} : transform{{0, 0, -d}, quat_identity()};
    joints.push_back(b.add_joint_revolute(parent, body, X_p, {{0, 0, d}, quat_identity()}, {0, 1, 0}));
    parent = body;
    p = com + quat_rotate(r, {0, 0, -d});
  }
  b.add_articulation(joints);
  return b.finalize();
}

// Largest anchor separation [m] over the model's joints in state s.
real anchor_error(const Model& m, const State& s) {
  auto q = s.body_q.to_host();
  auto par = m.joint_parent.to_host(), ch = m.joint_child.to_host();
  auto Xp = m.joint_X_p.to_host(), Xc = m.joint_X_c.to_host();
  real e = 0;
  for (int j = 0; j < m.joint_count; ++j) {
    vec3 xp = par[j] >= 0 ? transform_point(q[par[j]], Xp[j].p) : Xp[j].p;
    e = std::max(e, length(transform_point(q[ch[j]], Xc[j].p) - xp));
  }
  return e;
}

struct PendulumRun {
  real period = 0;        // [s] mean period from downward zero crossings
  real anchor_error = 0;  // [m] largest anchor separation over the run
  real omega_max = 0;     // [rad/s]
  bool all_converged = true;
};

// One bob (m = 1 kg, I_c = 1e-3 kg m^2) at d = 0.5 m below a pivot at z = 1 m, released at theta0,
// stepped for `duration` [s] with step h [s].
PendulumRun pendulum(real theta0, real h, real duration) {
  const real d = real(0.5);
  Model m = chain_model({theta0}, 1, d, real(1e-3), {0, 0, 1});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverPADMM solver(m);
  PendulumRun r;
  std::vector<real> crossings;
  auto angle = [&](const State& s) {  // from straight down, sign as seen from -y
    vec3 x = s.body_q.to_host()[0].p;
    return std::atan2(x.x, 1 - x.z);
  };
  real prev = angle(s0);
  const int steps = int(std::lround(duration / h));
  for (int k = 1; k <= steps; ++k) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
    r.all_converged = r.all_converged && solver.status()[0].converged;
    real th = angle(s0);
    if (prev > 0 && th <= 0) crossings.push_back(h * (k - 1) + h * prev / (prev - th));
    prev = th;
    r.anchor_error = std::max(r.anchor_error, anchor_error(m, s0));
    r.omega_max = std::max(r.omega_max, length(s0.body_qd.to_host()[0].ang));
  }
  if (crossings.size() >= 2) r.period = (crossings.back() - crossings.front()) / real(crossings.size() - 1);
  return r;
}

}  // namespace

// Each joint row's g0, g1 is the time derivative of its error c along any twist of the two bodies
// at a satisfied joint (central differences of c over the poses), and the linear anchor rows' c is
// the anchor separation computed here. Then W from the block assembly equals the dense
// J M^-1 J^T built from those finite-difference rows, with contact rows after the joint rows.
RC_GTEST_PROP(E3_6_kamino_overview, OracleJointRowsAreDerivativesAndDelassusEqualsDense, ()) {
  const JointType types[4] = {JointType::ball, JointType::revolute, JointType::prismatic, JointType::fixed};
  const JointType type = types[*rc::gen::inRange(0, 4)];
  const bool world_parent = *rc::gen::arbitrary<bool>();
  Body b0{{*gen::vector(2), *gen::unit_quat()}, {*gen::in_range(0.1, 5), {}}};
  Body b1{{*gen::vector(2), *gen::unit_quat()}, {*gen::in_range(0.1, 5), {}}};
  for (Body* b : {&b0, &b1}) {
    mat33 R = quat_to_mat33(*gen::unit_quat());
    b->inv.inv_I_w = R * mat33_diag({*gen::in_range(0.1, 10), *gen::in_range(0.1, 10), *gen::in_range(0.1, 10)}) *
                     transpose(R);
  }
  JointAxes axes{0, 0, {}};
  vec3 a = *gen::unit_vector();
  if (type == JointType::revolute) axes = {0, 1, {a}};
  if (type == JointType::prismatic) axes = {1, 0, {a}};
  transform X_p{*gen::vector(1), *gen::unit_quat()}, X_c{*gen::vector(1), *gen::unit_quat()};
  // Place body1 so that the joint holds: its joint frame equals the parent's, turned about a
  // (REVOLUTE) or slid along a (PRISMATIC) by a random amount.
  transform Xwp = world_parent ? X_p : transform_multiply(b0.X, X_p);
  transform Xwc = Xwp;
  if (type == JointType::revolute) Xwc.q = quat_mul(Xwp.q, quat_from_axis_angle(a, *gen::in_range(-3, 3)));
  if (type == JointType::prismatic) Xwc.p = Xwp.p + *gen::in_range(-1, 1) * quat_rotate(Xwp.q, a);
  if (type == JointType::ball) Xwc.q = *gen::unit_quat();
  b1.X = transform_multiply(Xwc, transform_inverse(X_c));
  const Body* p0 = world_parent ? nullptr : &b0;

  std::vector<PADMMJointRow> rows = rows_of(type, p0, b1, X_p, X_c, axes);
  const int expected = type == JointType::ball ? 3 : type == JointType::fixed ? 6 : 5;
  RC_ASSERT(int(rows.size()) == expected);
  for (const PADMMJointRow& r : rows) RC_ASSERT(std::abs(r.c) <= 1e-9);

  // Dense J by central differences, columns (body0 v, omega, body1 v, omega).
  const int nj = expected;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(nj, 12);
  const real eps = 1e-6;
  for (int col = 0; col < 12; ++col) {
    if (world_parent && col < 6) continue;
    const int k = col % 6;
    const vec3 unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const vec3 v = k < 3 ? unit[k] : vec3{}, w = k < 3 ? vec3{} : unit[k - 3];
    auto perturbed = [&](real s) {
      Body c0 = b0, c1 = b1;
      if (col < 6) c0.X = advance(b0.X, v, w, s);
      else c1.X = advance(b1.X, v, w, s);
      return rows_of(type, world_parent ? nullptr : &c0, c1, X_p, X_c, axes);
    };
    auto plus = perturbed(eps), minus = perturbed(-eps);
    for (int i = 0; i < nj; ++i) J(i, col) = (plus[i].c - minus[i].c) / (2 * eps);
  }
  for (int i = 0; i < nj; ++i) {
    Eigen::Matrix<double, 1, 12> g = Eigen::Matrix<double, 1, 12>::Zero();
    const spatial_vector g0 = rows[i].g0, g1 = rows[i].g1;
    if (!world_parent) g.head<6>() << g0.lin.x, g0.lin.y, g0.lin.z, g0.ang.x, g0.ang.y, g0.ang.z;
    g.tail<6>() << g1.lin.x, g1.lin.y, g1.lin.z, g1.ang.x, g1.ang.y, g1.ang.z;
    RC_ASSERT((g - J.row(i)).cwiseAbs().maxCoeff() <= 1e-6 * (1 + J.row(i).cwiseAbs().maxCoeff()));
  }
  // Linear anchor rows measure the anchor separation itself (checked off the joint).
  if (type != JointType::prismatic) {
    Body moved = b1;
    vec3 shift = *gen::vector(1);
    moved.X.p += shift;
    auto off = rows_of(type, p0, moved, X_p, X_c, axes);
    const real comp[3] = {shift.x, shift.y, shift.z};
    for (int i = 0; i < 3; ++i) RC_ASSERT(std::abs(off[i].c - comp[i]) <= 1e-9);
  }

  // W with one contact row after the joint rows, against dense J M^-1 J^T.
  PADMMContactRow cr;
  cr.body0 = world_parent ? -1 : 0;
  cr.body1 = 1;
  cr.n = *gen::unit_vector();
  tangent_basis(cr.n, cr.t1, cr.t2);
  cr.r0 = *gen::vector(1);
  cr.r1 = *gen::vector(1);
  Eigen::MatrixXd Jall = Eigen::MatrixXd::Zero(nj + 3, 12);
  Jall.topRows(nj) = J;
  vec3 e[3] = {cr.n, cr.t1, cr.t2};
  for (int i = 0; i < 3; ++i) {
    vec3 r1xe = cross(cr.r1, e[i]), r0xe = cross(cr.r0, e[i]);
    Jall.block<1, 6>(nj + i, 6) << e[i].x, e[i].y, e[i].z, r1xe.x, r1xe.y, r1xe.z;
    if (!world_parent) Jall.block<1, 6>(nj + i, 0) << -e[i].x, -e[i].y, -e[i].z, -r0xe.x, -r0xe.y, -r0xe.z;
  }
  Eigen::MatrixXd Minv = Eigen::MatrixXd::Zero(12, 12);
  for (int k = 0; k < 2; ++k) {
    const Body& b = k == 0 ? b0 : b1;
    Minv.block<3, 3>(6 * k, 6 * k) = b.inv.inv_m * Eigen::Matrix3d::Identity();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Minv(6 * k + 3 + i, 6 * k + 3 + j) = b.inv.inv_I_w.m[i][j];
  }
  Eigen::MatrixXd dense = Jall * Minv * Jall.transpose();
  Eigen::MatrixXd W = assemble_delassus(rows, {cr}, {b0.inv, b1.inv});
  RC_ASSERT((W - dense).cwiseAbs().maxCoeff() <= 1e-5 * (1 + dense.cwiseAbs().maxCoeff()));
}

// Bilateral rows at convergence: r_d bounds their constraint velocity (W x+ + b)_j at the last
// unprojected iterate x+, so at the returned y (which differs from x+ by at most r_p on contact
// rows) |u_j| <= tol_d + sum_i |W_ji| tol_p; contact rows keep the NCP. Bilateral impulses may take
// either sign.
RC_GTEST_PROP(E3_6_padmm_convergence, BilateralRowsReachZeroVelocityAnySign, ()) {
  const int nj = *rc::gen::inRange(1, 4), nc = *rc::gen::inRange(0, 3), n = nj + 3 * nc;
  Eigen::MatrixXd A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = *gen::in_range(-1, 1);
  Eigen::MatrixXd W = A * A.transpose() + 0.5 * Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) b[i] = *gen::in_range(-1, 1);
  std::vector<real> mu(nc, 0.5);
  PADMMSettings st;
  st.max_iterations = 5000;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n), u;
  PADMMStatus s = padmm_solve(W, b, mu, st, x, &u, nj);
  RC_PRE(s.converged);
  for (int i = 0; i < nj; ++i)
    RC_ASSERT(std::abs(u[i]) <= st.dual_tolerance + W.row(i).cwiseAbs().sum() * st.primal_tolerance + 1e-12);
  for (int c = 0; c < nc; ++c) {
    RC_ASSERT(x[nj + 3 * c] >= -1e-5);
    RC_ASSERT(u[nj + 3 * c] >= -1e-5);
  }
  if (nc == 0) {  // only bilateral rows: the solution is the linear solve W x = -b
    Eigen::VectorXd exact = W.ldlt().solve(-b);
    RC_ASSERT((x - exact).cwiseAbs().maxCoeff() <= 1e-4 * (1 + exact.cwiseAbs().maxCoeff()));
  }
}

// Small-amplitude pendulum (theta0 = 0.05 rad): period from downward zero crossings over ~5
// periods against the compound pendulum T0 = 2 pi sqrt(I_p / (m g d)), I_p = I_c + m d^2, with the
// amplitude correction T = T0 (1 + theta0^2 / 16).
// Tolerance from the integrator's order: the angle follows semi-implicit (symplectic) Euler,
// omega+ = omega - h (m g d / I_p) sin(theta), theta+ = theta + h omega+, whose linearised map
// has cos(Omega h) = 1 - (w h)^2 / 2, i.e. a period error T (w h)^2 / 24 + O(h^4): first order in
// general, but second order for the period of an oscillator. The bound used is 1.5x that term
// plus 1e-5 T for the crossing interpolation and the solver tolerances; the measured error must
// also shrink by at least 3x when h halves (a first-order error would shrink 2x, this one ~4x).
// Measured: h = 0.01 s: -1.12e-4 s (predicted -1.16e-4), h = 0.005 s: -2.5e-5 s.
// The anchor drift per step is the centripetal term h^2 omega^2 d / 2 not seen by the
// velocity-level row; Baumgarte removes alpha of it per step, so |drift| <= h^2 omega^2 d / (2 alpha).
TEST(E3_6_kamino_overview, SimPendulumPeriodMatchesCompoundPendulum) {
  const real m = 1, d = real(0.5), I_c = real(1e-3), theta0 = real(0.05);
  const real I_p = I_c + m * d * d, w = std::sqrt(m * kG * d / I_p);
  const real T = 2 * kPi / w * (1 + theta0 * theta0 / 16);
  const real alpha = PADMMSettings{}.joint_stabilization;
  real err[2];
  const real hs[2] = {real(0.01), real(0.005)};
  for (int i = 0; i < 2; ++i) {
    const real h = hs[i];
    PendulumRun r = pendulum(theta0, h, 5.2 * T);
    EXPECT_TRUE(r.all_converged) << h;
    err[i] = std::abs(r.period - T);
    EXPECT_LE(err[i], real(1.5) * T * (w * h) * (w * h) / 24 + 1e-5 * T) << "h = " << h << " period " << r.period << " T " << T;
    const real drift_bound = h * h * r.omega_max * r.omega_max * d / (2 * alpha);
    EXPECT_LE(r.anchor_error, 2 * drift_bound + 1e-7) << h;
  }
  EXPECT_GE(err[0] / err[1], 3) << err[0] << " " << err[1];
}

// A two-link chain released horizontally swings under gravity for 3 s and stays connected: the
// anchor separation stays below the Baumgarte bound h^2 omega_max^2 r / (2 alpha) of the single
// pendulum above with r the largest lever (the link length), and every step converges.
TEST(E3_6_kamino_overview, SimTwoLinkChainStaysConnected) {
  const real h = real(0.002), d = real(0.25);
  Model m = chain_model({kPi / 2, kPi / 2}, 1, d, real(1) * (2 * d) * (2 * d) / 12, {0, 0, 2});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverPADMM solver(m);
  real err = 0, omega_max = 0, z_min = 2;
  int not_converged = 0;
  for (int k = 0; k < int(3 / h); ++k) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
    not_converged += !solver.status()[0].converged;
    err = std::max(err, anchor_error(m, s0));
    for (const spatial_vector& v : s0.body_qd.to_host()) omega_max = std::max(omega_max, length(v.ang));
    z_min = std::min(z_min, s0.body_q.to_host()[1].p.z);
  }
  EXPECT_EQ(not_converged, 0);
  EXPECT_LT(z_min, 2 - 0.5);  // it swung down
  const real bound = h * h * omega_max * omega_max * (2 * d) / (2 * PADMMSettings{}.joint_stabilization);
  EXPECT_LE(err, 2 * bound) << "omega_max " << omega_max;
  EXPECT_LE(err, 0.01);
}

// Joint and contact rows in one problem: a bob on a revolute joint swings down onto the ground and
// rests against it (the circle of the bob meets the plane at cos(theta) = (z_pivot - r) / d): 5
// joint rows and 3 contact rows on 6 body DOF, a degenerate problem for ADMM with a fixed rho.
// With mu = 0.5 and a 2000-iteration budget every step converges with all three residuals within
// tolerance (the landing step needs about 800 iterations). With the default 200, the landing steps
// stop on the budget and say so (converged = false, iterations = 200); every later step converges.
// Without friction (no De Saxce term, a convex problem) the default budget is enough throughout.
// The joint's weak Baumgarte bias (0.01) and the contact's (0.2) pull against each other on the
// wedged bob, leaving an anchor separation of about 1e-4 m; the bound is 5x that.
TEST(E3_6_padmm_convergence, SimPendulumRestsOnGroundJointAndContactConverge) {
  const real d = real(0.5), r = real(0.05), h = real(0.01);
  const std::pair<real, int> cases[3] = {{real(0.5), 2000}, {real(0.5), 200}, {real(0), 200}};
  for (auto [mu, budget] : cases) {
    Model m = chain_model({real(0.6)}, 1, d, real(1e-3), {0, 0, d}, true);
    State s0 = m.state(), s1 = m.state();
    Control c = m.control();
    GroundContactFixture fx(m.device, 4, real(0.02), PenaltyMaterial{0, 0, 0, 0, mu});
    PADMMSettings st;
    st.max_iterations = budget;
    SolverPADMM solver(m, st);
    int contact_steps = 0, exhausted = 0, most = 0;
    for (int k = 0; k < 150; ++k) {
      fx.generate(m, s0);
      ContactsView v = fx.view();
      solver.step(s0, s1, c, &v, h);
      std::swap(s0, s1);
      contact_steps += fx.count() > 0;
      const PADMMStatus& s = solver.status()[0];
      most = std::max(most, s.iterations);
      if (!s.converged) {
        ++exhausted;
        EXPECT_EQ(s.iterations, budget) << "step " << k << " mu " << mu;
        EXPECT_LT(k, 50) << "only landing steps may exhaust the budget";
        continue;
      }
      EXPECT_LE(s.r_p, st.primal_tolerance) << k;
      EXPECT_LE(s.r_d, st.dual_tolerance) << k;
      EXPECT_LE(s.r_c, st.compl_tolerance) << k;
    }
    if (mu == 0) {
      EXPECT_EQ(exhausted, 0);
    } else if (budget == 2000) {
      EXPECT_EQ(exhausted, 0);
      EXPECT_GT(most, 200);  // the landing really needs more than the default budget
    } else {
      EXPECT_GE(exhausted, 1);
      EXPECT_LE(exhausted, 5);
    }
    EXPECT_GT(contact_steps, 100);
    EXPECT_EQ(solver.last_joint_rows().size(), 5u);
    transform X = s0.body_q.to_host()[0];
    EXPECT_NEAR(X.p.z, r, 2e-3);                                                // resting on the ground
    EXPECT_NEAR(std::abs(X.p.x), std::sqrt(d * d - (d - r) * (d - r)), 5e-3);  // at the meeting angle
    EXPECT_LT(length(s0.body_qd.to_host()[0].lin), 1e-2);
    EXPECT_LT(anchor_error(m, s0), 5e-4);
  }
}

// With friction and a small rho (0.1) the De Saxce-corrected iteration on the landing bob diverges
// (it is not a convex problem). Given a budget long enough to overflow, the solve must refuse rather
// than hand non-finite impulses to the step: the step throws and the state it was given is intact.
TEST(E3_6_padmm_convergence, SimDivergedSolveThrowsAndWritesNothing) {
  const real d = real(0.5);
  Model m = chain_model({real(0.6)}, 1, d, real(1e-3), {0, 0, d}, true);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx(m.device, 4, real(0.02), PenaltyMaterial{0, 0, 0, 0, real(0.5)});
  PADMMSettings st;
  st.rho = real(0.1);
  st.max_iterations = 5000;
  SolverPADMM solver(m, st);
  bool threw = false;
  for (int k = 0; k < 150 && !threw; ++k) {
    fx.generate(m, s0);
    ContactsView v = fx.view();
    const transform before = s1.body_q.to_host()[0];
    try {
      solver.step(s0, s1, c, &v, real(0.01));
    } catch (const std::runtime_error& e) {
      threw = true;
      EXPECT_NE(std::string(e.what()).find("diverged"), std::string::npos) << e.what();
      const transform after = s1.body_q.to_host()[0];
      EXPECT_EQ(after.p.x, before.p.x);
      EXPECT_EQ(after.p.z, before.p.z);
      break;
    }
    std::swap(s0, s1);
    const transform X = s0.body_q.to_host()[0];
    ASSERT_TRUE(std::isfinite(X.p.x) && std::isfinite(X.p.z)) << "step " << k;
    EXPECT_LT(length(X.p), 10) << "step " << k << ": a diverging solve was applied";
  }
  EXPECT_TRUE(threw);
}

// DISTANCE and D6 joints have no PADMM rows here: the solver refuses the model at construction and
// names the joint.
TEST(E3_6_kamino_overview, RejectsUnsupportedJointTypes) {
  for (int which = 0; which < 2; ++which) {
    ModelBuilder b;
    int b0 = b.add_link({{0, 0, 1}, quat_identity()}, MassProperties{1, vec3{}, mat33_diag({1, 1, 1})}, true);
    int b1 = b.add_link({{1, 0, 1}, quat_identity()}, MassProperties{1, vec3{}, mat33_diag({1, 1, 1})}, true);
    int j0 = b.add_joint_ball(-1, b0);
    int j1 = which == 0 ? b.add_joint_distance(b0, b1, transform_identity(), transform_identity(), 0, 1)
                        : b.add_joint_d6(b0, b1, transform_identity(), transform_identity(), {{1, 0, 0}}, {});
    b.add_articulation({j0, j1});
    Model m = b.finalize();
    try {
      SolverPADMM solver(m);
      ADD_FAILURE() << "accepted joint type " << which;
    } catch (const std::invalid_argument& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find("joint 1"), std::string::npos) << msg;
      EXPECT_NE(msg.find(which == 0 ? "DISTANCE" : "D6"), std::string::npos) << msg;
    }
  }
}
