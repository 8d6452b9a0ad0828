// Tests of lib/e1/joints.h and lib/e1/kinematics.h: coordinate layout, eval_fk / eval_ik and the
// spatial conventions of the course's §6 table (course E1 §2, §5, §6).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>

#include "e1/integrator.h"
#include "e1/kinematics.h"
#include "e1/model.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

const transform kI = transform_identity();
const MassProperties kUnit{1, {}, mat33_diag({0.01, 0.02, 0.025})};

// One chain with every joint type: world -FREE- b0 -REVOLUTE- b1 -PRISMATIC- b2 -BALL- b3
// -D6(2 lin, 3 ang)- b4 -FIXED- b5 -DISTANCE- b6 -D6(1 lin, 2 ang)- b7, with random frames and COMs.
struct Chain {
  ModelBuilder b;
  std::vector<real> q, qd;
};

Chain random_chain() {
  Chain c;
  ModelBuilder& b = c.b;
  auto body = [&]() {
    MassProperties m = kUnit;
    m.com = *gen::vector(0.2);
    return b.add_link(kI, m);
  };
  auto frame = [] { return *gen::rigid_transform(0.5); };
  int prev = body();
  std::vector<int> joints{b.add_joint_free(prev, frame(), frame())};
  auto link = [&](auto add) {
    int next = body();
    joints.push_back(add(prev, next));
    prev = next;
  };
  link([&](int p, int n) { return b.add_joint_revolute(p, n, frame(), frame(), *gen::unit_vector()); });
  link([&](int p, int n) { return b.add_joint_prismatic(p, n, frame(), frame(), *gen::unit_vector()); });
  link([&](int p, int n) { return b.add_joint_ball(p, n, frame(), frame()); });
  link([&](int p, int n) {
    quat r = *gen::unit_quat(), l = *gen::unit_quat();
    return b.add_joint_d6(p, n, frame(), frame(), {quat_rotate(l, {1, 0, 0}), quat_rotate(l, normalize(vec3{1, 1, 0}))},
                          {quat_rotate(r, {1, 0, 0}), quat_rotate(r, {0, 1, 0}), quat_rotate(r, {0, 0, -1})});
  });
  link([&](int p, int n) { return b.add_joint_fixed(p, n, frame(), frame()); });
  link([&](int p, int n) { return b.add_joint_distance(p, n, frame(), frame(), 0, 1); });
  link([&](int p, int n) {
    quat r = *gen::unit_quat();
    return b.add_joint_d6(p, n, frame(), frame(), {*gen::unit_vector()}, {quat_rotate(r, {0, 1, 0}), quat_rotate(r, {0, 0, 1})});
  });
  b.add_articulation(joints);
  // Coordinates in the ranges where the inverse is unique.
  auto angle = [] { return *gen::in_range(-3.1, 3.1); };
  auto push_quat = [&] {
    quat r = *gen::unit_quat();
    c.q.insert(c.q.end(), {r.x, r.y, r.z, r.w});
  };
  auto push_vec = [&](real s) {
    vec3 v = *gen::vector(s);
    c.q.insert(c.q.end(), {v.x, v.y, v.z});
  };
  push_vec(1);
  push_quat();                        // FREE
  c.q.push_back(angle());             // REVOLUTE
  c.q.push_back(*gen::in_range(-1, 1));  // PRISMATIC
  push_quat();                        // BALL
  c.q.insert(c.q.end(), {*gen::in_range(-1, 1), *gen::in_range(-1, 1), angle(), *gen::in_range(-1.5, 1.5), angle()});
  push_vec(1);
  push_quat();                        // DISTANCE
  c.q.insert(c.q.end(), {*gen::in_range(-1, 1), angle(), *gen::in_range(-1.5, 1.5)});
  for (int i = 0; i < b.joint_dof_count(); ++i) c.qd.push_back(*gen::in_range(-2, 2));
  return c;
}

std::vector<real> copy_to_vector(const Buffer<real>& b) { return b.to_host(); }

BodyState body_state(const State& s, int b) { return {s.body_q.to_host()[b], s.body_qd.to_host()[b]}; }

