// Tests of lib/e3/observe/force_observation.h and the E3 §8 uses of the E1 §6 shift.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "e1/spatial_shift.h"
#include "e3/observe/force_observation.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

RC_GTEST_PROP(E3_8_wrench_transfer, RoundTripAndDifferenceRule, ()) {
  vec3 tau = *gen::vector(5), C0 = *gen::vector(2), O = *gen::vector(2), O2 = *gen::vector(2), f = *gen::vector(20);
  vec3 tau_O = wrench_torque_at_com(tau, C0, O, f);
  RC_ASSERT(tol::near(wrench_torque_at_com(tau_O, O, C0, f), tau, 1e-9));
  RC_ASSERT(tol::near(tau_O - wrench_torque_at_com(tau, C0, O2, f), cross(O2 - O, f), 1e-9));
}

TEST(E3_8_wrench_reaction, GoldenCourseValues) { golden::expect_course_values("E3.8-wrench-reaction"); }

// Newton's third law about every point: the pair's total wrench vanishes about any O.
RC_GTEST_PROP(E3_8_wrench_reaction, TotalWrenchAboutAnyPointIsZero, ()) {
  vec3 tau0 = *gen::vector(5), C0 = *gen::vector(2), C1 = *gen::vector(2), O = *gen::vector(3), f0 = *gen::vector(20);
  vec3 tau1 = wrench_reaction_torque(tau0, C0, C1, f0), f1 = -f0;
  vec3 total = tau0 + cross(C0 - O, f0) + tau1 + cross(C1 - O, f1);
  RC_ASSERT(tol::near(total, vec3{}, 1e-9));
}

RC_GTEST_PROP(E3_8_no_plain_negation, NegatingSixNumbersIsWrongWhenComsDiffer, ()) {
  vec3 tau0 = *gen::vector(5), C0 = *gen::vector(2), f0 = *gen::vector(20);
  vec3 C1 = C0 + *gen::vector(2);
  RC_PRE(length(cross(C0 - C1, f0)) > 1e-3);  // f0 not parallel to C0 - C1
  RC_ASSERT(!tol::near(wrench_reaction_torque(tau0, C0, C1, f0), -tau0, 1e-6));
}

TEST(E3_8_mujoco_point_fix, GoldenDerivedValue) { golden::expect_course_values("E3.8-mujoco-point-fix"); }

TEST(E3_8_time_average_force, GoldenCourseValues) { golden::expect_course_values("E3.8-time-average-force"); }

RC_GTEST_PROP(E3_8_time_average_force, EqualsTotalImpulseOverTotalTime, ()) {
  int n = *rc::gen::inRange(1, 8);
  std::vector<vec3> fbar(n);
  std::vector<real> h(n);
  vec3 total{};
  real T = 0;
  for (int k = 0; k < n; ++k) {
    fbar[k] = *gen::vector(100);
    h[k] = *gen::in_range(1e-4, 0.01);
    total += h[k] * fbar[k];  // p_k = h_k fbar_k
    T += h[k];
  }
  RC_ASSERT(tol::near(time_average_force(fbar.data(), h.data(), n), total / T, 1e-9));
}

RC_GTEST_PROP(E3_8_time_average_torque, ReducesAtFixedComAndShiftsWithThePoint, ()) {
  int n = *rc::gen::inRange(1, 6);
  std::vector<vec3> tau(n), C(n), f(n), Cfixed(n);
  std::vector<real> h(n);
  vec3 O = *gen::vector(2), O2 = *gen::vector(2), plain{};
  real T = 0;
  for (int k = 0; k < n; ++k) {
    tau[k] = *gen::vector(5);
    C[k] = *gen::vector(2);
    f[k] = *gen::vector(20);
    h[k] = *gen::in_range(1e-4, 0.01);
    Cfixed[k] = O;
    plain += h[k] * tau[k];
    T += h[k];
  }
  RC_ASSERT(tol::near(time_average_torque(tau.data(), Cfixed.data(), f.data(), h.data(), n, O), plain / T, 1e-9));
  vec3 a = time_average_torque(tau.data(), C.data(), f.data(), h.data(), n, O);
  vec3 b = time_average_torque(tau.data(), C.data(), f.data(), h.data(), n, O2);
  vec3 fT = time_average_force(f.data(), h.data(), n);
  RC_ASSERT(tol::near(b, a + cross(O - O2, fT), 1e-9));
}

TEST(E3_10_ex2_xpbd_normal, ExerciseKeyEqualsCourseAnswer) { golden::expect_exercise_key_matches_course("E3.10-ex2-xpbd-normal"); }
TEST(E3_10_ex3_readback_scale, ExerciseKeyEqualsCourseAnswer) { golden::expect_exercise_key_matches_course("E3.10-ex3-readback-scale"); }
TEST(E3_10_ex4_positive_gap_record, ExerciseKeyEqualsCourseAnswer) {
  golden::expect_exercise_key_matches_course("E3.10-ex4-positive-gap-record");
}
TEST(E3_10_ex5_wrench_reaction, ExerciseKeyEqualsCourseAnswer) { golden::expect_exercise_key_matches_course("E3.10-ex5-wrench-reaction"); }
TEST(E3_10_ex6_time_average, ExerciseKeyEqualsCourseAnswer) { golden::expect_exercise_key_matches_course("E3.10-ex6-time-average"); }
TEST(E3_10_ex10_static_vs_kinematic_scale, ExerciseKeyEqualsCourseAnswer) {
  golden::expect_exercise_key_matches_course("E3.10-ex10-static-vs-kinematic-scale");
}
