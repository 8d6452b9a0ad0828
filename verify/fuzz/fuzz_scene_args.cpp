// Fuzz target: the scene option parser (parse_scene_args and the SceneArgs accessors,
// lib/course/scenes.h). Input: the scene name on the first line, then one argument per line, as
// `impulse run NAME ARGS...` receives them; an unknown name picks a scene by the first byte.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "course/scenes.h"
#include "fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace impulse;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string name, line;
  std::getline(in, name);
  std::vector<std::string> args;
  while (std::getline(in, line)) args.push_back(line);
  const auto& all = course::scenes().scenes();
  const course::Scene* s = course::scenes().find(name);
  if (!s) s = &all[size ? data[0] % all.size() : 0];
  course::SceneArgs a;
  if (!fuzz::parsed_or_one_line_error([&] { a = course::parse_scene_args(*s, args); })) return 0;
  for (const course::SceneOption& o : s->options) {
    fuzz::parsed_or_one_line_error([&] { a.text(o.name); });
    fuzz::parsed_or_one_line_error([&] { a.number(o.name); });
    fuzz::parsed_or_one_line_error([&] { a.integer(o.name); });
    fuzz::parsed_or_one_line_error([&] { a.positive(o.name); });
  }
  return 0;
}
