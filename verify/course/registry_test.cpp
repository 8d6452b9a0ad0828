// Tests of the course registry, the exercise engine and the golden-value runner.
#include <gtest/gtest.h>

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
