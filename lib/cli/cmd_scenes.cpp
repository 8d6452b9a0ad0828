// impulse scenes | run | bench
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "cli/animate.h"
#include "cli/commands.h"
#include "course/api.h"
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

void print_scene_help(const Scene& s, const std::string& command) {
  std::cout << "impulse " << command << " " << s.name << " [--<option> VALUE]...\n\n"
            << s.name << " (" << s.chapter << "): " << s.title << "\noptions:\n";
  for (const SceneOption& o : s.options)
    std::cout << "  --" << o.name << " [" << o.unit << "] (default " << o.default_value << ")  " << o.doc
              << "\n      allowed: " << scene_option_domain(s.name, o.name).describe() << '\n';
}

void print_run_usage() {
  std::cout << "impulse run SCENE [--out DIR] [--max-output BYTES] [--<option> VALUE]...\n"
               "  Runs a scene of the course and writes its CSV files into DIR (default out), all or\n"
               "  nothing: files are written aside and moved into DIR only when the run succeeded.\n"
               "  --out DIR            folder for the CSV files (created if missing)\n"
               "  --max-output BYTES   refuse a run whose CSV files total more (default 268435456 = 256 MiB,\n"
               "                       at most 4294967296)\n"
               "  impulse scenes lists the scenes; impulse run SCENE --help lists its options with units,\n"
               "  defaults and allowed ranges.\n"
               "example:\n  impulse run st-bounce --h 0.01 --out out\n"
               "exit 0 success, 1 a check inside the scene failed, 2 bad input\n";
}

void print_bench_usage() {
  std::cout << "impulse bench SCENE [--<option> VALUE]... [--json]\n"
               "  Measures a scene (throughput, time per step); measured, never asserted by a test.\n"
               "  --json   print JSON\n"
               "  impulse scenes marks the scenes with a benchmark [bench]; impulse bench SCENE --help lists\n"
               "  its options with units, defaults and allowed ranges.\n"
               "example:\n  impulse bench e3-spheres --solver featherstone --n 1000\n"
               "exit 0 success, 2 bad input\n";
}

bool is_help(const std::string& a) { return a == "--help" || a == "-h"; }

// Moves every file of the finished run from the staging folder into out, then removes it.
void publish(const std::filesystem::path& staging, const std::filesystem::path& out) {
  std::filesystem::create_directories(out);
  for (const auto& e : std::filesystem::directory_iterator(staging))
    std::filesystem::rename(e.path(), out / e.path().filename());
  std::filesystem::remove_all(staging);
}

bool wants_help(const std::vector<std::string>& a) {
  for (const std::string& s : a)
    if (s == "--help" || s == "-h") return true;
  return false;
}

}  // namespace

int cmd_scenes(bool as_json) {
  if (as_json) {
    std::cout << scenes_json().dump(2) << '\n';
    return 0;
  }
  for (const Scene& s : scenes().scenes())
    std::cout << s.name << "  " << s.chapter << "  " << s.title << (s.bench ? "  [bench]" : "") << '\n';
  return 0;
}

int cmd_run(const std::vector<std::string>& args) {
  if (args.empty()) throw BadInput("run needs a scene name (see 'impulse scenes' or 'impulse run --help')");
  if (is_help(args[0])) {
    print_run_usage();
    return 0;
  }
  const Scene& s = require_scene(args[0]);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (wants_help(rest)) {
    print_scene_help(s, "run");
    std::cout << "  --out DIR (default out)  folder for the CSV files\n"
                 "  --max-output BYTES (default 268435456)  refuse CSV output larger than this\n"
                 "  --animate FILE  draw the scene into FILE (.mp4 with ffmpeg, or .gif); --poster PNG: last frame\n";
    return 0;
  }
  std::string out = "out", animate, poster;
  double max_output = kDefaultMaxOutput;
  std::vector<std::string> opts;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == "--out") {
      if (i + 1 >= rest.size()) throw BadInput("--out needs a folder");
      out = rest[++i];
      if (out.empty()) throw BadInput("--out: the folder name is empty");
    } else if (rest[i] == "--animate" || rest[i] == "--poster") {
      if (i + 1 >= rest.size()) throw BadInput(rest[i] + " needs a file");
      (rest[i] == "--animate" ? animate : poster) = rest[i + 1];
      ++i;
    } else if (rest[i] == "--max-output") {
      if (i + 1 >= rest.size()) throw BadInput("--max-output needs a number of bytes");
      const std::string t = rest[++i];
      char* end = nullptr;
      max_output = std::strtod(t.c_str(), &end);
      if (t.empty() || *end != '\0' || !(max_output >= 1 && max_output <= kMaxMaxOutput))
        throw BadInput("--max-output: '" + t + "' is outside [1, 4294967296] bytes");
    } else {
      opts.push_back(rest[i]);
    }
  }
  if (!poster.empty() && animate.empty()) throw BadInput("--poster goes with --animate");
  if (!animate.empty()) {
    if (!opts.empty()) throw BadInput("--animate draws the scene with its default options; drop " + opts[0]);
    return run_animation(s.name, animate, poster);
  }
  // The output folder must be a folder we can write; a file of that name is refused up front.
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !std::filesystem::is_directory(out, ec))
    throw BadInput("--out: '" + out + "' exists and is not a folder");
  // The run, its ceilings and its refusal of non-finite output are the page's impulse.run too
  // (lib/course/api.h); only a run that passed them is written.
  CheckedSceneRun r;
  try {
    r = run_scene_checked(s.name, opts, max_output);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  const std::filesystem::path staging =
      std::filesystem::path(out) / (".impulse-partial-" + std::to_string(::getpid()));
  try {
    std::filesystem::create_directories(staging);
  } catch (const std::exception&) {
    throw BadInput("--out: cannot create folder '" + out + "' (permission or path)");
  }
  try {
    r.out.write_csv_files(staging.string());
  } catch (...) {
    std::filesystem::remove_all(staging, ec);
    throw;
  }
  publish(staging, out);
  std::cout << r.log;
  return r.rc;
}

int cmd_bench(const std::vector<std::string>& args) {
  if (args.empty()) throw BadInput("bench needs a scene name (see 'impulse scenes' or 'impulse bench --help')");
  if (is_help(args[0])) {
    print_bench_usage();
    return 0;
  }
  const Scene& s = require_scene(args[0]);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (wants_help(rest)) {
    print_scene_help(s, "bench");
    std::cout << "  --json  print JSON\n";
    return 0;
  }
  bool as_json = false;
  std::vector<std::string> opts;
  for (const std::string& r : rest) {
    if (r == "--json") as_json = true;
    else opts.push_back(r);
  }
  json j;
  try {
    j = bench_json(s.name, opts);  // the page's impulse.bench returns the same (lib/course/api.h)
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  if (as_json) {
    std::cout << j.dump(2) << '\n';
  } else {
    for (const auto& [name, m] : j["metrics"].items())
      std::cout << name << " = " << m["value"].get<double>() << ' ' << m["unit"].get<std::string>() << '\n';
  }
  return 0;
}

}  // namespace impulse::cli
