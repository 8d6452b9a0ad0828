// Tests of lib/e3/solvers/generalized/generalized_dynamics.h and lib/e3/solvers/generalized/solver_featherstone.h (course E3 §6): H against
// a kinetic-energy reference, qdd against Newton-Euler on random trees, the pendulum period, the
// mass-matrix interval, and the MuJoCo-semantics integrators with their orders of accuracy; the
// solver's per-articulation passes against the host reference, its Cholesky against Eigen, its
// buffers sized once, its sources free of backend tests, and a model on a GPU where there is one.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>

#include "core/alloc_count.h"
#include "e1/kinematics.h"
#include "course/e3/penalty_contact_fixture.h"
#include "e3/solvers/generalized/solver_featherstone.h"
#include "e3/solvers/generalized/solver_generalized_integrator.h"
#include "e3/solvers/generalized/generalized_dynamics.h"
#include "e3/solvers/generalized/dense_lu.h"
#include "e3/solvers/generalized/generalized_integrator_oracle.h"
#include "e3/solvers/shared/dense_cholesky.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"
#include "support/source_scan.h"

using namespace impulse;

namespace {

// Adds a random tree of 2..5 bodies as one articulation: the root hangs from the world by a FREE or
// REVOLUTE joint, every other body by a REVOLUTE, PRISMATIC or BALL joint from a random earlier body
// of the tree, with random frames, axes, masses and inertias.
void add_random_tree(ModelBuilder& b) {
  const int n = *rc::gen::inRange(2, 6);
  std::vector<int> joints, bodies;
  for (int i = 0; i < n; ++i) {
    mat33 R = quat_to_mat33(*gen::unit_quat());
    // Principal moments from second moments s: I_x = s_y + s_z etc. (triangle inequality holds).
    vec3 sm{*gen::in_range(0.02, 0.5), *gen::in_range(0.02, 0.5), *gen::in_range(0.02, 0.5)};
    vec3 k{sm.y + sm.z, sm.x + sm.z, sm.x + sm.y};
    MassProperties mp{*gen::in_range(0.2, 3), *gen::vector(0.2), R * mat33_diag(k) * transpose(R)};
    int body = b.add_link(*gen::rigid_transform(1), mp, true);
    int parent = i == 0 ? -1 : bodies[*rc::gen::inRange(0, i)];
    bodies.push_back(body);
    transform X_p = *gen::rigid_transform(0.5), X_c = *gen::rigid_transform(0.5);
    int kind = i == 0 ? *rc::gen::inRange(0, 2) * 3 : *rc::gen::inRange(0, 3);
    if (kind == 0) joints.push_back(b.add_joint_revolute(parent, body, X_p, X_c, *gen::unit_vector()));
    if (kind == 1) joints.push_back(b.add_joint_prismatic(parent, body, X_p, X_c, *gen::unit_vector()));
    if (kind == 2) joints.push_back(b.add_joint_ball(parent, body, X_p, X_c));
    if (kind == 3) joints.push_back(b.add_joint_free(body, X_p, X_c));
  }
  b.add_articulation(joints);
}

Model random_tree() {
  ModelBuilder b;
  add_random_tree(b);
  return b.finalize();
}

// Random coordinates: scalars in [-2, 2], quaternion blocks unit, translations in a 1 m box.
std::vector<real> random_q(const Model& m) {
  auto q = m.joint_q.to_host();
  auto type = m.joint_type.to_host();
  auto qs = m.joint_q_start.to_host();
  for (int j = 0; j < m.joint_count; ++j) {
    JointType t = JointType(type[j]);
    int o = qs[j];
    if (t == JointType::revolute || t == JointType::prismatic) q[o] = *gen::in_range(-2, 2);
    if (t == JointType::ball || t == JointType::free) {
      int k = t == JointType::ball ? o : o + 3;
      if (t == JointType::free) {
        vec3 p = *gen::vector(1);
        q[o] = p.x; q[o + 1] = p.y; q[o + 2] = p.z;
      }
      quat r = *gen::unit_quat();
      q[k] = r.x; q[k + 1] = r.y; q[k + 2] = r.z; q[k + 3] = r.w;
    }
  }
  return q;
}

std::vector<real> random_qd(const Model& m) {
  std::vector<real> qd(m.joint_dof_count);
  for (real& v : qd) v = *gen::in_range(-2, 2);
  return qd;
}

// Body states from E1's eval_fk (the reference kinematics, on a State).
std::vector<BodyState> eval_fk_states(const Model& m, const std::vector<real>& q, const std::vector<real>& qd) {
  State s = m.state();
  Buffer<real> bq(Device::cpu, q), bqd(Device::cpu, qd);
  eval_fk(m, bq.view(), bqd.view(), s);
  auto X = s.body_q.to_host();
  auto V = s.body_qd.to_host();
  std::vector<BodyState> out(X.size());
  for (std::size_t b = 0; b < X.size(); ++b) out[b] = {X[b], V[b]};
  return out;
}

real kinetic_energy(const Model& m, const std::vector<real>& q, const std::vector<real>& qd) {
  auto s = eval_fk_states(m, q, qd);
  auto mass = m.body_mass.to_host();
  auto I = m.body_inertia.to_host();
  real T = 0;
  for (std::size_t b = 0; b < s.size(); ++b) {
    mat33 R = quat_to_mat33(s[b].X.q);
    vec3 w = s[b].v.ang;
    T += 0.5 * (mass[b] * dot(s[b].v.lin, s[b].v.lin) + dot(w, R * I[b] * transpose(R) * w));
  }
  return T;
}

// The reference H from the kinetic energy alone: H_ij = T(e_i + e_j) - T(e_i) - T(e_j), with T from
// eval_fk twists, plus the armature on the diagonal. Dense, whatever the articulations.
Eigen::MatrixXd kinetic_energy_mass_matrix(const Model& m, const std::vector<real>& q, const std::vector<real>& arm) {
  const int nd = m.joint_dof_count;
  Eigen::VectorXd Ti(nd);
  for (int i = 0; i < nd; ++i) {
    std::vector<real> ei(nd, 0);
    ei[i] = 1;
    Ti[i] = kinetic_energy(m, q, ei);
  }
  Eigen::MatrixXd H(nd, nd);
  for (int i = 0; i < nd; ++i)
    for (int j = i; j < nd; ++j) {
      std::vector<real> eij(nd, 0);
      eij[i] += 1;
      eij[j] += 1;
      H(i, j) = H(j, i) = kinetic_energy(m, q, eij) - Ti[i] - Ti[j] + (i == j ? arm[i] : 0);
    }
  return H;
}

// A random tree with random state, external wrenches and joint forces, and its forward dynamics
// qdd = H^-1 (generalized force): the common set-up of the Newton-Euler oracles.
struct ForwardProblem {
  Model m = random_tree();
  GeneralizedDynamics dyn{m};
  std::vector<real> q = random_q(m), qd = random_qd(m);
  std::vector<spatial_vector> body_f = random_wrenches(m.body_count);
  std::vector<real> joint_f = random_joint_forces(m.joint_dof_count);
  vec3 g{0, 0, -9.81};
  Eigen::VectorXd qdd = cholesky_or_throw(dyn.mass_matrix(q)).solve(dyn.generalized_force(q, qd, body_f, joint_f, g));

