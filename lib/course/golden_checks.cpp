#include "course/golden_checks.h"

#include <regex>
#include <stdexcept>

#include "course/embedded.h"
#include "course/exercises.h"
#include "course/toml_values.h"

namespace impulse::course {

const std::vector<GoldenCheck>& golden_checks() {
  static const std::vector<GoldenCheck> all = [] {
    std::vector<GoldenCheck> v;
    for (int i = 0; i < embedded_file_count; ++i) {
      std::string file = embedded_files[i].path;
      if (file.rfind("golden/", 0) != 0) continue;
      toml::table t = parse_toml(embedded_files[i].text, file);
      const toml::array* checks = t["check"].as_array();
      if (!checks) continue;
      for (const toml::node& n : *checks) {
        const toml::table* ct = n.as_table();
        if (!ct) throw std::runtime_error(where(n, file) + ": [[check]] must be a table");
        GoldenCheck c;
        c.file = file;
        c.id = toml_string(*ct, "id", file);
        c.formula = toml_string(*ct, "formula", file, false);
        if (c.formula.empty()) c.formula = c.id;
        c.source = toml_string(*ct, "source", file);
        c.what = toml_string(*ct, "what", file, false);
        c.origin = toml_string(*ct, "origin", file);
        if (c.origin != "printed" && c.origin != "derived")
          throw std::runtime_error(where(n, file) + ": origin of " + c.id + " must be 'printed' or 'derived'");
        c.quote = toml_string(*ct, "quote", file, false);
        c.inputs = toml_values(ct->get("inputs"), "inputs", file);
        c.expect = toml_values(ct->get("expect"), "expect", file);
        if (c.expect.empty()) throw std::runtime_error(where(n, file) + ": check of " + c.id + " expects nothing");
        if (auto x = (*ct)["abs_tol"].value<double>()) c.abs_tol = *x;
        if (auto x = (*ct)["rel_tol"].value<double>()) c.rel_tol = *x;
        v.push_back(std::move(c));
      }
    }
    return v;
  }();
  return all;
}

std::string golden_provenance(const GoldenCheck& c) {
  static const std::map<std::string, std::string> seed_file{{"003", "003_aed2a571f4fd01e0.txt"},
                                                            {"000", "000_cce879faa34e24bb.txt"},
                                                            {"004", "004_79bd5f1cb8c608aa.txt"}};
  const Item* it = registry().find(c.id);
  std::string s = "course " + (it ? it->section : chapter_of(c.id));
  std::smatch m;
  if (std::regex_search(c.source, m, std::regex("seed (\\d{3})")) && seed_file.count(m[1])) {
    std::smatch l;
    std::string line;
    if (std::regex_search(c.source, l, std::regex("A L(\\d+)")) || std::regex_search(c.source, l, std::regex("L(\\d+)")))
      line = l[1];
    s += ", seed file " + seed_file.at(m[1]) + (line.empty() ? "" : " line " + line);
  }
  return s;
}

std::vector<const GoldenCheck*> golden_checks_for(const std::string& id) {
  std::vector<const GoldenCheck*> out;
  for (const GoldenCheck& c : golden_checks())
    if (c.id == id) out.push_back(&c);
  return out;
}

GoldenResult run_golden_check(const GoldenCheck& c) {
  GoldenResult r;
  r.check = &c;
  const Item* item = registry().find(c.formula);
  if (!item) {
    r.error = "no registered calculator " + c.formula;
    return r;
  }
  try {
    r.got = evaluate(*item, c.inputs);
  } catch (const std::exception& e) {
    r.error = e.what();
    return r;
  }
  r.pass = true;
  for (const auto& [name, want] : c.expect) {
    auto it = r.got.find(name);
    if (it == r.got.end() || it->second.size() != want.size()) {
      r.pass = false;
      r.error = "output '" + name + "' missing or of another size";
      continue;
    }
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!within_tolerance(it->second[i], want[i], c.abs_tol, c.rel_tol)) r.pass = false;
  }
  return r;
}

}  // namespace impulse::course
