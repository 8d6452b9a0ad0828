// impulse exercises list | show | check
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "course/exercises.h"
#include "course/toml_values.h"

namespace impulse::cli {

using namespace impulse::course;
using nlohmann::json;

namespace {

const Exercise& require_exercise(const std::string& id) {
  const Exercise* e = find_exercise(id);
  if (!e) throw BadInput("unknown exercise '" + id + "' (see 'impulse exercises list')");
  return *e;
}

std::string answer_shape(const Exercise& e) {
  std::string s;
  for (const AnswerPart& p : e.parts) {
    if (!s.empty()) s += " then ";
    if (p.kind == "choice") {
      s += p.name + ": one option label";
    } else {
      int n = answer_size(p);
      s += p.name + ": " + std::to_string(n) + (n == 1 ? " number" : " numbers") + (p.unit.empty() ? "" : " [" + p.unit + "]");
    }
  }
  return s;
}

// Prints the verdict; returns true when correct.
bool report(const Exercise& e, const Grade& g) {
  std::cout << e.id << ": " << (g.correct ? "correct" : "incorrect") << '\n';
  for (const PartGrade& p : g.parts)
    std::cout << "  " << p.name << ": " << (p.correct ? "correct" : "incorrect") << " (yours " << p.given << "; expected "
              << p.expected << ")\n";
  std::cout << "  why: " << e.explanation << '\n';
  return g.correct;
}

int check_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw BadInput("cannot read answers file '" + path + "'");
  std::stringstream buf;
  buf << f.rdbuf();
  toml::table t;
  try {
    t = parse_toml(buf.str(), path);
  } catch (const std::runtime_error& e) {
    throw BadInput(std::string("malformed answers file: ") + e.what());
  }
  if (t.empty()) throw BadInput(path + ": no answers (expected tables like [\"E1.11-ex3\"] answer = [...])");
  int wrong = 0;
  for (const auto& [key, node] : t) {
    std::string id(key.str());
    const toml::table* et = node.as_table();
    if (!et) throw BadInput(where(node, path) + ": '" + id + "' must be a table with an 'answer' key");
    const Exercise& e = require_exercise(id);
    const toml::node* an = et->get("answer");
    if (!an) throw BadInput(where(node, path) + ": '" + id + "' has no 'answer'");
    std::vector<std::string> tokens;
    if (const toml::array* arr = an->as_array()) {
      for (const toml::node& x : *arr) {
        if (auto s = x.value<std::string>()) tokens.push_back(*s);
        else if (auto d = x.value<double>()) {
          std::ostringstream o;
          o.precision(17);
          o << *d;
          tokens.push_back(o.str());
        } else throw BadInput(where(x, path) + ": answers are numbers or option labels");
      }
    } else if (auto s = an->value<std::string>()) {
      tokens.push_back(*s);
    } else if (auto d = an->value<double>()) {
      std::ostringstream o;
      o.precision(17);
      o << *d;
      tokens.push_back(o.str());
    } else {
      throw BadInput(where(*an, path) + ": answer must be a number, a label or an array");
    }
    Grade g;
    try {
      g = grade(e, tokens);
    } catch (const std::invalid_argument& ex) {
      throw BadInput(where(*an, path) + ": " + ex.what());
    }
    if (!report(e, g)) ++wrong;
  }
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int cmd_exercises_list(const std::string& chapter, bool as_json) {
  json rows = json::array();
  for (const Exercise& e : exercises()) {
    if (!chapter.empty() && e.chapter != chapter) continue;
    if (as_json) rows.push_back({{"id", e.id}, {"title", e.title}, {"source", e.source}});
    else std::cout << e.id << "  " << e.title << '\n';
  }
  if (as_json) std::cout << rows.dump(2) << '\n';
  return 0;
}

int cmd_exercises_show(const std::string& id, bool as_json) {
  const Exercise& e = require_exercise(id);
  if (as_json) {
    json parts = json::array();
    for (const AnswerPart& p : e.parts) {
      json j{{"name", p.name}, {"kind", p.kind}, {"unit", p.unit}};
      if (p.kind == "choice") j["options"] = p.options;
      else j["size"] = answer_size(p);
      parts.push_back(j);
    }
    std::cout << json{{"id", e.id}, {"title", e.title}, {"source", e.source}, {"question", e.question}, {"answer", parts}}.dump(2)
              << '\n';
    return 0;
  }
  std::cout << e.id << ": " << e.title << "\n(" << e.source << ")\n\n" << e.question << '\n';
  for (const AnswerPart& p : e.parts)
    for (const std::string& o : p.options) std::cout << "  " << o << '\n';
  std::cout << "\nanswer: " << answer_shape(e) << "\n  impulse exercises check " << e.id << " ...\n";
  return 0;
}

int cmd_exercises_check(const std::vector<std::string>& args) {
  if (args.empty()) throw BadInput("check needs an exercise ID and an answer, or --file answers.toml");
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << "impulse exercises check ID VALUE...   grade one answer (vectors as x y z or x,y,z)\n"
                 "impulse exercises check --file F      grade a TOML file of answers:\n"
                 "  [\"E1.11-ex3\"]\n  answer = [0, -0.2, 0]\n"
                 "exit 0 when all are correct, 1 when one is wrong, 2 on bad input\n";
    return 0;
  }
  if (args[0] == "--file") {
    if (args.size() != 2) throw BadInput("--file takes exactly one path");
    return check_file(args[1]);
  }
  const Exercise& e = require_exercise(args[0]);
  std::vector<std::string> tokens(args.begin() + 1, args.end());
  if (tokens.empty()) throw BadInput(e.id + " needs an answer: " + answer_shape(e));
  Grade g;
  try {
    g = grade(e, tokens);
  } catch (const std::invalid_argument& ex) {
    throw BadInput(ex.what());
  }
  return report(e, g) ? 0 : 1;
}

}  // namespace impulse::cli