bool same_pose(const transform& a, const transform& b, real t) {
  return tol::near(a.p, b.p, t) && tol::same_rotation(a.q, b.q, t);
}

}  // namespace

// --- E1.2-joint-chain ------------------------------------------------------------------------------

RC_GTEST_PROP(E1_2_joint_chain, RevoluteChildPoseIsTheChainAndAnchorsCoincide, ()) {
  transform X_wp = *gen::rigid_transform(2), X_pj = *gen::rigid_transform(0.5), X_cj = *gen::rigid_transform(0.5);
  vec3 axis = *gen::unit_vector();
  real q = *gen::in_range(-3.1, 3.1), qd = 0;
  JointAxes ax;
  ax.n_ang = 1;
  ax.axis[0] = axis;
  BodyState c = fk_joint({X_wp, {}}, {}, X_pj, X_cj, JointType::revolute, &q, &qd, ax, {});
  transform expect = transform_multiply(transform_multiply(transform_multiply(X_wp, X_pj), {vec3{}, quat_from_axis_angle(axis, q)}),
                                        transform_inverse(X_cj));
  RC_ASSERT(same_pose(c.X, expect, 1e-12));
  RC_ASSERT(tol::near(transform_multiply(X_wp, X_pj).p, transform_multiply(c.X, X_cj).p, 1e-12));
}

// --- E1.5-joint-dof-table / E1.5-start-sentinels / E1.5-index-discipline ------------------------------

TEST(E1_5_joint_dof_table, GoldenSizesOfEveryJointType) {
  golden::expect_course_values("E1.5-joint-dof-table");
  ModelBuilder b;
  auto link = [&] { return b.add_link(kI, kUnit); };
  int p = link();
  b.add_joint_prismatic(-1, p, kI, kI, {1, 0, 0});
  int r = link();
  b.add_joint_revolute(p, r, kI, kI, {0, 0, 1});
  int ba = link();
  b.add_joint_ball(r, ba);
  int fr = link();
  b.add_joint_free(fr);
  int di = link();
  b.add_joint_distance(-1, di, kI, kI, 0, 1);
  int fi = link();
  b.add_joint_fixed(ba, fi);
  int d6 = link();
  b.add_joint_d6(fi, d6, kI, kI, {{1, 0, 0}, {0, 1, 0}}, {{0, 0, 1}});
  Model m = b.finalize();
  std::vector<int> qs = m.joint_q_start.to_host(), ds = m.joint_qd_start.to_host();
  int want_q[] = {1, 1, 4, 7, 7, 0, 3}, want_d[] = {1, 1, 3, 6, 6, 0, 3};
  for (int j = 0; j < 7; ++j) {
    EXPECT_EQ(qs[j + 1] - qs[j], want_q[j]) << joint_type_name(b.joint_type[j]);
    EXPECT_EQ(ds[j + 1] - ds[j], want_d[j]) << joint_type_name(b.joint_type[j]);
  }
}

RC_GTEST_PROP(E1_5_start_sentinels, StartTablesEndInSentinelsEqualToTheCounts, ()) {
  ModelBuilder b;
  int n = *rc::gen::inRange(0, 8), prev = -1;
  for (int i = 0; i < n; ++i) {
    int c = b.add_link(kI, kUnit);
    switch (*rc::gen::inRange(0, 5)) {
      case 0: b.add_joint_revolute(prev, c, kI, kI, {0, 0, 1}); break;
      case 1: b.add_joint_ball(prev, c); break;
      case 2: b.add_joint_free(c, kI, kI, prev); break;
      case 3: b.add_joint_fixed(prev, c); break;
      default: b.add_joint_d6(prev, c, kI, kI, {{1, 0, 0}}, {{0, 1, 0}, {0, 0, 1}}); break;
    }
    prev = c;
  }
  Model m = b.finalize();
  std::vector<int> qs = m.joint_q_start.to_host(), ds = m.joint_qd_start.to_host();
  RC_ASSERT(int(qs.size()) == m.joint_count + 1 && int(ds.size()) == m.joint_count + 1);
  for (int j = 0; j < m.joint_count; ++j) RC_ASSERT(qs[j] <= qs[j + 1] && ds[j] <= ds[j + 1]);
  RC_ASSERT(qs.back() == m.joint_coord_count && m.joint_coord_count == m.joint_q.size());
  RC_ASSERT(ds.back() == m.joint_dof_count && m.joint_dof_count == m.joint_qd.size());
}

