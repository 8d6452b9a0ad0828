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
//   printed = "1/3"   # when the course prints its answer as a fraction (sets the precision: 3 figures)
//   hint = "where to look and the mistake students make most"   # shown with a wrong answer
//   [[answer.mistake]]   # a typical mistake, recognised in the answer and named in the hint
//   inputs = { relaxation = 1 }   # the calculator's inputs it changes (or output = "...": another output)
//   says = "the relaxation multiplies the correction: did you leave it out?"
//   # choice parts: options = ["a) ...", "b) ..."]; correct = "b"; backed_by = "Suite.Test"
#pragma once

#include <string>
#include <vector>

#include "course/registry.h"

namespace impulse::course {

/// A typical mistake: the answer the calculator gives with some inputs changed (or another of its
/// outputs), and the sentence that names the mistake without a number.
struct Mistake {
  Values inputs;       // overrides of the part's inputs
  Values times;        // inputs multiplied componentwise by these factors (c_B = [-1, 1, 1]: a sign)
  std::string output;  // another output of the calculator ("" = the part's own)
  std::string says;
};

struct AnswerPart {
  std::string name;
  std::string unit;
  std::string kind;  // "number" or "choice"
  // number
  std::string formula;  // registry ID of the calculator giving the key
  std::string output;   // which output of that calculator
  Values inputs;
  std::vector<double> course;  // the course's printed answer
  // Significant figures the course prints for this answer (its largest over the components); a
  // fraction (printed = "1/3") counts as the fewest the rule allows (3): 0.333 and 1/3 both agree.
  int course_significant = 0;
  std::string hint;               // what to look at again (course section words, a typical mistake)
  std::vector<Mistake> mistakes;  // recognised wrong answers
  // How closely the engine's key must reproduce `course` (checked by the exercise tests, not used to
  // grade): |key_i - course_i| <= abs_tol + rel_tol |course_i|. Grading follows the one rule of
  // answer_tolerance; there abs_tol only serves as the floor for keys at or near zero, and
  // abs_tol = rel_tol = 0 marks an answer that must match exactly (a count).
  double abs_tol = 1e-9;
  double rel_tol = 1e-6;
  // choice
  std::vector<std::string> options;
  std::string correct;    // option label, e.g. "b"
  std::string backed_by;  // the test that demonstrates it
};

struct Exercise {
  std::string id, chapter, title, source, question, explanation, file;
  // The question as written in the TOML, with slots {input} or {input[i]} that question renders
  // with the parts' inputs (lib/course/variants.h), and the inputs a student's variant draws.
  std::string question_template;
  std::vector<std::string> vary;
  double weight = 1;  // points in a graded class (TOML `weight`, default 1)
  std::vector<AnswerPart> parts;
};

/// One exercise file (TOML text; file names it in messages). Throws std::runtime_error with one
/// line "file:line: what is wrong" when it is malformed.
Exercise parse_exercise(const std::string& text, const std::string& file);

/// Every exercise, parsed from the embedded TOML files (throws std::runtime_error with the file
/// and line when one is malformed).
const std::vector<Exercise>& exercises();
const Exercise* find_exercise(const std::string& id);

/// IDs close to a mistyped or shortened one (a prefix up to a '-', or an edit distance of at most
/// 3, case ignored), nearest first; at most 3.
std::vector<std::string> similar_exercise_ids(const std::string& id);

/// "unknown exercise 'E3.10-ex2' (did you mean E3.10-ex2-xpbd-normal?; see 'impulse exercises list')"
/// with `listing` naming where the list is ("'impulse exercises list'" or "impulse.exercises()").
std::string unknown_exercise_message(const std::string& id, const std::string& listing);

/// IDs in natural order: E3.10-ex2 before E3.10-ex10 (digit runs compare as numbers).
bool natural_less(const std::string& a, const std::string& b);

/// The key of a numeric part, computed by its calculator.
std::vector<double> answer_key(const AnswerPart& p);

/// The answer a typical mistake gives: the part's calculator with the mistake's inputs changed
/// (inputs replaced, then `times` applied), read at the mistake's output or the part's own.
std::vector<double> mistake_value(const AnswerPart& p, const Mistake& m);

/// Number of answer tokens a part takes (its dimension for numbers, 1 for a choice).
int answer_size(const AnswerPart& p);

/// The tolerance rule (one for every numeric answer; docs/guide/commands.md):
///   an answer agrees with the key when, for every component i,
///     |given_i - key_i| <= max(abs_tol, 0.5 * 10^(1 - s) * max_j |key_j|)
///   s = the significant figures the course prints for this answer, counted between 3 and 4;
///   a part whose TOML sets abs_tol = 0 and rel_tol = 0 (a count) must match exactly.
struct Tolerance {
  bool exact = false;
  int significant = 4;   // s
  double relative = 0;   // 0.5 * 10^(1 - s)
  double absolute = 0;   // the bound in the part's unit
};
Tolerance answer_tolerance(const AnswerPart& p, const std::vector<double>& key);

/// Significant figures of x as its shortest round-trip decimal writes it (0.0333333 -> 6, 9 -> 1, 0 -> 1).
int significant_figures(double x);

/// One answer number as a student writes it: a decimal ("0.333", "1e-3") or a fraction ("1/3",
/// "-2/6"). Throws std::invalid_argument with what: "'1.6N' ...: write the number without its unit"
/// or "... is not a number"; `what` names the answer in the message ("answer '1.6N' for E3.10-ex2 (p_n)").
double parse_answer_number(const std::string& token, const std::string& what);

struct PartGrade {
  std::string name;
  std::string kind;      // "number" or "choice"
  std::string unit;
  bool correct = false;
  std::string given;
  std::string expected;  // formatted key with unit (shown only with --reveal)
  // number parts
  std::vector<double> given_values, key;
  Tolerance tolerance;
  int worst = -1;          // index of the component furthest off (-1 when all agree)
  double worst_error = 0;  // |given - key| of that component [unit]
  std::string hint;        // where to look and, when recognised, the mistake (never a number from the key)
  int mistake = -1;        // index of the part's matched Mistake (-1: none)
};

struct Grade {
  bool correct = false;
  std::vector<PartGrade> parts;
};

/// Grades answer tokens (numbers or fractions; commas also separate vector components; or an option
/// label). Throws std::invalid_argument for the wrong count (saying, when a comma split a token, that
/// the comma separates components), a number written with its unit, a token that is not a finite
/// number, or a choice that is not one of the part's option labels.
Grade grade(const Exercise& e, const std::vector<std::string>& tokens);

/// |given - key| <= abs_tol + rel_tol * |key|, componentwise.
bool within_tolerance(double given, double key, double abs_tol, double rel_tol);

/// The label of a choice option: "b" for "b) the quaternion ...".
std::string option_label(const std::string& option);

/// "(x, y, z)" for vectors, "x" for scalars, with up to 9 significant digits.
std::string format_value(const std::vector<double>& v);

}  // namespace impulse::course
