#include "course/grading.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/shortest_decimal.h"
#include "core/text.h"
#include "course/toml_values.h"
#include "course/tutor.h"
#include "course/variants.h"

namespace impulse::course {

namespace {

// The shortest decimal that reads back as d: 0.48, not 0.47999999999999998.
std::string number_token(double d) { return shortest_general(d); }

// Text that is not a TOML answer file: a NUL byte or another control character (tab, CR, LF aside).
bool looks_binary(const std::string& text) {
  for (unsigned char c : text)
    if (c == 0 || (c < 32 && c != '\t' && c != '\n' && c != '\r')) return true;
  return false;
}

std::vector<std::string> answer_tokens(const toml::node& an, const std::string& file) {
  std::vector<std::string> tokens;
  auto one = [&](const toml::node& x) {
    if (auto s = x.value_exact<std::string>()) tokens.push_back(*s);
    else if (auto i = x.value_exact<std::int64_t>()) tokens.push_back(std::to_string(*i));
    else if (auto d = x.value_exact<double>()) tokens.push_back(number_token(*d));
    else throw std::runtime_error(where(x, file) + ": an answer is a number, a string such as \"1/3\" or an option label");
  };
  if (const toml::array* arr = an.as_array())
    for (const toml::node& x : *arr) one(x);
  else one(an);
  return tokens;
}

}  // namespace

Submission read_submission(const std::string& text, const std::string& file) {
  if (file.size() < 5 || file.substr(file.size() - 5) != ".toml")
    throw std::runtime_error(file + ":1: not an answer file (answer files end in .toml)");
  if (text.size() > kMaxSubmissionBytes)
    throw std::runtime_error(file + ":1: " + std::to_string(text.size()) + " bytes, more than an answer file may hold (" +
                             std::to_string(kMaxSubmissionBytes) + ")");
  if (looks_binary(text)) throw std::runtime_error(file + ":1: binary content, not a TOML answer file");
  const toml::table t = parse_toml(text, file);  // throws file:line:col
  Submission s;
  s.file = file;
  const toml::node* st = t.get("student");
  if (!st) throw std::runtime_error(file + ":1: no student = \"...\" (the student id)");
  if (!st->value_exact<std::string>() || st->value_exact<std::string>()->empty())
    throw std::runtime_error(where(*st, file) + ": student must be a non-empty string");
  s.student = *st->value_exact<std::string>();
  s.seed = s.student;
  if (const toml::node* sd = t.get("seed")) {
    if (!sd->value_exact<std::string>()) throw std::runtime_error(where(*sd, file) + ": seed must be a string");
    s.seed = *sd->value_exact<std::string>();
  }
  for (const auto& [key, node] : t) {
    const std::string id(key.str());
    if (id == "student" || id == "seed") continue;
    const toml::table* et = node.as_table();
    if (!et) throw std::runtime_error(where(node, file) + ": '" + id + "' must be a table [\"ID\"] with answer = [...]");
    const Exercise* e = find_exercise(id);
    if (!e) throw std::runtime_error(where(node, file) + ": " + unknown_exercise_message(id, "'impulse exercises list'"));
    for (const auto& [k, v] : *et)
      if (k.str() != "answer") throw std::runtime_error(where(v, file) + ": '" + id + "' has an unknown key '" + std::string(k.str()) + "' (only 'answer')");
    const toml::node* an = et->get("answer");
    if (!an) throw std::runtime_error(where(node, file) + ": '" + id + "' has no answer");
    SubmittedAnswer a{id, answer_tokens(*an, file)};
    try {  // answer = [] as the sheet hands it out: listed, not answered
      if (!a.tokens.empty())
        grade(make_variant(*e, s.seed), a.tokens);  // every answer is checked before any is graded
    } catch (const std::invalid_argument& ex) {
      throw std::runtime_error(one_line(where(*an, file) + ": " + ex.what()));
    }
    s.answers.push_back(std::move(a));
  }
  return s;
}

namespace {

GradedExercise grade_one(const Exercise& base, const Submission& s, const SubmittedAnswer* a) {
  GradedExercise ge;
  ge.id = base.id;
  ge.weight = base.weight;
  if (!a || a->tokens.empty()) return ge;
  ge.answered = true;
  const Exercise v = make_variant(base, s.seed);
  const Grade g = grade(v, a->tokens);
  const Verdict verdict = tutor_verdict(v, g, 1, false);  // what the student may see
  int right = 0;
  for (std::size_t i = 0; i < g.parts.size(); ++i) {
    const PartGrade& p = g.parts[i];
    GradedPart gp;
    gp.shown = verdict.parts[i];
    gp.key = p.expected;
    gp.error = p.worst_error;
    gp.mistake = p.mistake;
    if (p.mistake >= 0) gp.mistake_says = v.parts[i].mistakes[std::size_t(p.mistake)].says;
    right += p.correct ? 1 : 0;
    ge.parts.push_back(gp);
  }
  ge.points = ge.weight * right / double(g.parts.size());
  return ge;
}

}  // namespace

std::vector<StudentResult> grade_class(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<StudentResult> out;
  std::vector<Submission> subs;
  std::map<std::string, std::string> first_file;  // student -> file
  std::set<std::string, decltype(&natural_less)> ids(&natural_less);
  for (const auto& [name, text] : files) {
    StudentResult r;
    r.file = name;
    try {
      Submission s = read_submission(text, name);
      if (auto it = first_file.find(s.student); it != first_file.end())
        throw std::runtime_error(name + ":1: student '" + s.student + "' already handed in " + it->second);
      first_file[s.student] = name;
      for (const SubmittedAnswer& a : s.answers) ids.insert(a.id);
      r.student = s.student;
      r.seed = s.seed;
      subs.push_back(std::move(s));
    } catch (const std::exception& ex) {
      r.refused = one_line(ex.what());
      subs.push_back(Submission{});
    }
    out.push_back(r);
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (!out[k].refused.empty()) continue;
    for (const std::string& id : ids) {
      const SubmittedAnswer* a = nullptr;
      for (const SubmittedAnswer& x : subs[k].answers)
        if (x.id == id) a = &x;
      GradedExercise ge = grade_one(*find_exercise(id), subs[k], a);
      out[k].points += ge.points;
      out[k].max_points += ge.weight;
      out[k].exercises.push_back(std::move(ge));
    }
  }
  return out;
}

std::vector<PartStats> class_report(const std::vector<StudentResult>& results) {
  std::vector<PartStats> stats;
  auto find = [&](const std::string& ex, const std::string& part) -> PartStats& {
    for (PartStats& s : stats)
      if (s.exercise == ex && s.part == part) return s;
    PartStats s;
    s.exercise = ex;
    s.part = part;
    for (const AnswerPart& p : find_exercise(ex)->parts)
      if (p.name == part)
        for (const Mistake& m : p.mistakes) s.mistakes.emplace_back(m.says, 0);
    stats.push_back(s);
    return stats.back();
  };
  for (const StudentResult& r : results)
    for (const GradedExercise& e : r.exercises)
      for (const GradedPart& p : e.parts) {
        PartStats& s = find(e.id, p.shown.name);
        ++s.answered;
        if (p.shown.correct) ++s.correct;
        else if (p.mistake >= 0) ++s.mistakes[std::size_t(p.mistake)].second;
        else ++s.unexplained;
      }
  return stats;
}

}  // namespace impulse::course
