// The E3 §4-§8 scenes: each CPU run is bitwise identical with one and with two OpenMP threads.
#include <gtest/gtest.h>
#include <omp.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "course/scenes.h"

using namespace impulse;

namespace {

std::string run_scene(const std::string& name, const std::vector<std::string>& args, int threads) {
  const course::Scene* s = course::scenes().find(name);
  if (!s) throw std::runtime_error("no scene " + name);
  auto dir = std::filesystem::temp_directory_path() / ("impulse-" + name + "-" + std::to_string(threads) + "-" +
                                                       std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::remove_all(dir);
  int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  std::ostringstream log;
  int rc = course::run_scene_to_files(*s, course::parse_scene_args(*s, args), dir.string(), log);
  omp_set_num_threads(saved);
  EXPECT_EQ(rc, 0) << name;
  std::string all;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream f(e.path(), std::ios::binary);
    all += std::string(std::istreambuf_iterator<char>(f), {});
  }
  std::filesystem::remove_all(dir);
  return all;
}

}  // namespace

TEST(E3_7_determinism, DeterminismScenesOneAndTwoThreadsBitwise) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"e3-readback", {"--duration", "0.1"}},
      {"e3-pyramid", {"--steps", "120"}},
      {"e3-momentum", {}},
      {"e3-bounce", {"--h", "0.005"}},
      {"e3-spheres", {"--n", "200", "--steps", "10"}}};
  for (const auto& [name, args] : runs) {
    std::string one = run_scene(name, args, 1), two = run_scene(name, args, 2);
    EXPECT_FALSE(one.empty()) << name;
    EXPECT_EQ(one, two) << name;
  }
}
