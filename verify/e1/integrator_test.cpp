// Tests of lib/e1/integrator.h: the §10 rigid-body prediction (course E1 §3, §10).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <omp.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstring>

#include "e1/integrator.h"
#include "e1/model.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

const transform kI = transform_identity();

Eigen::Vector3d E(vec3 v) { return {v.x, v.y, v.z}; }
vec3 V(const Eigen::Vector3d& v) { return {v(0), v(1), v(2)}; }

// A random asymmetric, valid inertia: R diag(a, b, c) R^T with a triangle-respecting diagonal.
mat33 random_inertia() {
  real a = *gen::in_range(0.5, 2), b = *gen::in_range(0.5, 2);
  real c = *gen::in_range(std::abs(a - b) + 0.05, a + b - 0.05);
  mat33 R = quat_to_mat33(*gen::unit_quat());
  return R * mat33_diag({a, b, c}) * transpose(R);
}

// Oracle: the §10 step written with Eigen matrices and Eigen quaternions (w first), independently of
// lib/e1/integrator.h.
void oracle_step(const transform& X, const spatial_vector& v, const spatial_vector& f, vec3 cB, const mat33& I, real m,
                 vec3 g, real d, real h, transform& X1, spatial_vector& v1) {
  Eigen::Matrix3d Ib;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Ib(i, j) = I.m[i][j];
  Eigen::Quaterniond q(X.q.w, X.q.x, X.q.y, X.q.z);
  Eigen::Matrix3d R = q.toRotationMatrix();
  Eigen::Vector3d c = E(X.p) + R * E(cB);
  Eigen::Vector3d vn = E(v.lin) + h * (E(f.lin) / m + E(g));
  c += h * vn;
  Eigen::Vector3d wb = R.transpose() * E(v.ang);
  Eigen::Vector3d wt = R * (wb + h * Ib.inverse() * (R.transpose() * E(f.ang) - wb.cross(Ib * wb)));
  Eigen::Quaterniond dq(0, wt(0), wt(1), wt(2));
  Eigen::Quaterniond qd = dq * q;
  Eigen::Quaterniond q1(q.w() + 0.5 * h * qd.w(), q.x() + 0.5 * h * qd.x(), q.y() + 0.5 * h * qd.y(), q.z() + 0.5 * h * qd.z());
  q1.normalize();
  X1 = {V(c - q1.toRotationMatrix() * E(cB)), quat{q1.x(), q1.y(), q1.z(), q1.w()}};
  v1 = {V(vn), V(wt * (1 - d * h))};
}

struct Sample {
  transform X;
  spatial_vector v, f;
  vec3 cB, g;
  mat33 I;
  real m, d, h;
};

Sample random_sample() {
  return {*gen::rigid_transform(2), {*gen::vector(3), *gen::vector(5)}, {*gen::vector(10), *gen::vector(2)},
          *gen::vector(0.3), *gen::vector(10), random_inertia(), *gen::in_range(0.1, 10), *gen::in_range(0, 2),
          *gen::in_range(1e-4, 0.02)};
}

}  // namespace

// --- E1.10-predictor-scope ----------------------------------------------------------------------------

RC_GTEST_PROP(E1_10_predictor_scope, OracleDynamicBodyMatchesTheIndependentEigenStep, ()) {
  Sample s = random_sample();
  transform X1, Xo;
  spatial_vector v1, vo;
  integrate_rigid_body(s.X, s.v, s.f, s.cB, s.I, inverse(s.I), 1 / s.m, s.g, s.d, s.h, X1, v1);
  oracle_step(s.X, s.v, s.f, s.cB, s.I, s.m, s.g, s.d, s.h, Xo, vo);
  RC_ASSERT(tol::near(X1.p, Xo.p, 1e-9));
  RC_ASSERT(tol::same_rotation(X1.q, Xo.q, 1e-12));
  RC_ASSERT(tol::near(v1.lin, vo.lin, 1e-9));
  RC_ASSERT(tol::near(v1.ang, vo.ang, 1e-9));
}