  static std::vector<spatial_vector> random_wrenches(int n) {
    std::vector<spatial_vector> f(n);
    for (auto& w : f) w = {*gen::vector(5), *gen::vector(5)};
    return f;
  }
  static std::vector<real> random_joint_forces(int n) {
    std::vector<real> t(n);
    for (real& x : t) x = *gen::in_range(-3, 3);
    return t;
  }
};

// A random forest: 2..3 trees of add_random_tree (one articulation each), finalized.
Model random_forest() {
  ModelBuilder b;
  const int trees = *rc::gen::inRange(2, 4);
  for (int t = 0; t < trees; ++t) add_random_tree(b);
  return b.finalize();
}

}  // namespace

// Oracle: H from the kinetic energy alone, H_ij = T(e_i + e_j) - T(e_i) - T(e_j) with T from
// eval_fk twists; plus the armature on the diagonal.
RC_GTEST_PROP(E3_6_featherstone, OracleMassMatrixEqualsKineticEnergyReference, ()) {
  Model m = random_tree();
  std::vector<real> arm(m.joint_dof_count);
  for (real& a : arm) a = *gen::in_range(0, 0.5);
  GeneralizedDynamics dyn(m, arm);
  auto q = random_q(m);
  Eigen::MatrixXd H = dyn.mass_matrix(q).dense();
  Eigen::MatrixXd ref = kinetic_energy_mass_matrix(m, q, arm);
  const int nd = m.joint_dof_count;
  for (int i = 0; i < nd; ++i)
    for (int j = 0; j < nd; ++j) RC_ASSERT(std::abs(H(i, j) - ref(i, j)) <= 1e-9 * (1 + std::abs(ref(i, j))));
  RC_ASSERT(Eigen::LLT<Eigen::MatrixXd>(H).info() == Eigen::Success);
}

// Oracle: on a random forest of 2..3 trees (one articulation each) the per-articulation blocks of H
// and their Cholesky factors give the qdd of one dense solve with the kinetic-energy H, whose
// entries between different articulations are zero.
RC_GTEST_PROP(E3_6_featherstone, OracleBlockSolveEqualsDenseSolveOnRandomForests, ()) {
  const int trees = *rc::gen::inRange(2, 4);
  ModelBuilder b;
  for (int t = 0; t < trees; ++t) add_random_tree(b);
  Model m = b.finalize();
  const int nd = m.joint_dof_count;
  std::vector<real> arm(nd);
  for (real& a : arm) a = *gen::in_range(0, 0.5);
  GeneralizedDynamics dyn(m, arm);
  RC_ASSERT(dyn.articulation_count() == trees);
  auto q = random_q(m), qd = random_qd(m);
  std::vector<spatial_vector> body_f(m.body_count);
  for (auto& w : body_f) w = {*gen::vector(5), *gen::vector(5)};
  std::vector<real> joint_f(nd);
  for (real& x : joint_f) x = *gen::in_range(-3, 3);
  Eigen::VectorXd tau = dyn.generalized_force(q, qd, body_f, joint_f, vec3{0, 0, -9.81});
  Eigen::MatrixXd ref = kinetic_energy_mass_matrix(m, q, arm);
  Eigen::VectorXd qdd_dense = ref.llt().solve(tau);
  Eigen::VectorXd qdd_block = cholesky_or_throw(dyn.mass_matrix(q)).solve(tau);
  RC_ASSERT((qdd_block - qdd_dense).norm() <= 1e-8 * (1 + qdd_dense.norm()));
  RC_ASSERT((dyn.mass_matrix(q).dense() - ref).norm() <= 1e-9 * (1 + ref.norm()));
}

// Oracle: qdd from H and the generalized force satisfies Newton-Euler body by body. Accelerations
// come from central differences of eval_fk along (q, qd, qdd); the residual wrenches of every body
// (m a - f - m g, I alpha + omega x I omega - tau) must do the same virtual power as joint_f on every
// joint velocity e_k (the twists of eval_fk with qd = e_k).
RC_GTEST_PROP(E3_6_featherstone, OracleQddSatisfiesNewtonEulerOnRandomTrees, ()) {
  ForwardProblem fp0;
  Model& m = fp0.m;
  GeneralizedDynamics& dyn = fp0.dyn;
  auto& q = fp0.q;
  auto& qd = fp0.qd;
  const int nd = m.joint_dof_count, nb = m.body_count;
  auto& body_f = fp0.body_f;
  auto& joint_f = fp0.joint_f;
  const vec3 g = fp0.g;
  const Eigen::VectorXd& qdd = fp0.qdd;

  const real e = 1e-5;
  Eigen::VectorXd v0 = Eigen::Map<Eigen::VectorXd>(qd.data(), nd);
  Eigen::VectorXd vp = v0 + e * qdd, vm = v0 - e * qdd;
  auto qp = dyn.integrate_coords(q, v0, e), qm = dyn.integrate_coords(q, v0, -e);
  auto sp = eval_fk_states(m, qp, std::vector<real>(vp.data(), vp.data() + nd));
  auto sm = eval_fk_states(m, qm, std::vector<real>(vm.data(), vm.data() + nd));
  auto s0 = eval_fk_states(m, q, qd);
  auto mass = m.body_mass.to_host();
  auto I = m.body_inertia.to_host();
  std::vector<spatial_vector> residual(nb);
  for (int b = 0; b < nb; ++b) {
    vec3 a = (sp[b].v.lin - sm[b].v.lin) / (2 * e), al = (sp[b].v.ang - sm[b].v.ang) / (2 * e);
    mat33 R = quat_to_mat33(s0[b].X.q);
    mat33 Iw = R * I[b] * transpose(R);
    vec3 w = s0[b].v.ang;
    residual[b] = {mass[b] * a - body_f[b].lin - mass[b] * g, Iw * al + cross(w, Iw * w) - body_f[b].ang};
  }
  for (int k = 0; k < nd; ++k) {
    std::vector<real> ek(nd, 0);
    ek[k] = 1;
    auto tw = eval_fk_states(m, q, ek);
    real power = 0;
    for (int b = 0; b < nb; ++b) power += dot(residual[b].lin, tw[b].v.lin) + dot(residual[b].ang, tw[b].v.ang);
    RC_ASSERT(std::abs(power - joint_f[k]) <= 1e-4 * (1 + std::abs(joint_f[k])));
  }
}

