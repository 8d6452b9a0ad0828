// The browser module: the engine and the course compiled by emscripten, answering the page's
// JavaScript (docs/static/impulse.js) through one C entry point. Each request names a function of
// lib/course/api.h and its arguments as JSON; the answer is that function's JSON (what the command
// line prints with --json) or {"error": the command line's one-line message}. Nothing here computes
// a number: every formula, domain, key and message is the course library's.
#include <emscripten/emscripten.h>

#include <nlohmann/json.hpp>
#include <map>
#include <string>

#include "course/api.h"

namespace impulse::course {
// The pile benchmarks live in lib/bench, which the browser module does not link: the catalogue
// of the page has no pile scenes (natively lib/bench/bench_pile.cpp registers them).
void register_pile_scenes(SceneCatalogue&) {}
}  // namespace impulse::course

namespace {

using nlohmann::json;
using namespace impulse::course;

// The page's live scenes (impulse.open), by the number handed to the page.
std::map<int, LiveScene> live_scenes;
int next_live_scene = 1;

LiveScene& live_scene(const json& a) {
  const int id = a.at("session").get<int>();
  auto it = live_scenes.find(id);
  if (it == live_scenes.end()) throw std::invalid_argument("impulse: no open scene session " + std::to_string(id));
  return it->second;
}

json answer(const std::string& fn, const json& a) {
  if (fn == "calc") return calc_json(a.at("id").get<std::string>(), a.at("inputs").get<std::map<std::string, std::string>>());
  if (fn == "form") return calc_form_json(a.at("id").get<std::string>());
  if (fn == "exercise") return exercise_json(a.at("id").get<std::string>());
  if (fn == "check")
    return check_json(a.at("id").get<std::string>(), a.at("answers").get<std::vector<std::string>>(),
                      a.value("tries", 0), a.value("reveal", false));
  if (fn == "scenes") return scenes_json();
  if (fn == "run")
    return scene_run_json(a.at("scene").get<std::string>(), a.at("options").get<std::vector<std::string>>(),
                          a.value("max_output", kDefaultMaxOutput));
  if (fn == "open") {
    LiveScene live = open_live_scene(a.at("scene").get<std::string>(), a.at("options").get<std::vector<std::string>>());
    const long long steps = live.session->steps();
    const int id = next_live_scene++;
    live_scenes.emplace(id, std::move(live));
    return {{"session", id}, {"steps", steps}};
  }
  if (fn == "step") return live_scene_step_json(live_scene(a), a.at("n").get<long long>());
  if (fn == "close") return {{"closed", live_scenes.erase(a.at("session").get<int>()) == 1}};
  if (fn == "bench") return bench_json(a.at("scene").get<std::string>(), a.at("options").get<std::vector<std::string>>());
  if (fn == "lcp") return lcp_json(a.at("text").get<std::string>(), a.value("src", std::string("lcp")), a.value("trace", false));
  throw std::invalid_argument("impulse: unknown request '" + fn + "'");
}

}  // namespace

extern "C" {

/// Answers one request; the returned text stays valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* impulse_request(const char* fn, const char* args_json) {
  static std::string out;
  try {
    out = answer(fn, json::parse(args_json)).dump();
  } catch (const std::exception& e) {
    out = json{{"error", e.what()}}.dump();
  }
  return out.c_str();
}
}
