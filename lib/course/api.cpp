#include "course/api.h"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "core/text.h"
#include "course/golden_checks.h"
#include "st/lcp.h"
#include "st/lcp_file.h"

namespace impulse::course {

using nlohmann::json;

std::vector<double> parse_calc_input(const std::string& name, const std::string& text) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string piece;
  while (std::getline(ss, piece, ',')) {
    char* end = nullptr;
    double x = std::strtod(piece.c_str(), &end);
    if (piece.empty() || *end != '\0')
      throw std::invalid_argument(one_line("input --" + name + ": '" + text + "' is not a number or x,y,z"));
    if (!std::isfinite(x) && piece.find_first_of("nN") == std::string::npos)
      throw std::invalid_argument(one_line("input --" + name + ": '" + piece + "' is outside double range (allowed: finite, |x| <= 1e12)"));
    out.push_back(x);
  }
  if (out.empty()) throw std::invalid_argument(one_line("input --" + name + " is empty"));
  return out;
}

namespace {

const Item& require_calculator(const std::string& id) {
  const Item* it = registry().find(id);
  if (!it) throw std::invalid_argument(one_line("unknown ID '" + id + "' (see 'impulse formulas')"));
  if (!it->calc) throw std::invalid_argument(one_line(id + " is a " + it->kind + " with no calculator"));
  return *it;
}

const Exercise& require_exercise(const std::string& id) {
  const Exercise* e = find_exercise(id);
  if (!e) throw std::invalid_argument(one_line("unknown exercise '" + id + "' (see 'impulse exercises list')"));
  return *e;
}

const Scene& require_scene(const std::string& name) {
  const Scene* s = scenes().find(name);
  if (!s) throw std::invalid_argument(one_line("unknown scene '" + name + "' (see 'impulse scenes')"));
  return *s;
}

// The first CSV cell that is not a finite number ("nan", "-inf") as "FILE line N"; "" when none.
std::string first_non_finite(const std::string& file, const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  long no = 0;
  while (std::getline(in, line)) {
    ++no;
    std::size_t start = 0;
    while (start <= line.size()) {
      std::size_t end = line.find(',', start);
      if (end == std::string::npos) end = line.size();
      std::string cell = line.substr(start, end - start);
      if (!cell.empty() && (cell[0] == '-' || cell[0] == '+')) cell = cell.substr(1);
      if (cell == "nan" || cell == "inf" || cell == "NaN" || cell == "Inf") return file + " line " + std::to_string(no);
      start = end + 1;
    }
  }
  return "";
}

// Every file of a run as the command line writes it: tables as CSV, then the text files.
std::vector<std::pair<std::string, std::string>> run_files(const SceneOutput& out) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const SceneTable& t : out.tables()) {
    std::ostringstream os;
    t.write_csv(os);
    files.emplace_back(t.file_name(), os.str());
  }
  for (const auto& [name, text] : out.texts()) files.emplace_back(name, text.str());
  return files;
}

}  // namespace

json calc_json(const std::string& id, const std::map<std::string, std::string>& inputs) {
  const Item& it = require_calculator(id);
  Values in;
  for (const auto& [name, text] : inputs) in[name] = parse_calc_input(name, text);
  const Values out = evaluate(it, in);
  json j{{"id", id}, {"inputs", json::object()}, {"outputs", json::object()}};
  for (const auto& [k, v] : in) j["inputs"][k] = v;
  for (const Quantity& q : it.outputs) j["outputs"][q.name] = {{"value", out.at(q.name)}, {"unit", q.unit}};
  return j;
}

json calc_form_json(const std::string& id) {
  const Item& it = require_calculator(id);
  const GoldenCheck* example = nullptr;
  for (const GoldenCheck& c : golden_checks())
    if (c.formula == it.id && c.inputs.size() == it.inputs.size()) {
      example = &c;
      break;
    }
  json inputs = json::array();
  for (const Quantity& q : it.inputs) {
    json j{{"name", q.name}, {"unit", q.unit}, {"dim", q.dim}, {"doc", q.doc},
           {"allowed", q.domain.value_or(any_real()).describe(q.dim)}};
    if (example && example->inputs.count(q.name)) j["example"] = example->inputs.at(q.name);
    inputs.push_back(j);
  }
  json outputs = json::array();
  for (const Quantity& q : it.outputs) outputs.push_back({{"name", q.name}, {"unit", q.unit}, {"doc", q.doc}});
  json j{{"id", it.id},       {"kind", it.kind},     {"title", it.title}, {"section", it.section},
         {"function", it.function}, {"inputs", inputs}, {"outputs", outputs}};
  if (example) j["example_source"] = golden_provenance(*example);
  return j;
}