// Verification: a compound pendulum (1 kg sphere of radius 0.05 m, 1 m below a revolute joint),
// amplitude 0.01 rad. Exact small-amplitude period T = 2 pi sqrt(I_p / (m g l)) (1 + theta0^2/16);
// semi-implicit Euler keeps the amplitude and shortens the period by (w h)^2 / 24.
TEST(E3_6_featherstone, SimPendulumPeriod) {
  const real mass = 1, l = 1, r = 0.05, th0 = 0.01, h = 1e-3;
  Model m = pendulum_chain_model(1, mass, l, r, th0);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverFeatherstone solver(m);
  real I_p = 0.4 * mass * r * r + mass * l * l;
  real w = std::sqrt(mass * 9.81 * l / I_p);
  real T = 2 * M_PI / w * (1 + th0 * th0 / 16);
  std::vector<real> crossings;
  real prev = th0, t = 0;
  for (int i = 0; i < 7000; ++i) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
    t += h;
    real cur = s0.joint_q.to_host()[0];
    if (prev < 0 && cur >= 0) crossings.push_back(t - h * cur / (cur - prev));
    prev = cur;
  }
  ASSERT_GE(crossings.size(), 3u);
  real measured = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  // Semi-implicit Euler on the linearised pendulum: cos(w_d h) = 1 - (w h)^2 / 2, so the measured
  // period is short by (w h)^2 / 24 (4.1e-7 here); a quarter of that is left for everything else.
  const real shift = std::pow(w * h, 2) / 24;
  EXPECT_NEAR(measured / T - 1, -shift, 0.25 * shift);
}

TEST(E3_6_featherstone, MassMatrixIntervalDefaultEveryStep) {
  Model m = pendulum_chain_model(2, 1, 0.5, 0.05, 0.5);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverFeatherstone every(m), cached(m, 5);
  EXPECT_EQ(every.update_mass_matrix_interval, 1);
  State t0 = m.state(), t1 = m.state();
  for (int i = 0; i < 12; ++i) {
    every.step(s0, s1, c, nullptr, 1e-3);
    std::swap(s0, s1);
    cached.step(t0, t1, c, nullptr, 1e-3);
    std::swap(t0, t1);
  }
  EXPECT_EQ(every.mass_matrix_updates(), 12);
  EXPECT_EQ(cached.mass_matrix_updates(), 3);  // steps 0, 5, 10
  // The cached matrix is an approximation: the two runs differ.
  EXPECT_NE(s0.joint_q.to_host()[1], t0.joint_q.to_host()[1]);
}

// A massless kinematic link on a revolute joint adds a zero row to H, which is then singular:
// reported, not regularised (Newton gives kinematic joints a 1e10 armature); explicit armature fixes it.
TEST(E3_6_featherstone, NonSpdMassMatrixIsReported) {
  ModelBuilder b;
  int arm = b.add_link(transform_identity(), MassProperties{1, vec3{}, mat33_identity()}, true);
  b.add_articulation({b.add_joint_revolute(-1, arm, transform_identity(), {vec3{0, 0, 1}, quat_identity()}, {0, 1, 0})});
  int body = b.add_link(transform_identity(), MassProperties{}, true, true);
  b.add_articulation({b.add_joint_revolute(-1, body, transform_identity(), transform_identity(), {0, 1, 0})});
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverFeatherstone bare(m);
  try {
    bare.step(s0, s1, c, nullptr, 1e-3);
    ADD_FAILURE() << "a singular H was not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("of articulation 1 is not symmetric positive definite"), std::string::npos)
        << e.what();
  }
  SolverFeatherstone with_armature(m, 1, 1, {0, 0.1});
  EXPECT_NO_THROW(with_armature.step(s0, s1, c, nullptr, 1e-3));
}

TEST(E3_6_featherstone, RejectsModelsItCannotHandle) {
  ModelBuilder b;
  MassProperties mp{1, vec3{}, mat33_identity()};
  int c = b.add_link(transform_identity(), mp, true);
  b.add_articulation({b.add_joint_distance(-1, c, transform_identity(), transform_identity(), 0.5, 1)});
  Model m = b.finalize();
  EXPECT_THROW(SolverFeatherstone{m}, std::invalid_argument);
  Model p = pendulum_chain_model(1, 1, 1, 0.05, 0);
  EXPECT_THROW(SolverFeatherstone(p, 0), std::invalid_argument);
  ModelBuilder kb;
  int kin = kb.add_link(transform_identity(), MassProperties{}, true, true);
  kb.add_articulation({kb.add_joint_revolute(-1, kin, transform_identity(), transform_identity(), {0, 1, 0})});
  Model kinematic_only = kb.finalize();
  EXPECT_THROW(SolverFeatherstone{kinematic_only}, std::invalid_argument);
}