TEST(E1_10_predictor_scope, GpuMatchesCpu) {
  if (!cuda_built() || cuda_device_count() == 0) GTEST_SKIP() << "no CUDA GPU";
  ModelBuilder b;
  for (int i = 0; i < 100; ++i) {
    int body = b.add_body({vec3{real(i), 0, 1}, quat_from_axis_angle({1, real(i), 2}, 0.1 * i)});
    b.add_shape_box(body, {vec3{0.1, 0, 0}, quat_identity()}, 0.1, 0.05, 0.025);
  }
  Model mc = b.finalize(Device::cpu), mg = b.finalize(Device::cuda);
  std::vector<spatial_vector> v(100);
  for (int i = 0; i < 100; ++i) v[i] = {{0, 0.01 * i, 0}, {1, -0.02 * i, 3}};
  State c0 = mc.state(), c1 = mc.state(), g0 = mg.state(), g1 = mg.state();
  c0.body_qd.copy_from_host(v.data());
  g0.body_qd.copy_from_host(v.data());
  Control cc = mc.control(), cg = mg.control();
  SolverRigidPredictor sc(mc), sg(mg);
  for (int k = 0; k < 50; ++k) {
    sc.step(c0, c1, cc, 0.004);
    sg.step(g0, g1, cg, 0.004);
    std::swap(c0, c1);
    std::swap(g0, g1);
  }
  std::vector<transform> a = c0.body_q.to_host(), g = g0.body_q.to_host();
  for (int i = 0; i < 100; ++i) {
    EXPECT_VEC3_NEAR(a[i].p, g[i].p, 1e-12);
    EXPECT_TRUE(tol::near(a[i].q, g[i].q, 1e-12));
  }
}

TEST(E1_10_predictor_scope, DeterminismBitwiseForAnyThreadCount) {
  ModelBuilder b;
  for (int i = 0; i < 2000; ++i) {
    int body = b.add_body({vec3{real(i), 0, 1}, quat_from_axis_angle({1, real(i % 13), 2}, 0.01 * i)});
    b.add_shape_box(body, {vec3{0.1, 0, 0}, quat_identity()}, 0.1, 0.05, 0.025);
  }
  Model m = b.finalize();
  std::vector<spatial_vector> v(2000);
  for (int i = 0; i < 2000; ++i) v[i] = {{0, 0.01 * i, 0}, {1, -0.002 * i, 3}};
  std::vector<transform> result[2];
  const int saved = omp_get_max_threads();
  for (int k = 0; k < 2; ++k) {
    omp_set_num_threads(k == 0 ? 1 : 4);
    State s0 = m.state(), s1 = m.state();
    s0.body_qd.copy_from_host(v.data());
    Control c = m.control();
    SolverRigidPredictor solver(m, 0.1);
    for (int n = 0; n < 20; ++n) {
      solver.step(s0, s1, c, 0.004);
      std::swap(s0, s1);
    }
    result[k] = s0.body_q.to_host();
  }
  omp_set_num_threads(saved);
  EXPECT_EQ(std::memcmp(result[0].data(), result[1].data(), sizeof(transform) * result[0].size()), 0);
}

// --- E1.10-linear-update -----------------------------------------------------------------------------

TEST(E1_10_linear_update, GoldenOneStepOfFreeFallFromRest) {
  golden::expect_course_values("E1.10-linear-update");
  ModelBuilder b;
  int body = b.add_body({vec3{0, 0, 1}, quat_identity()});
  b.add_shape_box(body, {vec3{0.1, 0, 0}, quat_identity()}, 0.10, 0.05, 0.025);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverRigidPredictor(m).step(s0, s1, c, 0.01);
  EXPECT_VEC3_NEAR(s1.body_qd.to_host()[0].lin, (vec3{0, 0, -0.0981}), 1e-15);
  EXPECT_VEC3_NEAR(s1.body_q.to_host()[0].p - s0.body_q.to_host()[0].p, (vec3{0, 0, -0.000981}), 1e-15);
}

