// The course as data (lib/course/api.h): what the command line prints with --json and the browser
// module returns. The checker's verdict holds nothing derived from the key until it is released;
// calculators and scenes refuse with the registry's and the catalogue's own messages; the portable
// shortest decimal (lib/core/shortest_decimal.h) is the shortest round trip.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "core/shortest_decimal.h"
#include "course/api.h"

using namespace impulse::course;

TEST(CourseApi, VerdictHidesTheKeyUntilReleased) {
  // E1.11-ex3: the course's answer is v_B = (0, -0.2, 0) m/s (seed 003 L477).
  const auto v = check_json("E1.11-ex3", {"0", "0.2", "0"}, 0, false);
  EXPECT_FALSE(v["correct"].get<bool>());
  EXPECT_FALSE(v["revealed"].get<bool>());
  EXPECT_EQ(v["tries"], 1);
  const auto& p = v["parts"][0];
  EXPECT_EQ(p["component"], 2);
  for (const char* k : {"key", "off_by", "answer"}) EXPECT_FALSE(p.contains(k)) << k;
  // No number derived from the key anywhere in the text of the verdict (0.2 is the student's own).
  const std::string text = v.dump();
  EXPECT_EQ(text.find("-0.2"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.4"), std::string::npos) << text;
  EXPECT_FALSE(v.contains("explanation"));
  // The same answer as the third wrong try releases the key and the worked solution.
  const auto r = check_json("E1.11-ex3", {"0", "0.2", "0"}, 2, false);
  EXPECT_TRUE(r["revealed"].get<bool>());
  EXPECT_EQ(r["tries"], 3);
  EXPECT_NEAR(r["parts"][0]["key"][1].get<double>(), -0.2, 1e-12);
  EXPECT_TRUE(r.contains("explanation"));
}

TEST(CourseApi, RightAnswerIsReleasedAndCountsNoTry) {
  const auto v = check_json("E1.11-ex3", {"0", "-0.2", "0"}, 1, false);
  EXPECT_TRUE(v["correct"].get<bool>());
  EXPECT_TRUE(v["revealed"].get<bool>());
  EXPECT_EQ(v["tries"], 1);
}

TEST(CourseApi, RevealWithoutAnAnswerCountsNoTry) {
  const auto v = check_json("E1.11-ex3", {}, 1, true);
  EXPECT_FALSE(v["answered"].get<bool>());
  EXPECT_TRUE(v["revealed"].get<bool>());
  EXPECT_EQ(v["tries"], 1);
  EXPECT_NEAR(v["parts"][0]["key"][1].get<double>(), -0.2, 1e-12);
}

TEST(CourseApi, MalformedAnswerIsRefusedWithTheTutorsMessage) {
  try {
    check_json("E1.11-ex3", {"0", "abc", "0"}, 0, false);
    FAIL() << "a malformed answer was graded";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'abc'"), std::string::npos) << e.what();
  }
}

TEST(CourseApi, CalcEqualsTheCourseExampleAndRefusesOutsideTheDomain) {
  // E3 §4 (seed 000 L585): d = -0.002 m, h = 0.001 s, w = 2 1/kg, relaxation 0.8 -> 0.8 N s, 800 N.
  const auto j = calc_json("E3.4-xpbd-pn", {{"d", "-0.002"}, {"h", "0.001"}, {"w", "2"}, {"relaxation", "0.8"}});
  EXPECT_NEAR(j["outputs"]["p_n"]["value"][0].get<double>(), 0.8, 1e-15);
  EXPECT_NEAR(j["outputs"]["F_avg"]["value"][0].get<double>(), 800, 1e-12);
  EXPECT_EQ(j["outputs"]["p_n"]["unit"], "N s");
  EXPECT_THROW(calc_json("E3.4-xpbd-pn", {{"d", "-0.002"}, {"h", "0.001"}, {"w", "2"}, {"relaxation", "1.5"}}),
               std::invalid_argument);
  EXPECT_THROW(calc_json("E3.4-xpbd-pn", {{"d", "x"}, {"h", "0.001"}, {"w", "2"}, {"relaxation", "0.8"}}),
               std::invalid_argument);
  EXPECT_THROW(calc_json("no-such-id", {}), std::invalid_argument);
}

TEST(CourseApi, SceneRunKeepsTheCommandLinesCeilings) {
  const auto j = scene_run_json("st-bounce", {}, kDefaultMaxOutput);
  ASSERT_TRUE(j["tables"].contains("st-bounce.csv"));
  EXPECT_EQ(j["tables"]["st-bounce.csv"].get<std::string>().rfind("step,t_s,q_m", 0), 0u);
  try {
    scene_run_json("st-bounce", {}, 100);
    FAIL() << "a run over --max-output was returned";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("more than --max-output 100"), std::string::npos) << e.what();
  }
  EXPECT_THROW(scene_run_json("st-bounce", {"--h", "1e9"}, kDefaultMaxOutput), std::invalid_argument);
}

TEST(CourseApi, LcpAsDataAndRefusedLineByLine) {
  const auto j = lcp_json("2\n2 1\n1 2\n-5 -6\n", "lcp", true);
  EXPECT_EQ(j["status"], "solved");
  // w = M z + q = 0 with z = M^-1 (5, 6) = (4/3, 7/3)
  EXPECT_NEAR(j["z"][0].get<double>(), 4.0 / 3, 1e-14);
  EXPECT_NEAR(j["z"][1].get<double>(), 7.0 / 3, 1e-14);
  EXPECT_EQ(j["trace"].size(), 3u);
  try {
    lcp_json("2\n2 1\n1 2 3\n-5 -6\n", "page", false);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("page:3:", 0), 0u) << e.what();
  }
}

