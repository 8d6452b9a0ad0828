// Golden checks of E1 formulas whose printed or derived values live in golden/course/e1.toml and
// have no other golden test (the others call golden::expect_course_values in their own files), and
// the calculators on other numbers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "course/registry.h"

#include "support/golden.h"

TEST(E1_3_box_mass_inertia, GoldenCourseBoxAndItsDoubledCopy) { impulse::golden::expect_course_values("E1.3-box-mass-inertia"); }
TEST(E1_3_combined_com, GoldenTwoPointMasses) { impulse::golden::expect_course_values("E1.3-combined-com"); }
TEST(E1_5_qdot_map, GoldenSpinAboutZ) { impulse::golden::expect_course_values("E1.5-qdot-map"); }
TEST(E1_10_angular_update, GoldenGyroscopicTermOnly) { impulse::golden::expect_course_values("E1.10-angular-update"); }
TEST(E1_10_quat_update, GoldenHalfSecondAtTwoRadiansPerSecond) { impulse::golden::expect_course_values("E1.10-quat-update"); }
TEST(E1_10_unit_check, GoldenUnitsOfTheIncrements) { impulse::golden::expect_course_values("E1.10-unit-check"); }
TEST(E1_2_gravity_default, GoldenDefaultGravityPerUpAxis) { impulse::golden::expect_course_values("E1.2-gravity-default"); }
TEST(E1_2_joint_chain, GoldenQuarterTurnAboutAnOffsetAnchor) { impulse::golden::expect_course_values("E1.2-joint-chain"); }

// The calculators on numbers other than the course's, against values derived by hand.

namespace {

impulse::course::Values calc(const std::string& id, const impulse::course::Values& in) {
  const impulse::course::Item* it = impulse::course::registry().find(id);
  EXPECT_NE(it, nullptr) << id;
  return impulse::course::evaluate(*it, in);
}

}  // namespace

TEST(E1_3_box_example, CalculatorOnOtherNumbers) {
  // h = (0.3, 0.2, 0.1) m at 500 kg/m^3: m = 8 * 500 * 0.006 = 24 kg; I = 8 * (0.05, 0.1, 0.13).
  auto v = calc("E1.3-box-example", {{"hx", {0.3}}, {"hy", {0.2}}, {"hz", {0.1}}, {"density", {500}}});
  EXPECT_NEAR(v["body_mass"][0], 24, 1e-12);
  EXPECT_NEAR(v["body_inertia_diag"][0], 0.4, 1e-12);
  EXPECT_NEAR(v["body_inertia_diag"][1], 0.8, 1e-12);
  EXPECT_NEAR(v["body_inertia_diag"][2], 1.04, 1e-12);
}

TEST(E1_4_scaling_laws, CalculatorOnOtherNumbers) {
  auto v = calc("E1.4-scaling-laws", {{"mass", {2}}, {"I_xx", {0.5}}, {"s", {3}}});
  EXPECT_NEAR(v["mass_density_kept"][0], 54, 1e-12);          // 2 * 27
  EXPECT_NEAR(v["I_xx_density_kept"][0], 121.5, 1e-10);       // 0.5 * 243
  EXPECT_NEAR(v["I_xx_mass_kept"][0], 4.5, 1e-12);            // 0.5 * 9
  EXPECT_THROW(calc("E1.4-scaling-laws", {{"mass", {2}}, {"I_xx", {0.5}}, {"s", {-1}}}), std::invalid_argument);
}

TEST(E1_5_joint_dof_table, CalculatorOnOtherNumbers) {
  auto v = calc("E1.5-joint-dof-table", {{"free", {0}}, {"revolute", {0}}, {"prismatic", {2}}, {"ball", {2}}, {"fixed", {3}},
                                         {"distance", {0}}, {"d6_linear", {3}}, {"d6_angular", {3}}});
  EXPECT_EQ(v["joint_coord_count"][0], 2 + 8 + 0 + 6);
  EXPECT_EQ(v["joint_dof_count"][0], 2 + 6 + 0 + 6);
}

TEST(E1_7_substep, CalculatorOnOtherNumbers) {
  auto v = calc("E1.7-substep", {{"H", {0.01}}, {"N", {3}}});
  EXPECT_NEAR(v["h"][0], 0.01 / 3, 1e-18);
  EXPECT_NEAR(v["frame_time"][0], 0.01, 1e-15);
}

TEST(E1_10_linear_update, CalculatorOnOtherNumbers) {
  // m = 2 kg, f = (4, 0, 0) N, g = (0, 0, -10), h = 0.1 s from v = (1, 0, 0): v1 = (1.2, 0, -1), c1 = c + 0.1 v1.
  auto v = calc("E1.10-linear-update", {{"v", {1, 0, 0}}, {"c", {0, 0, 5}}, {"f", {4, 0, 0}}, {"m", {2}},
                                        {"g", {0, 0, -10}}, {"h", {0.1}}});
  EXPECT_NEAR(v["v1"][0], 1.2, 1e-15);
  EXPECT_NEAR(v["v1"][2], -1, 1e-15);
  EXPECT_NEAR(v["c1"][0], 0.12, 1e-15);
  EXPECT_NEAR(v["c1"][2], 4.9, 1e-15);
}

TEST(E1_4_explicit_inertial_scale, CalculatorOnOtherNumbers) {
  auto v = calc("E1.4-explicit-inertial-scale", {{"mass", {3}}, {"com_x", {0.2}}, {"ixx", {0.01}}, {"scale", {3}}});
  EXPECT_NEAR(v["body_mass"][0], 3, 1e-15);
  EXPECT_NEAR(v["body_com"][0], 0.6, 1e-15);
  EXPECT_NEAR(v["I_xx"][0], 0.09, 1e-15);
}