// SemiImplicit and Featherstone call the same penalty kernel: the same contact inputs give the same
// body forces (a box resting on its corners on the ground, sliding).
TEST(E3_6_shared_penalty_kernel, SameBodyForcesInBothSolvers) {
  Model m = ground_box_model(1, {0.1, 0.2, 0.05}, {0, 0, 0.049});
  State s = m.state();
  auto qd = s.joint_qd.to_host();
  qd[0] = 0.3;
  qd[5] = 0.2;
  s.joint_qd.copy_from_host(qd.data());
  eval_fk(m, s.joint_q.view(), s.joint_qd.view(), s);
  GroundContactFixture fx(m.device, 16, 0.01, PenaltyMaterial{1e4, 50, 100, 0, 0.5});
  fx.generate(m, s);
  ContactsView v = fx.view();
  Control c = m.control();
  SolverSemiImplicit semi(m);
  SolverFeatherstone fs(m);
  Buffer<spatial_vector> a(m.device, 1), b(m.device, 1);
  semi.assemble_body_forces(s, c, &v, a.view());
  fs.assemble_body_forces(s, &v, b.view());
  EXPECT_VEC3_NEAR(a.to_host()[0].lin, b.to_host()[0].lin, 1e-12);
  EXPECT_VEC3_NEAR(a.to_host()[0].ang, b.to_host()[0].ang, 1e-12);
  EXPECT_GT(a.to_host()[0].lin.z, 0);
}

TEST(E3_6_no_update_contacts, FeatherstoneHasNoProducer) {
  Model m = pendulum_chain_model(1, 1, 1, 0.05, 0);
  SolverFeatherstone fs(m);
  ContactsView v;
  EXPECT_THROW(fs.update_contacts(v), UpdateContactsNotImplemented);
}

TEST(E3_6_mujoco_integrator_default, GoldenDefaultIsImplicitfast) {
  EXPECT_EQ(parse_integrator(""), GeneralizedIntegrator::implicitfast);
  for (const char* n : {"euler", "rk4", "implicit", "implicitfast"}) EXPECT_STREQ(integrator_name(parse_integrator(n)), n);
  EXPECT_THROW(parse_integrator("rk45"), std::invalid_argument);
  Model m = pendulum_chain_model(1, 1, 1, 0.05, 0);
  EXPECT_EQ(SolverGeneralizedIntegrator(m).integrator(), GeneralizedIntegrator::implicitfast);
}

// RK4: four forward evaluations per step.
TEST(E3_6_rk4_stages, FourForwardCallsPerStep) {
  Model m = pendulum_chain_model(2, 1, 0.5, 0.05, 0.3);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverGeneralizedIntegrator rk4(m, "rk4");
  for (int i = 0; i < 3; ++i) {
    rk4.step(s0, s1, c, 1e-3);
    std::swap(s0, s1);
  }
  EXPECT_EQ(rk4.forward_calls(), 12);
}

namespace {

// Joint angles of a damped two-link chain (0.5 m links, b = 0.3 N m s/rad) after T = 0.4 s.
std::vector<real> chain_after(const std::string& integrator, real h) {
  Model m = pendulum_chain_model(2, 1, 0.5, 0.05, 0.8);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverGeneralizedIntegrator solver(m, integrator, {0.3, 0.3});
  int n = int(std::lround(0.4 / h));
  for (int i = 0; i < n; ++i) {
    solver.step(s0, s1, c, h);
    std::swap(s0, s1);
  }
  return s0.joint_q.to_host();
}

real error_vs(const std::vector<real>& a, const std::vector<real>& ref) {
  return std::max(std::abs(a[0] - ref[0]), std::abs(a[1] - ref[1]));
}

}  // namespace

// Order of accuracy on the damped chain: halving h divides the error by 2^p, p = 1 for euler,
// implicit and implicitfast, p = 4 for rk4 (reference: rk4 at h = 2.5e-4 s).
TEST(E3_6_integrator_table, SimOrderOfAccuracyOnDampedChain) {
  auto ref = chain_after("rk4", 2.5e-4);
  for (const char* name : {"euler", "implicit", "implicitfast"}) {
    real e1 = error_vs(chain_after(name, 0.01), ref), e2 = error_vs(chain_after(name, 0.005), ref);
    EXPECT_NEAR(e1 / e2, 2.0, 0.35) << name;
  }
  real e1 = error_vs(chain_after("rk4", 0.04), ref), e2 = error_vs(chain_after("rk4", 0.02), ref);
  EXPECT_NEAR(std::log2(e1 / e2), 4.0, 0.5);
}

namespace {

// Adds a chain of n revolute links (0.5 m apart, 1 kg) hanging from the world point (x, 0, 0) as one
// articulation.
void add_chain(ModelBuilder& b, int n, real x) {
  std::vector<int> joints;
  int parent = -1;
  for (int i = 0; i < n; ++i) {
    int body = b.add_link({vec3{x, 0, -0.5 * (i + 1)}, quat_identity()},
                          MassProperties{1, vec3{}, mat33_diag({1e-3, 2e-3, 3e-3})}, true);
    transform X_p = parent < 0 ? transform{vec3{x, 0, 0}, quat_identity()} : transform_identity();
    joints.push_back(b.add_joint_revolute(parent, body, X_p, {vec3{0, 0, 0.5}, quat_identity()}, {0, 1, 0}));
    parent = body;
  }
  b.add_articulation(joints);
}

// joint_qd after three steps of 0.01 s from (q, qd), with per-DOF damping.
std::vector<real> qd_after(Model& m, const char* integrator, std::vector<real> q, std::vector<real> qd,
                           std::vector<real> damping) {
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  s0.joint_q.copy_from_host(q.data());
  s0.joint_qd.copy_from_host(qd.data());
  SolverGeneralizedIntegrator solver(m, integrator, std::move(damping));
  for (int i = 0; i < 3; ++i) {
    solver.step(s0, s1, c, 0.01);
    std::swap(s0, s1);
  }
  return s0.joint_qd.to_host();
}

}  // namespace

// Two chains in one model (two articulations) step exactly as each chain alone, for every
// integrator: the per-articulation M, D (implicit: one finite-difference pair per column index for
// all articulations at once) and solves neither mix nor drop a block.
TEST(E3_6_integrator_table, SimForestStepsLikeItsArticulationsAlone) {
  ModelBuilder fb, ab, bb;
  add_chain(fb, 2, 0);
  add_chain(fb, 3, 2);
  add_chain(ab, 2, 0);
  add_chain(bb, 3, 0);
  Model forest = fb.finalize(), a = ab.finalize(), b = bb.finalize();
  const std::vector<real> qa{0.8, -0.4}, qda{2, -3}, da{0.3, 0.1};
  const std::vector<real> qb{-0.5, 0.2, 0.9}, qdb{-1, 4, 0.5}, db{0, 0.2, 0.4};
  auto join = [](std::vector<real> x, const std::vector<real>& y) {
    x.insert(x.end(), y.begin(), y.end());
    return x;
  };
  for (const char* name : {"euler", "implicit", "implicitfast", "rk4"}) {
    auto both = qd_after(forest, name, join(qa, qb), join(qda, qdb), join(da, db));
    auto ra = qd_after(a, name, qa, qda, da), rb = qd_after(b, name, qb, qdb, db);
    auto alone = join(ra, rb);
    ASSERT_EQ(both.size(), alone.size());
    for (std::size_t k = 0; k < both.size(); ++k) EXPECT_NEAR(both[k], alone[k], 1e-9) << name << " DOF " << k;
  }
}

