// impulse exercises list | show | check
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "course/api.h"
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

// Tries are counted per exercise in a small JSON file the student owns; after kTriesBeforeSolution
// (lib/course/api.h) wrong answers to one exercise the worked solution is shown. IMPULSE_TRIES_FILE
// names the file (default $HOME/.impulse/tries.json); IMPULSE_TRIES_FILE=off keeps no record.

std::string tries_path() {
  if (const char* p = std::getenv("IMPULSE_TRIES_FILE")) return p;
  if (const char* h = std::getenv("HOME")) return std::string(h) + "/.impulse/tries.json";
  return "off";
}

json read_tries(const std::string& path) {
  if (path == "off") return json::object();
  std::ifstream f(path);
  if (!f) return json::object();
  try {
    json j = json::parse(f);
    if (j.is_object()) return j;
  } catch (const std::exception&) {
  }
  throw BadInput("tries file '" + path + "' is not a JSON object of exercise -> count (delete it to start over)");
}

// Writes the record next to itself first, so a crash never leaves half a file.
void write_tries(const std::string& path, const json& j) {
  if (path == "off") return;
  std::error_code ec;
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) return;  // a read-only home: grading still works, only the count is not kept
    f << j.dump(2) << '\n';
  }
  std::filesystem::rename(tmp, p, ec);
}

std::string number_text(double x) {
  std::ostringstream o;
  o.precision(3);
  o << x;
  return o.str();
}

void report_part(const PartGrade& p) {
  std::cout << "  " << p.name << ": " << (p.correct ? "correct" : "incorrect");
  if (p.kind == "choice") {
    std::cout << " (yours " << p.given << ")\n";
  } else {
    const std::string unit = p.unit.empty() || p.unit == "-" ? "" : " " + p.unit;
    std::cout << " (yours " << p.given << unit << ")\n";
    if (!p.correct) {
      const double key = p.key[std::size_t(p.worst)];
      std::cout << "    " << (p.key.size() > 1 ? "component " + std::to_string(p.worst + 1) + " is off by " : "off by ")
                << number_text(p.worst_error) << unit;
      if (key != 0) std::cout << " (" << number_text(100 * p.worst_error / std::abs(key)) << "% of the key's size)";
      std::cout << '\n';
    }
    if (p.tolerance.exact)
      std::cout << "    tolerance: exact (a count)\n";
    else
      std::cout << "    tolerance: " << number_text(p.tolerance.absolute) << unit << " = " << p.tolerance.significant
                << " significant figures, as the course prints this answer\n";
  }
  if (!p.correct) std::cout << "    hint: " << p.hint << '\n';
}

// Prints the verdict; returns true when correct. The key and the worked solution are shown only
// when revealed (--reveal, or kTriesBeforeSolution recorded wrong tries).
bool report(const Exercise& e, const Grade& g, bool reveal) {
  const std::string path = tries_path();
  json tries = read_tries(path);
  int wrong_tries = tries.value(e.id, 0);
  if (!g.correct) {
    tries[e.id] = ++wrong_tries;
    write_tries(path, tries);
  }
  int wrong_parts = 0;
  for (const PartGrade& p : g.parts) wrong_parts += p.correct ? 0 : 1;
  std::cout << e.id << ": " << (g.correct ? "correct" : "incorrect");
  if (!g.correct) std::cout << " (" << wrong_parts << " of " << g.parts.size() << " parts wrong; try " << wrong_tries << ")";
  std::cout << '\n';
  for (const PartGrade& p : g.parts) report_part(p);
  const bool show = reveal || g.correct || wrong_tries >= kTriesBeforeSolution;
  if (show) {
    std::cout << "  answer:";
    for (const PartGrade& p : g.parts) std::cout << ' ' << p.name << " = " << p.expected << ';';
    std::cout << "\n  why: " << e.explanation << '\n';
  } else {
    std::cout << "  the worked solution: add --reveal, or it is shown after " << kTriesBeforeSolution
              << " wrong tries (recorded in " << path << ")\n";
  }
  return g.correct;
}

// The verdict as data (check_json, the same the page's impulse.check returns); the tries are
// counted in the same file as the text report's.
json verdict(const Exercise& e, const std::vector<std::string>& tokens, bool reveal) {
  const std::string path = tries_path();
  json tries = read_tries(path);
  json v = check_json(e.id, tokens, tries.value(e.id, 0), reveal);
  if (!v["correct"].get<bool>()) {
    tries[e.id] = v["tries"];
    write_tries(path, tries);
  }
  return v;
}

