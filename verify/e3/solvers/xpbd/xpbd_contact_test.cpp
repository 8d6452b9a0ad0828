// Tests of lib/e3/solvers/xpbd/xpbd_contact.h: the XPBD per-contact formulas (course E3 §4-§5).
#include <Eigen/Dense>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "e3/solvers/xpbd/xpbd_contact.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

// A random SPD world inverse inertia: R diag(k) R^T with k in [0.1, 10] 1/(kg m^2).
mat33 random_inv_inertia() {
  mat33 R = quat_to_mat33(*gen::unit_quat());
  vec3 k{*gen::in_range(0.1, 10), *gen::in_range(0.1, 10), *gen::in_range(0.1, 10)};
  return R * mat33_diag(k) * transpose(R);
}

Eigen::Matrix3d to_eigen(const mat33& m) {
  Eigen::Matrix3d e;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e(i, j) = m.m[i][j];
  return e;
}
Eigen::Vector3d to_eigen(vec3 v) { return {v.x, v.y, v.z}; }

}  // namespace

// Oracle: w is the 1x1 Delassus operator J M^-1 J^T of the normal constraint, with the Jacobian
// J = [-n^T, -(r_A x n)^T, n^T, (r_B x n)^T] and the 12x12 block-diagonal inverse mass matrix.
RC_GTEST_PROP(E3_4_xpbd_w, OracleEqualsDenseDelassus, ()) {
  real im_A = *gen::in_range(0.01, 10), im_B = *gen::in_range(0.01, 10);
  mat33 iI_A = random_inv_inertia(), iI_B = random_inv_inertia();
  vec3 r_A = *gen::vector(1), r_B = *gen::vector(1), n = *gen::unit_vector();
  Eigen::Matrix<double, 1, 12> J;
  J << -to_eigen(n).transpose(), -to_eigen(cross(r_A, n)).transpose(), to_eigen(n).transpose(),
      to_eigen(cross(r_B, n)).transpose();
  Eigen::Matrix<double, 12, 12> Minv = Eigen::Matrix<double, 12, 12>::Zero();
  Minv.block<3, 3>(0, 0) = im_A * Eigen::Matrix3d::Identity();
  Minv.block<3, 3>(3, 3) = to_eigen(iI_A);
  Minv.block<3, 3>(6, 6) = im_B * Eigen::Matrix3d::Identity();
  Minv.block<3, 3>(9, 9) = to_eigen(iI_B);
  double dense = (J * Minv * J.transpose())(0, 0);
  double w = xpbd_inverse_effective_mass(im_A, iI_A, r_A, im_B, iI_B, r_B, n);
  RC_ASSERT(std::abs(w - dense) <= 1e-10 * std::max(1.0, dense));
  RC_ASSERT(w > 0);
  RC_ASSERT(std::abs(w - xpbd_inverse_effective_mass(im_B, iI_B, r_B, im_A, iI_A, r_A, n)) <= 1e-12 * w);  // symmetric in A/B
}

RC_GTEST_PROP(E3_4_xpbd_w, LeverAlongNormalLeavesOnlyMasses, ()) {
  real im_A = *gen::in_range(0.01, 10), im_B = *gen::in_range(0.01, 10);
  vec3 n = *gen::unit_vector();
  real a = *gen::in_range(-1, 1), b = *gen::in_range(-1, 1);
  real w = xpbd_inverse_effective_mass(im_A, random_inv_inertia(), a * n, im_B, random_inv_inertia(), b * n, n);
  RC_ASSERT(std::abs(w - (im_A + im_B)) < 1e-12);
}

TEST(E3_4_xpbd_w, GoldenDerivedValue) { golden::expect_course_values("E3.4-xpbd-w"); }

