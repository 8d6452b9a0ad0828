// impulse exercises variant ID --seed S [--key]: one student's numbers (lib/course/variants.h);
// impulse exercises grade DIR [--json] [--gradescope PATH] [--html PATH]: a class (lib/course/grading.h).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "course/exercises.h"
#include "course/grading.h"
#include "course/variants.h"

namespace impulse::cli {

using namespace impulse::course;
using nlohmann::json;

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

namespace {

// The files of DIR in name order, each read up to one byte past the ceiling (the reader refuses more).
std::vector<std::pair<std::string, std::string>> read_class(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw BadInput("grade: '" + dir + "' is not a directory of answer files");
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename().string().rfind('.', 0) != 0) names.push_back(entry.path().string());
  std::sort(names.begin(), names.end(), natural_less);
  std::vector<std::pair<std::string, std::string>> files;
  for (const std::string& n : names) {
    std::string text;
    if (!fs::is_regular_file(n, ec)) text = std::string(1, '\0');  // refused as not a text file
    else if (fs::path(n).extension() == ".toml") {
      std::ifstream f(n, std::ios::binary);
      text.resize(kMaxSubmissionBytes + 1);
      f.read(text.data(), std::streamsize(text.size()));
      text.resize(std::size_t(f.gcount()));
    }
    files.emplace_back(n, text);
  }
  return files;
}

std::string percent(int n, int of) { return of == 0 ? "-" : std::to_string(int(std::lround(100.0 * n / of))) + "%"; }

std::string points_text(double x) {
  std::ostringstream o;
  o << std::round(x * 100) / 100;
  return o.str();
}

json student_json(const StudentResult& r) {
  json ex = json::array();
  for (const GradedExercise& e : r.exercises) {
    json parts = json::array();
    for (const GradedPart& p : e.parts)
      parts.push_back({{"part", p.shown.name}, {"correct", p.shown.correct}, {"given", p.shown.given}, {"key", p.key}, {"error", p.error},
                       {"mistake", p.mistake_says.empty() ? json(nullptr) : json(p.mistake_says)}});
    ex.push_back({{"id", e.id}, {"answered", e.answered}, {"weight", e.weight}, {"points", e.points}, {"parts", parts}});
  }
  return {{"file", r.file}, {"student", r.student}, {"seed", r.seed}, {"points", r.points}, {"max_points", r.max_points},
          {"exercises", ex}};
}

// Gradescope's results.json for one student: score, max_score and one test per exercise part.
// The output holds what the tutor shows (verdict, tolerance, hint), never the key.
json gradescope_json(const StudentResult& r) {
  json tests = json::array();
  for (const GradedExercise& e : r.exercises) {
    const double each = e.weight / double(std::max<std::size_t>(1, e.parts.size()));
    if (!e.answered) {
      tests.push_back({{"name", e.id}, {"score", 0}, {"max_score", e.weight}, {"output", "not answered"}});
      continue;
    }
    for (const GradedPart& p : e.parts) {
      const PartVerdict& shown = p.shown;
      std::string out = std::string(shown.correct ? "correct" : "incorrect") + " (yours " + shown.given + ")";
      if (!shown.tolerance.empty()) out += "; tolerance: " + shown.tolerance;
      if (!shown.hint.empty()) out += "; hint: " + shown.hint;
      tests.push_back({{"name", e.id + " " + shown.name}, {"score", shown.correct ? each : 0.0}, {"max_score", each}, {"output", out}});
    }
  }
  return {{"score", r.points}, {"max_score", r.max_points}, {"tests", tests}};
}

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
  return o;
}

