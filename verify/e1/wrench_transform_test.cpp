// Tests of lib/e1/wrench_transform.h: the course's §6 errata note (course E1 §6).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "e1/spatial_shift.h"
#include "e1/wrench_transform.h"
#include "support/generators.h"
#include "support/tolerance.h"

using namespace impulse;

RC_GTEST_PROP(E1_6_source_errata, TransformWrenchPlusPEqualsShiftWithMinusP, ()) {
  vec3 f = *gen::vector(10), tau_S = *gen::vector(10), p = *gen::vector(2);
  spatial_vector w = transform_wrench({p, quat_identity()}, {f, tau_S});
  RC_ASSERT(tol::near(w.lin, f, 0));
  RC_ASSERT(tol::near(w.ang, shift_torque(tau_S, f, -p), 1e-12));
}

// Oracle: the moment about D's origin of a force f applied at a point P of S equals the transformed
// wrench of (f, moment about S's origin), for any rotation.
RC_GTEST_PROP(E1_6_source_errata, OracleMomentOfAnAppliedForceInBothFrames, ()) {
  transform X_DS = *gen::rigid_transform(2);
  vec3 f_S = *gen::vector(10), P_S = *gen::vector(1);
  spatial_vector w = transform_wrench(X_DS, {f_S, cross(P_S, f_S)});
  vec3 P_D = transform_point(X_DS, P_S), f_D = transform_vector(X_DS, f_S);
  RC_ASSERT(tol::near(w.ang, cross(P_D, f_D), 1e-10));
}

TEST(E1_6_source_errata, ThePrimersPlusSignFailsTheCourseExample) {
  // f = (0, 10, 0) N at P = (0.2, 0, 0) m; tau about the COM (origin) = (0, 0, 2) N m; about P it is 0.
  vec3 f{0, 10, 0}, r{0.2, 0, 0}, tau{0, 0, 2};
  EXPECT_VEC3_NEAR(shift_torque(tau, f, r), (vec3{}), 1e-15);
  EXPECT_VEC3_NEAR(tau + cross(r, f), (vec3{0, 0, 4}), 1e-15);
}