// Euler with implicit damping: a 1-DOF slider with damping b and no other force decays as
// v_{n+1} = v_n M / (M + h b), without a sign change even for h b >> M.
TEST(E3_6_euler_damping, SliderDecaysWithoutSignChange) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  int body = b.add_link(transform_identity(), MassProperties{2, vec3{}, mat33_identity()}, true);
  b.add_articulation({b.add_joint_prismatic(-1, body, transform_identity(), transform_identity(), {1, 0, 0})});
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  real v0 = 1.5;
  s0.joint_qd.copy_from_host(&v0);
  Control c = m.control();
  SolverGeneralizedIntegrator euler(m, "euler", {50});
  const real h = 0.5;  // h b / M = 12.5
  real v = v0;
  for (int i = 0; i < 5; ++i) {
    euler.step(s0, s1, c, h);
    std::swap(s0, s1);
    v *= 2 / (2 + h * 50);
    EXPECT_NEAR(s0.joint_qd.to_host()[0], v, 1e-12);
    EXPECT_GT(s0.joint_qd.to_host()[0], 0);
  }
}

// Without velocity-dependent forces (an undamped slider pushed by joint_f) euler, implicit and
// implicitfast take the same step; on a swinging chain the RNE derivative makes implicit differ.
TEST(E3_6_implicit_vs_implicitfast, SameStepWithoutVelocityForces) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  int body = b.add_link(transform_identity(), MassProperties{2, vec3{}, mat33_identity()}, true);
  b.add_articulation({b.add_joint_prismatic(-1, body, transform_identity(), transform_identity(), {1, 0, 0})});
  Model m = b.finalize();
  Control c = m.control();
  real f = 3;
  c.joint_f[0] = f;
  std::vector<real> out;
  for (const char* name : {"euler", "implicit", "implicitfast"}) {
    State s0 = m.state(), s1 = m.state();
    real v0 = 0.7;
    s0.joint_qd.copy_from_host(&v0);
    SolverGeneralizedIntegrator solver(m, name);
    solver.step(s0, s1, c, 0.1);
    out.push_back(s1.joint_qd.to_host()[0]);
  }
  EXPECT_DOUBLE_EQ(out[0], 0.7 + 0.1 * f / 2);
  EXPECT_DOUBLE_EQ(out[1], out[0]);
  EXPECT_DOUBLE_EQ(out[2], out[0]);
  Model chain = pendulum_chain_model(2, 1, 0.5, 0.05, 0.8);
  Control cc = chain.control();
  State a0 = chain.state(), a1 = chain.state(), b0 = chain.state(), b1 = chain.state();
  std::vector<real> qd{2, -3};
  a0.joint_qd.copy_from_host(qd.data());
  b0.joint_qd.copy_from_host(qd.data());
  SolverGeneralizedIntegrator imp(chain, "implicit"), fast(chain, "implicitfast");
  imp.step(a0, a1, cc, 0.01);
  fast.step(b0, b1, cc, 0.01);
  EXPECT_GT(std::abs(a1.joint_qd.to_host()[1] - b1.joint_qd.to_host()[1]), 1e-6);
}

RC_GTEST_PROP(E3_6_velocity_implicit, ReducesToExplicitAndIsLinearInR, ()) {
  const int n = *rc::gen::inRange(1, 5);
  Eigen::MatrixXd A = Eigen::MatrixXd::Random(n, n);
  Eigen::MatrixXd M = A * A.transpose() + Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd r = Eigen::VectorXd::Random(n), r2 = Eigen::VectorXd::Random(n);
  real h = *gen::in_range(1e-4, 0.1);
  Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(n, n);
  RC_ASSERT((velocity_implicit_step(M, Z, r, h, true) - h * M.llt().solve(r)).norm() <= 1e-10);
  Eigen::MatrixXd D = -Eigen::MatrixXd(Eigen::VectorXd::Random(n).cwiseAbs().asDiagonal());
  Eigen::VectorXd lin = velocity_implicit_step(M, D, r + 2 * r2, h, false) -
                        (velocity_implicit_step(M, D, r, h, false) + 2 * velocity_implicit_step(M, D, r2, h, false));
  RC_ASSERT(lin.norm() <= 1e-10);
}

// Derived: M = 1 kg, B = 10 kg/s, h = 0.01 s, r = -10 N: dv = -0.1 / 1.1 m/s.
TEST(E3_6_linear_damping, GoldenDerivedValues) { golden::expect_course_values("E3.6-linear-damping"); }

// Velocity first, then position: one step of a slider from rest under joint_f moves it by h^2 f/m;
// a tumbling free body's quaternion stays unit over many steps.
TEST(E3_6_advance_order, VelocityFirstAndUnitQuaternion) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  int body = b.add_link(transform_identity(), MassProperties{2, vec3{}, mat33_identity()}, true);
  b.add_articulation({b.add_joint_prismatic(-1, body, transform_identity(), transform_identity(), {1, 0, 0})});
  Model m = b.finalize();
  Control c = m.control();
  c.joint_f[0] = 4;
  State s0 = m.state(), s1 = m.state();
  SolverGeneralizedIntegrator euler(m, "euler");
  euler.step(s0, s1, c, 0.1);
  EXPECT_NEAR(s1.joint_q.to_host()[0], 0.1 * 0.1 * 4 / 2, 1e-15);

  ModelBuilder fb(Axis::z, vec3{0, 0, 0});
  fb.add_body(transform_identity(), MassProperties{1, vec3{}, mat33_diag({0.1, 0.2, 0.3})}, true);
  Model fm = fb.finalize();
  State f0 = fm.state(), f1 = fm.state();
  std::vector<real> qd{0, 0, 0, 3, 1, 2};
  f0.joint_qd.copy_from_host(qd.data());
  Control fc = fm.control();
  SolverGeneralizedIntegrator fast(fm);
  for (int i = 0; i < 500; ++i) {
    fast.step(f0, f1, fc, 0.01);
    std::swap(f0, f1);
  }
  auto q = f0.joint_q.to_host();
  EXPECT_NEAR(std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]), 1.0, 1e-12);
}

