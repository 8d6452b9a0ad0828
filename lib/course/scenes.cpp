#include "course/scenes.h"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "core/text.h"

namespace impulse::course {

std::string SceneArgs::text(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) throw std::invalid_argument(one_line("scene option --" + name + " is not declared"));
  return it->second;
}

double SceneArgs::number(const std::string& name) const {
  std::string s = text(name);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0') throw std::invalid_argument(one_line("option --" + name + ": '" + s + "' is not a number"));
  return v;
}

long long SceneArgs::integer(const std::string& name) const {
  std::string s = text(name);
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0') throw std::invalid_argument(one_line("option --" + name + ": '" + s + "' is not an integer"));
  return v;
}

double SceneArgs::positive(const std::string& name) const {
  double v = number(name);
  if (!(v > 0)) throw std::invalid_argument(one_line("option --" + name + " must be positive, got " + text(name)));
  return v;
}

int run_scene_to_files(const Scene& s, const SceneArgs& a, const std::string& out_dir, std::ostream& log) {
  SceneOutput out;
  const int rc = s.run(a, out, log);
  out.write_csv_files(out_dir);
  return rc;
}

void SceneCatalogue::add(Scene s) {
  if (find(s.name)) throw std::logic_error("scene catalogue: duplicate scene " + s.name);
  scenes_.push_back(std::move(s));
}

const Scene* SceneCatalogue::find(const std::string& name) const {
  for (const Scene& s : scenes_)
    if (s.name == name) return &s;
  return nullptr;
}

const SceneCatalogue& scenes() {
  static const SceneCatalogue c = [] {
    SceneCatalogue cat;
    register_e1_scenes(cat);
    register_e3_scenes(cat);
    register_e3_solver_scenes(cat);
    register_e3_chain_scenes(cat);
    register_e3_other_solver_scenes(cat);
    register_e3_hydro_scenes(cat);
    register_pile_scenes(cat);  // lib/bench natively; none in the browser module (lib/web)
    register_st_scenes(cat);
    register_st_lemke_scenes(cat);
    return cat;
  }();
  return c;
}

SceneArgs parse_scene_args(const Scene& s, const std::vector<std::string>& args) {
  SceneArgs out;
  for (const SceneOption& o : s.options) out.values[o.name] = o.default_value;
  std::set<std::string> given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) throw std::invalid_argument(one_line("unexpected argument '" + a + "' for scene " + s.name));
    std::string name = a.substr(2), value;
    auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else {
      if (i + 1 >= args.size()) throw std::invalid_argument(one_line("option --" + name + " needs a value"));
      value = args[++i];
    }
    if (!out.values.count(name)) {
      std::string valid;
      for (const SceneOption& o : s.options) valid += (valid.empty() ? "--" : ", --") + o.name;
      throw std::invalid_argument(one_line("unknown option --" + name + " for scene " + s.name + " (options: " +
                                           (valid.empty() ? "none" : valid) + ")"));
    }
    if (given.count(name)) throw std::invalid_argument(one_line("option --" + name + " given twice for scene " + s.name));
    given.insert(name);
    out.values[name] = value;
  }
  for (const SceneOption& o : s.options) {
    const OptionDomain d = scene_option_domain(s.name, o.name);
    const std::string why = d.violation(out.values[o.name]);
    if (!why.empty())
      throw std::invalid_argument(one_line("option --" + o.name + " [" + o.unit + "] of scene " + s.name + ": " + why));
  }
  const std::string why = scene_combination_violation(s.name, out.values);
  if (!why.empty()) throw std::invalid_argument(one_line(why));
  return out;
}

}  // namespace impulse::course
