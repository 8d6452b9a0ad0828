#include "course/exercises.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "core/shortest_decimal.h"
#include "core/text.h"
#include "course/embedded.h"
#include "course/toml_values.h"

namespace impulse::course {

Exercise parse_exercise(const std::string& text, const std::string& file) {
  toml::table t = parse_toml(text, file);
  Exercise e;
  e.file = file;
  e.id = toml_string(t, "id", file);
  e.chapter = chapter_of(e.id);
  e.title = toml_string(t, "title", file);
  e.source = toml_string(t, "source", file);
  e.question = toml_string(t, "question", file);
  e.explanation = toml_string(t, "explanation", file);
  const toml::array* parts = t["answer"].as_array();
  if (!parts || parts->empty()) throw std::runtime_error(file + ": an exercise needs at least one [[answer]]");
  for (const toml::node& pn : *parts) {
    const toml::table* pt = pn.as_table();
    if (!pt) throw std::runtime_error(where(pn, file) + ": [[answer]] must be a table");
    AnswerPart p;
    p.name = toml_string(*pt, "name", file);
    p.unit = toml_string(*pt, "unit", file, false);
    p.kind = toml_string(*pt, "kind", file, false);
    if (p.kind.empty()) p.kind = "number";
    if (p.kind == "number") {
      p.formula = toml_string(*pt, "formula", file);
      p.output = toml_string(*pt, "output", file);
      p.inputs = toml_values(pt->get("inputs"), "inputs", file);
      if (const toml::node* c = pt->get("course")) p.course = toml_numbers(*c, "course", file);
      if (auto v = (*pt)["abs_tol"].value<double>()) p.abs_tol = *v;
      if (auto v = (*pt)["rel_tol"].value<double>()) p.rel_tol = *v;
    } else if (p.kind == "choice") {
      const toml::array* opts = (*pt)["options"].as_array();
      if (!opts || opts->empty()) throw std::runtime_error(where(pn, file) + ": a choice needs options");
      for (const toml::node& o : *opts) p.options.push_back(o.value<std::string>().value_or(""));
      p.correct = toml_string(*pt, "correct", file);
      p.backed_by = toml_string(*pt, "backed_by", file);
    } else {
      throw std::runtime_error(one_line(where(pn, file) + ": answer kind must be 'number' or 'choice', not '" + p.kind + "'"));
    }
    e.parts.push_back(std::move(p));
  }
  return e;
}

const std::vector<Exercise>& exercises() {
  static const std::vector<Exercise> all = [] {
    std::vector<Exercise> v;
    for (int i = 0; i < embedded_file_count; ++i) {
      std::string path = embedded_files[i].path;
      if (path.rfind("exercises/", 0) == 0) v.push_back(parse_exercise(embedded_files[i].text, path));
    }
    return v;
  }();
  return all;
}

const Exercise* find_exercise(const std::string& id) {
  for (const Exercise& e : exercises())
    if (e.id == id) return &e;
  return nullptr;
}

std::vector<double> answer_key(const AnswerPart& p) {
  const Item* item = registry().find(p.formula);
  if (!item) throw std::runtime_error("answer key names unknown formula " + p.formula);
  Values out = evaluate(*item, p.inputs);
  auto it = out.find(p.output);
  if (it == out.end()) throw std::runtime_error(p.formula + " has no output '" + p.output + "'");
  return it->second;
}

int answer_size(const AnswerPart& p) {
  if (p.kind == "choice") return 1;
  return static_cast<int>(answer_key(p).size());
}

int significant_figures(double x) {
  if (x == 0 || !std::isfinite(x)) return 1;
  const std::string s = shortest_decimal(std::abs(x));
  std::string mantissa = s.substr(0, s.find('e'));
  std::string digits;
  for (char c : mantissa)
    if (c >= '0' && c <= '9') digits += c;
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;
  digits = digits.substr(first);
  // Trailing zeros of a whole number ("2000") are not significant in a shortest representation.
  const auto last = digits.find_last_not_of('0');
  return int(last + 1);
}

Tolerance answer_tolerance(const AnswerPart& p, const std::vector<double>& key) {
  Tolerance t;
  if (p.abs_tol == 0 && p.rel_tol == 0) {
    t.exact = true;
    return t;
  }
  int s = 0;
  for (double c : p.course) s = std::max(s, significant_figures(c));
  t.significant = p.course.empty() ? 4 : std::clamp(s, 3, 4);
  t.relative = 0.5 * std::pow(10.0, 1 - t.significant);
  double scale = 0;
  for (double k : key) scale = std::max(scale, std::abs(k));
  t.absolute = std::max(p.abs_tol, t.relative * scale);
  return t;
}

std::string option_label(const std::string& option) {
  const auto paren = option.find(')');
  return paren == std::string::npos ? option : option.substr(0, paren);
}

bool within_tolerance(double given, double key, double abs_tol, double rel_tol) {
  return std::abs(given - key) <= abs_tol + rel_tol * std::abs(key);
}

std::string format_value(const std::vector<double>& v) {
  std::ostringstream s;
  s.precision(9);
  auto put = [&](double x) { s << (x == 0 ? 0.0 : x); };  // no "-0"
  if (v.size() == 1) {
    put(v[0]);
    return s.str();
  }
  s << '(';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s << ", ";
    put(v[i]);
  }
  s << ')';
  return s.str();
}

