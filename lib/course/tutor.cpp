#include "course/tutor.h"

#include <sstream>

namespace impulse::course {

std::string tolerance_words(const Tolerance& t) {
  if (t.exact) return "exact (a count)";
  return "to " + std::to_string(t.significant) + " significant figures, as the course prints this answer";
}

namespace {

std::string with_unit(const std::string& value, const std::string& unit) {
  return unit.empty() || unit == "-" ? value : value + " " + unit;
}

void reveal_into(const Exercise& e, Verdict& v) {
  v.revealed = true;
  v.explanation = e.explanation;
  for (std::size_t i = 0; i < e.parts.size(); ++i) {
    const AnswerPart& p = e.parts[i];
    v.parts[i].answer = p.kind == "choice" ? p.correct : with_unit(format_value(answer_key(p)), p.unit);
    if (p.kind != "choice") v.parts[i].key = answer_key(p);
  }
}

}  // namespace

Verdict tutor_verdict(const Exercise& e, const Grade& g, int tries, bool reveal) {
  Verdict v;
  v.id = e.id;
  v.answered = true;
  v.correct = g.correct;
  v.tries = tries;
  for (const PartGrade& p : g.parts) {
    PartVerdict pv;
    pv.name = p.name;
    pv.kind = p.kind;
    pv.unit = p.unit;
    pv.correct = p.correct;
    pv.given = p.given;
    if (p.kind == "number") {
      pv.tolerance = tolerance_words(p.tolerance);
      if (!p.correct && p.key.size() > 1) pv.component = p.worst + 1;
    }
    if (!p.correct) pv.hint = p.hint;
    v.parts.push_back(pv);
  }
  if (reveal || g.correct || tries >= kTriesBeforeSolution) reveal_into(e, v);
  return v;
}

Verdict reveal_verdict(const Exercise& e, int tries) {
  Verdict v;
  v.id = e.id;
  v.tries = tries;
  for (const AnswerPart& p : e.parts) {
    PartVerdict pv;
    pv.name = p.name;
    pv.kind = p.kind;
    pv.unit = p.unit;
    if (p.kind == "number") pv.tolerance = tolerance_words(answer_tolerance(p, answer_key(p)));
    v.parts.push_back(pv);
  }
  reveal_into(e, v);
  return v;
}

std::string verdict_text(const Verdict& v, const std::string& tries_where) {
  std::ostringstream o;
  if (v.answered) {
    int wrong = 0;
    for (const PartVerdict& p : v.parts) wrong += p.correct ? 0 : 1;
    o << v.id << ": " << (v.correct ? "correct" : "incorrect");
    if (!v.correct) o << " (" << wrong << " of " << v.parts.size() << " parts wrong; try " << v.tries << ")";
    o << '\n';
    for (const PartVerdict& p : v.parts) {
      o << "  " << p.name << ": " << (p.correct ? "correct" : "incorrect") << " (yours "
        << (p.kind == "choice" ? p.given : with_unit(p.given, p.unit)) << ")\n";
      if (p.component > 0) o << "    component " << p.component << " is the one furthest off\n";
      if (!p.tolerance.empty()) o << "    tolerance: " << p.tolerance << '\n';
      if (!p.hint.empty()) o << "    hint: " << p.hint << '\n';
    }
  } else {
    o << v.id << ": the worked solution (no answer given, no try counted)\n";
  }
  if (v.revealed) {
    o << "  answer:";
    for (const PartVerdict& p : v.parts) o << ' ' << p.name << " = " << p.answer << ';';
    o << "\n  why: " << v.explanation << '\n';
  } else {
    o << "  the worked solution: add --reveal, or it is shown after " << kTriesBeforeSolution << " wrong tries";
    o << (tries_where.empty() ? std::string(" (no tries are kept: IMPULSE_TRIES_FILE=off)") : " (recorded in " + tries_where + ")")
      << '\n';
  }
  return o.str();
}

}  // namespace impulse::course