// A kinematic or static side has zero effective inverse mass and inertia: w is the dynamic side's alone.
RC_GTEST_PROP(E3_4_xpbd_w_kinematic, KinematicSideAddsNothing, ()) {
  real im_A = *gen::in_range(0.01, 10);
  mat33 iI_A = random_inv_inertia();
  vec3 r_A = *gen::vector(1), r_B = *gen::vector(1), n = *gen::unit_vector();
  real both = xpbd_inverse_effective_mass(im_A, iI_A, r_A, 0, mat33{}, r_B, n);
  vec3 a = cross(r_A, n);
  RC_ASSERT(std::abs(both - (im_A + dot(a, iI_A * a))) < 1e-12);
}

TEST(E3_4_xpbd_pn, GoldenCourseValues) { golden::expect_course_values("E3.4-xpbd-pn"); }

RC_GTEST_PROP(E3_4_xpbd_pn, LinearInDepthAndRelaxationInverseInStepAndW, ()) {
  real d = -*gen::in_range(1e-5, 0.1), h = *gen::in_range(1e-4, 0.05), w = *gen::in_range(0.01, 100),
       omega = *gen::in_range(0.05, 1);
  real p = xpbd_normal_impulse(d, h, w, omega);
  RC_ASSERT(p > 0);
  RC_ASSERT(std::abs(xpbd_normal_impulse(2 * d, h, w, omega) - 2 * p) <= 1e-12 * p);
  RC_ASSERT(std::abs(xpbd_normal_impulse(d, h, w, omega / 2) - p / 2) <= 1e-12 * p);
  RC_ASSERT(std::abs(xpbd_normal_impulse(d, 2 * h, w, omega) - p / 2) <= 1e-12 * p);
  RC_ASSERT(std::abs(xpbd_normal_impulse(d, h, 2 * w, omega) - p / 2) <= 1e-12 * p);
  RC_ASSERT(xpbd_normal_impulse(-d, h, w, omega) == 0);  // separated or inside the gap: nothing
}

// Applying -n p_n to A and +n p_n to B (velocity update, then x += h dv) closes the linearised gap
// by exactly relaxation * (-d): the physical meaning of the formula, checked through the sides.
RC_GTEST_PROP(E3_4_xpbd_pn_sides, ImpulsesOnBothSidesCloseTheGapByRelaxationTimesDepth, ()) {
  real im_A = *gen::in_range(0.01, 10), im_B = *gen::in_range(0.01, 10);
  mat33 iI_A = random_inv_inertia(), iI_B = random_inv_inertia();
  vec3 r_A = *gen::vector(1), r_B = *gen::vector(1), n = *gen::unit_vector();
  real d = -*gen::in_range(1e-5, 0.05), h = *gen::in_range(1e-4, 0.02), omega = *gen::in_range(0.1, 1);
  real w = xpbd_inverse_effective_mass(im_A, iI_A, r_A, im_B, iI_B, r_B, n);
  real p = xpbd_normal_impulse(d, h, w, omega);
  vec3 P_A = -p * n, P_B = p * n;  // the sides
  RC_ASSERT(tol::near(P_A + P_B, vec3{}, 1e-15));
  vec3 dv_A = im_A * P_A, dw_A = iI_A * cross(r_A, P_A);
  vec3 dv_B = im_B * P_B, dw_B = iI_B * cross(r_B, P_B);
  // change of the separation of the two contact points along n over one step
  real dd = h * dot(n, (dv_B + cross(dw_B, r_B)) - (dv_A + cross(dw_A, r_A)));
  RC_ASSERT(std::abs(dd - omega * (-d)) <= 1e-9 * std::abs(d));
  RC_ASSERT(dot(P_B, n) > 0);  // B is pushed along +n, away from A
}

TEST(E3_4_impulse_to_force, GoldenCourseValues) { golden::expect_course_values("E3.4-impulse-to-force"); }

TEST(E3_4_impulse_to_force, DividesByStepOnceNotTwice) {
  EXPECT_DOUBLE_EQ(impulse_to_average_force(0.8, 0.001), 800);
  EXPECT_NE(impulse_to_average_force(0.8, 0.001), 0.8 / (0.001 * 0.001));
}