namespace {

// A 0.2 m box sunk by its static penalty depth m g / k_e into a penalty ground (k_e 1e5 N/m), with
// its contact rows generated at the initial pose: what the parent-force and allocation tests step.
struct RestingPenaltyBox {
  Model m = ground_box_model(1, {0.1, 0.1, 0.1}, {0, 0, 0.1 - 9.81 / 4e5});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  GroundContactFixture fx{m.device, 16, 0.01, PenaltyMaterial{1e5, 300, 100, 0, 0.5}, true};
  ContactsView v;
  RestingPenaltyBox() {
    fx.generate(m, s0);
    v = fx.view();
  }
};

}  // namespace

// body_parent_f is a joint wrench: a hanging pendulum at rest receives m g upward from its joint,
// a box resting on the ground through a FREE joint receives nothing from it, although its contacts
// carry m g; neither is a per-contact force, and update_contacts stays an error.
TEST(E3_6_no_update_contacts, FeatherstoneJointWrenchIsNotAContactForce) {
  Model p = pendulum_chain_model(1, 2, 1, 0.05, 0);
  State p0 = p.state(), p1 = p.state();
  Control pc = p.control();
  SolverFeatherstone pend(p);
  pend.step(p0, p1, pc, nullptr, 1e-3);
  EXPECT_VEC3_NEAR(pend.body_parent_f().to_host()[0].lin, (vec3{0, 0, 2 * 9.81}), 1e-9);
  EXPECT_VEC3_NEAR(pend.body_parent_f().to_host()[0].ang, (vec3{}), 1e-9);

  RestingPenaltyBox box;
  SolverFeatherstone fs(box.m);
  fs.step(box.s0, box.s1, box.c, &box.v, 1e-3);
  EXPECT_VEC3_NEAR(fs.body_parent_f().to_host()[0].lin, (vec3{}), 1e-9);
  Buffer<spatial_vector> w(box.m.device, 1);
  fs.assemble_body_forces(box.s0, &box.v, w.view());
  EXPECT_NEAR(w.to_host()[0].lin.z, 9.81, 1e-6);
  EXPECT_THROW(fs.update_contacts(box.v), UpdateContactsNotImplemented);
}

// Oracle: the parent-joint wrenches of a random tree agree with the generalized force balance: the
// wrench on each joint's child, projected on that joint's own motion subspace, equals joint_f
// (the joint transmits exactly the commanded generalized force along its free directions).
RC_GTEST_PROP(E3_6_featherstone, OracleParentWrenchesMatchJointForces, ()) {
  ForwardProblem fp0;
  Model& m = fp0.m;
  GeneralizedDynamics& dyn = fp0.dyn;
  auto& q = fp0.q;
  auto& qd = fp0.qd;
  const int nd = m.joint_dof_count, nb = m.body_count;
  auto& body_f = fp0.body_f;
  auto& joint_f = fp0.joint_f;
  const vec3 g = fp0.g;
  const Eigen::VectorXd& qdd = fp0.qdd;
  auto fp = dyn.parent_joint_wrenches(q, qd, qdd, body_f, g);
  auto child = m.joint_child.to_host();
  auto parent = m.joint_parent.to_host();
  auto qds = m.joint_qd_start.to_host();
  auto com = m.body_com.to_host();
  for (int j = 0; j < m.joint_count; ++j)
    for (int k = qds[j]; k < qds[j + 1]; ++k) {
      // Motion of the child relative to the parent for qd = e_k, as twists at the child COM.
      std::vector<real> ek(nd, 0);
      ek[k] = 1;
      auto tw = eval_fk_states(m, q, ek);
      int c = child[j], p = parent[j];
      vec3 v_rel = tw[c].v.lin, w_rel = tw[c].v.ang;
      if (p >= 0) {
        auto s0 = eval_fk_states(m, q, std::vector<real>(nd, 0));
        vec3 cc = transform_point(s0[c].X, com[c]), cp = transform_point(s0[p].X, com[p]);
        v_rel = v_rel - (tw[p].v.lin + cross(tw[p].v.ang, cc - cp));
        w_rel = w_rel - tw[p].v.ang;
      }
      real power = dot(fp[c].lin, v_rel) + dot(fp[c].ang, w_rel);
      RC_ASSERT(std::abs(power - joint_f[k]) <= 1e-6 * (1 + std::abs(joint_f[k])));
    }
}

// Free fall through a FREE joint: the semi-implicit joint-space step gives z_n = z_0 - g h^2 n (n+1)/2.
TEST(E3_6_featherstone, SimFreeFall) {
  Model m = ground_sphere_model(2, 0.1, {0, 0, 5});
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverFeatherstone solver(m);
  const real h = 0.01;
  for (int i = 0; i < 100; ++i) {
    solver.step(s0, s1, c, nullptr, h);
    std::swap(s0, s1);
  }
  EXPECT_NEAR(s0.body_q.to_host()[0].p.z, 5 - 9.81 * h * h * 100 * 101 / 2, 1e-10);
  EXPECT_NEAR(s0.joint_qd.to_host()[2], -9.81 * h * 100, 1e-10);
}

