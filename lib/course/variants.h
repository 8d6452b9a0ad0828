// A variant of an exercise per student: the numbers drawn from a seed string, the key computed by
// the engine for those numbers (answer_key on the variant's inputs; no key is stored).
//
// The draw is specified here so that every platform and the browser build (WebAssembly) print the
// same numbers for the same seed; it uses only integer arithmetic and IEEE-754 + - * / and
// rounding of doubles (no std::*_distribution, no <random> engine, no libm transcendental):
//
//   state  = FNV-1a 64 of the bytes of  seed + "\x1f" + exercise ID
//            (offset basis 0xcbf29ce484222325, prime 0x100000001b3)
//   next() = SplitMix64: state += 0x9e3779b97f4a7c15; z = state;
//            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9; z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
//            return z ^ (z >> 31)
//   u      = (next() >> 11) * 2^-53                      uniform in [0, 1)
//   x      = round2(x0 * (0.5 + u))                      each component x0 of a drawn input
//            round2: to 2 significant figures (half away from zero); an integer input rounds
//            to a whole number instead; a zero component stays 0 (no draw is spent on it)
//   The inputs named in the exercise's `vary` are drawn in that order, components in order.
//   When any part's calculator refuses the drawn inputs (outside its domains), or a typical mistake
//   of a part gives an answer within twice the tolerance of the key (the larger of the key's and the
//   mistake's bound under answer_tolerance), the whole set is drawn again from the
//   continuing stream, at most kMaxDraws times; then the course's numbers stay.
//   Choice parts whose options carry their statements are shuffled after the numbers:
//   Fisher-Yates from the last option down, j = next() % (i + 1), then relabelled a, b, c, ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "course/exercises.h"

namespace impulse::course {

constexpr int kMaxDraws = 8;

/// FNV-1a 64 of the bytes of s.
std::uint64_t fnv1a64(const std::string& s);

/// The SplitMix64 stream of the draw above.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next();
  double uniform();  // (next() >> 11) * 2^-53
};

/// The stream of one student's exercise: SplitMix64 seeded with fnv1a64(seed + "\x1f" + id).
SplitMix64 variant_stream(const std::string& seed, const std::string& exercise_id);

/// x rounded to 2 significant figures, half away from zero, with exact powers of ten.
double round_two_figures(double x);

/// The exercise as that student sees it: drawn inputs in every part that has them, the question
/// rendered with them, options shuffled. Exercises without `vary` keep the course's numbers.
Exercise make_variant(const Exercise& e, const std::string& seed);

/// True when the variant's numbers can differ from the course's (the exercise names a `vary`).
bool has_numeric_variant(const Exercise& e);

/// The question with each slot {name} or {name[i]} replaced by the part inputs' values (shortest
/// round-trip decimals; vectors as "(x, y, z)"). Throws std::runtime_error naming an unknown slot.
std::string render_question(const std::string& question_template, const std::vector<AnswerPart>& parts,
                            const std::string& file);

}  // namespace impulse::course
