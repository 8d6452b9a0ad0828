// Course exercises: statement, answer key computed by the engine, tolerance, units, explanation.
//
// Each exercise is a TOML file in exercises/<chapter>/<ID>.toml (embedded at build time). An answer
// has one or more parts. A numeric part names the registry calculator whose output is the key
// (so the key is computed by the same lib/ function the engine uses) and carries the course's
// printed answer, which the exercise tests compare with the key. A choice part lists statements and
// names the correct one, with the test that demonstrates it in the engine.
//
//   id = "E1.11-ex3"
//   title = "..."; source = "seed 003 Q L460, A L477"; question = "..."; explanation = "..."
//   [[answer]]
//   name = "v_B"; unit = "m/s"; kind = "number"   # or "choice"
//   formula = "E1.6-origin-velocity"; output = "v_B"
//   inputs = { v_C = [0,0,0], omega = [0,0,2], q = [0,0,0,1], c_B = [0.1,0,0] }
//   course = [0, -0.2, 0]; abs_tol = 1e-9; rel_tol = 1e-6
//   # choice parts: options = ["a) ...", "b) ..."]; correct = "b"; backed_by = "Suite.Test"
#pragma once

#include <string>
#include <vector>

#include "course/registry.h"

namespace impulse::course {

struct AnswerPart {
  std::string name;
  std::string unit;
  std::string kind;  // "number" or "choice"
  // number
  std::string formula;  // registry ID of the calculator giving the key
  std::string output;   // which output of that calculator
  Values inputs;
  std::vector<double> course;  // the course's printed answer
  double abs_tol = 1e-9;
  double rel_tol = 1e-6;
  // choice
  std::vector<std::string> options;
  std::string correct;    // option label, e.g. "b"
  std::string backed_by;  // the test that demonstrates it
};

struct Exercise {
  std::string id, chapter, title, source, question, explanation, file;
  std::vector<AnswerPart> parts;
};

/// One exercise file (TOML text; file names it in messages). Throws std::runtime_error with one
/// line "file:line: what is wrong" when it is malformed.
Exercise parse_exercise(const std::string& text, const std::string& file);

/// Every exercise, parsed from the embedded TOML files (throws std::runtime_error with the file
/// and line when one is malformed).
const std::vector<Exercise>& exercises();
const Exercise* find_exercise(const std::string& id);

/// The key of a numeric part, computed by its calculator.
std::vector<double> answer_key(const AnswerPart& p);

/// Number of answer tokens a part takes (its dimension for numbers, 1 for a choice).
int answer_size(const AnswerPart& p);

struct PartGrade {
  std::string name;
  bool correct = false;
  std::string given;
  std::string expected;  // formatted key with unit
};

struct Grade {
  bool correct = false;
  std::vector<PartGrade> parts;
};

/// Grades answer tokens (numbers; commas also separate; or an option label). Throws
/// std::invalid_argument for the wrong count or a token that is not a number.
Grade grade(const Exercise& e, const std::vector<std::string>& tokens);

/// |given - key| <= abs_tol + rel_tol * |key|, componentwise.
bool within_tolerance(double given, double key, double abs_tol, double rel_tol);

/// "(x, y, z)" for vectors, "x" for scalars, with up to 9 significant digits.
std::string format_value(const std::vector<double>& v);

}  // namespace impulse::course
