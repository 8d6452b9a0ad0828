#include "course/exercises.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "core/shortest_decimal.h"
#include "core/text.h"
#include "course/embedded.h"
#include "course/toml_values.h"
#include "course/variants.h"

namespace impulse::course {

namespace {

// The course's printed answer: `course` holds its numbers; `printed`, when the course writes a
// fraction ("1/3"), holds that text, which counts as printed to the fewest significant figures the
// rule allows (3).
void read_course_answer(const toml::table& pt, const std::string& file, AnswerPart& p) {
  if (const toml::node* c = pt.get("course")) p.course = toml_numbers(*c, "course", file);
  for (double v : p.course) p.course_significant = std::max(p.course_significant, significant_figures(v));
  const std::string printed = toml_string(pt, "printed", file, false);
  if (printed.empty()) return;
  double v = 0;
  try {
    v = parse_answer_number(printed, "printed '" + printed + "'");
  } catch (const std::invalid_argument& ex) {
    throw std::runtime_error(one_line(file + ": " + ex.what()));
  }
  if (p.course.size() != 1 || !within_tolerance(v, p.course[0], p.abs_tol, p.rel_tol))
    throw std::runtime_error(one_line(file + ": printed '" + printed + "' is not the part's one course value"));
  p.course_significant = 3;
}

}  // namespace

Exercise parse_exercise(const std::string& text, const std::string& file) {
  toml::table t = parse_toml(text, file);
  Exercise e;
  e.file = file;
  e.id = toml_string(t, "id", file);
  e.chapter = chapter_of(e.id);
  e.title = toml_string(t, "title", file);
  e.source = toml_string(t, "source", file);
  e.question_template = toml_string(t, "question", file);
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
      if (auto v = (*pt)["abs_tol"].value<double>()) p.abs_tol = *v;
      if (auto v = (*pt)["rel_tol"].value<double>()) p.rel_tol = *v;
      read_course_answer(*pt, file, p);
      p.hint = toml_string(*pt, "hint", file, false);
      if (const toml::array* ms = (*pt)["mistake"].as_array())
        for (const toml::node& mn : *ms) {
          const toml::table* mt = mn.as_table();
          if (!mt) throw std::runtime_error(where(mn, file) + ": [[answer.mistake]] must be a table");
          Mistake m;
          m.inputs = toml_values(mt->get("inputs"), "inputs", file);
          m.times = toml_values(mt->get("times"), "times", file);
          m.output = toml_string(*mt, "output", file, false);
          m.says = toml_string(*mt, "says", file);
          p.mistakes.push_back(std::move(m));
        }
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
  if (const toml::node* vn = t.get("vary")) {
    const toml::array* va = vn->as_array();
    if (!va) throw std::runtime_error(where(*vn, file) + ": vary must be an array of input names");
    for (const toml::node& n : *va) {
      const std::string name = n.value<std::string>().value_or("");
      bool found = false;
      for (const AnswerPart& p : e.parts) found = found || (p.kind == "number" && p.inputs.count(name));
      if (!found) throw std::runtime_error(where(n, file) + ": vary names '" + name + "', which is no input of a numeric part");
      e.vary.push_back(name);
    }
  }
  if (const toml::node* wn = t.get("weight")) {
    const auto w = wn->value<double>();
    if (!w || !(*w > 0) || *w > 1000) throw std::runtime_error(where(*wn, file) + ": weight must be a number in (0, 1000]");
    e.weight = *w;
  }
  e.question = render_question(e.question_template, e.parts, file);
  return e;
}

const std::vector<Exercise>& exercises() {
  static const std::vector<Exercise> all = [] {
    std::vector<Exercise> v;
    for (int i = 0; i < embedded_file_count; ++i) {
      std::string path = embedded_files[i].path;
      if (path.rfind("exercises/", 0) == 0) v.push_back(parse_exercise(embedded_files[i].text, path));
    }
    std::sort(v.begin(), v.end(), [](const Exercise& a, const Exercise& b) { return natural_less(a.id, b.id); });
    return v;
  }();
  return all;
}

const Exercise* find_exercise(const std::string& id) {
  for (const Exercise& e : exercises())
    if (e.id == id) return &e;
  return nullptr;
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i1 = i, j1 = j;
      while (i1 < a.size() && digit(a[i1])) ++i1;
      while (j1 < b.size() && digit(b[j1])) ++j1;
      const std::string x = a.substr(i, i1 - i), y = b.substr(j, j1 - j);
      const std::string xs = x.substr(std::min(x.find_first_not_of('0'), x.size()));
      const std::string ys = y.substr(std::min(y.find_first_not_of('0'), y.size()));
      if (xs.size() != ys.size()) return xs.size() < ys.size();
      if (xs != ys) return xs < ys;
      i = i1;
      j = j1;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Levenshtein distance, one row at a time.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> similar_exercise_ids(const std::string& id) {
  const std::string want = lower(id);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const Exercise& e : exercises()) {
    const std::string have = lower(e.id);
    const bool prefix = !want.empty() && have.rfind(want, 0) == 0 && (have.size() == want.size() || have[want.size()] == '-');
    const std::size_t d = prefix ? 0 : edit_distance(want, have);
    if (d <= 3) near.emplace_back(d, e.id);
  }
  // A shortened ID names its exercise: then only the IDs it begins are offered.
  if (!near.empty() && std::any_of(near.begin(), near.end(), [](const auto& x) { return x.first == 0; }))
    near.erase(std::remove_if(near.begin(), near.end(), [](const auto& x) { return x.first != 0; }), near.end());
  std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t k = 0; k < near.size() && k < 3; ++k) out.push_back(near[k].second);
  return out;
}

