// impulse exercises variant ID --seed S [--key]: one student's numbers (lib/course/variants.h).
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "course/exercises.h"
#include "course/variants.h"

namespace impulse::cli {

using namespace impulse::course;

namespace {

std::string with_unit(const std::string& v, const std::string& unit) { return unit.empty() || unit == "-" ? v : v + " " + unit; }

}  // namespace

int cmd_exercises_variant(const std::vector<std::string>& args) {
  std::string id, seed;
  bool seed_given = false, key = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << "impulse exercises variant ID --seed S [--key]\n"
                   "  one student's version of an exercise: the numeric inputs drawn from the seed S (any\n"
                   "  string, e.g. the student id) within the calculator's domains, 0.5 to 1.5 times the\n"
                   "  course's numbers, 2 significant figures; options of a choice shuffled. The same seed\n"
                   "  gives the same numbers everywhere (the draw: lib/course/variants.h, docs/guide/grading.md).\n"
                   "  --key also prints the key the engine computes for those numbers (instructors).\n"
                   "example: impulse exercises variant E3.10-ex2-xpbd-normal --seed alice\n";
      return 0;
    }
    if (a == "--seed") {
      if (i + 1 >= args.size()) throw BadInput("--seed needs a value (any string, e.g. a student id)");
      seed = args[++i];
      seed_given = true;
    } else if (a == "--key") {
      key = true;
    } else if (a.rfind("--", 0) == 0) {
      throw BadInput("exercises variant: unknown option '" + a + "' (see --help)");
    } else if (id.empty()) {
      id = a;
    } else {
      throw BadInput("exercises variant takes one exercise ID, got also '" + a + "'");
    }
  }
  if (id.empty()) throw BadInput("exercises variant needs an exercise ID (see 'impulse exercises list')");
  if (!seed_given) throw BadInput("exercises variant needs --seed S (any string, e.g. a student id)");
  const Exercise* base = find_exercise(id);
  if (!base) throw BadInput(unknown_exercise_message(id, "'impulse exercises list'"));
  const Exercise v = make_variant(*base, seed);
  std::cout << v.id << ": " << v.title << "\n(" << v.source << "; variant for seed '" << seed << "')\n";
  if (!has_numeric_variant(v))
    std::cout << "(no numeric inputs to draw: the course's numbers" << (v.parts.back().kind == "choice" ? ", options shuffled" : "") << ")\n";
  std::cout << '\n' << v.question;
  if (!v.question.empty() && v.question.back() != '\n') std::cout << '\n';
  for (const AnswerPart& p : v.parts)
    for (const std::string& o : p.options)
      if (o != option_label(o)) std::cout << "  " << o << '\n';
  if (key) {
    std::cout << "\nkey (computed by the engine for these numbers):\n";
    for (const AnswerPart& p : v.parts)
      std::cout << "  " << p.name << " = " << (p.kind == "choice" ? p.correct : with_unit(format_value(answer_key(p)), p.unit)) << '\n';
  }
  return 0;
}

}  // namespace impulse::cli
