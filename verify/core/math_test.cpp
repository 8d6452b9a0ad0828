// Tests of lib/core/math.h: rigid transforms and quaternions (course E1 §2).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "core/math.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

constexpr real kPi = 3.14159265358979323846;

// E1.2-rigid-transform: composition applies the inner transform first, and T^-1 T is the identity.
RC_GTEST_PROP(E1_2_rigid_transform, CompositionAppliesInnerFirst, ()) {
  transform a = *gen::rigid_transform(5), b = *gen::rigid_transform(5);
  vec3 x = *gen::vector(3);
  RC_ASSERT(tol::near(transform_point(transform_multiply(a, b), x), transform_point(a, transform_point(b, x)), 1e-9));
}

RC_GTEST_PROP(E1_2_rigid_transform, InverseUndoes, ()) {
  transform t = *gen::rigid_transform(5);
  vec3 x = *gen::vector(3);
  RC_ASSERT(tol::near(transform_point(transform_multiply(transform_inverse(t), t), x), x, 1e-9));
  RC_ASSERT(tol::near(transform_point(transform_inverse(t), transform_point(t, x)), x, 1e-9));
}

// Oracle: x^W = R x^B + p with R built as an explicit matrix from the quaternion.
RC_GTEST_PROP(E1_2_rigid_transform, MatchesMatrixForm, ()) {
  transform t = *gen::rigid_transform(5);
  vec3 x = *gen::vector(3);
  RC_ASSERT(tol::near(transform_point(t, x), quat_to_mat33(t.q) * x + t.p, 1e-9));
}

TEST(E1_2_rigid_transform, GoldenQuarterTurnAboutZ) {
  // Analytic: +90 deg about z maps body x to world y; then translate by p.
  transform t{{1, 2, 3}, quat_from_axis_angle({0, 0, 1}, kPi / 2)};
  EXPECT_VEC3_NEAR(transform_point(t, {1, 0, 0}), (vec3{1, 3, 3}), 1e-12);
}

RC_GTEST_PROP(E1_2_rotation_orthonormal, RtRIsIdentityAndDetIsOne, ()) {
  mat33 R = quat_to_mat33(*gen::unit_quat());
  mat33 E = transpose(R) * R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) RC_ASSERT(std::abs(E.m[i][j] - (i == j ? 1.0 : 0.0)) < 1e-12);
  RC_ASSERT(std::abs(determinant(R) - 1) < 1e-12);
}

RC_GTEST_PROP(E1_2_point_vs_vector, VectorsIgnoreTranslation, ()) {
  transform t = *gen::rigid_transform(5);
  vec3 v = *gen::vector(3);
  transform moved{t.p + vec3{1, -2, 0.5}, t.q};
  RC_ASSERT(tol::near(transform_vector(t, v), transform_vector(moved, v), 1e-12));
  RC_ASSERT(tol::near(transform_vector(t, v), quat_rotate(t.q, v), 1e-12));
  RC_ASSERT(tol::near(transform_point(t, v), quat_rotate(t.q, v) + t.p, 1e-12));
}

RC_GTEST_PROP(E1_2_quat_xyzw, MinusQIsTheSameRotation, ()) {
  quat q = *gen::unit_quat();
  vec3 v = *gen::vector(3);
  RC_ASSERT(tol::near(quat_rotate(q, v), quat_rotate(quat_negate(q), v), 1e-12));
  RC_ASSERT(std::abs(quat_norm(q) - 1) < 1e-12);
}

TEST(E1_2_quat_xyzw, ScalarIsStoredLast) {
  // Identity has w = 1 in the fourth slot; a +90 deg turn about z has its sin term in z, cos in w.
  quat id = quat_identity();
  EXPECT_EQ(id.w, 1.0);
  EXPECT_EQ(id.x, 0.0);
  quat q = quat_from_axis_angle({0, 0, 1}, kPi / 2);
  EXPECT_NEAR(q.z, std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(q.w, std::sqrt(0.5), 1e-15);
  EXPECT_EQ(q.x, 0.0);
  // Putting roll/pitch/yaw into the first three slots is not a rotation (norm != 1 in general).
  quat wrong{0.1, 0.2, 0.3, 0};
  EXPECT_GT(std::abs(quat_norm(wrong) - 1), 0.5);
}

TEST(E1_2_axis_angle, GoldenCourseValues) { golden::expect_course_values("E1.2-axis-angle"); }

RC_GTEST_PROP(E1_2_axis_angle, AxisIsFixedAndPerpendicularVectorsTurnByTheta, ()) {
  vec3 a = *gen::unit_vector();
  real theta = *gen::in_range(-3.0, 3.0);
  quat q = quat_from_axis_angle(a, theta);
  RC_ASSERT(std::abs(quat_norm(q) - 1) < 1e-12);
  RC_ASSERT(tol::near(quat_rotate(q, a), a, 1e-12));
  // A vector perpendicular to a turns by theta, counter-clockwise about a (right-hand rule).
  vec3 helper = std::abs(a.x) < 0.9 ? vec3{1, 0, 0} : vec3{0, 1, 0};
  vec3 u = normalize(cross(a, helper));
  vec3 ru = quat_rotate(q, u);
  real cos_t = dot(u, ru), sin_t = dot(cross(u, ru), a);
  RC_ASSERT(std::abs(std::atan2(sin_t, cos_t) - theta) < 1e-9);
}
