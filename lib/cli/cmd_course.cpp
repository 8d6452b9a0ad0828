// impulse formulas | calc | verify
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "course/api.h"
#include "course/exercises.h"
#include "course/golden_checks.h"
#include "course/registry.h"

namespace impulse::cli {

using namespace impulse::course;
using nlohmann::json;

namespace {


std::string value_text(const std::vector<double>& v) {
  std::string s = format_value(v);
  if (s.front() == '(') s = s.substr(1, s.size() - 2);
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

// An example call: the inputs of the first printed value `impulse verify` recomputes with this
// item, so the example is one the course itself works through.
std::string calc_example(const Item& it) {
  for (const GoldenCheck& c : golden_checks()) {
    if (c.formula != it.id || c.inputs.size() != it.inputs.size()) continue;
    std::string s = "impulse calc " + it.id;
    for (const auto& [name, v] : c.inputs) s += " --" + name + " " + value_text(v);
    return s + "    # " + c.source;
  }
  std::string s = "impulse calc " + it.id;
  for (const Quantity& q : it.inputs) s += " --" + q.name + (q.dim == 1 ? " V" : q.dim == 4 ? " X,Y,Z,W" : " X,Y,Z");
  return s;
}

void print_calc_help(const Item& it) {
  std::cout << "impulse calc " << it.id << " --<input> VALUE ... [--json]\n\n"
            << it.id << "  (" << it.kind << ", course " << it.section << ")\n  formula: " << it.title
            << "\n  function: " << it.function << "\n";
  if (!it.calc) {
    std::cout << "  this " << it.kind << " has no calculator; see its tests: ctest -R " << it.id << "\n";
    return;
  }
  std::cout << "inputs (all required; vectors as x,y,z, quaternions as x,y,z,w):\n";
  for (const Quantity& q : it.inputs) {
    const char* shape = q.dim == 1 ? "VALUE" : q.dim == 3 ? "X,Y,Z" : q.dim == 4 ? "X,Y,Z,W" : "V1,V2,...";
    std::cout << "  --" << q.name << " " << shape << "  [" << q.unit << "]  " << q.doc << "\n      allowed: "
              << q.domain.value_or(any_real()).describe(q.dim) << '\n';
  }
  std::cout << "outputs:\n";
  for (const Quantity& q : it.outputs) std::cout << "  " << q.name << "  [" << q.unit << "]  " << q.doc << '\n';
  std::cout << "example:\n  " << calc_example(it) << '\n';
}

void print_calc_usage() {
  std::cout << "impulse calc ID --<input> VALUE ... [--json]\n"
               "  Evaluates one course formula or worked example with the engine's own function.\n"
               "  ID       an inventory ID with a calculator (impulse formulas lists them)\n"
               "  --NAME   one input; scalars as 0.5, vectors as x,y,z, quaternions as x,y,z,w (SI units)\n"
               "  --json   print inputs and outputs as JSON\n"
               "  impulse calc ID --help   that item's inputs with units and allowed ranges, outputs, formula\n"
               "example:\n  impulse calc E1.6-torque-example --f 0,10,0 --P 0.2,0,0 --C 0,0,0\n"
               "exit 0 success, 2 bad input (unknown ID or input, a value outside its range)\n";
}

const Quantity* output_spec(const Item& it, const std::string& name) {
  for (const Quantity& q : it.outputs)
    if (q.name == name) return &q;
  return nullptr;
}

}  // namespace

int cmd_formulas(const std::string& chapter, bool as_json) {
  json out = json::array();
  for (const Item& it : registry().items()) {
    if (!chapter.empty() && chapter_of(it.id) != chapter) continue;
    if (as_json) {
      json j{{"id", it.id}, {"kind", it.kind}, {"status", status_name(it.status)}, {"title", it.title},
             {"section", it.section}, {"function", it.function}, {"calculator", bool(it.calc)}};
      if (it.status != Status::implemented) j["reason"] = it.reason;
      out.push_back(j);
    } else {
      std::cout << it.id << "  " << it.kind << "  " << status_name(it.status) << "  " << it.title;
      if (it.status != Status::implemented) std::cout << "  (" << it.reason << ")";
      std::cout << '\n';
    }
  }
  if (as_json) std::cout << out.dump(2) << '\n';
  return 0;
}

int cmd_calc(const std::vector<std::string>& args) {
  if (args.empty()) throw BadInput("calc needs an ID (see 'impulse formulas' or 'impulse calc --help')");
  if (args[0] == "--help" || args[0] == "-h") {
    print_calc_usage();
    return 0;
  }
  const std::string& id = args[0];
  const Item* it = registry().find(id);
  if (!it) throw BadInput("unknown ID '" + id + "' (see 'impulse formulas')");
  bool as_json = false;
  std::map<std::string, std::string> in;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      print_calc_help(*it);
      return 0;
    }
    if (a == "--json") {
      as_json = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) throw BadInput("unexpected argument '" + a + "' (inputs are --name VALUE)");
    std::string name = a.substr(2), value;
    auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else {
      if (i + 1 >= args.size()) throw BadInput("input --" + name + " needs a value");
      value = args[++i];
    }
    if (in.count(name)) throw BadInput("input --" + name + " given twice");
    in[name] = value;
  }
  json j;
  try {
    j = calc_json(id, in);  // the page's impulse.calc returns the same (lib/course/api.h)
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  if (as_json) {
    std::cout << j.dump(2) << '\n';
  } else {
    for (const Quantity& q : it->outputs)
      std::cout << q.name << " = " << format_value(j["outputs"][q.name]["value"].get<std::vector<double>>()) << ' ' << q.unit
                << '\n';
  }
  return 0;
}

int cmd_verify(const std::string& chapter, bool as_json) {
  int pass = 0, fail = 0, printed = 0, derived = 0;
  json rows = json::array();
  for (const GoldenCheck& c : golden_checks()) {
    if (!chapter.empty() && chapter_of(c.id) != chapter) continue;
    GoldenResult r = run_golden_check(c);
    (r.pass ? pass : fail)++;
    (c.origin == "printed" ? printed : derived)++;
    const Item* it = registry().find(c.formula);
    auto unit_of = [&](const std::string& name, bool input) {
      if (!it) return std::string();
      for (const Quantity& q : input ? it->inputs : it->outputs)
        if (q.name == name) return q.unit == "-" ? std::string() : " " + q.unit;
      return std::string();
    };
    const std::string from = golden_provenance(c);
    if (as_json) {
      json j{{"id", c.id},         {"pass", r.pass},     {"origin", c.origin}, {"from", from},
             {"quote", c.quote},   {"source", c.source}, {"what", c.what},     {"inputs", c.inputs},
             {"expect", c.expect}, {"got", r.got},       {"abs_tol", c.abs_tol}, {"rel_tol", c.rel_tol}};
      if (!r.error.empty()) j["error"] = r.error;
      rows.push_back(j);
      continue;
    }
    std::cout << (r.pass ? "PASS  " : "FAIL  ") << c.id << "  (" << c.origin << ")\n      from: " << from;
    if (!c.quote.empty()) std::cout << ": \"" << c.quote << "\"";
    std::cout << "\n      cited: " << c.source << "\n      inputs:";
    for (const auto& [name, v] : c.inputs) std::cout << ' ' << name << " = " << format_value(v) << unit_of(name, true) << ';';
    if (!r.error.empty()) std::cout << "\n      error: " << r.error;
    for (const auto& [name, want] : c.expect) {
      const std::string unit = unit_of(name, false);
      auto g = r.got.find(name);
      std::cout << "\n      " << name << " = " << (g == r.got.end() ? "?" : format_value(g->second)) << unit
                << "  expected " << format_value(want) << unit;
    }
    std::cout << "\n      tolerance: |computed - expected| <= " << c.abs_tol << " + " << c.rel_tol << " |expected|\n";
  }
  if (as_json) {
    std::cout << json{{"passed", pass}, {"failed", fail}, {"printed", printed}, {"derived", derived}, {"checks", rows}}.dump(2)
              << '\n';
  } else {
    std::cout << (pass + fail) << " values recomputed: " << printed << " printed by the course or the paper, " << derived
              << " derived from their formulas; " << pass << " passed, " << fail << " failed\n";
  }
  return fail == 0 ? 0 : 1;
}

}  // namespace impulse::cli