json exercise_json(const std::string& id) {
  const Exercise& e = require_exercise(id);
  json parts = json::array();
  for (const AnswerPart& p : e.parts) {
    json j{{"name", p.name}, {"kind", p.kind}, {"unit", p.unit}};
    if (p.kind == "choice") j["options"] = p.options;
    else j["size"] = answer_size(p);
    parts.push_back(j);
  }
  return {{"id", e.id}, {"title", e.title}, {"source", e.source}, {"question", e.question}, {"answer", parts}};
}

json verdict_json(const Verdict& v) {
  json parts = json::array();
  for (const PartVerdict& p : v.parts) {
    json j{{"name", p.name}, {"kind", p.kind}, {"unit", p.unit}, {"correct", p.correct}};
    if (v.answered) j["given"] = p.given;
    if (!p.tolerance.empty()) j["tolerance"] = p.tolerance;
    if (!p.hint.empty()) j["hint"] = p.hint;
    if (p.component > 0) j["component"] = p.component;
    if (v.revealed) {
      j["answer"] = p.answer;
      if (p.kind == "number") j["key"] = p.key;
    }
    parts.push_back(j);
  }
  json out{{"id", v.id}, {"answered", v.answered}, {"correct", v.correct}, {"tries", v.tries},
           {"revealed", v.revealed}, {"parts", parts}};
  if (v.revealed) out["explanation"] = v.explanation;
  return out;
}

json check_json(const std::string& id, const std::vector<std::string>& tokens, int wrong_tries_before, bool reveal) {
  const Exercise& e = require_exercise(id);
  if (tokens.empty() && reveal) return verdict_json(reveal_verdict(e, wrong_tries_before));
  const Grade g = grade(e, tokens);
  const int tries = wrong_tries_before + (g.correct ? 0 : 1);
  return verdict_json(tutor_verdict(e, g, tries, reveal));
}

json scenes_json() {
  json rows = json::array();
  for (const Scene& s : scenes().scenes()) {
    json opts = json::array();
    for (const SceneOption& o : s.options) {
      const OptionDomain d = scene_option_domain(s.name, o.name);
      const char* kind = d.kind == OptionDomain::Kind::number ? "number" : d.kind == OptionDomain::Kind::integer ? "integer" : "choice";
      json dj{{"kind", kind}, {"allowed", d.describe()}};
      if (d.kind == OptionDomain::Kind::choice) {
        dj["choices"] = d.choices;
      } else {
        dj["lo"] = d.lo;
        dj["hi"] = d.hi;
        dj["lo_open"] = d.lo_open;
        dj["hi_open"] = d.hi_open;
      }
      opts.push_back({{"name", o.name}, {"unit", o.unit}, {"default", o.default_value}, {"doc", o.doc}, {"domain", dj}});
    }
    rows.push_back({{"name", s.name}, {"chapter", s.chapter}, {"title", s.title}, {"bench", bool(s.bench)},
                    {"stepped", bool(s.open)}, {"options", opts}});
  }
  return rows;
}

json bench_json(const std::string& name, const std::vector<std::string>& options) {
  const Scene& s = require_scene(name);
  if (!s.bench) throw std::invalid_argument(one_line("scene '" + s.name + "' has no benchmark"));
  const SceneArgs a = parse_scene_args(s, options);
  const std::vector<Metric> m = s.bench(a);
  json j{{"scene", s.name}, {"options", a.values}, {"metrics", json::object()}};
  for (const Metric& x : m) j["metrics"][x.name] = {{"value", x.value}, {"unit", x.unit}};
  return j;
}

CheckedSceneRun run_scene_checked(const std::string& name, const std::vector<std::string>& options, double max_output) {
  const Scene& s = require_scene(name);
  const SceneArgs a = parse_scene_args(s, options);
  CheckedSceneRun r;
  std::ostringstream log;
  r.rc = s.run(a, r.out, log);
  r.log = log.str();
  double bytes = 0;
  const auto files = run_files(r.out);
  for (const auto& [file, text] : files) bytes += double(text.size());
  if (bytes > max_output)
    throw std::invalid_argument(one_line("the CSV output of " + s.name + " is " + std::to_string((long long)bytes) +
                                         " bytes, more than --max-output " + std::to_string((long long)max_output) +
                                         "; nothing was written (lower --steps / --T or raise --max-output)"));
  for (const auto& [file, text] : files) {
    const std::string where = first_non_finite(file, text);
    if (where.empty()) continue;
    std::string given;
    for (const std::string& o : options) given += (given.empty() ? "" : " ") + o;
    throw std::invalid_argument(one_line("run " + s.name + " left double range (" + where +
                                         " is not finite) with the options given" +
                                         (given.empty() ? "" : " (" + given + ")") + "; nothing was written: lower them"));
  }
  return r;
}