// The report as one offline page: per exercise part a bar chart (inline SVG) of correct, each mistake, unexplained.
std::string report_html(const std::vector<PartStats>& stats, int students, int refused) {
  std::ostringstream h;
  h << "<!doctype html><html><head><meta charset=\"utf-8\"><title>impulse: what the class got wrong</title>"
       "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}svg text{font-size:12px}</style></head><body>"
    << "<h1>What the class got wrong</h1><p>" << students << " answer files graded, " << refused << " refused.</p>";
  for (const PartStats& s : stats) {
    std::vector<std::pair<std::string, int>> bars{{"correct", s.correct}};
    for (const auto& m : s.mistakes) bars.push_back(m);
    bars.emplace_back("wrong, no known mistake", s.unexplained);
    const int row = 22, width = 300, label = 420;
    h << "<h2>" << html_escape(s.exercise) << " &middot; " << html_escape(s.part) << "</h2><p>" << s.answered << " answered, "
      << percent(s.correct, s.answered) << " correct</p><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label + width + 60
      << "\" height=\"" << row * bars.size() + 4 << "\" role=\"img\">";
    for (std::size_t i = 0; i < bars.size(); ++i) {
      const int w = s.answered ? int(std::lround(double(width) * bars[i].second / s.answered)) : 0;
      const std::size_t y = i * row;
      std::string name = bars[i].first.size() > 64 ? bars[i].first.substr(0, 61) + "..." : bars[i].first;
      h << "<text x=\"0\" y=\"" << y + 15 << "\">" << html_escape(name) << "<title>" << html_escape(bars[i].first)
        << "</title></text><rect x=\"" << label << "\" y=\"" << y + 3 << "\" width=\"" << w << "\" height=\"16\" fill=\""
        << (i == 0 ? "#3a7" : i + 1 == bars.size() ? "#999" : "#d64") << "\"/><text x=\"" << label + w + 4 << "\" y=\"" << y + 15
        << "\">" << bars[i].second << " (" << percent(bars[i].second, s.answered) << ")</text>";
    }
    h << "</svg>";
  }
  h << "</body></html>\n";
  return h.str();
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".part";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!(f << text)) throw BadInput("cannot write '" + path + "'");
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace

