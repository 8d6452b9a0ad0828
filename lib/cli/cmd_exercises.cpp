// impulse exercises list | show | check
#include <cctype>
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
#include "course/tries_file.h"
#include "course/tutor.h"
#include "course/variants.h"

namespace impulse::cli {

using namespace impulse::course;
using nlohmann::json;

namespace {

const Exercise& require_exercise(const std::string& id) {
  const Exercise* e = find_exercise(id);
  if (!e) throw BadInput(unknown_exercise_message(id, "'impulse exercises list'"));
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
      s += p.name + ": " + std::to_string(n) + (n == 1 ? " number" : " numbers") + (p.unit.empty() || p.unit == "-" ? "" : " [" + p.unit + "]");
    }
  }
  return s;
}

std::string trim_end(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

// The words of a check command with the parts' names in place of the numbers:
// "p_n F_avg", "v_B.x v_B.y v_B.z", "statement".
std::string answer_placeholders(const Exercise& e) {
  std::string s;
  for (const AnswerPart& p : e.parts) {
    const int n = answer_size(p);
    for (int i = 0; i < n; ++i) s += (s.empty() ? "" : " ") + p.name + (n == 3 ? std::string(".") + "xyz"[i] : n > 1 ? "." + std::to_string(i + 1) : "");
  }
  return s;
}

// Grades tokens, counts a wrong try in the student's record (lib/course/tries_file.h) and prints
// the tutor's verdict (lib/course/tutor.h); returns true when correct.
bool report(const Exercise& e, const std::vector<std::string>& tokens, bool reveal) {
  const Grade g = grade(e, tokens);
  const std::string path = tries_path();
  const int tries = g.correct ? recorded_tries(path, e.id) : record_wrong_try(path, e.id);
  std::cout << verdict_text(tutor_verdict(e, g, tries, reveal), path == "off" ? "" : path);
  return g.correct;
}

// The verdict as data (verdict_json, the same the page's impulse.check returns), with the tries
// counted in the same record, the same way, as the text report's.
json verdict(const Exercise& e, const std::vector<std::string>& tokens, bool reveal) {
  const std::string path = tries_path();
  if (tokens.empty() && reveal) return verdict_json(reveal_verdict(e, recorded_tries(path, e.id)));
  const Grade g = grade(e, tokens);
  const int tries = g.correct ? recorded_tries(path, e.id) : record_wrong_try(path, e.id);
  return verdict_json(tutor_verdict(e, g, tries, reveal));
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
  std::vector<std::pair<const Exercise*, std::vector<std::string>>> answers;
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
    try {
      grade(e, tokens);  // every answer is read before any is graded: bad input prints nothing
    } catch (const std::invalid_argument& ex) {
      throw BadInput(where(*an, path) + ": " + ex.what());
    }
    answers.emplace_back(&e, tokens);
  }
  for (const auto& [e, tokens] : answers) {
    if (!as_json) {
      if (!report(*e, tokens, reveal)) ++wrong;
      continue;
    }
    json v = verdict(*e, tokens, reveal);
    if (!v["correct"].get<bool>()) ++wrong;
    verdicts.push_back(std::move(v));
  }
  if (as_json) std::cout << verdicts.dump(2) << '\n';
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int cmd_exercises_list(const std::string& chapter, bool as_json) {  // exercises() is in natural order
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
  std::cout << e.id << ": " << e.title << "\n(" << e.source << ")\n\n" << trim_end(e.question) << '\n';
  for (const AnswerPart& p : e.parts)
    for (const std::string& o : p.options)  // bare labels: the statements are in the question already
      if (trim_end(o) != option_label(o)) std::cout << "  " << trim_end(o) << '\n';
  std::cout << "\nanswer: " << answer_shape(e) << '\n';
  for (const AnswerPart& p : e.parts)
    if (p.kind == "number") {
      const Tolerance t = answer_tolerance(p, answer_key(p));
      std::cout << "  " << p.name << ": " << tolerance_words(t)
                << (t.exact ? "; a whole number\n" : "; a decimal or a fraction such as 1/3, without the unit\n");
    }
  std::cout << "check it with:\n  impulse exercises check " << e.id << ' ' << answer_placeholders(e)
            << "\n  (your answer in place of each name)\n";
  return 0;
}

int cmd_exercises_check(const std::vector<std::string>& all) {
  bool reveal = false, as_json = false;
  std::string seed;  // --seed S: grade the student's variant (lib/course/variants.h)
  std::vector<std::string> args;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i] == "--reveal") reveal = true;
    else if (all[i] == "--json") as_json = true;
    else if (all[i] == "--seed" && i + 1 < all.size()) seed = all[++i];
    else args.push_back(all[i]);
  }
  if (args.empty()) throw BadInput("check needs an exercise ID and an answer, or --file answers.toml (see --help)");
  if (args[0] == "--help" || args[0] == "-h") {
    std::cout << "impulse exercises check ID VALUE... [--reveal] [--json]   grade one answer (vectors as x y z or x,y,z;\n"
                 "                                                  a choice as its option label, e.g. b)\n"
                 "impulse exercises check --file F [--reveal]      grade a TOML file of answers:\n"
                 "  [\"E1.11-ex3\"]\n  answer = [0, -0.2, 0]\n"
                 "impulse exercises check ID --reveal              the worked solution without an answer\n"
                 "impulse exercises check ID VALUE... --seed S     grade your variant (impulse exercises sheet)\n"
                 "Answers are decimals or fractions (1/3), written without their unit.\n"
                 "A wrong answer names the part (and component) that is wrong, the tolerance that applied and\n"
                 "a hint: where to look again and, when the answer shows one, the typical mistake; never how\n"
                 "far it is from the key. The key and worked solution are shown with --reveal, or after 3\n"
                 "wrong tries of one exercise, counted in $IMPULSE_TRIES_FILE (default ~/.impulse/tries.json;\n"
                 "'off' keeps no count).\n"
                 "Tolerance: agree with the key to the significant figures the course prints (3 to 4; a\n"
                 "fraction such as 1/3 to 3); counts exactly.\n"
                 "--json: the verdict as data (the book's checker gets the same): per part correct, given,\n"
                 "tolerance, hint; the key and the worked solution only once revealed.\n"
                 "example:\n  impulse exercises check E1.11-ex3 0 -0.2 0\n"
                 "exit 0 when all are correct, 1 when one is wrong, 2 on bad input\n";
    return 0;
  }
  if (args[0] == "--file") {
    if (args.size() != 2) throw BadInput("--file takes exactly one path");
    return check_file(args[1], reveal, as_json);
  }
  const Exercise e = seed.empty() ? require_exercise(args[0]) : make_variant(require_exercise(args[0]), seed);
  std::vector<std::string> tokens(args.begin() + 1, args.end());
  for (const std::string& t : tokens)
    if (t.size() > 2 && t.rfind("--", 0) == 0) throw BadInput("exercises check: unknown option '" + t + "' (see --help)");
  if (tokens.empty() && !reveal) throw BadInput(e.id + " needs an answer: " + answer_shape(e));
  if (as_json) {
    json v;
    try {
      v = verdict(e, tokens, reveal);
    } catch (const std::invalid_argument& ex) {
      throw BadInput(ex.what());
    }
    std::cout << v.dump(2) << '\n';
    return v["correct"].get<bool>() || !v["answered"].get<bool>() ? 0 : 1;
  }
  if (tokens.empty() && reveal) {
    const std::string path = tries_path();
    try {
      std::cout << verdict_text(reveal_verdict(e, recorded_tries(path, e.id)), "");
    } catch (const std::invalid_argument& ex) {
      throw BadInput(ex.what());
    }
    return 0;
  }
  try {
    return report(e, tokens, reveal) ? 0 : 1;
  } catch (const std::invalid_argument& ex) {
    throw BadInput(ex.what());
  }
}

}  // namespace impulse::cli
