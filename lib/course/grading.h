// Grading a class: one answer file per student, each exercise graded on that student's variant
// (lib/course/variants.h) by grade(), the tutor's one rule, and a report of the class's mistakes.
//
// An answer file (TOML, at most kMaxSubmissionBytes; docs/guide/grading.md):
//   student = "s01"            # required, unique in the class
//   seed = "s01"               # optional; the variant's seed, the student id when absent
//   ["E3.10-ex2-xpbd-normal"]
//   answer = [0.48, 600]       # numbers or strings ("1/3", option labels), parts in order
#pragma once

#include <string>
#include <vector>

#include "course/exercises.h"
#include "course/tutor.h"

namespace impulse::course {

constexpr std::size_t kMaxSubmissionBytes = 64 * 1024;

struct SubmittedAnswer {
  std::string id;
  std::vector<std::string> tokens;  // empty: listed (answer = []) but not answered
};

struct Submission {
  std::string file, student, seed;
  std::vector<SubmittedAnswer> answers;
};

/// Reads one answer file; throws std::runtime_error with one line "file:line: what is wrong" for
/// binary or oversized text, a syntax error, a missing or non-string student, an unknown exercise,
/// a key other than 'answer', an answer that is neither number, string nor an array of them, or an
/// answer grade() refuses (count, NaN, 1e400, a unit written into the number, unknown option).
Submission read_submission(const std::string& text, const std::string& file);

struct GradedPart {
  PartVerdict shown;           // what the tutor shows the student (tutor_verdict: no key, no offset)
  std::string key;             // the key with its unit (instructors only)
  double error = 0;            // |given - key| of the component furthest off [unit]
  int mistake = -1;            // index into the part's mistakes, -1: none recognised
  std::string mistake_says;    // that mistake's sentence
};

struct GradedExercise {
  std::string id;
  bool answered = false;
  double weight = 1, points = 0;  // points = weight x (correct parts / parts)
  std::vector<GradedPart> parts;
};

struct StudentResult {
  std::string file, student, seed;
  std::string refused;  // one line when the file could not be read (then nothing else is set)
  std::vector<GradedExercise> exercises;
  double points = 0, max_points = 0;
};

/// Grades every submission on the class's exercise set (every ID any readable file lists, in
/// natural order; an exercise a student left out scores 0). Files are given as (name, text).
/// A refused file gets its line; the batch goes on. A second file of the same student is refused.
std::vector<StudentResult> grade_class(const std::vector<std::pair<std::string, std::string>>& files);

/// Per exercise part: how many answered, how many correct, each mistake's count, unexplained wrong.
struct PartStats {
  std::string exercise, part;
  int answered = 0, correct = 0, unexplained = 0;
  std::vector<std::pair<std::string, int>> mistakes;  // (says, count) in the part's order
};
std::vector<PartStats> class_report(const std::vector<StudentResult>& results);

}  // namespace impulse::course
