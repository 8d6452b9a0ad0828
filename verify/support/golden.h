// Golden values for tests.
//
// Course and paper values live in golden/course/*.toml and golden/paper/*.toml (the same data
// `impulse verify` uses, compiled into the library). Regression goldens (engine outputs, each with
// the command that regenerates it) live in golden/regression/ and are read from the source tree.
#pragma once

#include <string>
#include <vector>

#include "course/golden_checks.h"

namespace impulse::golden {

/// Runs every golden check of one inventory ID through gtest expectations; fails when the ID has
/// no golden check at all (a golden test that checks nothing is a defect).
void expect_course_values(const std::string& id);

/// Exercise answer key (computed by the engine) equals the course's printed answer, part by part,
/// within the part's tolerance.
void expect_exercise_key_matches_course(const std::string& id);

/// Reads a file of golden/regression/ as text; fails the test when it is missing.
std::string read_regression(const std::string& name);

}  // namespace impulse::golden
