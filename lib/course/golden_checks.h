// Values printed in the course or the paper, recomputed by the engine (`impulse verify`).
//
// golden/course/*.toml and golden/paper/*.toml hold checks of the form
//   [[check]]
//   id = "E1.6-torque-example"; source = "seed 003 L301"; what = "..."
//   origin = "printed"   # the course prints this number; "derived": worked out from its formula
//   quote = "..."        # the first words of the cited seed line (the course is in Chinese)
//   inputs = { f = [0,10,0], P = [0.2,0,0], C = [0,0,0] }
//   expect = { tau_C = [0,0,2], tau_P = [0,0,0] }
//   abs_tol = 1e-12; rel_tol = 0
// Each check evaluates the registry calculator of `id` (or of `formula` when given) on `inputs` and
// compares every `expect` entry.
#pragma once

#include <string>
#include <vector>

#include "course/registry.h"

namespace impulse::course {

struct GoldenCheck {
  std::string id, formula, source, what, file;
  std::string origin;  // "printed" or "derived"
  std::string quote;   // short quote of the cited course line
  Values inputs, expect;
  double abs_tol = 1e-9, rel_tol = 1e-9;
};

struct GoldenResult {
  const GoldenCheck* check = nullptr;
  bool pass = false;
  Values got;
  std::string error;  // set when the calculator threw
};

const std::vector<GoldenCheck>& golden_checks();
/// "course E1 §6, seed file 003_aed2a571f4fd01e0.txt line 301" from the check's ID and source.
std::string golden_provenance(const GoldenCheck& c);
/// Checks of one ID (used by the golden tests).
std::vector<const GoldenCheck*> golden_checks_for(const std::string& id);
GoldenResult run_golden_check(const GoldenCheck& c);

}  // namespace impulse::course