// Whole-simulation check against the analytic energy error of semi-implicit Euler in uniform
// gravity: E_{n+1} - E_n = -m g^2 h^2 / 2 exactly (from v1 = v0 - g h, z1 = z0 + h v1).
TEST(E1_10_linear_update, SimFreeFallLosesMgSquaredHSquaredOverTwoPerStep) {
  ModelBuilder b;
  int body = b.add_body({vec3{0, 0, 10}, quat_identity()});
  b.add_shape_box(body, kI, 0.10, 0.05, 0.025);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  SolverRigidPredictor solver(m);
  const real h = 1.0 / 240, g = 9.81;
  auto energy = [&](const State& s) {
    real v = s.body_qd.to_host()[0].lin.z, z = s.body_q.to_host()[0].p.z;
    return 0.5 * v * v + g * z;  // m = 1 kg
  };
  const real e0 = energy(s0);
  const int n = 480;
  for (int i = 0; i < n; ++i) {
    solver.step(s0, s1, c, h);
    std::swap(s0, s1);
  }
  EXPECT_NEAR(energy(s0) - e0, -n * g * g * h * h / 2, 1e-9);
}

// --- E1.10-angular-update ------------------------------------------------------------------------------

RC_GTEST_PROP(E1_10_angular_update, IsotropicInertiaWithoutTorqueKeepsOmega, ()) {
  real i = *gen::in_range(0.01, 2);
  mat33 I = mat33_diag({i, i, i});
  vec3 w = *gen::vector(10);
  RC_ASSERT(tol::near(angular_update(*gen::unit_quat(), w, {}, I, inverse(I), 0.01), w, 1e-12));
}

RC_GTEST_PROP(E1_10_angular_update, RotatingTheInputsRotatesTheOutput, ()) {
  mat33 I = random_inertia();
  quat q = *gen::unit_quat(), Q = *gen::unit_quat();
  vec3 w = *gen::vector(5), tau = *gen::vector(2);
  vec3 a = angular_update(q, w, tau, I, inverse(I), 0.01);
  vec3 b = angular_update(quat_mul(Q, q), quat_rotate(Q, w), quat_rotate(Q, tau), I, inverse(I), 0.01);
  RC_ASSERT(tol::near(quat_rotate(Q, a), b, 1e-10));
}

TEST(E1_10_angular_update, GoldenAsymmetricInertiaAgainstTheDirectFormula) {
  // Body axes = world axes (R = I), I = diag(1, 2, 3) kg m^2, omega = (1, 1, 0) rad/s, tau = 0, h = 0.1 s:
  // omega x I omega = (1,1,0) x (1,2,0) = (0, 0, 1); I^-1 (-(0,0,1)) = (0, 0, -1/3); omega~ = (1, 1, -1/30).
  mat33 I = mat33_diag({1, 2, 3});
  EXPECT_VEC3_NEAR(angular_update(quat_identity(), {1, 1, 0}, {}, I, inverse(I), 0.1), (vec3{1, 1, -1.0 / 30}), 1e-15);
}

// --- E1.10-quat-update ---------------------------------------------------------------------------------

RC_GTEST_PROP(E1_10_quat_update, UnitNormAndOriginComConsistency, ()) {
  Sample s = random_sample();
  transform X1;
  spatial_vector v1;
  integrate_rigid_body(s.X, s.v, s.f, s.cB, s.I, inverse(s.I), 1 / s.m, s.g, s.d, s.h, X1, v1);
  RC_ASSERT(std::abs(quat_norm(X1.q) - 1) < 1e-14);
  vec3 c1 = world_com(s.X, s.cB) + s.h * v1.lin;
  RC_ASSERT(tol::near(X1.p + quat_rotate(X1.q, s.cB), c1, 1e-12));
}