RC_GTEST_PROP(E3_4_joint_helper_denominator, ZeroComplianceReducesToContactDenominator, ()) {
  real h = *gen::in_range(1e-4, 0.05), w = *gen::in_range(0.01, 100), b = *gen::in_range(0, 10);
  RC_ASSERT(xpbd_joint_denominator(h, w, 0, b) == h * w);
  real alpha = *gen::in_range(1e-6, 1);
  RC_ASSERT(xpbd_joint_denominator(h, w, alpha, b) > h * w);  // compliance always softens the correction
}

RC_GTEST_PROP(E3_4_friction_limit, IncrementNeverExceedsMuTimesNormal, ()) {
  vec3 dp = *gen::vector(5);
  real mu = *gen::in_range(0, 1.5), p_n = *gen::in_range(0, 3);
  vec3 out = clamp_friction_increment(dp, mu, p_n);
  RC_ASSERT(length(out) <= mu * p_n + 1e-12);
  if (length(dp) <= mu * p_n) RC_ASSERT(tol::near(out, dp, 0.0));
  else if (length(out) > 0) RC_ASSERT(length(cross(out, dp)) <= 1e-9 * length(dp) * length(out));  // same direction
}

RC_GTEST_PROP(E3_4_torsion_rolling_limit, TorsionAndRollingAreBoundedSeparately, ()) {
  vec3 dL = *gen::vector(5), n = *gen::unit_vector();
  real mt = *gen::in_range(0, 0.2), mr = *gen::in_range(0, 0.2), p_n = *gen::in_range(0, 3);
  vec3 out = clamp_angular_friction_increment(dL, n, mt, mr, p_n);
  real tor = dot(out, n);
  RC_ASSERT(std::abs(tor) <= mt * p_n + 1e-12);
  RC_ASSERT(length(out - tor * n) <= mr * p_n + 1e-12);
}

TEST(E3_4_readback_scale, GoldenCourseValues) { golden::expect_course_values("E3.4-readback-scale"); }

RC_GTEST_PROP(E3_4_readback_scale, HarmonicMeanBetweenTheTwoSides, ()) {
  int na = *rc::gen::inRange(1, 50), nb = *rc::gen::inRange(1, 50);
  real s = contact_readback_scale(0, na, 1, nb);
  RC_ASSERT(std::abs(s - 2.0 / (1.0 / (1.0 / na) + 1.0 / (1.0 / nb))) < 1e-15);
  RC_ASSERT(s >= std::min(1.0 / na, 1.0 / nb) - 1e-15 && s <= std::max(1.0 / na, 1.0 / nb) + 1e-15);
  RC_ASSERT(contact_readback_scale(0, na, -1, 0) == 1.0 / na);
}

TEST(E3_4_count_by_body_id, GoldenStaticAgainstKinematic) { golden::expect_course_values("E3.4-count-by-body-id"); }

TEST(E3_5_gstar, GoldenDerivedValue) { golden::expect_course_values("E3.5-gstar"); }

TEST(E3_5_gstar, OnlySidesWithABodyIdCount) {
  EXPECT_DOUBLE_EQ(restitution_gstar(-1, {0, 0, -20}, 3, {0, -9.81, 0}), 9.81);
  EXPECT_DOUBLE_EQ(restitution_gstar(2, {0, 0, -20}, 3, {0, -9.81, 0}), 20);
}

TEST(E3_5_target_velocity, GoldenDerivedValues) { golden::expect_course_values("E3.5-target-velocity"); }

RC_GTEST_PROP(E3_5_target_velocity, BouncesOnlyBelowTheThreshold, ()) {
  real g = *gen::in_range(1, 20), h = *gen::in_range(1e-4, 0.02), e = *gen::in_range(0, 1), v = *gen::in_range(-5, 5);
  real t = restitution_target_velocity(v, e, g, h);
  if (v < -2 * g * h) RC_ASSERT(t == -e * v);
  else if (v > 2 * g * h) RC_ASSERT(t == v);
  else RC_ASSERT(t == 0);
  RC_ASSERT(t >= 0);  // never a target that pulls the bodies together
}
