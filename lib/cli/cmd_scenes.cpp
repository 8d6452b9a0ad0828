// impulse scenes | run | bench
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/animate.h"
#include "cli/commands.h"
#include "course/scenes.h"

namespace impulse::cli {

using namespace impulse::course;
using nlohmann::json;

namespace {

const Scene& require_scene(const std::string& name) {
  const Scene* s = scenes().find(name);
  if (!s) throw BadInput("unknown scene '" + name + "' (see 'impulse scenes')");
  return *s;
}

void print_scene_help(const Scene& s) {
  std::cout << s.name << " (" << s.chapter << "): " << s.title << "\noptions:\n";
  for (const SceneOption& o : s.options)
    std::cout << "  --" << o.name << " [" << o.unit << "] (default " << o.default_value << ")  " << o.doc << '\n';
}

bool wants_help(const std::vector<std::string>& a) {
  for (const std::string& s : a)
    if (s == "--help" || s == "-h") return true;
  return false;
}

}  // namespace

int cmd_scenes(bool as_json) {
  json rows = json::array();
  for (const Scene& s : scenes().scenes()) {
    if (as_json) {
      json opts = json::array();
      for (const SceneOption& o : s.options)
        opts.push_back({{"name", o.name}, {"unit", o.unit}, {"default", o.default_value}, {"doc", o.doc}});
      rows.push_back({{"name", s.name}, {"chapter", s.chapter}, {"title", s.title}, {"bench", bool(s.bench)}, {"options", opts}});
    } else {
      std::cout << s.name << "  " << s.chapter << "  " << s.title << (s.bench ? "  [bench]" : "") << '\n';
    }
  }
  if (as_json) std::cout << rows.dump(2) << '\n';
  return 0;
}

int cmd_run(const std::vector<std::string>& args) {
  if (args.empty()) throw BadInput("run needs a scene name (see 'impulse scenes')");
  const Scene& s = require_scene(args[0]);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (wants_help(rest)) {
    print_scene_help(s);
    std::cout << "  --out DIR (default out)  folder for the CSV files\n";
    std::cout << "  --animate FILE  draw the scene into FILE (.mp4 with ffmpeg, or .gif); --poster PNG: last frame\n";
    return 0;
  }
  std::string out = "out", animate, poster;
  std::vector<std::string> opts;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == "--out") {
      if (i + 1 >= rest.size()) throw BadInput("--out needs a folder");
      out = rest[++i];
    } else if (rest[i] == "--animate" || rest[i] == "--poster") {
      if (i + 1 >= rest.size()) throw BadInput(rest[i] + " needs a file");
      (rest[i] == "--animate" ? animate : poster) = rest[i + 1];
      ++i;
    } else {
      opts.push_back(rest[i]);
    }
  }
  if (!poster.empty() && animate.empty()) throw BadInput("--poster goes with --animate");
  if (!animate.empty()) {
    if (!opts.empty()) throw BadInput("--animate draws the scene with its default options; drop " + opts[0]);
    return run_animation(s.name, animate, poster);
  }
  SceneArgs a;
  try {
    a = parse_scene_args(s, opts);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  return run_scene_to_files(s, a, out, std::cout);
}

int cmd_bench(const std::vector<std::string>& args) {
  if (args.empty()) throw BadInput("bench needs a scene name (see 'impulse scenes')");
  const Scene& s = require_scene(args[0]);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (wants_help(rest)) {
    print_scene_help(s);
    std::cout << "  --json  print JSON\n";
    return 0;
  }
  if (!s.bench) throw BadInput("scene '" + s.name + "' has no benchmark");
  bool as_json = false;
  std::vector<std::string> opts;
  for (const std::string& r : rest) {
    if (r == "--json") as_json = true;
    else opts.push_back(r);
  }
  SceneArgs a;
  std::vector<Metric> m;
  try {
    a = parse_scene_args(s, opts);
    m = s.bench(a);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  if (as_json) {
    json j{{"scene", s.name}, {"options", a.values}, {"metrics", json::object()}};
    for (const Metric& x : m) j["metrics"][x.name] = {{"value", x.value}, {"unit", x.unit}};
    std::cout << j.dump(2) << '\n';
  } else {
    for (const Metric& x : m) std::cout << x.name << " = " << x.value << ' ' << x.unit << '\n';
  }
  return 0;
}

}  // namespace impulse::cli