TEST(E1_10_quat_update, SimSpinAboutAPrincipalAxisTurnsByOmegaT) {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  int body = b.add_body();
  b.add_shape_box(body, kI, 0.10, 0.05, 0.025);
  Model m = b.finalize();
  State s0 = m.state(), s1 = m.state();
  std::vector<spatial_vector> v{{{}, {0, 0, 2}}};
  s0.body_qd.copy_from_host(v.data());
  Control c = m.control();
  SolverRigidPredictor solver(m);
  const int n = 500;
  const real h = 1e-3;
  for (int i = 0; i < n; ++i) {
    solver.step(s0, s1, c, h);
    std::swap(s0, s1);
  }
  quat q = s0.body_q.to_host()[0].q;
  EXPECT_NEAR(2 * std::atan2(q.z, q.w), 2 * n * h, 1e-6);  // 1 rad after 0.5 s at 2 rad/s
}

// --- E1.10-angular-damping-order ---------------------------------------------------------------------

RC_GTEST_PROP(E1_10_angular_damping_order, QuaternionIgnoresDampingAndOmegaIsScaledAfter, ()) {
  Sample s = random_sample();
  real d = *gen::in_range(0.1, 5);
  transform Xa, Xb;
  spatial_vector va, vb;
  integrate_rigid_body(s.X, s.v, s.f, s.cB, s.I, inverse(s.I), 1 / s.m, s.g, 0, s.h, Xa, va);
  integrate_rigid_body(s.X, s.v, s.f, s.cB, s.I, inverse(s.I), 1 / s.m, s.g, d, s.h, Xb, vb);
  RC_ASSERT(std::memcmp(&Xa, &Xb, sizeof(transform)) == 0);
  RC_ASSERT(tol::near(vb.ang, (1 - d * s.h) * va.ang, 1e-14 * (1 + length(va.ang))));
}

// --- E1.10-unit-check --------------------------------------------------------------------------------

// Dimensional homogeneity: rescaling metres by L, kilograms by M and seconds by T maps every input
// by its unit and must map every output by its unit ([h f/m] = m/s, [h I^-1 tau] = rad/s).
RC_GTEST_PROP(E1_10_unit_check, StepIsDimensionallyHomogeneous, ()) {
  Sample s = random_sample();
  s.d = 0;
  real L = *gen::in_range(0.01, 100), M = *gen::in_range(0.01, 100), T = *gen::in_range(0.1, 10);
  transform X1, X2;
  spatial_vector v1, v2;
  integrate_rigid_body(s.X, s.v, s.f, s.cB, s.I, inverse(s.I), 1 / s.m, s.g, 0, s.h, X1, v1);
  mat33 I2 = (M * L * L) * s.I;
  integrate_rigid_body({L * s.X.p, s.X.q}, {(L / T) * s.v.lin, (1 / T) * s.v.ang},
                       {(M * L / (T * T)) * s.f.lin, (M * L * L / (T * T)) * s.f.ang}, L * s.cB, I2, inverse(I2),
                       1 / (M * s.m), (L / (T * T)) * s.g, 0, T * s.h, X2, v2);
  RC_ASSERT(tol::near(X2.p, L * X1.p, 1e-9 * L * (1 + length(X1.p))));
  RC_ASSERT(tol::same_rotation(X2.q, X1.q, 1e-12));
  RC_ASSERT(tol::near(v2.lin, (L / T) * v1.lin, 1e-9 * (L / T) * (1 + length(v1.lin))));
  RC_ASSERT(tol::near(v2.ang, (1 / T) * v1.ang, 1e-9 / T * (1 + length(v1.ang))));
}

// --- E1.3-world-com --------------------------------------------------------------------------------------

RC_GTEST_PROP(E1_3_world_com, ComIsOriginPlusRotatedBodyCom, ()) {
  transform X = *gen::rigid_transform(3);
  vec3 c = *gen::vector(0.5);
  RC_ASSERT(tol::near(world_com(X, c), X.p + quat_to_mat33(X.q) * c, 1e-12));
}

TEST(E1_3_world_com, GoldenOffsetBoxComInWorld) { golden::expect_course_values("E1.3-world-com"); }