TEST(E1_5_index_discipline, GoldenStartsOfFreePlusTwoRevolutesAndTheirReplica) {
  ModelBuilder robot;
  int base = robot.add_link(kI, kUnit);
  int l1 = robot.add_link(kI, kUnit), l2 = robot.add_link(kI, kUnit);
  int j0 = robot.add_joint_free(base);
  int j1 = robot.add_joint_revolute(base, l1, kI, kI, {0, 0, 1});
  int j2 = robot.add_joint_revolute(l1, l2, kI, kI, {0, 1, 0});
  robot.add_articulation({j0, j1, j2});
  Model m = robot.finalize();
  EXPECT_EQ(m.joint_q_start.to_host(), (std::vector<int>{0, 7, 8, 9}));
  EXPECT_EQ(m.joint_qd_start.to_host(), (std::vector<int>{0, 6, 7, 8}));
  // joint 1's coordinate is at 7, not at index 1; its velocity at 6, not at 7.
  EXPECT_NE(m.joint_q_start.to_host()[1], 1);
  EXPECT_NE(m.joint_qd_start.to_host()[1], m.joint_q_start.to_host()[1]);
  ModelBuilder worlds;
  worlds.add_builder(robot);
  worlds.add_builder(robot, {vec3{2, 0, 0}, quat_identity()});
  Model w = worlds.finalize();
  EXPECT_EQ(w.joint_q_start.to_host(), (std::vector<int>{0, 7, 8, 9, 16, 17, 18}));
  EXPECT_EQ(w.joint_qd_start.to_host(), (std::vector<int>{0, 6, 7, 8, 14, 15, 16}));
}

// --- E1.5-qdot-map --------------------------------------------------------------------------------

RC_GTEST_PROP(E1_5_qdot_map, QuaternionStaysUnitUnderTheMapButNotUnderNaiveAddition, ()) {
  quat q = *gen::unit_quat();
  vec3 w = *gen::vector(10);
  RC_PRE(length(w) > 1);
  real qa[7] = {0, 0, 0, q.x, q.y, q.z, q.w}, qn[4] = {q.x, q.y, q.z, q.w};
  real qd[6] = {0, 0, 0, w.x, w.y, w.z};
  JointAxes ax;
  const real h = 0.01;
  for (int i = 0; i < 200; ++i) {
    real out[7];
    integrate_joint_coords(JointType::free, qa, qd, ax, {}, h, out);
    std::memcpy(qa, out, sizeof qa);
    for (int k = 0; k < 3; ++k) qn[k] += h * qd[3 + k];  // the wrong "q += dt * qd" on the first three
  }
  RC_ASSERT(std::abs(quat_norm({qa[3], qa[4], qa[5], qa[6]}) - 1) < 1e-12);
  RC_ASSERT(std::abs(quat_norm({qn[0], qn[1], qn[2], qn[3]}) - 1) > 1e-3);
  RC_ASSERT(joint_coord_count(JointType::free, 0, 0) != joint_dof_count(JointType::free, 0, 0));
}

