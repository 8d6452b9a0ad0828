// The scene catalogue: named scenes shared by `impulse run`, `impulse bench`, tests and the book.
//
// A scene declares its options (name, unit, default, doc). `run` fills tables in memory
// (lib/course/scene_table.h) and prints a short summary; the command line writes the tables as CSV
// files (the book's figures are drawn from them), the Python module hands them to NumPy. `bench`
// measures throughput and returns metrics (never asserted by tests: "measured, not timed").
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "course/scene_table.h"

namespace impulse::course {

struct SceneOption {
  std::string name;           // "--n" is given as "n"
  std::string unit;           // "-", "s", "m" ...
  std::string default_value;  // as text; parsed by the scene
  std::string doc;
};

/// What a scene option may be: a number in [lo, hi] (ends open or closed), a whole number, or one
/// of a list of words. parse_scene_args checks every option against it before a scene runs.
struct OptionDomain {
  enum class Kind { number, integer, choice };
  Kind kind = Kind::number;
  double lo = -1e6, hi = 1e6;
  bool lo_open = false, hi_open = false;
  std::vector<std::string> choices;
  /// "" when text is inside; otherwise why not ("'-3' is outside [1, 100000]").
  std::string violation(const std::string& text) const;
  std::string describe() const;
};

/// The domain of one option of one scene (lib/course/scene_domains.cpp): ceilings on steps,
/// bodies, durations and repeats that keep any run to minutes and its CSV output bounded.
OptionDomain scene_option_domain(const std::string& scene, const std::string& option);

/// Largest number of steps T/h a scene with a duration and a step may take.
constexpr double kMaxSceneSteps = 200000;

/// Limits that involve two options (each already inside its domain): T/h, duration/h and
/// frames x substeps at most kMaxSceneSteps; n x steps at most 1e8;
/// per-world at most n; the O(N^2) nxn broad phase at most
/// 20000 shapes; e3-spheres with a penalty-family solver at most 10000. "" when the pair is fine.
std::string scene_combination_violation(const std::string& scene, const std::map<std::string, std::string>& values);

/// Parsed options: every declared option present (defaults filled in). Accessors throw
/// std::invalid_argument naming the option when its value does not parse.
class SceneArgs {
 public:
  std::map<std::string, std::string> values;
  std::string text(const std::string& name) const;
  double number(const std::string& name) const;
  long long integer(const std::string& name) const;
  /// number() that must be > 0; throws std::invalid_argument naming the option otherwise.
  double positive(const std::string& name) const;
};

struct Metric {
  std::string name;
  double value = 0;
  std::string unit;
};

struct Scene {
  std::string name;     // "e1-free-body"
  std::string chapter;  // "E1"
  std::string title;    // one line
  std::vector<SceneOption> options;
  /// Runs the scene, fills its tables in out, prints a summary to log. Returns 0 on success, 1
  /// when a check inside the scene failed.
  std::function<int(const SceneArgs&, SceneOutput& out, std::ostream& log)> run;
  /// Optional: measures the scene and returns its metrics.
  std::function<std::vector<Metric>(const SceneArgs&)> bench;
};

class SceneCatalogue {
 public:
  void add(Scene s);
  const Scene* find(const std::string& name) const;
  const std::vector<Scene>& scenes() const { return scenes_; }

 private:
  std::vector<Scene> scenes_;
};

const SceneCatalogue& scenes();

/// Runs a scene and, when it has run to the end, writes its tables as CSV files into out_dir
/// (created if missing): a scene that throws leaves no half-written file. Returns the scene's code.
int run_scene_to_files(const Scene& s, const SceneArgs& a, const std::string& out_dir, std::ostream& log);

/// Fills defaults and checks option names and values; args are "--name value" pairs. Throws
/// std::invalid_argument naming an unknown option, a missing value, a value outside the option's
/// domain (with the allowed range), or a duration / step pair of more than kMaxSceneSteps steps.
SceneArgs parse_scene_args(const Scene& s, const std::vector<std::string>& args);

// Per-chapter registration (lib/course/scenes_*.cpp).
void register_e1_scenes(SceneCatalogue& c);
void register_e3_scenes(SceneCatalogue& c);
void register_e3_solver_scenes(SceneCatalogue& c);  // E3 §4-§8: XPBD readback demonstrations, e3-spheres
void register_e3_other_solver_scenes(SceneCatalogue& c);  // E3 §6: the other solvers
/// e3-spheres bench for --solver semi_implicit, featherstone, padmm or vbd (reads options solver, n, steps, h).
std::vector<Metric> bench_solver_spheres(const SceneArgs& a);
void register_e3_chain_scenes(SceneCatalogue& c);   // the whole chain: Model, pipeline, XPBD, readback
void register_e3_hydro_scenes(SceneCatalogue& c);   // route (c): e3-hydro-consumers (scenes_e3_hydro.cpp)
void register_pile_scenes(SceneCatalogue& c);     // e3-pile-spheres, e3-pile-boxes: whole-step benchmarks (bench_pile.cpp)
void register_st_scenes(SceneCatalogue& c);
void register_st_lemke_scenes(SceneCatalogue& c);  // st-lemke-path: Lemke's pivot path on the four-ball LCP

}  // namespace impulse::course