json scene_run_json(const std::string& name, const std::vector<std::string>& options, double max_output) {
  const CheckedSceneRun r = run_scene_checked(name, options, max_output);
  json tables = json::object();
  for (const auto& [file, text] : run_files(r.out)) tables[file] = text;
  return {{"scene", name}, {"rc", r.rc}, {"log", r.log}, {"tables", tables}};
}

LiveScene open_live_scene(const std::string& name, const std::vector<std::string>& options) {
  const Scene& s = require_scene(name);
  if (!s.open) {
    std::string stepped;
    for (const Scene& x : scenes().scenes())
      if (x.open) stepped += (stepped.empty() ? "" : ", ") + x.name;
    throw std::invalid_argument(one_line("scene '" + s.name + "' is computed whole, not stepped (impulse.run runs it); "
                                         "stepped scenes: " + stepped));
  }
  LiveScene live;
  live.scene = s.name;
  live.session = s.open(parse_scene_args(s, options));
  return live;
}

json live_scene_step_json(LiveScene& live, long long n) {
  SceneSession& s = *live.session;
  json poses = json::array();
  long long taken = 0;
  // One step at a time, so that every step's poses are recorded (the page scrubs back through them).
  while (taken < n && !s.done()) {
    taken += s.step(1);
    json row = json::array();
    for (const SceneShape& x : s.shapes())
      for (real c : {x.X.p.x, x.X.p.y, x.X.p.z, x.X.q.x, x.X.q.y, x.X.q.z, x.X.q.w}) row.push_back(c);
    if (!row.empty()) poses.push_back(std::move(row));
  }
  json shapes = json::array();
  for (const SceneShape& x : s.shapes()) shapes.push_back({{"kind", x.kind}, {"size", {x.size.x, x.size.y, x.size.z}}});
  json tables = json::object();
  for (const SceneTable& t : s.out.tables()) {
    const bool fresh = !live.sent.count(t.file_name());
    std::size_t& sent = live.sent[t.file_name()];
    json rows = json::array();
    for (std::size_t r = sent; r < t.rows(); ++r) {
      json row = json::array();
      for (const SceneColumn& c : t.columns()) {
        if (c.is_text) {
          row.push_back(c.texts[r]);
        } else if (std::isnan(c.numbers[r])) {
          row.push_back(nullptr);  // a blank cell, as the CSV file writes it
        } else if (!std::isfinite(c.numbers[r])) {
          throw std::invalid_argument(one_line("run " + live.scene + " left double range (" + t.file_name() +
                                               " row " + std::to_string(r + 1) + " column " + c.name +
                                               " is not finite) with the options given; lower them"));
        } else {
          row.push_back(c.numbers[r]);
        }
      }
      rows.push_back(std::move(row));
    }
    json entry{{"rows", std::move(rows)}};
    if (fresh) {
      json cols = json::array();
      for (const SceneColumn& c : t.columns()) cols.push_back(c.name);
      entry["columns"] = cols;
    }
    sent = t.rows();
    tables[t.file_name()] = std::move(entry);
  }
  json j{{"taken", taken}, {"step", s.taken()}, {"steps", s.steps()}, {"done", s.done()}, {"tables", std::move(tables)}};
  if (!shapes.empty()) {
    j["shapes"] = std::move(shapes);
    j["poses"] = std::move(poses);
  }
  if (s.done()) {
    j["rc"] = s.rc();
    j["log"] = s.log.str();
  }
  return j;
}

json lcp_json(const std::string& text, const std::string& src, bool trace) {
  std::istringstream in(text);
  const st::LcpProblem p = st::read_lcp(in, src);
  const int n = int(p.q.size());
  st::LcpOptions opt;
  opt.trace = trace;
  const st::LcpResult r = st::solve_lcp(p.M, p.q, opt);
  // Lemke's variables as printed: w1..wn, z1..zn (1-based), z0 the artificial one.
  auto var = [n](int v) { return v < n ? "w" + std::to_string(v + 1) : v < 2 * n ? "z" + std::to_string(v - n + 1) : std::string("z0"); };
  json j{{"status", st::to_string(r.status)},
         {"n", n},
         {"z", std::vector<double>(r.z.data(), r.z.data() + n)},
         {"w", std::vector<double>(r.w.data(), r.w.data() + n)},
         {"complementarity", r.complementarity},
         {"feasibility", r.feasibility},
         {"pivots", r.pivots},
         {"message", r.message}};
  if (trace) {
    j["trace"] = json::array();
    for (const st::LcpPivot& v : r.trace) j["trace"].push_back({{"entering", var(v.entering)}, {"leaving", var(v.leaving)}, {"z0", v.z0}});
  }
  return j;
}

}  // namespace impulse::course
