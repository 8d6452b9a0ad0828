// Tests of lib/e1/spatial_shift.h, lib/e1/frames.h and lib/core/spatial.h (course E1 §2, §6).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/spatial.h"
#include "e1/frames.h"
#include "e1/spatial_shift.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

// --- E1.6-ref-point-shift ------------------------------------------------------------------------

// Oracle: the velocity of a body-fixed point is the finite difference of its world position under
// the rigid motion x(t) = R(t) x^B + p(t) with R(t) = exp(t [omega]) R0 and p(t) = p0 + t v0.
RC_GTEST_PROP(E1_6_ref_point_shift, VelocityMatchesFiniteDifference, ()) {
  vec3 p0 = *gen::vector(2), v0 = *gen::vector(3), omega = *gen::vector(3), a = *gen::vector(1);
  quat q0 = *gen::unit_quat();
  auto point_at = [&](real t) {
    real w = length(omega);
    quat dq = w > 0 ? quat_from_axis_angle(omega, w * t) : quat_identity();
    transform T{p0 + t * v0, quat_mul(dq, q0)};
    return transform_point(T, a);
  };
  const real h = 1e-6;
  vec3 fd = (point_at(h) - point_at(-h)) / (2 * h);
  vec3 r = point_at(0) - p0;  // new point minus old reference point (the body origin)
  RC_ASSERT(tol::near(shift_velocity(v0, omega, r), fd, 1e-6));
}

// Oracle: the torque about the new point of a force applied at P is (P - p_new) x f directly.
RC_GTEST_PROP(E1_6_ref_point_shift, TorqueMatchesDirectMoment, ()) {
  vec3 P = *gen::vector(2), f = *gen::vector(50), p_old = *gen::vector(2), p_new = *gen::vector(2);
  vec3 tau_old = moment_about(p_old, P, f);
  RC_ASSERT(tol::near(shift_torque(tau_old, f, p_new - p_old), cross(P - p_new, f), 1e-9));
}

TEST(E1_6_ref_point_shift, SignIsMinusForTorque) {
  // The conventions primer's "+" would give (0,0,4) here; the point definition gives 0 (E1.6-source-errata).
  vec3 tau = shift_torque({0, 0, 2}, {0, 10, 0}, {0.2, 0, 0});
  EXPECT_VEC3_NEAR(tau, (vec3{0, 0, 0}), 1e-15);
}

// --- E1.6-moment-def ---------------------------------------------------------------------------

TEST(E1_6_moment_def, GoldenCourseValues) { golden::expect_course_values("E1.6-moment-def"); }

RC_GTEST_PROP(E1_6_moment_def, ConsistentWithShift, ()) {
  vec3 O = *gen::vector(2), O2 = *gen::vector(2), P = *gen::vector(2), f = *gen::vector(20);
  RC_ASSERT(tol::near(moment_about(O2, P, f), shift_torque(moment_about(O, P, f), f, O2 - O), 1e-9));
  RC_ASSERT(tol::near(moment_about(P, P, f), vec3{}, 0.0));
}

// --- E1.6-origin-velocity ----------------------------------------------------------------------

TEST(E1_6_origin_velocity, GoldenCourseValues) { golden::expect_course_values("E1.6-origin-velocity"); }

// Oracle: for a free body with COM twist (v_C, omega), the origin p = C - R c^B moves with the
// finite-difference velocity of that expression.
RC_GTEST_PROP(E1_6_origin_velocity, MatchesFiniteDifferenceOfOrigin, ()) {
  vec3 C0 = *gen::vector(2), v_C = *gen::vector(3), omega = *gen::vector(3), c_B = *gen::vector(0.5);
  quat q0 = *gen::unit_quat();
  auto origin_at = [&](real t) {
    real w = length(omega);
    quat q = w > 0 ? quat_mul(quat_from_axis_angle(omega, w * t), q0) : q0;
    return (C0 + t * v_C) - quat_rotate(q, c_B);
  };
  const real h = 1e-6;
  vec3 fd = (origin_at(h) - origin_at(-h)) / (2 * h);
  RC_ASSERT(tol::near(origin_velocity(v_C, omega, q0, c_B), fd, 1e-6));
}

// --- E1.6-wrench-from-point --------------------------------------------------------------------

RC_GTEST_PROP(E1_6_wrench_from_point, EqualsShiftFromPToC, ()) {
  vec3 tau_P = *gen::vector(5), P = *gen::vector(2), C = *gen::vector(2), f = *gen::vector(20);
  RC_ASSERT(tol::near(wrench_torque_at_com(tau_P, P, C, f), shift_torque(tau_P, f, C - P), 1e-9));
}

TEST(E1_6_wrench_from_point, PureForceAtComHasNoTorque) {
  EXPECT_VEC3_NEAR(wrench_torque_at_com({}, {1, 2, 3}, {1, 2, 3}, {5, -4, 7}), (vec3{}), 0.0);
}

// --- E1.6-torque-example -----------------------------------------------------------------------

TEST(E1_6_torque_example, GoldenCourseValues) { golden::expect_course_values("E1.6-torque-example"); }

// --- E1.6-linear-first -------------------------------------------------------------------------

RC_GTEST_PROP(E1_6_linear_first, RoundTripIsIdentity, ()) {
  spatial_vector s{*gen::vector(5), *gen::vector(5)};
  spatial_vector_angular_first a = to_angular_first(s);
  RC_ASSERT(tol::near(a.ang, s.ang, 0.0) && tol::near(a.lin, s.lin, 0.0));
  spatial_vector back = to_linear_first(a);
  RC_ASSERT(tol::near(back.lin, s.lin, 0.0) && tol::near(back.ang, s.ang, 0.0));
}

// --- E1.2-shape-compose ------------------------------------------------------------------------

RC_GTEST_PROP(E1_2_shape_compose, WorldPoseIsBodyTimesLocal, ()) {
  transform body = *gen::rigid_transform(5), local = *gen::rigid_transform(1);
  vec3 x = *gen::vector(1);  // a point of the shape, in shape coordinates
  transform world = shape_world_transform(body, local);
  RC_ASSERT(tol::near(transform_point(world, x), transform_point(body, transform_point(local, x)), 1e-9));
}

TEST(E1_2_shape_compose, LocalPoseIsNotAWorldPose) {
  transform body{{0, 0, 1}, quat_from_axis_angle({0, 0, 1}, 0.5)};
  transform local{{0.1, 0, 0}, quat_identity()};
  transform world = shape_world_transform(body, local);
  EXPECT_GT(length(world.p - local.p), 0.5);
  // A static shape (body = -1) uses the identity body pose: its xform is already in world.
  transform fixed = shape_world_transform(transform_identity(), local);
  EXPECT_VEC3_NEAR(fixed.p, local.p, 0.0);
}