std::string unknown_exercise_message(const std::string& id, const std::string& listing) {
  std::string m = "unknown exercise '" + id + "' (";
  const std::vector<std::string> near = similar_exercise_ids(id);
  for (std::size_t k = 0; k < near.size(); ++k) m += (k ? " or " : "did you mean ") + near[k];
  if (!near.empty()) m += "? ";
  return one_line(m + "see " + listing + ")");
}

std::vector<double> answer_key(const AnswerPart& p) {
  const Item* item = registry().find(p.formula);
  if (!item) throw std::runtime_error("answer key names unknown formula " + p.formula);
  Values out = evaluate(*item, p.inputs);
  auto it = out.find(p.output);
  if (it == out.end()) throw std::runtime_error(p.formula + " has no output '" + p.output + "'");
  return it->second;
}

std::vector<double> mistake_value(const AnswerPart& p, const Mistake& m) {
  const Item* item = registry().find(p.formula);
  if (!item) throw std::runtime_error("answer key names unknown formula " + p.formula);
  Values in = p.inputs;
  for (const auto& [k, v] : m.inputs) in[k] = v;
  for (const auto& [k, f] : m.times)
    for (std::size_t c = 0; c < in[k].size() && c < f.size(); ++c) in[k][c] *= f[c];
  Values out = evaluate(*item, in);
  auto o = out.find(m.output.empty() ? p.output : m.output);
  if (o == out.end()) throw std::runtime_error(p.formula + " has no output '" + m.output + "'");
  return o->second;
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
  t.significant = p.course.empty() ? 4 : std::clamp(p.course_significant, 3, 4);
  t.relative = 0.5 * std::pow(10.0, 1 - t.significant);
  double scale = 0;
  for (double k : key) scale = std::max(scale, std::abs(k));
  t.absolute = std::max(p.abs_tol, t.relative * scale);
  return t;
}

namespace {

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// strtod over the whole of t; false when t is empty or has anything after the number.
bool whole_number(const std::string& t, double& x) {
  if (t.empty() || std::isspace(static_cast<unsigned char>(t[0]))) return false;
  char* end = nullptr;
  x = std::strtod(t.c_str(), &end);
  return *end == '\0';
}

}  // namespace

double parse_answer_number(const std::string& token, const std::string& what) {
  double x = 0;
  bool ok = whole_number(token, x);
  const std::size_t slash = token.find('/');
  if (!ok && slash != std::string::npos && slash > 0) {
    double a = 0, b = 0;
    if (whole_number(token.substr(0, slash), a) && whole_number(token.substr(slash + 1), b)) {
      if (b == 0) throw std::invalid_argument(one_line(what + " divides by zero"));
      x = a / b;
      ok = true;
    }
  }
  if (ok && std::isfinite(x)) return x;
  char* end = nullptr;
  std::strtod(token.c_str(), &end);
  if (end != token.c_str() && (std::isalpha(static_cast<unsigned char>(*end)) || *end == ' ') &&
      token.find_first_of("0123456789") < std::size_t(end - token.c_str()))
    throw std::invalid_argument(one_line(what + ": write the number without its unit (the unit is given)"));
  throw std::invalid_argument(one_line(what + " is not a finite number (a decimal such as 0.25 or a fraction such as 1/4)"));
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

// Where to look again, and the typical mistake the answer shows when it matches one; never a
// number taken from the key, nor a command that would print the key.
std::string part_hint(const AnswerPart& p, const std::vector<double>& given, const Tolerance& tol, int* matched = nullptr) {
  if (p.kind == "choice") return "the test that shows it: ctest -R " + p.backed_by.substr(0, p.backed_by.find('.'));
  const Item* it = registry().find(p.formula);
  const std::string h = "course " + (it ? it->section : std::string("?")) + ", " + p.formula;
  for (std::size_t mi = 0; mi < p.mistakes.size(); ++mi) {
    const std::vector<double> wrong = mistake_value(p, p.mistakes[mi]);
    const Mistake& m = p.mistakes[mi];
    if (wrong.size() != given.size()) continue;
    // the mistake's number written to the figures the course prints (the key's bound when larger)
    const double bound = std::max(tol.absolute, answer_tolerance(p, wrong).absolute);
    bool same = true;
    for (std::size_t i = 0; i < given.size(); ++i)
      same = same && (tol.exact ? given[i] == wrong[i] : std::abs(given[i] - wrong[i]) <= bound);
    if (same) {
      if (matched) *matched = int(mi);
      return h + ": " + m.says;
    }
  }
  return p.hint.empty() ? h : h + ": " + p.hint;
}

}  // namespace

