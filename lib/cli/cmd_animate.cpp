// impulse run SCENE --animate OUT [--poster PNG]: the animation is drawn by the Python module
// (python/impulse/animate.py), which runs the scene in memory through impulse._core. This file
// only checks the arguments and hands over to that interpreter.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cli/animate.h"
#include "cli/commands.h"

namespace impulse::cli {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int run_animation(const std::string& scene, const std::string& out, const std::string& poster) {
  const std::vector<std::string> drawn = {"st-rod", "e3-pyramid", "e3-bounce", "e3-box-drop", "st-balls"};
  bool known = false;
  for (const std::string& d : drawn) known = known || d == scene;
  if (!known)
    throw BadInput("--animate draws st-rod, e3-pyramid, e3-bounce, e3-box-drop or st-balls, not '" + scene + "'");
  if (!ends_with(out, ".mp4") && !ends_with(out, ".gif"))
    throw BadInput("--animate needs a file ending in .mp4 (ffmpeg) or .gif, got '" + out + "'");
  if (!poster.empty() && !ends_with(poster, ".png"))
    throw BadInput("--poster needs a file ending in .png, got '" + poster + "'");
#if defined(IMPULSE_PYTHON_DIR) && defined(IMPULSE_PYTHON_EXECUTABLE)
  std::string path = IMPULSE_PYTHON_DIR;
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += std::string(":") + old;
  setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> args = {IMPULSE_PYTHON_EXECUTABLE, "-m", "impulse.animate", scene, out};
  if (!poster.empty()) args.insert(args.end(), {"--poster", poster});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  throw BadInput(std::string("--animate: cannot start ") + IMPULSE_PYTHON_EXECUTABLE);
#else
  throw BadInput("--animate needs the Python module (configure with -DIMPULSE_PYTHON=ON)");
#endif
}

}  // namespace impulse::cli
