// Tests of the course registry, the exercise engine and the golden-value runner.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>

#include "course/exercises.h"
#include "course/golden_checks.h"
#include "course/registry.h"
#include "course/scenes.h"

using namespace impulse::course;

TEST(CourseRegistry, EveryCalculatorDeclaresItsOutputs) {
  for (const Item& it : registry().items()) {
    if (!it.calc) continue;
    EXPECT_FALSE(it.outputs.empty()) << it.id;
    for (const Quantity& q : it.inputs) EXPECT_TRUE(q.dim == 0 || q.dim == 1 || q.dim == 3 || q.dim == 4) << it.id << " " << q.name;
  }
}

TEST(CourseRegistry, EvaluateNamesMissingUnknownAndMisShapedInputs) {
  const Item* it = registry().find("E1.6-moment-def");
  ASSERT_NE(it, nullptr);
  Values ok{{"O", {0, 0, 0}}, {"P", {0.2, 0, 0}}, {"f", {0, 10, 0}}};
  EXPECT_NO_THROW(evaluate(*it, ok));
  Values missing = ok;
  missing.erase("f");
  EXPECT_THROW(
      {
        try {
          evaluate(*it, missing);
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("--f"), std::string::npos);
          throw;
        }
      },
      std::invalid_argument);
  Values unknown = ok;
  unknown["g"] = {1};
  EXPECT_THROW(evaluate(*it, unknown), std::invalid_argument);
  Values shaped = ok;
  shaped["P"] = {1, 2};
  EXPECT_THROW(evaluate(*it, shaped), std::invalid_argument);
}

// Entries written from doc comments (cmake/formula_items.py): the tag line's title and section,
// the function's file and name, inputs named and shaped as its parameters, its result as output.
TEST(CourseRegistry, GeneratedEntriesCarryTheirDocComment) {
  const Item* f = registry().find("E3.4-impulse-to-force");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->kind, "formula");
  EXPECT_EQ(f->title, "F_avg = p / h: an accumulated impulse is divided by h once");
  EXPECT_EQ(f->section, "E3 §4");
  EXPECT_EQ(f->function, "lib/e3/solvers/xpbd/xpbd_contact.h: impulse_to_average_force");
  ASSERT_EQ(f->inputs.size(), 2u);
  EXPECT_EQ(f->inputs[0].name, "p");
  EXPECT_EQ(f->inputs[0].unit, "N s");
  EXPECT_EQ(f->inputs[1].name, "h");
  ASSERT_EQ(f->outputs.size(), 1u);
  EXPECT_EQ(f->outputs[0].unit, "N");
  // analytic: 0.0016 N s over h = 0.002 s is 0.8 N (divided by h once, not h^2)
  EXPECT_DOUBLE_EQ(evaluate(*f, {{"p", {0.0016}}, {"h", {0.002}}}).at("F_avg").at(0), 0.8);
  // A step outside its domain is refused before the function runs (the course-wide default domain).
  EXPECT_THROW(evaluate(*f, {{"p", {1.0}}, {"h", {0.0}}}), std::invalid_argument);

  // quat in, vec3 out: the origin of a body spinning at 1 rad/s about z with its COM at x = 1 m
  // moves at omega x (0 - c) = (0, -1, 0) m/s (analytic).
  const Item* o = registry().find("E1.6-origin-velocity");
  ASSERT_NE(o, nullptr);
  ASSERT_EQ(o->inputs.size(), 4u);
  EXPECT_EQ(o->inputs[2].dim, 4);
  auto v = evaluate(*o, {{"v_C", {0, 0, 0}}, {"omega", {0, 0, 1}}, {"q", {0, 0, 0, 1}}, {"c_B", {1, 0, 0}}}).at("v_B");
  EXPECT_NEAR(v.at(0), 0, 1e-15);
  EXPECT_NEAR(v.at(1), -1, 1e-15);
  // vec3 and real in, quat out: a half turn about z is (0, 0, 1, 0).
  const Item* q = registry().find("E1.2-axis-angle");
  ASSERT_NE(q, nullptr);
  auto r = evaluate(*q, {{"axis", {0, 0, 2}}, {"theta", {M_PI}}}).at("q");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_NEAR(r[2], 1, 1e-15);
  EXPECT_NEAR(r[3], 0, 1e-15);
}

