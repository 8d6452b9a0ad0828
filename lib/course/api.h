// The course as data: one function for each answer the command line prints as JSON and the browser
// module (lib/web) hands to the page's JavaScript (impulse.calc, .check, .run, .lcp). The command
// line prints what these return; the page receives the same text, so no formula, domain, key or
// message is written a second time for the browser.
//
// Every function throws std::invalid_argument with the command line's one-line message for bad
// input (unknown ID, an input outside its domain, a malformed answer or LCP); the command line turns
// it into exit 2, the browser module into a JavaScript Error with the same text.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "course/exercises.h"
#include "course/scenes.h"
#include "course/tutor.h"

namespace impulse::course {

/// One calculator input as typed: "0.5", or "x,y,z" / "x,y,z,w" / "v1,v2,..." (SI units).
/// Throws std::invalid_argument "input --NAME: ..." when a piece is not a number.
std::vector<double> parse_calc_input(const std::string& name, const std::string& text);

/// `impulse calc ID --name value ... --json`: {"id", "inputs": {name: [..]}, "outputs": {name:
/// {"value": [..], "unit"}}}, evaluated by the registry entry (domain checks included).
nlohmann::json calc_json(const std::string& id, const std::map<std::string, std::string>& inputs);

/// What a form for item ID needs (`impulse calc ID --help` as data): title, section, function,
/// inputs with unit, dim, doc, the allowed range in words and the course's example value (the
/// inputs of the first golden check of this item, empty when it has none), outputs with units.
nlohmann::json calc_form_json(const std::string& id);

/// `impulse exercises show ID --json`: statement and the shape of the answer (never the key).
nlohmann::json exercise_json(const std::string& id);

/// `impulse exercises check ID ANSWER... --json`: grades tokens with the tutor (grade(), then
/// tutor_verdict() of course/tutor.h, the same verdict the command line prints as text) and returns
/// it as data: {"id", "answered", "correct", "tries" (wrong tries including this one), "revealed",
/// "parts": [{"name", "kind", "unit", "correct", "given", "tolerance" (in words), "hint" (wrong parts),
/// "component" (1-based, a wrong vector's component furthest off)}]}. Nothing derived from the key is
/// in it until the solution is revealed (a correct answer, reveal, or kTriesBeforeSolution wrong
/// tries): then "answer" (the key with its unit, or the option label) and "key" (numbers) per part
/// and "explanation". With no tokens and reveal, the solution alone (no try counted).
/// wrong_tries_before: the wrong tries recorded for this exercise before this answer.
/// The tutor's verdict as data (the object check_json returns).
nlohmann::json verdict_json(const Verdict& v);

nlohmann::json check_json(const std::string& id, const std::vector<std::string>& tokens, int wrong_tries_before,
                          bool reveal);

/// `impulse scenes --json`: every scene with its options (unit, default, doc) and each option's
/// domain (kind number|integer|choice, lo, hi, open ends, choices, and in words), from which the
/// page builds its sliders.
nlohmann::json scenes_json();

/// `impulse bench SCENE [--option value]... --json`: {"scene", "options", "metrics": {name: {"value",
/// "unit"}}}, measured by the scene's bench function (throws for a scene without one).
nlohmann::json bench_json(const std::string& name, const std::vector<std::string>& options);

/// The ceilings on a run's output (`impulse run --max-output`): default and largest allowed [bytes].
constexpr double kDefaultMaxOutput = 268435456;  // 256 MiB
constexpr double kMaxMaxOutput = 4294967296;     // 4 GiB

struct CheckedSceneRun {
  SceneOutput out;
  int rc = 0;       // the scene's code: 0 ran, 1 a check inside the scene failed
  std::string log;  // the scene's summary
};

/// Runs scene NAME with options ("--name value" pairs) as `impulse run` does: options parsed and
/// checked against their domains (step ceilings included), then the run refused (nothing kept)
/// when its CSV output exceeds max_output bytes or holds a cell that is not finite.
CheckedSceneRun run_scene_checked(const std::string& name, const std::vector<std::string>& options, double max_output);

/// A checked run's tables as `impulse run` writes them: {"scene", "rc", "log", "tables": {file:
/// CSV text}} (text files such as an LCP among them).
nlohmann::json scene_run_json(const std::string& name, const std::vector<std::string>& options, double max_output);

/// A scene live in a page (impulse.open): its session and how many rows of each table the page has
/// been sent.
struct LiveScene {
  std::string scene;
  std::unique_ptr<SceneSession> session;
  std::map<std::string, std::size_t> sent;  // table file -> rows sent
};

/// Opens scene NAME as a session with options checked as `impulse run` checks them (domains, step
/// ceilings); throws for a scene that is not stepped (its run is computed whole: impulse.run).
LiveScene open_live_scene(const std::string& name, const std::vector<std::string>& options);

/// Steps a live scene by up to n steps and returns what is new: {"taken", "step" (steps so far),
/// "steps" (of the run), "done", "tables": {file: {"columns" (when first sent), "rows": [[cells]]}},
/// for a scene with bodies to draw "shapes": [{"kind", "size"}] and "poses": [[x, y, z, qx, qy, qz,
/// qw per shape] after each step taken], "rc" and "log" once done}. Refused (the
/// session is over) as `impulse run` refuses a run whose output leaves double range.
nlohmann::json live_scene_step_json(LiveScene& live, long long n);

/// `impulse lcp FILE --json [--trace]` for an LCP given as text (the format of st/lcp_file.h; src
/// names it in messages): status, z, w, residuals, pivots, message and, with trace, the pivot path.
nlohmann::json lcp_json(const std::string& text, const std::string& src, bool trace);

}  // namespace impulse::course