// Oracle: central finite differences of eval_fk along q(t) = q + t N(q) qd reproduce the body twists
// that eval_fk reports, for every joint type (this ties joint_twist to joint_transform and N(q)).
RC_GTEST_PROP(E1_5_qdot_map, OracleFiniteDifferenceOfFkMatchesTheTwist, ()) {
  Chain c = random_chain();
  Model m = c.b.finalize();
  std::vector<JointAxes> axes = m.joint_axes.to_host();
  std::vector<int> qs = m.joint_q_start.to_host(), ds = m.joint_qd_start.to_host();
  std::vector<transform> Xc = m.joint_X_c.to_host();
  std::vector<vec3> com = m.body_com.to_host();
  const real eps = 1e-6;
  auto advance = [&](real h) {
    std::vector<real> out(c.q.size());
    for (int j = 0; j < m.joint_count; ++j)
      integrate_joint_coords(c.b.joint_type[j], &c.q[qs[j]], &c.qd[ds[j]], axes[j],
                             transform_point(transform_inverse(Xc[j]), com[c.b.joint_child[j]]), h, &out[qs[j]]);
    return out;
  };
  auto fk = [&](const std::vector<real>& q) {
    State s = m.state();
    Buffer<real> bq(Device::cpu, q), bqd(Device::cpu, c.qd);
    eval_fk(m, bq.view(), bqd.view(), s);
    return s;
  };
  State s0 = fk(c.q), sp = fk(advance(eps)), sm = fk(advance(-eps));
  for (int b = 0; b < m.body_count; ++b) {
    BodyState x = body_state(s0, b), p = body_state(sp, b), n = body_state(sm, b);
    vec3 v_fd = (transform_point(p.X, com[b]) - transform_point(n.X, com[b])) / (2 * eps);
    quat dq = quat_mul(p.X.q, quat_conjugate(n.X.q));
    vec3 w_fd = (dq.w < 0 ? real(-1) : real(1)) * vec3{dq.x, dq.y, dq.z} / eps;
    RC_ASSERT(tol::near(x.v.lin, v_fd, 1e-5));
    RC_ASSERT(tol::near(x.v.ang, w_fd, 1e-5));
  }
}

// --- E1.5-eval-fk / E1.5-eval-ik / E1.5-fixed-follows-parent / E1.5-distance-constrained ------------

TEST(E1_5_eval_fk, WritesBodiesFromGivenArraysOnlyAndIsIdempotent) {
  ModelBuilder b;
  int base = b.add_link(kI, kUnit), arm = b.add_link(kI, kUnit);
  int j0 = b.add_joint_revolute(-1, base, kI, kI, {0, 0, 1});
  int j1 = b.add_joint_prismatic(base, arm, {vec3{1, 0, 0}, quat_identity()}, kI, {1, 0, 0});
  b.add_articulation({j0, j1});
  Model m = b.finalize();
  State s = m.state();
  std::vector<real> q0 = s.joint_q.to_host();
  Buffer<real> q(Device::cpu, std::vector<real>{real(kPi / 2), 0.5}), qd(Device::cpu, std::vector<real>{2, 0});
  eval_fk(m, q.view(), qd.view(), s);
  EXPECT_EQ(s.joint_q.to_host(), q0);  // not a synchroniser of joint_q
  transform X = s.body_q.to_host()[arm];
  EXPECT_VEC3_NEAR(X.p, (vec3{0, 1.5, 0}), 1e-12);
  EXPECT_VEC3_NEAR(s.body_qd.to_host()[arm].lin, (vec3{-3, 0, 0}), 1e-12);  // omega x r = 2 z x 1.5 y
  std::vector<transform> first = s.body_q.to_host();
  eval_fk(m, q.view(), qd.view(), s);
  EXPECT_EQ(std::memcmp(first.data(), s.body_q.to_host().data(), sizeof(transform) * first.size()), 0);
}

TEST(E1_5_eval_fk, GpuMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  ModelBuilder b;
  int prev = -1;
  std::vector<int> joints;
  for (int i = 0; i < 6; ++i) {
    MassProperties mp = kUnit;
    mp.com = {0.05 * i, 0.01, 0};
    int c = b.add_link(kI, mp);
    transform X_p{vec3{0, 0, 0.3}, quat_from_axis_angle({1, 0, 0}, 0.2 * i)};
    joints.push_back(i == 0 ? b.add_joint_free(c) : i % 2 ? b.add_joint_revolute(prev, c, X_p, kI, {0, 1, 0})
                                                          : b.add_joint_ball(prev, c, X_p, kI));
    prev = c;
  }
  b.add_articulation(joints);
  Model mc = b.finalize(Device::cpu), mg = b.finalize(Device::cuda);
  std::vector<real> q = mc.joint_q.to_host(), qd(mc.joint_dof_count);
  for (std::size_t k = 0; k < qd.size(); ++k) qd[k] = 0.1 * real(k) - 0.7;
  q[7] = 0.4;
  State sc = mc.state(), sg = mg.state();
  Buffer<real> qc(Device::cpu, q), qdc(Device::cpu, qd), qg(Device::cuda, q), qdg(Device::cuda, qd);
  eval_fk(mc, qc.view(), qdc.view(), sc);
  eval_fk(mg, qg.view(), qdg.view(), sg);
  std::vector<transform> a = sc.body_q.to_host(), g = sg.body_q.to_host();
  std::vector<spatial_vector> va = sc.body_qd.to_host(), vg = sg.body_qd.to_host();
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(same_pose(a[i], g[i], 1e-12));
    EXPECT_VEC3_NEAR(va[i].lin, vg[i].lin, 1e-12);
  }
}

