#include "support/golden.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "course/exercises.h"

namespace impulse::golden {

void expect_course_values(const std::string& id) {
  auto checks = course::golden_checks_for(id);
  ASSERT_FALSE(checks.empty()) << "no golden check for " << id << " in golden/";
  for (const course::GoldenCheck* c : checks) {
    course::GoldenResult r = course::run_golden_check(*c);
    EXPECT_TRUE(r.error.empty()) << c->id << " [" << c->source << "]: " << r.error;
    for (const auto& [name, want] : c->expect) {
      auto it = r.got.find(name);
      ASSERT_NE(it, r.got.end()) << c->id << ": no output " << name;
      ASSERT_EQ(it->second.size(), want.size()) << c->id << ": " << name;
      for (std::size_t i = 0; i < want.size(); ++i)
        EXPECT_TRUE(course::within_tolerance(it->second[i], want[i], c->abs_tol, c->rel_tol))
            << c->id << " [" << c->source << "] " << name << "[" << i << "] = " << it->second[i] << ", course prints "
            << want[i];
    }
  }
}

void expect_exercise_key_matches_course(const std::string& id) {
  const course::Exercise* e = course::find_exercise(id);
  ASSERT_NE(e, nullptr) << "no exercise " << id;
  for (const course::AnswerPart& p : e->parts) {
    if (p.kind != "number") continue;
    std::vector<double> key = course::answer_key(p);
    ASSERT_EQ(key.size(), p.course.size()) << id << " " << p.name << ": the course answer has another size";
    for (std::size_t i = 0; i < key.size(); ++i)
      EXPECT_TRUE(course::within_tolerance(key[i], p.course[i], p.abs_tol, p.rel_tol))
          << id << " " << p.name << "[" << i << "]: key " << key[i] << ", course " << p.course[i];
  }
}

std::string read_regression(const std::string& name) {
  std::ifstream f(std::string(IMPULSE_SOURCE_DIR) + "/golden/regression/" + name);
  EXPECT_TRUE(f.good()) << "missing golden/regression/" << name;
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace impulse::golden