// Oracle: one SolverFeatherstone step (the device passes, run here on the CPU) on a random forest of
// 2..3 trees with armature, body_f and joint_f against the host reference written on Eigen
// (GeneralizedDynamics): qd+ = qd + h qdd with qdd from the dense kinetic-energy H (no block
// structure assumed), q+ = integrate_coords(q, qd+, h), and body_parent_f from parent_joint_wrenches.
RC_GTEST_PROP(E3_6_featherstone, OracleSolverStepEqualsHostReferenceOnRandomForests, ()) {
  Model m = random_forest();
  const int nd = m.joint_dof_count, nb = m.body_count;
  std::vector<real> arm(nd);
  for (real& a : arm) a = *gen::in_range(0, 0.5);
  GeneralizedDynamics dyn(m, arm);
  auto q = random_q(m), qd = random_qd(m);
  std::vector<spatial_vector> body_f = ForwardProblem::random_wrenches(nb);
  std::vector<real> joint_f = ForwardProblem::random_joint_forces(nd);
  const real h = 1e-3;
  Eigen::VectorXd tau = dyn.generalized_force(q, qd, body_f, joint_f, m.gravity);
  Eigen::VectorXd qdd = kinetic_energy_mass_matrix(m, q, arm).llt().solve(tau);
  Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXd>(qd.data(), nd) + h * qdd;
  std::vector<real> q_next = dyn.integrate_coords(q, v, h);
  std::vector<spatial_vector> f_parent = dyn.parent_joint_wrenches(q, qd, qdd, body_f, m.gravity);

  State s0 = m.state(), s1 = m.state();
  s0.joint_q.copy_from_host(q.data());
  s0.joint_qd.copy_from_host(qd.data());
  s0.body_f.copy_from_host(body_f.data());
  Control c = m.control();
  for (int k = 0; k < nd; ++k) c.joint_f[k] = joint_f[k];
  SolverFeatherstone solver(m, 1, 1, arm);
  solver.step(s0, s1, c, nullptr, h);
  auto qd_out = s1.joint_qd.to_host(), q_out = s1.joint_q.to_host();
  for (int k = 0; k < nd; ++k) RC_ASSERT(std::abs(qd_out[k] - v[k]) <= 1e-9 * (1 + std::abs(v[k])));
  for (std::size_t k = 0; k < q_out.size(); ++k) RC_ASSERT(std::abs(q_out[k] - q_next[k]) <= 1e-9 * (1 + std::abs(q_next[k])));
  auto fp = solver.body_parent_f().to_host();
  for (int i = 0; i < nb; ++i) {
    RC_ASSERT(length(fp[i].lin - f_parent[i].lin) <= 1e-8 * (1 + length(f_parent[i].lin)));
    RC_ASSERT(length(fp[i].ang - f_parent[i].ang) <= 1e-8 * (1 + length(f_parent[i].ang)));
  }
}

// Both backends from one source: a model finalised for CUDA is accepted by the constructor and
// stepped there; 200 steps of a three-link chain agree with the CPU run to 1e-9 (the GPU contracts
// products into fused multiply-adds, so roundoff differs; the contract is one source, not bitwise).
TEST(E3_6_featherstone, GpuModelIsAcceptedAndMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  Model mc = pendulum_chain_model(3, 1, 0.5, 0.05, 0.4, Device::cpu);
  Model mg = pendulum_chain_model(3, 1, 0.5, 0.05, 0.4, Device::cuda);
  SolverFeatherstone cpu(mc), gpu(mg);
  State c0 = mc.state(), c1 = mc.state(), g0 = mg.state(), g1 = mg.state();
  Control cc = mc.control(), cg = mg.control();
  for (int i = 0; i < 200; ++i) {
    cpu.step(c0, c1, cc, nullptr, 1e-3);
    gpu.step(g0, g1, cg, nullptr, 1e-3);
    std::swap(c0, c1);
    std::swap(g0, g1);
  }
  auto qc = c0.joint_q.to_host(), qg = g0.joint_q.to_host();
  for (std::size_t k = 0; k < qc.size(); ++k) EXPECT_NEAR(qg[k], qc[k], 1e-9) << "joint_q[" << k << "]";
  auto fc = cpu.body_parent_f().to_host(), fg = gpu.body_parent_f().to_host();
  for (std::size_t b = 0; b < fc.size(); ++b) EXPECT_VEC3_NEAR(fg[b].lin, fc[b].lin, 1e-7);
}

// One path: SolverFeatherstone's sources never ask which backend they run on (only lib/core knows).
TEST(E3_6_featherstone, SolverSourcesCompareNoDevice) {
  test::expect_no_device_branch("e3/solvers/generalized", {"solver_featherstone.h", "solver_featherstone.cpp",
                                "generalized_layout.h", "generalized_layout.cpp", "../shared/dense_cholesky.h",
                                "featherstone_terms.h"});
}

// Oracle: the hand-written per-articulation Cholesky (dense_cholesky.h, what a kernel item runs)
// against Eigen's LLT on random SPD matrices A = B B^T + n I, and a rank-deficient one reported.
RC_GTEST_PROP(E3_6_featherstone, OracleDenseCholeskyEqualsEigen, ()) {
  const int n = *rc::gen::inRange(1, 13);
  Eigen::MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = *gen::in_range(-1, 1);
  Eigen::MatrixXd A = B * B.transpose() + n * Eigen::MatrixXd::Identity(n, n);
  Eigen::VectorXd rhs(n);
  for (int i = 0; i < n; ++i) rhs[i] = *gen::in_range(-5, 5);
  std::vector<real> flat(n * n), x(rhs.data(), rhs.data() + n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) flat[i * n + j] = A(i, j);
  RC_ASSERT(cholesky_factor(flat.data(), n));
  cholesky_solve(flat.data(), n, x.data());
  Eigen::VectorXd ref = A.llt().solve(rhs);
  for (int i = 0; i < n; ++i) RC_ASSERT(std::abs(x[i] - ref[i]) <= 1e-12 * (1 + ref.norm()));
  Eigen::MatrixXd L = A.llt().matrixL();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) RC_ASSERT(std::abs(flat[i * n + j] - L(i, j)) <= 1e-12 * (1 + std::abs(L(i, j))));
  std::vector<real> singular(n * n, 0);  // rank 0 < n: the first pivot is 0
  RC_ASSERT(!cholesky_factor(singular.data(), n));
}

// Buffers are sized at construction (the contact scratch on the first step): later steps, with
// contacts and a refactored H every step, allocate no Buffer (core/alloc_count.h counts each one).
TEST(E3_6_featherstone, StepsAfterTheFirstAllocateNoBuffer) {
  RestingPenaltyBox box;
  SolverFeatherstone fs(box.m);
  fs.step(box.s0, box.s1, box.c, &box.v, 1e-3);
  const std::uint64_t before = allocation_count();
  for (int i = 0; i < 3; ++i) {
    fs.step(box.s1, box.s0, box.c, &box.v, 1e-3);
    std::swap(box.s0, box.s1);
  }
  EXPECT_EQ(allocation_count(), before);
  EXPECT_EQ(fs.mass_matrix_updates(), 4);
}