RC_GTEST_PROP(E1_5_eval_ik, FkThenIkRoundTripsEveryJointType, ()) {
  Chain c = random_chain();
  Model m = c.b.finalize();
  State s = m.state();
  Buffer<real> q(Device::cpu, c.q), qd(Device::cpu, c.qd);
  eval_fk(m, q.view(), qd.view(), s);
  eval_ik(m, s, s.joint_q.view(), s.joint_qd.view());
  std::vector<real> q2 = s.joint_q.to_host(), qd2 = s.joint_qd.to_host();
  std::vector<int> qs = m.joint_q_start.to_host();
  for (int j = 0; j < m.joint_count; ++j) {
    JointType t = c.b.joint_type[j];
    int o = qs[j] + (t == JointType::ball ? 0 : 3);
    bool has_quat = t == JointType::ball || t == JointType::free || t == JointType::distance;
    for (int k = qs[j]; k < qs[j + 1]; ++k) {
      if (has_quat && k >= o && k < o + 4) continue;
      RC_ASSERT(std::abs(q2[k] - c.q[k]) < 1e-8);
    }
    if (has_quat)
      RC_ASSERT(tol::same_rotation({q2[o], q2[o + 1], q2[o + 2], q2[o + 3]}, {c.q[o], c.q[o + 1], c.q[o + 2], c.q[o + 3]}, 1e-9));
  }
  for (std::size_t k = 0; k < qd2.size(); ++k) RC_ASSERT(std::abs(qd2[k] - c.qd[k]) < 1e-8);
}

RC_GTEST_PROP(E1_5_fixed_follows_parent, ChildPoseIsParentComposedWithAConstant, ()) {
  ModelBuilder b;
  int p = b.add_link(kI, kUnit), c = b.add_link(kI, kUnit);
  transform X_pj = *gen::rigid_transform(0.5), X_cj = *gen::rigid_transform(0.5);
  int jf = b.add_joint_free(p);
  int jx = b.add_joint_fixed(p, c, X_pj, X_cj);
  b.add_articulation({jf, jx});
  Model m = b.finalize();
  transform constant = transform_multiply(X_pj, transform_inverse(X_cj));
  for (int i = 0; i < 3; ++i) {
    transform parent = *gen::rigid_transform(3);
    std::vector<real> q{parent.p.x, parent.p.y, parent.p.z, parent.q.x, parent.q.y, parent.q.z, parent.q.w};
    State s = m.state();
    Buffer<real> bq(Device::cpu, q), bqd(Device::cpu, std::vector<real>(6, 0));
    eval_fk(m, bq.view(), bqd.view(), s);
    RC_ASSERT(same_pose(s.body_q.to_host()[c], transform_multiply(parent, constant), 1e-12));
  }
  RC_ASSERT(m.joint_coord_count == 7);
}