int cmd_exercises_grade(const std::vector<std::string>& args) {
  std::string dir, gradescope, html;
  bool as_json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << "impulse exercises grade DIR [--json] [--gradescope PATH] [--html PATH]\n"
                   "  grades every answer file in DIR (TOML: student = \"id\", optional seed, then\n"
                   "  [\"EXERCISE-ID\"] answer = [...]; docs/guide/grading.md) on that student's variant with\n"
                   "  the tutor's rule; prints per student and part the verdict, the answer, the key, the\n"
                   "  error and the matched mistake, then what the class got wrong.\n"
                   "  --gradescope PATH  Gradescope results.json (one student in DIR), or a directory of\n"
                   "                     STUDENT.json (several); feedback without keys\n"
                   "  --html PATH        the class report as one offline page with a bar chart per part\n"
                   "exit 0 when every file was read, 1 when one was refused (its line names file, line and\n"
                   "what is wrong), 2 on bad arguments\n"
                   "example: impulse exercises grade answers/ --html report.html\n";
      return 0;
    }
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) throw BadInput(a + " needs a path");
      into = args[++i];
    };
    if (a == "--json") as_json = true;
    else if (a == "--gradescope") value(gradescope);
    else if (a == "--html") value(html);
    else if (a.rfind("--", 0) == 0) throw BadInput("exercises grade: unknown option '" + a + "' (see --help)");
    else if (dir.empty()) dir = a;
    else throw BadInput("exercises grade takes one directory, got also '" + a + "'");
  }
  if (dir.empty()) throw BadInput("exercises grade needs a directory of answer files (see --help)");
  const std::vector<StudentResult> results = grade_class(read_class(dir));
  const std::vector<PartStats> stats = class_report(results);
  int refused = 0;
  for (const StudentResult& r : results) refused += r.refused.empty() ? 0 : 1;
  if (as_json) {
    json students = json::array(), bad = json::array(), report = json::array();
    for (const StudentResult& r : results) {
      if (r.refused.empty()) students.push_back(student_json(r));
      else bad.push_back({{"file", r.file}, {"error", r.refused}});
    }
    for (const PartStats& s : stats) {
      json ms = json::array();
      for (const auto& [says, n] : s.mistakes) ms.push_back({{"mistake", says}, {"count", n}});
      report.push_back({{"exercise", s.exercise}, {"part", s.part}, {"answered", s.answered}, {"correct", s.correct},
                        {"unexplained", s.unexplained}, {"mistakes", ms}});
    }
    std::cout << json{{"students", students}, {"refused", bad}, {"report", report}}.dump(2) << '\n';
  } else {
    for (const StudentResult& r : results) {
      if (!r.refused.empty()) {
        std::cout << "refused: " << r.refused << '\n';
        continue;
      }
      std::cout << r.student << " (" << r.file << ", seed '" << r.seed << "'): " << points_text(r.points) << " of "
                << points_text(r.max_points) << " points\n";
      for (const GradedExercise& e : r.exercises) {
        if (!e.answered) {
          std::cout << "  " << e.id << ": not answered\n";
          continue;
        }
        for (const GradedPart& p : e.parts) {
          std::cout << "  " << e.id << ' ' << p.shown.name << ": " << (p.shown.correct ? "correct" : "incorrect")
                    << " (yours " << p.shown.given << "; key " << p.key;
          if (!p.shown.correct && p.shown.kind == "number") std::cout << "; error " << p.error;
          std::cout << ")";
          if (!p.mistake_says.empty()) std::cout << " mistake: " << p.mistake_says;
          std::cout << '\n';
        }
      }
    }
    std::cout << "\nwhat the class got wrong (" << results.size() - refused << " graded, " << refused << " refused):\n";
    for (const PartStats& s : stats) {
      std::cout << "  " << s.exercise << ' ' << s.part << ": " << s.answered << " answered, " << percent(s.correct, s.answered)
                << " correct";
      for (const auto& [says, n] : s.mistakes)
        if (n > 0) std::cout << "\n    " << percent(n, s.answered) << " (" << n << "): " << says;
      if (s.unexplained > 0) std::cout << "\n    " << percent(s.unexplained, s.answered) << " (" << s.unexplained << "): wrong, no known mistake";
      std::cout << '\n';
    }
  }
  if (!gradescope.empty()) {
    std::vector<const StudentResult*> graded;
    for (const StudentResult& r : results)
      if (r.refused.empty()) graded.push_back(&r);
    if (graded.size() == 1) {
      write_file(gradescope, gradescope_json(*graded[0]).dump(2) + "\n");
    } else {
      std::filesystem::create_directories(gradescope);
      for (const StudentResult* r : graded) write_file(gradescope + "/" + r->student + ".json", gradescope_json(*r).dump(2) + "\n");
    }
  }
  if (!html.empty()) write_file(html, report_html(stats, int(results.size()) - refused, refused));
  return refused == 0 ? 0 : 1;
}

namespace {

// A seed as a file name: letters, digits, '-' and '_' kept, anything else '_'.
std::string file_stem(const std::string& seed) {
  std::string o;
  for (unsigned char c : seed) o += std::isalnum(c) || c == '-' || c == '_' ? char(c) : '_';
  return o.empty() ? "_" : o;
}

std::string toml_quoted(const std::string& s) {
  std::string o = "\"";
  for (char c : s) o += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return o + "\"";
}

std::string answer_words(const AnswerPart& p) {
  if (p.kind == "choice") return p.name + ": one option label";
  const int n = answer_size(p);
  return p.name + ": " + std::to_string(n) + (n == 1 ? " number" : " numbers") + (p.unit.empty() || p.unit == "-" ? "" : " [" + p.unit + "]");
}

}  // namespace

