// impulse formulas | calc | verify
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "course/exercises.h"
#include "course/golden_checks.h"
#include "course/registry.h"

namespace impulse::cli {

using namespace impulse::course;
using nlohmann::json;

namespace {

const char* status_name(Status s) { return s == Status::implemented ? "implemented" : "prose-only"; }

std::vector<double> parse_numbers(const std::string& name, const std::string& text) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string piece;
  while (std::getline(ss, piece, ',')) {
    char* end = nullptr;
    double x = std::strtod(piece.c_str(), &end);
    if (piece.empty() || *end != '\0') throw BadInput("input --" + name + ": '" + text + "' is not a number or x,y,z");
    out.push_back(x);
  }
  if (out.empty()) throw BadInput("input --" + name + " is empty");
  return out;
}

void print_calc_help(const Item& it) {
  std::cout << it.id << "  (" << it.kind << ", " << it.section << "): " << it.title << "\n  function: " << it.function
            << "\ninputs:\n";
  for (const Quantity& q : it.inputs)
    std::cout << "  --" << q.name << " " << (q.dim == 1 ? "VALUE" : q.dim == 3 ? "X,Y,Z" : q.dim == 4 ? "X,Y,Z,W" : "V1,V2,...") << "  [" << q.unit
              << "]  " << q.doc << '\n';
  std::cout << "outputs:\n";
  for (const Quantity& q : it.outputs) std::cout << "  " << q.name << "  [" << q.unit << "]  " << q.doc << '\n';
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
      if (it.status == Status::prose_only) j["reason"] = it.reason;
      out.push_back(j);
    } else {
      std::cout << it.id << "  " << it.kind << "  " << status_name(it.status) << "  " << it.title;
      if (it.status == Status::prose_only) std::cout << "  (" << it.reason << ")";
      std::cout << '\n';
    }
  }
  if (as_json) std::cout << out.dump(2) << '\n';
  return 0;
}

int cmd_calc(const std::vector<std::string>& args) {
  if (args.empty()) throw BadInput("calc needs an ID (see 'impulse formulas')");
  const std::string& id = args[0];
  const Item* it = registry().find(id);
  if (!it) throw BadInput("unknown ID '" + id + "' (see 'impulse formulas')");
  bool as_json = false;
  Values in;
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
    in[name] = parse_numbers(name, value);
  }
  if (!it->calc) throw BadInput(id + " is a " + it->kind + " with no calculator");
  Values out;
  try {
    out = evaluate(*it, in);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  if (as_json) {
    json j{{"id", id}, {"inputs", json::object()}, {"outputs", json::object()}};
    for (const auto& [k, v] : in) j["inputs"][k] = v;
    for (const Quantity& q : it->outputs) j["outputs"][q.name] = {{"value", out.at(q.name)}, {"unit", q.unit}};
    std::cout << j.dump(2) << '\n';
  } else {
    for (const Quantity& q : it->outputs) std::cout << q.name << " = " << format_value(out.at(q.name)) << ' ' << q.unit << '\n';
  }
  return 0;
}

int cmd_verify(const std::string& chapter, bool as_json) {
  int pass = 0, fail = 0;
  json rows = json::array();
  for (const GoldenCheck& c : golden_checks()) {
    if (!chapter.empty() && chapter_of(c.id) != chapter) continue;
    GoldenResult r = run_golden_check(c);
    (r.pass ? pass : fail)++;
    const Item* it = registry().find(c.formula);
    if (as_json) {
      json j{{"id", c.id}, {"pass", r.pass}, {"source", c.source}, {"what", c.what}, {"expect", c.expect}, {"got", r.got}};
      if (!r.error.empty()) j["error"] = r.error;
      rows.push_back(j);
      continue;
    }
    std::cout << (r.pass ? "PASS  " : "FAIL  ") << c.id << "  [" << c.source << "]";
    if (!r.error.empty()) std::cout << "  error: " << r.error;
    for (const auto& [name, want] : c.expect) {
      const Quantity* q = it ? output_spec(*it, name) : nullptr;
      std::string unit = q ? " " + q->unit : "";
      auto g = r.got.find(name);
      std::cout << "\n      " << name << " = " << (g == r.got.end() ? "?" : format_value(g->second)) << unit
                << "  (course: " << format_value(want) << unit << ")";
    }
    std::cout << '\n';
  }
  if (as_json) {
    std::cout << json{{"passed", pass}, {"failed", fail}, {"checks", rows}}.dump(2) << '\n';
  } else {
    std::cout << pass << " passed, " << fail << " failed\n";
  }
  return fail == 0 ? 0 : 1;
}

}  // namespace impulse::cli
