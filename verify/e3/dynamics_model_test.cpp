// Tests of lib/e3/dynamics_model.h (course E3 §1), against dense algebra done another way.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/Dense>

#include "e3/dynamics_model.h"
#include "support/generators.h"

using namespace impulse;

namespace {

// Random SPD matrix A A^T + n I with entries in [-1, 1].
Eigen::MatrixXd spd(int n) {
  Eigen::MatrixXd A(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = *gen::in_range(-1, 1);
  return A * A.transpose() + n * Eigen::MatrixXd::Identity(n, n);
}
Eigen::MatrixXd dense(int r, int c, real s) {
  Eigen::MatrixXd A(r, c);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) A(i, j) = *gen::in_range(-s, s);
  return A;
}

}  // namespace

// --- E3.1-discrete-dynamics ----------------------------------------------------------------------

RC_GTEST_PROP(E3_1_discrete_dynamics, FreeStepAndMomentumBalance, ()) {
  const int n = *rc::gen::inRange(1, 7), m = *rc::gen::inRange(1, 4);
  const Eigen::MatrixXd M = spd(n), J = dense(m, n, 1);
  const Eigen::VectorXd v = dense(n, 1, 2), f = dense(n, 1, 10), p = dense(m, 1, 1);
  const double h = *gen::in_range(1e-4, 1e-2);
  // p = 0: v+ = v + h M^-1 f (checked through M v+ = M v + h f, i.e. without inverting M).
  const Eigen::VectorXd v0 = discrete_velocity_update(M, v, h, f, J, Eigen::VectorXd::Zero(m));
  RC_ASSERT((M * (v0 - v) - h * f).norm() <= 1e-9 * (1 + f.norm()));
  const Eigen::VectorXd v1 = discrete_velocity_update(M, v, h, f, J, p);
  RC_ASSERT((M * (v1 - v) - h * f - J.transpose() * p).norm() <= 1e-9 * (1 + f.norm() + p.norm()));
}

TEST(E3_1_discrete_dynamics, GoldenPointMassUnderGravity) {
  // m = 2 kg, v = 0, h = 0.01 s, f = (0, 0, -19.62) N: v+ = (0, 0, -0.0981) m/s.
  Eigen::MatrixXd M = 2 * Eigen::MatrixXd::Identity(3, 3);
  Eigen::VectorXd v = discrete_velocity_update(M, Eigen::Vector3d::Zero(), 0.01, Eigen::Vector3d(0, 0, -19.62),
                                               Eigen::MatrixXd::Zero(1, 3), Eigen::VectorXd::Zero(1));
  EXPECT_NEAR(v[2], -0.0981, 1e-15);
}

// --- E3.1-delassus -------------------------------------------------------------------------------

RC_GTEST_PROP(E3_1_delassus, SymmetricPositiveSemidefinite, ()) {
  const int n = *rc::gen::inRange(1, 7), m = *rc::gen::inRange(1, 5);
  const Eigen::MatrixXd W = delassus_operator(spd(n), dense(m, n, 1));
  RC_ASSERT((W - W.transpose()).norm() <= 1e-12 * (1 + W.norm()));
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(W);
  RC_ASSERT(es.eigenvalues().minCoeff() >= -1e-10 * (1 + W.norm()));
}

RC_GTEST_PROP(E3_1_delassus, SingleNormalRowEqualsTheScalarInverseMass, ()) {
  // W of one normal row between two bodies with diagonal world inertia equals
  // w = 1/m_A + 1/m_B + (r_A x n)^T I_A^-1 (r_A x n) + (r_B x n)^T I_B^-1 (r_B x n).
  const real mA = *gen::in_range(0.1, 10), mB = *gen::in_range(0.1, 10);
  const vec3 IA{*gen::in_range(0.01, 1), *gen::in_range(0.01, 1), *gen::in_range(0.01, 1)};
  const vec3 IB{*gen::in_range(0.01, 1), *gen::in_range(0.01, 1), *gen::in_range(0.01, 1)};
  const vec3 rA = *gen::vector(1), rB = *gen::vector(1), n = *gen::unit_vector();
  const vec3 ca = cross(rA, n), cb = cross(rB, n);
  const real w = 1 / mA + 1 / mB + ca.x * ca.x / IA.x + ca.y * ca.y / IA.y + ca.z * ca.z / IA.z + cb.x * cb.x / IB.x +
                 cb.y * cb.y / IB.y + cb.z * cb.z / IB.z;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(12, 12);
  for (int k = 0; k < 3; ++k) M(k, k) = mA, M(6 + k, 6 + k) = mB;
  M(3, 3) = IA.x, M(4, 4) = IA.y, M(5, 5) = IA.z, M(9, 9) = IB.x, M(10, 10) = IB.y, M(11, 11) = IB.z;
  Eigen::MatrixXd J(1, 12);
  J << -n.x, -n.y, -n.z, -ca.x, -ca.y, -ca.z, n.x, n.y, n.z, cb.x, cb.y, cb.z;
  RC_ASSERT(std::abs(delassus_operator(M, J)(0, 0) - w) <= 1e-9 * w);
}

// --- E3.1-ncp ------------------------------------------------------------------------------------

TEST(E3_1_ncp, ResidualsOfTheThreeCases) {
  // Contact active and sticking: p_n > 0, u_n = 0, ||p_t|| < mu p_n -> all zero.
  NcpResidual r = ncp_residual(2, 0, {0.5, 0, 0}, 0.5);
  EXPECT_EQ(r.normal_sign, 0);
  EXPECT_EQ(r.complementarity, 0);
  EXPECT_EQ(r.friction_cone, 0);
  // Separating with force: complementarity violated by p_n u_n.
  r = ncp_residual(2, 0.1, {}, 0.5);
  EXPECT_NEAR(r.complementarity, 0.2, 1e-15);
  // Adhesion (p_n < 0) and friction outside the cone.
  r = ncp_residual(-1, 0, {3, 4, 0}, 0.5);
  EXPECT_EQ(r.normal_sign, 1);
  EXPECT_NEAR(r.friction_cone, 5.5, 1e-15);
}

RC_GTEST_PROP(E3_1_ncp, ZeroExactlyOnTheComplementaritySet, ()) {
  const real p_n = *gen::in_range(0, 10), mu = *gen::in_range(0, 1);
  const bool active = *rc::gen::arbitrary<bool>();
  const real u_n = active ? 0 : *gen::in_range(0.001, 1);
  const real pn = active ? p_n : 0;
  const vec3 dir = *gen::unit_vector();
  const NcpResidual r = ncp_residual(pn, u_n, (*gen::in_range(0, 1) * mu * pn) * dir, mu);
  RC_ASSERT(r.normal_sign == 0 && r.complementarity == 0 && r.friction_cone <= 1e-12);
}
