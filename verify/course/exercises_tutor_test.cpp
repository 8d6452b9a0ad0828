// The exercise checker as a tutor (lib/course/exercises.h): which part and component is wrong, by
// how much, under which tolerance; choices validated against their options; the tolerance rule
// (agree to the significant figures the course prints, 3 to 4; counts exactly).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "course/exercises.h"

using namespace impulse::course;

namespace {

const Exercise& ex(const std::string& id) {
  const Exercise* e = find_exercise(id);
  if (!e) throw std::runtime_error("no exercise " + id);
  return *e;
}

std::string text(double x) {
  std::ostringstream o;
  o.precision(17);
  o << x;
  return o.str();
}

}  // namespace

TEST(CourseExercises, SignificantFiguresOfPrintedValues) {
  EXPECT_EQ(significant_figures(0.0333333), 6);
  EXPECT_EQ(significant_figures(0.00416667), 6);
  EXPECT_EQ(significant_figures(9), 1);
  EXPECT_EQ(significant_figures(-0.2), 1);
  EXPECT_EQ(significant_figures(2000), 1);
  EXPECT_EQ(significant_figures(0.625), 3);
  EXPECT_EQ(significant_figures(0), 1);
}

// Every answer the course prints, typed back as printed, is graded correct: the rule is never
// tighter than the course's own rounding.
TEST(CourseExercises, EveryPrintedCourseAnswerGradesCorrect) {
  for (const Exercise& e : exercises()) {
    std::vector<std::string> tokens;
    bool printed = true;
    for (const AnswerPart& p : e.parts) {
      if (p.kind == "choice") {
        tokens.push_back(p.correct);
      } else if (p.course.empty()) {
        printed = false;
      } else {
        for (double c : p.course) tokens.push_back(text(c));
      }
    }
    if (!printed) continue;
    EXPECT_TRUE(grade(e, tokens).correct) << e.id;
  }
}

TEST(E1_11_ex2, ExerciseFourSignificantFiguresAreEnough) {
  // Course answer (seed 003 A L475): 8 kg, I_xx = 0.0333333 kg m^2; 1 kg, 0.00416667 kg m^2.
  const Exercise& e = ex("E1.11-ex2");
  EXPECT_TRUE(grade(e, {"8", "0.03333", "1", "0.004167"}).correct);
  const Grade g = grade(e, {"8", "0.0334", "1", "0.004167"});  // 3 figures, off in the third
  EXPECT_FALSE(g.correct);
  EXPECT_FALSE(g.parts[1].correct);
  EXPECT_TRUE(g.parts[0].correct && g.parts[2].correct && g.parts[3].correct);
  EXPECT_EQ(g.parts[1].tolerance.significant, 4);
  EXPECT_NEAR(g.parts[1].worst_error, 0.0334 - 0.1 / 3, 1e-12);
}

TEST(E1_11_ex3, ExerciseNamesTheWrongComponentAndHowFarOff) {
  const Grade g = grade(ex("E1.11-ex3"), {"0", "0.2", "0"});  // the sign error of the primer
  ASSERT_EQ(g.parts.size(), 1u);
  EXPECT_FALSE(g.correct);
  EXPECT_EQ(g.parts[0].worst, 1);
  EXPECT_NEAR(g.parts[0].worst_error, 0.4, 1e-12);
  EXPECT_EQ(g.parts[0].unit, "m/s");
  EXPECT_NE(g.parts[0].hint.find("E1.6-origin-velocity"), std::string::npos);
  EXPECT_NE(g.parts[0].hint.find("E1 §6"), std::string::npos);
}

TEST(E1_11_ex1, ExerciseCountsAreExactAndChoicesAreValidated) {
  const Exercise& e = ex("E1.11-ex1");
  EXPECT_TRUE(grade(e, {"9", "8", "a"}).correct);
  EXPECT_FALSE(grade(e, {"9.001", "8", "a"}).correct);
  EXPECT_TRUE(grade(e, {"9", "8", "a"}).parts[0].tolerance.exact);
  EXPECT_FALSE(grade(e, {"9", "8", "b"}).correct);  // a real option, the wrong one
  EXPECT_THROW(grade(e, {"9", "8", "z"}), std::invalid_argument);  // not an option
  EXPECT_THROW(grade(e, {"9", "8", "B"}), std::invalid_argument);
}