int check_file(const std::string& path, bool reveal, bool as_json) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw BadInput("answers file '" + path + "' is not a readable file");
  if (std::filesystem::file_size(path, ec) > (1u << 20)) throw BadInput("answers file '" + path + "' is larger than 1 MiB");
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
  json verdicts = json::array();
  for (const auto& [key, node] : t) {
    std::string id(key.str());
    const toml::table* et = node.as_table();
    if (!et) throw BadInput(where(node, path) + ": '" + id + "' must be a table with an 'answer' key");
    const Exercise& e = require_exercise(id);
    for (const auto& [k, v] : *et)
      if (k.str() != "answer")
        throw BadInput(where(v, path) + ": '" + id + "' has an unknown key '" + std::string(k.str()) + "' (only 'answer')");
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
      if (as_json) verdicts.push_back(verdict(e, tokens, reveal));
    } catch (const std::invalid_argument& ex) {
      throw BadInput(where(*an, path) + ": " + ex.what());
    }
    if (as_json ? !g.correct : !report(e, g, reveal)) ++wrong;
  }
  if (as_json) std::cout << verdicts.dump(2) << '\n';
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
    std::cout << exercise_json(e.id).dump(2) << '\n';
    return 0;
  }
  std::cout << e.id << ": " << e.title << "\n(" << e.source << ")\n\n" << e.question << '\n';
  for (const AnswerPart& p : e.parts)
    for (const std::string& o : p.options) std::cout << "  " << o << '\n';
  std::cout << "\nanswer: " << answer_shape(e) << "\n  impulse exercises check " << e.id << " ...\n";
  return 0;
}

int cmd_exercises_check(const std::vector<std::string>& all) {
  bool reveal = false, as_json = false;
  std::vector<std::string> args;
  for (const std::string& a : all) {
    if (a == "--reveal") reveal = true;
    else if (a == "--json") as_json = true;
    else args.push_back(a);
  }
  if (args.empty()) throw BadInput("check needs an exercise ID and an answer, or --file answers.toml (see --help)");
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << "impulse exercises check ID VALUE... [--reveal] [--json]   grade one answer (vectors as x y z or x,y,z;\n"
                 "                                                  a choice as its option label, e.g. b)\n"
                 "impulse exercises check --file F [--reveal]      grade a TOML file of answers:\n"
                 "  [\"E1.11-ex3\"]\n  answer = [0, -0.2, 0]\n"
                 "A wrong answer names the part and component that is off, by how much, the tolerance and unit\n"
                 "that applied, and a hint (course section, formula, calculator). The key and worked solution\n"
                 "are shown with --reveal, or after 3 wrong tries of one exercise, counted in\n"
                 "$IMPULSE_TRIES_FILE (default ~/.impulse/tries.json; 'off' keeps no count).\n"
                 "Tolerance: agree with the key to the significant figures the course prints (3 to 4);\n"
                 "counts exactly.\n"
                 "--json: the verdict as data (the book's checker gets the same): per part correct, given, hint,\n"
                 "tolerance; key, offset and worked solution only once released.\n"
                 "example:\n  impulse exercises check E1.11-ex3 0 -0.2 0\n"
                 "exit 0 when all are correct, 1 when one is wrong, 2 on bad input\n";
    return 0;
  }
  if (args[0] == "--file") {
    if (args.size() != 2) throw BadInput("--file takes exactly one path");
    return check_file(args[1], reveal, as_json);
  }
  const Exercise& e = require_exercise(args[0]);
  std::vector<std::string> tokens(args.begin() + 1, args.end());
  if (tokens.empty()) throw BadInput(e.id + " needs an answer: " + answer_shape(e));
  for (const std::string& t : tokens)
    if (t.size() > 2 && t.rfind("--", 0) == 0) throw BadInput("exercises check: unknown option '" + t + "' (see --help)");
  if (as_json) {
    json v;
    try {
      v = verdict(e, tokens, reveal);
    } catch (const std::invalid_argument& ex) {
      throw BadInput(ex.what());
    }
    std::cout << v.dump(2) << '\n';
    return v["correct"].get<bool>() ? 0 : 1;
  }
  Grade g;
  try {
    g = grade(e, tokens);
  } catch (const std::invalid_argument& ex) {
    throw BadInput(ex.what());
  }
  return report(e, g, reveal) ? 0 : 1;
}

}  // namespace impulse::cli