namespace {

std::string part_hint(const AnswerPart& p) {
  if (p.kind == "choice") return "the test that shows it: ctest -R " + p.backed_by.substr(0, p.backed_by.find('.'));
  const Item* it = registry().find(p.formula);
  std::string h = "course " + (it ? it->section : std::string("?")) + ", formula " + p.formula + "; try: impulse calc " +
                  p.formula + " --help";
  return h;
}

}  // namespace

Grade grade(const Exercise& e, const std::vector<std::string>& raw) {
  // Commas separate numbers too: "0,-0.2,0" and "0 -0.2 0" are the same answer.
  std::vector<std::string> tokens;
  for (const std::string& r : raw) {
    std::stringstream ss(r);
    std::string piece;
    while (std::getline(ss, piece, ','))
      if (!piece.empty()) tokens.push_back(piece);
  }
  bool has_choice = false;
  for (const AnswerPart& p : e.parts) has_choice = has_choice || p.kind == "choice";
  if (!has_choice)
    for (const std::string& t : tokens) {
      char* end = nullptr;
      const double x = std::strtod(t.c_str(), &end);
      if (*end != '\0' || !std::isfinite(x))
        throw std::invalid_argument("answer '" + t + "' for " + e.id + " is not a finite number");
    }
  int want = 0;
  for (const AnswerPart& p : e.parts) want += answer_size(p);
  if (static_cast<int>(tokens.size()) != want)
    throw std::invalid_argument(e.id + " takes " + std::to_string(want) + " answer value" + (want == 1 ? "" : "s") +
                                ", got " + std::to_string(tokens.size()));
  Grade g;
  g.correct = true;
  std::size_t k = 0;
  for (const AnswerPart& p : e.parts) {
    PartGrade pg;
    pg.name = p.name;
    pg.kind = p.kind;
    pg.unit = p.unit;
    pg.hint = part_hint(p);
    if (p.kind == "choice") {
      pg.given = tokens[k++];
      std::string labels;
      bool known = false;
      for (const std::string& o : p.options) {
        labels += (labels.empty() ? "" : ", ") + option_label(o);
        known = known || option_label(o) == pg.given;
      }
      if (!known)
        throw std::invalid_argument("answer '" + pg.given + "' for " + e.id + " (" + p.name + ") is not one of the options " +
                                    labels);
      pg.correct = pg.given == p.correct;
      pg.expected = p.correct;
    } else {
      pg.key = answer_key(p);
      pg.tolerance = answer_tolerance(p, pg.key);
      pg.correct = true;
      for (std::size_t i = 0; i < pg.key.size(); ++i) {
        const std::string& t = tokens[k++];
        char* end = nullptr;
        const double x = std::strtod(t.c_str(), &end);
        if (t.empty() || *end != '\0' || !std::isfinite(x))
          throw std::invalid_argument("answer '" + t + "' for " + e.id + " (" + p.name + ") is not a finite number");
        pg.given_values.push_back(x);
        const double err = std::abs(x - pg.key[i]);
        const bool ok = pg.tolerance.exact ? x == pg.key[i] : err <= pg.tolerance.absolute;
        if (!ok && (pg.worst < 0 || err > pg.worst_error)) {
          pg.worst = int(i);
          pg.worst_error = err;
        }
        pg.correct = pg.correct && ok;
      }
      pg.given = format_value(pg.given_values);
      pg.expected = format_value(pg.key) + (p.unit.empty() || p.unit == "-" ? "" : " " + p.unit);
    }
    g.correct = g.correct && pg.correct;
    g.parts.push_back(pg);
  }
  return g;
}

}  // namespace impulse::course