TEST(ShortestDecimal, Examples) {
  EXPECT_EQ(impulse::shortest_decimal(0.1), "1e-01");
  EXPECT_EQ(impulse::shortest_decimal(2000), "2e+03");
  EXPECT_EQ(impulse::shortest_decimal(0.0333333), "3.33333e-02");
  EXPECT_EQ(impulse::shortest_decimal(1.0 / 3), "3.333333333333333e-01");  // Python: repr(1/3), 16 digits
}

RC_GTEST_PROP(ShortestDecimal, RoundTripsAndNoShorterDoes, ()) {
  // A bounded double: mantissa in [1, 10) times a power of ten in [1e-300, 1e300].
  const double m = 1 + *rc::gen::inRange<long long>(0, 9'000'000'000'000'000LL) / 1e18;
  const double x = m * std::pow(10.0, *rc::gen::inRange(-300, 300));
  const std::string s = impulse::shortest_decimal(x);
  RC_ASSERT(std::strtod(s.c_str(), nullptr) == x);
  const std::size_t digits = s.find('e') - (s.find('.') == std::string::npos ? 0 : 1);
  if (digits > 1) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*e", int(digits) - 2, x);
    RC_ASSERT(std::strtod(buf, nullptr) != x);
  }
}

// The portable fixed and general forms against the standard library's std::to_chars, an oracle
// written differently (libstdc++'s Ryu), which the native build has and the browser build lacks.
RC_GTEST_PROP(ShortestDecimal, FixedAndGeneralEqualStdToChars, ()) {
  const double m = 1 + *rc::gen::inRange<long long>(0, 9'000'000'000'000'000LL) / 1e18;
  const int sign = *rc::gen::element(-1, 1);
  const double x = sign * m * std::pow(10.0, *rc::gen::inRange(-12, 15)) * (*rc::gen::inRange(1, 100) > 10 ? 1 : 0);
  char buf[400];
  auto g = std::to_chars(buf, buf + sizeof buf, x);
  RC_ASSERT(impulse::shortest_general(x) == std::string(buf, g.ptr));
  auto f = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed);
  RC_ASSERT(impulse::shortest_fixed(x) == std::string(buf, f.ptr));
}

