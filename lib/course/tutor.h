// The tutor's verdict on an answer: what the command line prints, what impulse.check() returns in
// Python, and what a JSON printer serialises. It says which part is wrong, the tolerance that
// applied and a hint that points at the mistake; it holds nothing derived from the key (the key,
// an offset, a ratio, an absolute tolerance) until the solution is revealed: by --reveal, by a
// correct answer, or after kTriesBeforeSolution recorded wrong tries of the exercise.
#pragma once

#include <string>
#include <vector>

#include "course/exercises.h"

namespace impulse::course {

/// Wrong tries of one exercise after which its worked solution is shown.
constexpr int kTriesBeforeSolution = 3;

struct PartVerdict {
  std::string name;
  std::string kind;  // "number" or "choice"
  std::string unit;
  bool correct = false;
  std::string given;    // the answer as written ("1/3", "(0, -0.2, 0)", "b")
  int component = 0;    // a wrong vector: the 1-based component furthest off (0 otherwise)
  std::string tolerance;  // numbers: "to 3 significant figures, as the course prints this answer" or "exact (a count)"
  std::string hint;       // wrong parts: where to look and the mistake when recognised
  std::string answer;     // revealed only: the key with its unit, or the correct option label
  std::vector<double> key;  // revealed only, numbers: the key's components [unit]
};

struct Verdict {
  std::string id;
  bool answered = false;  // false for a reveal asked without an answer
  bool correct = false;
  int tries = 0;          // wrong tries recorded for this exercise, this one included
  bool revealed = false;  // the key and the worked solution are in it
  std::vector<PartVerdict> parts;
  std::string explanation;  // revealed only: the worked solution
};

/// The verdict on a graded answer, given the wrong tries recorded for the exercise (this one
/// included when it was wrong) and whether the student asked for the solution.
Verdict tutor_verdict(const Exercise& e, const Grade& g, int tries, bool reveal);

/// The solution alone, asked for without an answer (`check ID --reveal`); tries are not counted.
Verdict reveal_verdict(const Exercise& e, int tries);

/// The tolerance in words: "to 3 significant figures, as the course prints this answer".
std::string tolerance_words(const Tolerance& t);

/// The verdict as the command line prints it (several lines, ending in a newline); tries_where
/// names the tries record in the closing line ("" when none is kept).
std::string verdict_text(const Verdict& v, const std::string& tries_where);

}  // namespace impulse::course