int cmd_exercises_sheet(const std::vector<std::string>& args) {
  std::string seed, out, only;
  bool seed_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << "impulse exercises sheet --seed S --out DIR [--exercises ID,ID...]\n"
                   "  writes one student's sheet: DIR/sheet-S.md and DIR/sheet-S.html (no network, no PDF)\n"
                   "  with that student's numbers (impulse exercises variant), and DIR/answers-S.toml, the\n"
                   "  answer file to fill in and hand back for impulse exercises grade. No keys.\n"
                   "  --exercises  the exercises on the sheet (default: all)\n"
                   "example: impulse exercises sheet --seed s01 --out sheets --exercises E3.10-ex2-xpbd-normal\n";
      return 0;
    }
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) throw BadInput(a + " needs a value");
      into = args[++i];
    };
    if (a == "--seed") {
      value(seed);
      seed_given = true;
    } else if (a == "--out") value(out);
    else if (a == "--exercises") value(only);
    else throw BadInput("exercises sheet: unknown argument '" + a + "' (see --help)");
  }
  if (!seed_given) throw BadInput("exercises sheet needs --seed S (any string, e.g. a student id)");
  if (out.empty()) throw BadInput("exercises sheet needs --out DIR");
  std::vector<const Exercise*> chosen;
  if (only.empty()) {
    for (const Exercise& e : exercises()) chosen.push_back(&e);
  } else {
    std::stringstream ss(only);
    std::string id;
    while (std::getline(ss, id, ',')) {
      const Exercise* e = find_exercise(id);
      if (!e) throw BadInput("--exercises: " + unknown_exercise_message(id, "'impulse exercises list'"));
      chosen.push_back(e);
    }
  }
  std::ostringstream md, html, toml;
  md << "# Exercise sheet (seed " << seed << ")\n\nWrite each answer without its unit; a decimal or a fraction such as 1/3.\n"
     << "Fill in answers-" << file_stem(seed) << ".toml and hand it back.\n";
  html << "<!doctype html><html><head><meta charset=\"utf-8\"><title>Exercise sheet (seed " << html_escape(seed)
       << ")</title><style>body{font-family:sans-serif;max-width:50em;margin:2em auto}pre{white-space:pre-wrap}</style>"
          "</head><body><h1>Exercise sheet (seed "
       << html_escape(seed) << ")</h1><p>Write each answer without its unit; a decimal or a fraction such as 1/3. Fill in answers-"
       << html_escape(file_stem(seed)) << ".toml and hand it back.</p>";
  toml << "# answers of student " << seed << "; fill in each answer = [...] in the order given\nstudent = " << toml_quoted(seed) << "\n";
  for (const Exercise* base : chosen) {
    const Exercise v = make_variant(*base, seed);
    md << "\n## " << v.id << ": " << v.title << "\n\n" << v.question << "\n";
    html << "<h2>" << html_escape(v.id) << ": " << html_escape(v.title) << "</h2><pre>" << html_escape(v.question) << "</pre>";
    std::string shape;
    for (const AnswerPart& p : v.parts) {
      for (const std::string& o : p.options)
        if (o != option_label(o)) {
          md << "\n- " << o;
          html << "<p>" << html_escape(o) << "</p>";
        }
      shape += (shape.empty() ? "" : " then ") + answer_words(p);
    }
    md << "\nAnswer: " << shape << "\n";
    html << "<p><i>Answer: " << html_escape(shape) << "</i></p>";
    toml << "\n[" << toml_quoted(v.id) << "]\n# " << shape << "\nanswer = []\n";
  }
  html << "</body></html>\n";
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec || !std::filesystem::is_directory(out)) throw BadInput("--out '" + out + "' is not a directory that can be written");
  const std::string stem = out + "/" + std::string("sheet-") + file_stem(seed);
  write_file(stem + ".md", md.str());
  write_file(stem + ".html", html.str());
  write_file(out + "/answers-" + file_stem(seed) + ".toml", toml.str());
  std::cout << "wrote " << stem << ".md, " << stem << ".html and " << out << "/answers-" << file_stem(seed) << ".toml ("
            << chosen.size() << " exercises)\n";
  return 0;
}

}  // namespace impulse::cli
