// Golden checks of E1 formulas whose printed or derived values live in golden/course/e1.toml and
// have no other golden test (the others call golden::expect_course_values in their own files).
#include <gtest/gtest.h>

#include "support/golden.h"

TEST(E1_3_box_mass_inertia, GoldenCourseBoxAndItsDoubledCopy) { impulse::golden::expect_course_values("E1.3-box-mass-inertia"); }
TEST(E1_3_combined_com, GoldenTwoPointMasses) { impulse::golden::expect_course_values("E1.3-combined-com"); }
TEST(E1_5_qdot_map, GoldenSpinAboutZ) { impulse::golden::expect_course_values("E1.5-qdot-map"); }
TEST(E1_10_angular_update, GoldenGyroscopicTermOnly) { impulse::golden::expect_course_values("E1.10-angular-update"); }
TEST(E1_10_quat_update, GoldenHalfSecondAtTwoRadiansPerSecond) { impulse::golden::expect_course_values("E1.10-quat-update"); }
TEST(E1_10_unit_check, GoldenUnitsOfTheIncrements) { impulse::golden::expect_course_values("E1.10-unit-check"); }
TEST(E1_2_gravity_default, GoldenDefaultGravityPerUpAxis) { impulse::golden::expect_course_values("E1.2-gravity-default"); }
TEST(E1_2_joint_chain, GoldenQuarterTurnAboutAnOffsetAnchor) { impulse::golden::expect_course_values("E1.2-joint-chain"); }
