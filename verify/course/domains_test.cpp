// Input domains: every calculator input and every scene option is checked before use
// (lib/course/domains.cpp, lib/course/scene_domains.cpp). Expected refusals come from the ranges
// the course states: E1 §3 masses and half extents > 0, E1 §2 unit quaternions, E3 §3 mu >= 0,
// E3 §4 w > 0, ST §2 k >= 3.
#include <gtest/gtest.h>

#include <string>

#include "course/golden_checks.h"
#include "course/registry.h"
#include "course/scenes.h"

using namespace impulse::course;

namespace {

// The message of the std::invalid_argument evaluate throws, or "" when it accepts the inputs.
std::string refusal(const std::string& id, const Values& in) {
  const Item* it = registry().find(id);
  if (!it) return "no item " + id;
  try {
    evaluate(*it, in);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool names(const std::string& msg, const std::string& what) { return msg.find(what) != std::string::npos; }

}  // namespace

TEST(E1_3_box_mass_inertia, RefusesNonPositiveExtentsAndDensity) {
  const Values ok{{"hx", {0.1}}, {"hy", {0.05}}, {"hz", {0.025}}, {"density", {1000}}};
  EXPECT_EQ(refusal("E1.3-box-mass-inertia", ok), "");
  for (const char* name : {"hx", "hy", "hz", "density"})
    for (double bad : {-0.1, 0.0}) {
      Values v = ok;
      v[name] = {bad};
      const std::string msg = refusal("E1.3-box-mass-inertia", v);
      EXPECT_TRUE(names(msg, std::string("--") + name) && names(msg, "(0, 1e12]")) << name << " = " << bad << ": " << msg;
    }
}

TEST(E1_2_axis_angle, RefusesTheZeroAxis) {
  EXPECT_EQ(refusal("E1.2-axis-angle", {{"axis", {0, 0, 2}}, {"theta", {1}}}), "");  // normalised by the formula
  EXPECT_TRUE(names(refusal("E1.2-axis-angle", {{"axis", {0, 0, 0}}, {"theta", {1}}}), "--axis"));
}

TEST(E1_2_rotation_orthonormal, RefusesZeroAndNonUnitQuaternions) {
  EXPECT_EQ(refusal("E1.2-rotation-orthonormal", {{"q", {0, 0, 0.7071068, 0.7071068}}}), "");
  EXPECT_TRUE(names(refusal("E1.2-rotation-orthonormal", {{"q", {0, 0, 0, 0}}}), "--q"));
  EXPECT_TRUE(names(refusal("E1.2-rotation-orthonormal", {{"q", {0, 0, 0, 2}}}), "not 1"));
}

TEST(E3_3_xpbd_friction_mix, RefusesNegativeFriction) {
  const Values ok{{"mu0", {0.25}}, {"mu1", {1}}, {"t0", {0}}, {"t1", {0}}, {"r0", {0}}, {"r1", {0}}};
  EXPECT_EQ(refusal("E3.3-xpbd-friction-mix", ok), "");
  Values bad = ok;
  bad["mu0"] = {-0.1};
  EXPECT_TRUE(names(refusal("E3.3-xpbd-friction-mix", bad), "--mu0"));
}

TEST(E3_4_xpbd_pn, RefusesNonPositiveW) {
  const Values ok{{"d", {-0.01}}, {"h", {0.01}}, {"w", {2}}, {"relaxation", {0.8}}};
  EXPECT_EQ(refusal("E3.4-xpbd-pn", ok), "");
  Values bad = ok;
  bad["w"] = {0};
  EXPECT_TRUE(names(refusal("E3.4-xpbd-pn", bad), "--w"));
  bad = ok;
  bad["h"] = {-0.01};
  EXPECT_TRUE(names(refusal("E3.4-xpbd-pn", bad), "--h"));
}

TEST(ST_2_polyhedral_friction, RefusesFewerThanThreeDirections) {
  EXPECT_EQ(refusal("ST.2-polyhedral-friction", {{"k", {4}}, {"mu_pn", {1}}, {"theta", {0}}}), "");
  EXPECT_TRUE(names(refusal("ST.2-polyhedral-friction", {{"k", {2}}, {"mu_pn", {1}}, {"theta", {0}}}), "--k"));
  EXPECT_TRUE(names(refusal("ST.2-polyhedral-friction", {{"k", {4.5}}, {"mu_pn", {1}}, {"theta", {0}}}), "whole"));
}

TEST(CourseRegistry, NonFiniteAndHugeInputsAreRefused) {
  for (double bad : {1e300, -1e13, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const std::string msg = refusal("E1.6-torque-example", {{"f", {0, bad, 0}}, {"P", {0.2, 0, 0}}, {"C", {0, 0, 0}}});
    EXPECT_TRUE(names(msg, "--f") && names(msg, "component 2")) << bad << ": " << msg;
  }
}

TEST(CourseRegistry, EveryInputHasADomainThatHoldsItsGoldenInputs) {
  for (const Item& it : registry().items())
    for (const Quantity& q : it.inputs) EXPECT_TRUE(q.domain.has_value()) << it.id << " --" << q.name;
  // The course's own worked inputs are inside the domains (else the domain is too tight).
  for (const GoldenCheck& c : golden_checks()) {
    const Item* it = registry().find(c.formula);
    ASSERT_NE(it, nullptr) << c.id;
    EXPECT_EQ(refusal(c.formula, c.inputs), "") << c.id;
  }
}

TEST(CourseScenes, EveryDefaultIsInsideItsOptionsDomain) {
  for (const Scene& s : scenes().scenes()) EXPECT_NO_THROW(parse_scene_args(s, {})) << s.name;
}

TEST(CourseScenes, StepsDurationsAndSizesHaveCeilings) {
  const Scene* bounce = scenes().find("st-bounce");
  const Scene* rod = scenes().find("st-rod");
  const Scene* broad = scenes().find("e3-broadphase");
  ASSERT_TRUE(bounce && rod && broad);
  auto msg = [](const Scene& s, std::vector<std::string> a) {
    try {
      parse_scene_args(s, a);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_TRUE(names(msg(*bounce, {"--steps", "1000000000"}), "--steps"));
  EXPECT_TRUE(names(msg(*bounce, {"--steps", "0"}), "--steps"));
  EXPECT_TRUE(names(msg(*bounce, {"--h", "-0.01"}), "--h"));
  EXPECT_TRUE(names(msg(*bounce, {"--m", "nan"}), "--m"));
  EXPECT_TRUE(names(msg(*rod, {"--T", "1e9"}), "--T"));
  EXPECT_TRUE(names(msg(*rod, {"--T", "50", "--h", "0.0001"}), "steps"));  // 5e5 steps
  EXPECT_TRUE(names(msg(*rod, {"--mu", "-0.5"}), "--mu"));
  EXPECT_TRUE(names(msg(*broad, {"--mode", "nxn", "--n", "1000000"}), "--n"));
  EXPECT_TRUE(names(msg(*broad, {"--mode", "quadtree"}), "--mode"));
  EXPECT_EQ(msg(*rod, {"--T", "0.5", "--h", "0.005"}), "");
  const Scene* spheres = scenes().find("e3-spheres");
  ASSERT_NE(spheres, nullptr);
  EXPECT_TRUE(names(msg(*spheres, {"--n", "1000000", "--steps", "100000"}), "body-steps"));
  EXPECT_EQ(msg(*spheres, {"--n", "10000", "--steps", "20"}), "");
}

TEST(ST_4_error_metrics, StepMustLieOnTheReferenceGrid) {
  // ST §4 compares the four-ball run with its reference at h = 0.00125 s: a coarse h is a multiple of it.
  EXPECT_EQ(refusal("ST.4-error-metrics", {{"h", {0.005}}}), "");
  EXPECT_TRUE(names(refusal("ST.4-error-metrics", {{"h", {0.001}}}), "multiple of 0.00125"));
  EXPECT_TRUE(names(refusal("ST.4-error-metrics", {{"h", {1e-9}}}), "--h"));  // would run for days
  EXPECT_TRUE(names(refusal("ST.4-error-metrics", {{"h", {1e9}}}), "--h"));
}