namespace {

// joint_q and joint_qd after `steps` steps of h = 1 ms of a three-link chain (0.5 m links) swinging
// from 0.4 rad with damping 0.2 per DOF and joint_f = 0.3 N m on the first joint, on device d.
// allocations: if not null, the Buffer allocations of the steps after the first.
std::vector<real> chain_integrated(const char* integrator, Device d, int steps, std::uint64_t* allocations = nullptr) {
  Model m = pendulum_chain_model(3, 1, 0.5, 0.05, 0.4, d);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  const real tau = real(0.3);
  device_copy(c.joint_f.data, d, &tau, Device::cpu, sizeof(real));
  SolverGeneralizedIntegrator solver(m, integrator, {0.2, 0.2, 0.2});
  for (int i = 0; i < steps; ++i) {
    const std::uint64_t before = allocation_count();
    solver.step(s0, s1, c, 1e-3);
    if (allocations && i > 0) *allocations += allocation_count() - before;
    std::swap(s0, s1);
  }
  std::vector<real> out = s0.joint_q.to_host(), qd = s0.joint_qd.to_host();
  out.insert(out.end(), qd.begin(), qd.end());
  return out;
}

}  // namespace

// Oracle: one step of each integrator (the passes, run here on the CPU) on a random forest of 2..3
// trees with armature, damping, body_f and joint_f, against the host step it ran before on Eigen
// (generalized_integrator_oracle.h). They agree to rounding, not bit for bit: the passes sum
// J^T I J and J^T F joint by joint and factor with dense_cholesky.h / dense_lu.h, where Eigen
// evaluates its products and factorizations in its own order. Bound: 1e-9 relative.
RC_GTEST_PROP(E3_6_integrator_table, OracleStepEqualsHostPathOnRandomForests, ()) {
  Model m = random_forest();
  const int nd = m.joint_dof_count;
  std::vector<real> arm(nd), damping(nd);
  for (real& a : arm) a = *gen::in_range(0, 0.5);
  for (real& x : damping) x = *gen::in_range(0, 2);
  auto q = random_q(m), qd = random_qd(m);
  std::vector<spatial_vector> body_f = ForwardProblem::random_wrenches(m.body_count);
  std::vector<real> joint_f = ForwardProblem::random_joint_forces(nd);
  const real h = 1e-3;
  for (const char* name : {"euler", "implicitfast", "implicit", "rk4"}) {
    const GeneralizedStep ref = generalized_integrator_oracle_step(m, name, damping, arm, q, qd, body_f, joint_f, h);
    State s0 = m.state(), s1 = m.state();
    s0.joint_q.copy_from_host(q.data());
    s0.joint_qd.copy_from_host(qd.data());
    s0.body_f.copy_from_host(body_f.data());
    Control c = m.control();
    for (int k = 0; k < nd; ++k) c.joint_f[k] = joint_f[k];
    SolverGeneralizedIntegrator solver(m, name, damping, arm);
    solver.step(s0, s1, c, h);
    const auto q_out = s1.joint_q.to_host(), qd_out = s1.joint_qd.to_host();
    for (int k = 0; k < nd; ++k)
      RC_ASSERT(std::abs(qd_out[k] - ref.qd[k]) <= 1e-9 * (1 + std::abs(ref.qd[k])));
    for (std::size_t k = 0; k < q_out.size(); ++k)
      RC_ASSERT(std::abs(q_out[k] - ref.q[k]) <= 1e-9 * (1 + std::abs(ref.q[k])));
  }
}

// No step after the first allocates, for each integrator: every array is sized at construction.
TEST(E3_6_integrator_table, StepsAfterTheFirstAllocateNoBuffer) {
  for (const char* name : {"euler", "implicitfast", "implicit", "rk4"}) {
    std::uint64_t allocations = 0;
    chain_integrated(name, Device::cpu, 5, &allocations);
    EXPECT_EQ(allocations, 0u) << name;
  }
}

// Both backends from one source: a model finalised for CUDA is stepped there by each integrator;
// 200 steps of the damped chain agree with the CPU run to 1e-9 (the GPU contracts products into
// fused multiply-adds, so roundoff differs). Skips without a GPU.
TEST(E3_6_integrator_table, GpuModelIsAcceptedAndMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  for (const char* name : {"euler", "implicitfast", "implicit", "rk4"}) {
    const std::vector<real> cpu = chain_integrated(name, Device::cpu, 200), gpu = chain_integrated(name, Device::cuda, 200);
    ASSERT_EQ(cpu.size(), gpu.size());
    for (std::size_t k = 0; k < cpu.size(); ++k) EXPECT_NEAR(gpu[k], cpu[k], 1e-9) << name << " [" << k << "]";
  }
}

// One path: the integrator's sources and the passes it shares never ask which backend they run on.
TEST(E3_6_integrator_table, SolverSourcesCompareNoDevice) {
  test::expect_no_device_branch("e3/solvers/generalized", {"solver_generalized_integrator.h",
                                "solver_generalized_integrator.cpp", "articulation_passes.h",
                                "articulation_passes.cpp", "velocity_implicit.h", "dense_lu.h"});
}

// Oracle: the hand-written partial-pivoting LU (dense_lu.h, what the implicit integrator's item
// runs) against Eigen's partialPivLu on random non-symmetric matrices A = B + n I / 2 (B entries in
// [-1, 1], so pivoting is exercised), solving one right-hand side.
RC_GTEST_PROP(E3_6_velocity_implicit, OracleDenseLuEqualsEigen, ()) {
  const int n = *rc::gen::inRange(1, 13);
  Eigen::MatrixXd A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = *gen::in_range(-1, 1) + (i == j ? 0.5 * n : 0.0);
  Eigen::VectorXd rhs(n);
  for (int i = 0; i < n; ++i) rhs[i] = *gen::in_range(-5, 5);
  std::vector<real> flat(n * n), x(rhs.data(), rhs.data() + n);
  std::vector<int> piv(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) flat[i * n + j] = A(i, j);
  lu_factor(flat.data(), n, piv.data());
  lu_solve(flat.data(), piv.data(), n, x.data());
  Eigen::VectorXd ref = A.partialPivLu().solve(rhs);
  for (int i = 0; i < n; ++i) RC_ASSERT(std::abs(x[i] - ref[i]) <= 1e-10 * (1 + ref.norm()));
}