namespace {

// A token that is a unit alone ("N", "m/s") or a number glued to one: the student wrote the unit.
bool is_unit_of(const Exercise& e, const std::string& t) {
  for (const AnswerPart& p : e.parts) {
    if (p.unit.empty() || p.unit == "-") continue;
    std::stringstream words(p.unit);
    std::string w;
    if (t == p.unit) return true;
    while (words >> w)
      if (t == w) return true;
  }
  return false;
}

}  // namespace

Grade grade(const Exercise& e, const std::vector<std::string>& raw) {
  // Commas separate vector components too: "0,-0.2,0" and "0 -0.2 0" are the same answer.
  std::vector<std::string> tokens;
  std::string comma_token;  // the first token a comma split, for the message when the count is off
  for (const std::string& r : raw) {
    std::stringstream ss(r);
    std::string piece;
    int pieces = 0;
    while (std::getline(ss, piece, ','))
      if (!piece.empty()) {
        tokens.push_back(piece);
        ++pieces;
      }
    if (pieces > 1 && comma_token.empty()) comma_token = r;
  }
  bool has_choice = false;
  for (const AnswerPart& p : e.parts) has_choice = has_choice || p.kind == "choice";
  for (const std::string& t : tokens)
    if (is_unit_of(e, t)) throw std::invalid_argument(one_line("answer '" + t + "' for " + e.id + ": write the number without its unit (the unit is given)"));
  if (!has_choice)
    for (const std::string& t : tokens) parse_answer_number(t, "answer '" + t + "' for " + e.id);
  int want = 0;
  for (const AnswerPart& p : e.parts) want += answer_size(p);
  if (static_cast<int>(tokens.size()) != want) {
    std::string m = e.id + " takes " + std::to_string(want) + " answer value" + (want == 1 ? "" : "s") + ", got " +
                    std::to_string(tokens.size());
    if (!comma_token.empty())
      m += ": in '" + comma_token + "' the comma separates vector components; write a decimal with a point (1.6, not 1,6)";
    throw std::invalid_argument(one_line(m));
  }
  Grade g;
  g.correct = true;
  std::size_t k = 0;
  for (const AnswerPart& p : e.parts) {
    PartGrade pg;
    pg.name = p.name;
    pg.kind = p.kind;
    pg.unit = p.unit;
    if (p.kind == "choice") {
      pg.hint = part_hint(p, {}, {});
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
      std::vector<std::string> written;
      for (std::size_t i = 0; i < pg.key.size(); ++i) {
        const std::string& t = tokens[k++];
        const double x = parse_answer_number(t, "answer '" + t + "' for " + e.id + " (" + p.name + ")");
        pg.given_values.push_back(x);
        written.push_back(t);
        const double err = std::abs(x - pg.key[i]);
        const bool ok = pg.tolerance.exact ? x == pg.key[i] : err <= pg.tolerance.absolute;
        if (!ok && (pg.worst < 0 || err > pg.worst_error)) {
          pg.worst = int(i);
          pg.worst_error = err;
        }
        pg.correct = pg.correct && ok;
      }
      pg.given = written.size() == 1 ? written[0] : "(" + join(written, ", ") + ")";
      if (!pg.correct) pg.hint = part_hint(p, pg.given_values, pg.tolerance, &pg.mistake);
      pg.expected = format_value(pg.key) + (p.unit.empty() || p.unit == "-" ? "" : " " + p.unit);
    }
    g.correct = g.correct && pg.correct;
    g.parts.push_back(pg);
  }
  return g;
}

}  // namespace impulse::course