TEST(E1_5_distance_constrained, DistanceHasFreeLayoutPlusARange) {
  ModelBuilder b;
  int a = b.add_link(kI, kUnit), c = b.add_link({vec3{0, 0, 0.5}, quat_identity()}, kUnit);
  int jf = b.add_joint_free(a);
  int jd = b.add_joint_distance(a, c, kI, kI, 0.2, 0.4);
  b.add_articulation({jf, jd});
  Model m = b.finalize();
  std::vector<int> qs = m.joint_q_start.to_host(), ds = m.joint_qd_start.to_host();
  EXPECT_EQ(qs[2] - qs[1], 7);
  EXPECT_EQ(ds[2] - ds[1], 6);
  // The coordinates allow any pose, but the joint carries a range a constraint solver must honour:
  // the initial anchor distance 0.5 m lies outside [0.2, 0.4] m.
  real dist = joint_anchor_distance(kI, kI, b.body_q[c], kI);
  EXPECT_NEAR(dist, 0.5, 1e-15);
  EXPECT_GT(dist, m.joint_distance_max.to_host()[jd]);
  ModelBuilder bad;
  int x = bad.add_link(kI, kUnit), y = bad.add_link(kI, kUnit);
  bad.add_joint_distance(x, y, kI, kI, 0.4, 0.2, "inverted");
  EXPECT_THROW(bad.finalize(), std::invalid_argument);
}

// --- E1.5-authoritative-state / E1.5-xpbd-maximal ----------------------------------------------------

TEST(E1_5_authoritative_state, BothRepresentationsExistButOnlyTheSolversIsAdvanced) {
  ModelBuilder b;
  int body = b.add_body(kI, kUnit);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverRigidPredictor solver(m);
  solver.step(s0, s1, c, 0.01);
  EXPECT_NE(s1.body_q.to_host()[body].p.z, 0);  // the maximal fields moved
  EXPECT_EQ(s1.joint_q.to_host()[2], 0);        // the generalised ones were not refreshed
}

TEST(E1_5_xpbd_maximal, MaximalSolverAdvancesBodiesAndEvalIkRebuildsJointValues) {
  ModelBuilder b;
  b.add_body({vec3{0, 0, 1}, quat_from_axis_angle({1, 1, 0}, 0.3)}, kUnit);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> v{{{0.5, 0, 0}, {0, 0, 3}}};
  s0.body_qd.copy_from_host(v.data());
  Control c = m.control();
  SolverRigidPredictor solver(m);
  for (int i = 0; i < 10; ++i) {
    solver.step(s0, s1, c, 0.01);
    std::swap(s0, s1);
  }
  eval_ik(m, s0, s0.joint_q.view(), s0.joint_qd.view());
  State check = m.state();
  eval_fk(m, s0.joint_q.view(), s0.joint_qd.view(), check);
  EXPECT_TRUE(same_pose(check.body_q.to_host()[0], s0.body_q.to_host()[0], 1e-12));
  EXPECT_VEC3_NEAR(check.body_qd.to_host()[0].lin, s0.body_qd.to_host()[0].lin, 1e-12);
}

// --- E1.6 spatial conventions ----------------------------------------------------------------------

RC_GTEST_PROP(E1_6_body_qd, PureSpinAboutTheComKeepsTheComStillWhileTheOriginMoves, ()) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  int body = b.add_body(*gen::rigid_transform(1));
  b.add_shape_box(body, {vec3{0.1, 0.05, 0}, quat_identity()}, 0.1, 0.05, 0.025);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  vec3 w = *gen::vector(3);
  RC_PRE(length(w) > 0.5);
  std::vector<spatial_vector> v{{{}, w}};
  s0.body_qd.copy_from_host(v.data());
  vec3 c_B = m.body_com.to_host()[0];
  vec3 c0 = world_com(s0.body_q.to_host()[0], c_B), p0 = s0.body_q.to_host()[0].p;
  Control c = m.control();
  SolverRigidPredictor solver(m);
  for (int i = 0; i < 20; ++i) {
    solver.step(s0, s1, c, 0.005);
    std::swap(s0, s1);
  }
  transform X = s0.body_q.to_host()[0];
  RC_ASSERT(tol::near(world_com(X, c_B), c0, 1e-9));
  RC_ASSERT(length(X.p - p0) > 1e-4);
}