TEST(CourseRegistry, ItemsAreInReadingOrder) {
  auto position = [](const Item& it) {
    const std::string ch = chapter_of(it.id);
    const auto at = it.section.find("§");
    return std::make_pair(ch == "E1" ? 0 : ch == "E3" ? 1 : 2,
                          at == std::string::npos ? 1 << 20 : std::atoi(it.section.c_str() + at + std::string("§").size()));
  };
  const auto& items = registry().items();
  for (std::size_t i = 1; i < items.size(); ++i)
    EXPECT_LE(position(items[i - 1]), position(items[i])) << items[i - 1].id << " before " << items[i].id;
}

TEST(CourseGolden, EveryGoldenCheckPassesAndNamesARegisteredItem) {
  ASSERT_FALSE(golden_checks().empty());
  for (const GoldenCheck& c : golden_checks()) {
    EXPECT_NE(registry().find(c.id), nullptr) << c.id << " in " << c.file;
    GoldenResult r = run_golden_check(c);
    EXPECT_TRUE(r.pass) << c.id << " [" << c.source << "] " << r.error;
  }
}

TEST(CourseExercises, EveryExerciseIsRegisteredAndItsKeyComputes) {
  ASSERT_FALSE(exercises().empty());
  std::set<std::string> ids;
  for (const Exercise& e : exercises()) {
    EXPECT_TRUE(ids.insert(e.id).second) << "duplicate exercise " << e.id;
    const Item* it = registry().find(e.id);
    ASSERT_NE(it, nullptr) << e.id << " is not registered";
    EXPECT_EQ(it->kind, "exercise");
    for (const AnswerPart& p : e.parts)
      if (p.kind == "number") EXPECT_NO_THROW(answer_key(p)) << e.id;
  }
}

// Exercise answer keys equal the course's printed answers (kind 7 tests).
TEST(E1_11_ex3, ExerciseKeyEqualsCourseAnswer) {
  const Exercise* e = find_exercise("E1.11-ex3");
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->parts.size(), 1u);
  std::vector<double> key = answer_key(e->parts[0]);
  ASSERT_EQ(key.size(), e->parts[0].course.size());
  for (std::size_t i = 0; i < key.size(); ++i) EXPECT_NEAR(key[i], e->parts[0].course[i], 1e-12);
}

TEST(E1_11_ex3, ExerciseGradesRightWrongAndMalformed) {
  const Exercise* e = find_exercise("E1.11-ex3");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(grade(*e, {"0", "-0.2", "0"}).correct);
  EXPECT_TRUE(grade(*e, {"0,-0.2,0"}).correct);
  EXPECT_FALSE(grade(*e, {"0", "0.2", "0"}).correct);  // the sign error of the primer
  EXPECT_THROW(grade(*e, {"abc", "0", "0"}), std::invalid_argument);
  EXPECT_THROW(grade(*e, {"0", "-0.2"}), std::invalid_argument);
}

TEST(CourseScenes, EveryScenesOptionsHaveDefaultsAndUnits) {
  for (const Scene& s : scenes().scenes()) {
    EXPECT_TRUE(s.run) << s.name;
    for (const SceneOption& o : s.options) {
      EXPECT_FALSE(o.unit.empty()) << s.name << " --" << o.name;
      EXPECT_FALSE(o.default_value.empty()) << s.name << " --" << o.name;
    }
    EXPECT_THROW(parse_scene_args(s, {"--no-such-option", "1"}), std::invalid_argument);
  }
}
