// Answer keys of the E1 exercises: numeric keys equal the course's printed answers, and every choice
// is backed by a test of this binary that demonstrates the answer in the engine (course E1 §11).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "course/exercises.h"

using namespace impulse::course;

namespace {

bool test_exists(const std::string& full_name) {
  const ::testing::UnitTest& u = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < u.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& s = *u.GetTestSuite(i);
    for (int k = 0; k < s.total_test_count(); ++k)
      if (std::string(s.name()) + "." + s.GetTestInfo(k)->name() == full_name) return true;
  }
  return false;
}

// Numeric parts: key == course (within the part's tolerance). Choice parts: the backing test exists
// here and grading accepts exactly the correct label.
void check_exercise(const std::string& id) {
  const Exercise* e = find_exercise(id);
  ASSERT_NE(e, nullptr) << id;
  std::vector<std::string> right;
  for (const AnswerPart& p : e->parts) {
    if (p.kind == "number") {
      std::vector<double> key = answer_key(p);
      ASSERT_EQ(key.size(), p.course.size()) << id << " " << p.name;
      for (std::size_t i = 0; i < key.size(); ++i) {
        EXPECT_TRUE(within_tolerance(p.course[i], key[i], p.abs_tol, p.rel_tol))
            << id << " " << p.name << ": key " << key[i] << " vs course " << p.course[i];
        std::ostringstream text;
        text.precision(17);
        text << p.course[i];
        right.push_back(text.str());
      }
    } else {
      EXPECT_TRUE(test_exists(p.backed_by)) << id << ": backed_by " << p.backed_by << " is not a test";
      right.push_back(p.correct);
    }
  }
  EXPECT_TRUE(grade(*e, right).correct) << id;
  for (std::size_t k = 0; k < e->parts.size(); ++k)
    if (e->parts[k].kind == "choice") {
      std::vector<std::string> wrong = right;
      std::size_t pos = 0;
      for (std::size_t j = 0; j < k; ++j) pos += answer_size(e->parts[j]);
      wrong[pos] = e->parts[k].correct == "a" ? "b" : "a";
      EXPECT_FALSE(grade(*e, wrong).correct) << id << " accepted a wrong choice";
    }
}

}  // namespace

TEST(E1_11_ex1, ExerciseKeyEqualsCourseAnswer) { check_exercise("E1.11-ex1"); }
TEST(E1_11_ex2, ExerciseKeyEqualsCourseAnswer) { check_exercise("E1.11-ex2"); }
TEST(E1_11_ex4, ExerciseChoiceBackedByTheEngine) { check_exercise("E1.11-ex4"); }
TEST(E1_11_ex5, ExerciseChoiceBackedByTheEngine) { check_exercise("E1.11-ex5"); }
TEST(E1_11_ex6, ExerciseKeyEqualsCourseAnswer) { check_exercise("E1.11-ex6"); }
TEST(E1_11_ex7, ExerciseChoiceBackedByTheEngine) { check_exercise("E1.11-ex7"); }
TEST(E1_11_ex8, ExerciseChoiceBackedByTheEngine) { check_exercise("E1.11-ex8"); }
