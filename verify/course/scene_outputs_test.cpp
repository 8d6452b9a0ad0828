// Scene outputs (lib/course/scenes_*.cpp): long runs that must still pass their own checks, outputs
// that are reproducible byte for byte, and a scene that diverges on purpose saying so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "course/scenes.h"
#include "st/lcp.h"
#include "st/lcp_file.h"

using namespace impulse;

namespace {

struct SceneRun {
  int rc = -1;
  std::string log;
  std::filesystem::path dir;
};

SceneRun run_scene(const std::string& name, const std::vector<std::string>& args, const std::string& tag) {
  const course::Scene* s = course::scenes().find(name);
  if (!s) throw std::runtime_error("no scene " + name);
  SceneRun r;
  r.dir = std::filesystem::temp_directory_path() / ("impulse-outputs-" + name + "-" + tag);
  std::filesystem::remove_all(r.dir);
  std::ostringstream log;
  r.rc = course::run_scene_to_files(*s, course::parse_scene_args(*s, args), r.dir.string(), log);
  r.log = log.str();
  return r;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

// e1-robot steps its hinges at constant rate; the shoulder passes pi after 315 steps of 0.01 s, where
// the accumulated joint_q and eval_ik's angle in (-pi, pi] differ by 2 pi. Compared as angles, the
// read-back error stays at rounding level over 10^4 steps (100 s, the shoulder turns 16 times).
TEST(E1_5_eval_ik, SimRobotSceneTenThousandSteps) {
  const SceneRun r = run_scene("e1-robot", {"--steps", "10000"}, "10k");
  EXPECT_EQ(r.rc, 0) << r.log;
  std::ifstream csv(r.dir / "e1-robot.csv");
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line.substr(line.rfind(',') + 1), "ik_error");
  int rows = 0;
  double worst = 0;
  while (std::getline(csv, line)) {
    ++rows;
    worst = std::max(worst, std::stod(line.substr(line.rfind(',') + 1)));
  }
  EXPECT_EQ(rows, 10001);
  EXPECT_LT(worst, 1e-9);
  std::filesystem::remove_all(r.dir);
}

// Scene outputs carry no wall-clock values: two runs of st-balls write the same bytes (st-cone.csv
// had an LCP time column), and the LCP file it writes reads back to the problem it solved.
TEST(ST_3_alg_03_discretize_cone, DeterminismBallsOutputsByteIdentical) {
  const SceneRun a = run_scene("st-balls", {"--T", "0.5"}, "a"), b = run_scene("st-balls", {"--T", "0.5"}, "b");
  EXPECT_EQ(a.rc, 0) << a.log;
  for (const char* f : {"st-cone.csv", "st-balls.csv", "st-balls-table.csv", "st-balls-lcp.txt"}) {
    const std::string x = read(a.dir / f);
    EXPECT_FALSE(x.empty()) << f;
    EXPECT_EQ(x, read(b.dir / f)) << f;
  }
  EXPECT_EQ(read(a.dir / "st-cone.csv").find("second"), std::string::npos);
  std::ifstream lcp(a.dir / "st-balls-lcp.txt");
  const st::LcpProblem p = st::read_lcp(lcp, "st-balls-lcp.txt");
  EXPECT_EQ(p.q.size(), 70);  // 7 contacts x (8 directions + 2)
  EXPECT_EQ(st::solve_lcp(p.M, p.q).status, st::LcpStatus::solved);
  std::filesystem::remove_all(a.dir);
  std::filesystem::remove_all(b.dir);
}

// e3-penalty-stability steps above the bound h_crit on purpose; its CSV's first line and its
// summary line say so, and name the first non-finite step.
TEST(E3_6_symplectic_stability, PenaltyStabilitySceneSaysItDiverges) {
  const SceneRun r = run_scene("e3-penalty-stability", {}, "default");
  EXPECT_EQ(r.rc, 0) << r.log;
  std::ifstream csv(r.dir / "e3-penalty-stability.csv");
  std::string first;
  std::getline(csv, first);
  EXPECT_EQ(first.rfind("# e3-penalty-stability: ", 0), 0u) << first;
  EXPECT_NE(first.find("diverges on purpose"), std::string::npos) << first;
  EXPECT_NE(r.log.find("diverges on purpose"), std::string::npos) << r.log;
  // The unstable run is always above h_crit: --above is refused at or below 1 (its domain is (1, 1.5]).
  EXPECT_THROW(run_scene("e3-penalty-stability", {"--above", "0.95"}, "below"), std::invalid_argument);
  std::filesystem::remove_all(r.dir);
}

// write_lcp and read_lcp: 17 significant digits read back bit for bit.
TEST(ST_3_lemke_lexicographic, LcpFileRoundTripBitwise) {
  Eigen::MatrixXd M(2, 2);
  M << 1.0 / 3.0, -2e-300, 1e12, 0.1;  // entries within the reader's domain |x| <= 1e12
  Eigen::VectorXd q(2);
  q << -0.7, 2.5e-300;
  std::stringstream f;
  st::write_lcp(f, M, q, "two lines\nof comment");
  const st::LcpProblem p = st::read_lcp(f, "round-trip");
  EXPECT_EQ(p.M, M);
  EXPECT_EQ(p.q, q);
}
