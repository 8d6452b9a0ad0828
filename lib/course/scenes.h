// The scene catalogue: named scenes shared by `impulse run`, `impulse bench`, tests and the book.
//
// A scene declares its options (name, unit, default, doc). `run` fills tables in memory
// (lib/course/scene_table.h) and prints a short summary; the command line writes the tables as CSV
// files (the book's figures are drawn from them), the Python module hands them to NumPy. `bench`
// measures throughput and returns metrics (never asserted by tests: "measured, not timed").
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/math.h"
#include "course/scene_table.h"

namespace impulse {
class Model;
struct State;
}  // namespace impulse

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

/// A shape as a page draws it: kind "box" (size = half extents [m]), "sphere" (size.x = radius [m])
/// or "plane" (the ground, z = 0), at its world pose.
struct SceneShape {
  std::string kind;
  vec3 size{};
  transform X = transform_identity();
};

/// A scene run a slice at a time. The book's live scenes step one a few steps per animation frame;
/// `impulse run` and the Python module run the same object to its end (the run function of a scene
/// made by stepped_scene), so the page and the command line make their rows on one path.
class SceneSession {
 public:
  virtual ~SceneSession() = default;
  /// Takes up to n more steps (one row of the scene's main table each) and returns how many it took;
  /// the step after the last one finishes the run (summary, tables made at the end) and done()
  /// turns true.
  long long step(long long n);
  bool done() const { return done_; }
  /// The scene's code once done: 0 ran, 1 a check inside the scene failed.
  int rc() const { return rc_; }
  /// Steps in the whole run.
  long long steps() const { return total_; }
  long long taken() const { return k_; }
  /// The shapes at the state after the last step (none for a scene without bodies to draw).
  virtual std::vector<SceneShape> shapes() const { return {}; }
  SceneOutput out;
  std::ostringstream log;

 protected:
  explicit SceneSession(long long total) : total_(total) {}
  /// Step k of the run (k = 0 .. steps() - 1): advance and write its row.
  virtual void advance(long long k) = 0;
  /// After the last step: the summary and what is made from the whole run. Returns the scene's code.
  virtual int finish() { return 0; }

 private:
  long long total_ = 0, k_ = 0;
  bool done_ = false;
  int rc_ = 0;
};

using SceneOpen = std::function<std::unique_ptr<SceneSession>(const SceneArgs&)>;

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
  /// Set for a scene that runs as a SceneSession (then run opens one and steps it to its end).
  SceneOpen open = nullptr;
};

/// A scene whose run is a session: run() opens it, steps it to its end, moves its tables into out
/// and its summary into log.
Scene stepped_scene(std::string name, std::string chapter, std::string title, std::vector<SceneOption> options,
                    SceneOpen open);

/// The shapes of a Model at a state (bodies' shapes at body_q, the ground plane), for a session's shapes().
std::vector<SceneShape> model_shapes(const Model& m, const State& s);

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