TEST(ShortestDecimal, FixedExamples) {
  EXPECT_EQ(impulse::shortest_fixed(0.0008), "0.0008");
  EXPECT_EQ(impulse::shortest_fixed(2000), "2000");
  EXPECT_EQ(impulse::shortest_fixed(-0.48), "-0.48");
  EXPECT_EQ(impulse::shortest_general(1e-5), "1e-05");
  EXPECT_EQ(impulse::shortest_general(123.5), "123.5");
  EXPECT_EQ(impulse::shortest_general(HUGE_VAL), "inf");  // an answer file's 1e400
  EXPECT_EQ(impulse::shortest_fixed(-HUGE_VAL), "-inf");
  EXPECT_EQ(impulse::shortest_general(std::nan("")), "nan");
}

TEST(CourseApi, PyramidTakesTheSliderOptions) {
  // The page's sliders are scene options of `impulse run`: XPBD iterations and relaxation change
  // the run; a relaxation outside (0, 1] is refused as E3.4-xpbd-pn refuses it.
  const auto base = scene_run_json("e3-pyramid", {"--steps", "30"}, kDefaultMaxOutput);
  const auto same = scene_run_json("e3-pyramid", {"--steps", "30", "--iterations", "2", "--relaxation", "0.8"},
                                   kDefaultMaxOutput);
  EXPECT_EQ(base["tables"], same["tables"]);  // the defaults are the solver's own
  const auto one = scene_run_json("e3-pyramid", {"--steps", "30", "--iterations", "1"}, kDefaultMaxOutput);
  const auto soft = scene_run_json("e3-pyramid", {"--steps", "30", "--relaxation", "0.5"}, kDefaultMaxOutput);
  EXPECT_NE(base["tables"], one["tables"]);
  EXPECT_NE(base["tables"], soft["tables"]);
  EXPECT_THROW(scene_run_json("e3-pyramid", {"--relaxation", "1.5"}, kDefaultMaxOutput), std::invalid_argument);
  EXPECT_THROW(scene_run_json("e3-pyramid", {"--iterations", "0"}, kDefaultMaxOutput), std::invalid_argument);
}

TEST(CourseApi, BoxDropSubstepsThroughTheFrameLoop) {
  // E1 §7: a frame of H split into N substeps of H / N, each collides and steps; one row per frame.
  const auto one = scene_run_json("e3-box-drop", {"--duration", "0.5"}, kDefaultMaxOutput);
  const auto four = scene_run_json("e3-box-drop", {"--duration", "0.5", "--substeps", "4"}, kDefaultMaxOutput);
  const std::string a = one["tables"]["e3-box-drop.csv"], b = four["tables"]["e3-box-drop.csv"];
  EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), std::count(b.begin(), b.end(), '\n'));  // rows per frame
  EXPECT_NE(a, b);
  // 1.5 s at H = 1e-5 s is 1.5e5 steps (allowed), with 4 substeps 6e5 (refused)
  EXPECT_THROW(scene_run_json("e3-box-drop", {"--h", "1e-5", "--substeps", "4"}, kDefaultMaxOutput),
               std::invalid_argument);
}

TEST(CourseApi, PlatformReadbackCountsTheKinematicBody) {
  // E3.4-count-by-body-id: with weighting, each cube reads m g on a static platform and 2/3 m g on a
  // kinematic one (8 counted contacts against the 4 applied: 2/(4 + 8) / (1/4)); without weighting, m g on both.
  for (const char* weighting : {"1", "0"}) {
    const auto j = scene_run_json("e3-platform", {"--weighting", weighting}, kDefaultMaxOutput);
    std::istringstream in(j["tables"]["e3-platform.csv"].get<std::string>());
    std::string line, last_static, last_kinematic;
    std::getline(in, line);
    while (std::getline(in, line)) (line[0] == '0' ? last_static : last_kinematic) = line;
    auto right = [](const std::string& row) {  // kinematic,t_s,left,right,z
      std::istringstream r(row);
      std::string cell;
      for (int i = 0; i < 4; ++i) std::getline(r, cell, ',');
      return std::stod(cell);
    };
    EXPECT_NEAR(right(last_static), 1.0, 1e-6) << weighting;
    EXPECT_NEAR(right(last_kinematic), weighting == std::string("1") ? 2.0 / 3 : 1.0, 1e-6) << weighting;
  }
}