TEST(E1_6_body_f, PureTorqueGivesNoComAccelerationAndPureForceNoAngular) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  int body = b.add_body();
  b.add_shape_box(body, {vec3{0.1, 0, 0}, quat_identity()}, 0.1, 0.05, 0.025);
  Model m = b.finalize();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> torque{{{}, {0, 0, 1}}};
  s0.body_f.copy_from_host(torque.data());
  solver.step(s0, s1, c, 0.01);
  EXPECT_VEC3_NEAR(s1.body_qd.to_host()[0].lin, (vec3{}), 0);
  EXPECT_GT(s1.body_qd.to_host()[0].ang.z, 0);
  std::vector<spatial_vector> force{{{0, 2, 0}, {}}};
  s0.body_f.copy_from_host(force.data());
  solver.step(s0, s1, c, 0.01);
  EXPECT_VEC3_NEAR(s1.body_qd.to_host()[0].lin, (vec3{0, 0.02, 0}), 1e-15);  // h f / m with m = 1 kg
  EXPECT_VEC3_NEAR(s1.body_qd.to_host()[0].ang, (vec3{}), 0);                // although c^B != 0
}

RC_GTEST_PROP(E1_6_free_joint_qd, FreeJointVelocityIsExpressedInTheParentJointFrame, ()) {
  transform X_pj = *gen::rigid_transform(1);
  ModelBuilder b;
  MassProperties mp = kUnit;
  mp.com = *gen::vector(0.2);
  int body = b.add_link(kI, mp);
  b.add_articulation({b.add_joint_free(body, X_pj)});
  Model m = b.finalize();
  std::vector<real> q(7, 0), qd(6);
  q[6] = 1;
  for (real& x : qd) x = *gen::in_range(-2, 2);
  State s = m.state();
  Buffer<real> bq(Device::cpu, q), bqd(Device::cpu, qd);
  eval_fk(m, bq.view(), bqd.view(), s);
  spatial_vector v = s.body_qd.to_host()[0];
  RC_ASSERT(tol::near(v.lin, quat_rotate(X_pj.q, {qd[0], qd[1], qd[2]}), 1e-12));
  RC_ASSERT(tol::near(v.ang, quat_rotate(X_pj.q, {qd[3], qd[4], qd[5]}), 1e-12));
}

RC_GTEST_PROP(E1_6_free_joint_f, JointForceIsWorldAtTheChildComWhateverTheParentFrame, ()) {
  transform X_pj = *gen::rigid_transform(1);
  vec3 F = *gen::vector(10);
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  MassProperties mp = kUnit;
  mp.mass = 2;
  mp.com = *gen::vector(0.2);
  int body = b.add_link(kI, mp);
  b.add_articulation({b.add_joint_free(body, X_pj)});
  Model m = b.finalize();
  Control c = m.control();
  for (int k = 0; k < 3; ++k) c.joint_f[k] = (&F.x)[k];
  State s0 = m.state(), s1 = m.state();
  SolverRigidPredictor solver(m);
  solver.step(s0, s1, c, 0.01);
  RC_ASSERT(tol::near(s1.body_qd.to_host()[0].lin, 0.01 * F / 2, 1e-12));  // a_C = F/m in world
  RC_ASSERT(tol::near(s1.body_qd.to_host()[0].ang, vec3{}, 0));           // at the COM: no torque
}

TEST(E1_6_spatial_layout_table, EveryRowsOrderFrameAndReferencePoint) {
  // body_qd: (v_C, omega) linear first, world, at the COM -> the origin moves with v_C - omega x R c^B.
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  int body = b.add_body();
  b.add_shape_box(body, {vec3{0.1, 0, 0}, quat_identity()}, 0.1, 0.05, 0.025);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> v{{{0, 0, 0}, {0, 0, 2}}};
  s0.body_qd.copy_from_host(v.data());
  Control c = m.control();
  SolverRigidPredictor solver(m);
  const real h = 1e-5;
  solver.step(s0, s1, c, h);
  EXPECT_VEC3_NEAR(s1.body_q.to_host()[0].p / h, (vec3{0, -0.2, 0}), 1e-5);  // exercise 3's number
  // body_f: (f, tau_C) linear first: a force in the first three moves the COM.
  std::vector<spatial_vector> f{{{1, 0, 0}, {}}};
  s0.body_f.copy_from_host(f.data());
  solver.step(s0, s1, c, 1);
  EXPECT_NEAR(s1.body_qd.to_host()[0].lin.x, 1, 1e-12);
  // FREE joint_qd in the parent joint frame and joint_f in world: see E1_6_free_joint_qd / _f.
}
