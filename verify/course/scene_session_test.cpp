// Scenes stepped live (lib/course/scenes.h SceneSession, lib/course/api.h LiveScene): the page steps
// a session a slice at a time, `impulse run` steps the same session to its end; the rows must be the
// same whatever the slices. Substeps go through the engine's one frame loop (simulate_frame, E1 §7).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "course/api.h"

using namespace impulse::course;

namespace {

// Small runs of every stepped scene (a few dozen steps each).
const std::vector<std::pair<std::string, std::vector<std::string>>> kSmallRuns = {
    {"e3-box-drop", {"--duration", "0.1"}},
    {"e3-pyramid", {"--steps", "20"}},
    {"e3-platform", {"--steps", "15", "--weighting", "0"}},
    {"e3-pyramid", {"--steps", "20", "--solver", "semi_implicit"}},  // pipeline contacts, no readback (NaN)
    {"e3-platform", {"--steps", "15", "--solver", "padmm"}},         // pipeline contacts with readback
    {"e3-bounce", {"--h", "0.05"}},
    {"st-bounce", {"--steps", "12"}},
    {"st-rod", {"--T", "0.05", "--h", "0.005"}},
    {"e3-solver-compare", {"--T", "0.03"}},
};

std::string csv_of(const SceneTable& t) {
  std::ostringstream os;
  t.write_csv(os);
  return os.str();
}

// The CSV text of a table as the page rebuilds it from the JSON of live_scene_step_json.
std::string csv_from_rows(const nlohmann::json& columns, const std::vector<nlohmann::json>& rows) {
  std::ostringstream os;
  os.precision(17);
  for (std::size_t c = 0; c < columns.size(); ++c) os << (c ? "," : "") << columns[c].get<std::string>();
  os << '\n';
  for (const auto& r : rows) {
    for (std::size_t c = 0; c < r.size(); ++c) {
      if (c) os << ',';
      if (r[c].is_string()) os << r[c].get<std::string>();
      else if (!r[c].is_null()) os << r[c].get<double>();
    }
    os << '\n';
  }
  return os.str();
}

}  // namespace

RC_GTEST_PROP(E1_7_xpbd_loop_order, SessionInAnySlicesMakesTheRowsOfImpulseRun, ()) {
  const auto& [name, options] = *rc::gen::elementOf(kSmallRuns);
  const CheckedSceneRun whole = run_scene_checked(name, options, kDefaultMaxOutput);
  LiveScene live = open_live_scene(name, options);
  std::map<std::string, nlohmann::json> columns;
  std::map<std::string, std::vector<nlohmann::json>> rows;
  nlohmann::json last;
  int calls = 0;
  // A slice of 0 steps first (the page asks for the shapes before it steps), then slices of 1 to 7.
  last = live_scene_step_json(live, 0);
  for (auto& [file, t] : last["tables"].items()) {
    if (t.contains("columns")) columns[file] = t["columns"];
    for (auto& r : t["rows"]) rows[file].push_back(r);
  }
  while (!live.session->done()) {
    last = live_scene_step_json(live, *rc::gen::inRange(1, 8));
    for (auto& [file, t] : last["tables"].items()) {
      if (t.contains("columns")) columns[file] = t["columns"];
      for (auto& r : t["rows"]) rows[file].push_back(r);
    }
    RC_ASSERT(++calls < 100000);
  }
  RC_ASSERT(last["done"].get<bool>());
  RC_ASSERT(last["rc"].get<int>() == whole.rc);
  RC_ASSERT(last["log"].get<std::string>() == whole.log);
  RC_ASSERT(live.session->out.tables().size() == whole.out.tables().size());
  for (const SceneTable& t : whole.out.tables()) {
    RC_ASSERT(columns.count(t.file_name()) == 1u);
    // The tables as received by the page and as the command line writes them, CSV text for text.
    RC_ASSERT(csv_from_rows(columns[t.file_name()], rows[t.file_name()]) == csv_of(t));
  }
}

TEST(E1_7_substep, PyramidFrameOfTwoSubstepsIsTwoStepsOfHalfTheFrame) {
  // A frame H split into N = 2 substeps (simulate_frame) steps twice with H / 2: every row of the
  // substepped run is every second row of the run at H / 2 without substeps, bit for bit.
  const CheckedSceneRun sub = run_scene_checked("e3-pyramid", {"--h", "0.004", "--steps", "30", "--substeps", "2"},
                                                kDefaultMaxOutput);
  const CheckedSceneRun half = run_scene_checked("e3-pyramid", {"--h", "0.002", "--steps", "60"}, kDefaultMaxOutput);
  const SceneTable& a = sub.out.tables().front();
  const SceneTable& b = half.out.tables().front();
  ASSERT_EQ(a.rows(), 60u);  // two runs (weighting on, off) of 30 frames
  ASSERT_EQ(b.rows(), 120u);
  for (std::size_t c = 0; c < a.columns().size(); ++c)
    for (std::size_t run = 0; run < 2; ++run)
      for (std::size_t k = 0; k < 30; ++k)
        EXPECT_EQ(a.columns()[c].numbers[run * 30 + k], b.columns()[c].numbers[run * 60 + 2 * k + 1])
            << a.columns()[c].name << " run " << run << " frame " << k;
  // and the substeps are not a relabelling: the frame of one step of H differs
  const CheckedSceneRun one = run_scene_checked("e3-pyramid", {"--h", "0.004", "--steps", "30"}, kDefaultMaxOutput);
  EXPECT_NE(csv_of(one.out.tables().front()), csv_of(a));
}

TEST(CourseApi, LiveSceneRefusesAsImpulseRun) {
  // The domains and ceilings of `impulse run`: the same one-line messages.
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--substeps", "0"}, {"--steps", "900", "--substeps", "1000"}, {"--relaxation", "1.5"},
        {"--solver", "mujoco"}}) {
    std::string live_msg, run_msg;
    try {
      open_live_scene("e3-pyramid", bad);
    } catch (const std::invalid_argument& e) {
      live_msg = e.what();
    }
    try {
      run_scene_checked("e3-pyramid", bad, kDefaultMaxOutput);
    } catch (const std::invalid_argument& e) {
      run_msg = e.what();
    }
    EXPECT_FALSE(live_msg.empty());
    EXPECT_EQ(live_msg, run_msg);
  }
  // A scene computed whole is not stepped: the message names the stepped ones.
  try {
    open_live_scene("e3-readback", {});
    FAIL() << "e3-readback opened as a session";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("e3-pyramid"), std::string::npos) << e.what();
  }
}

TEST(E3_6_summary_table, PyramidStandsUnderEverySolverAndPadmmReadsItsStatics) {
  // The 3-2-1 pyramid of 1000 kg cubes (half extent 0.5 m) run 300 frames of 1/600 s by each
  // solver: the top cube stays at z = 5 half = 2.5 m (within 1 cm: penalty sink and settling).
  // PADMM (hard contact, E3 §6) reads back the statics: the ground carries 6 m g, the top cube 1 m g
  // (over the default 900 frames' last 0.1 s; its warm-started iteration is still 0.7 % short at 300).
  for (const char* solver : {"xpbd", "semi_implicit", "featherstone", "padmm", "vbd"}) {
    LiveScene live = open_live_scene("e3-pyramid", {"--steps", "300", "--solver", solver});
    live.session->step(300);  // the first run (weighting on), to its last frame
    const std::vector<SceneShape> shapes = live.session->shapes();
    ASSERT_FALSE(shapes.empty()) << solver;
    EXPECT_NEAR(shapes.back().X.p.z, 2.5, 0.01) << solver;
    EXPECT_NEAR(shapes.back().X.p.x, 0.0, 0.01) << solver;
  }
  const CheckedSceneRun padmm = run_scene_checked("e3-pyramid", {"--solver", "padmm"}, kDefaultMaxOutput);
  const SceneTable& t = padmm.out.tables().front();
  // Averaged over the last 0.1 s (60 frames): a frame's reading jitters by 1-2 % as the pyramid
  // rocks (with EPA's contacts as with the box-box axis test's), while over a window the readback
  // carries the weight (impulse-momentum: the pile's momentum hardly changes).
  const std::size_t rows = t.rows(), window = 60;
  double ground = 0, top = 0;
  for (std::size_t r = rows - window; r < rows; ++r) {
    ground += t.columns()[2].numbers[r] / double(window);  // ground_over_mg
    top += t.columns()[5].numbers[r] / double(window);     // top_over_mg
  }
  EXPECT_NEAR(ground, 6.0, 0.01);
  EXPECT_NEAR(top, 1.0, 0.01);
  // SemiImplicit has no per-contact readback (E3 §6 table): NaN, not a number made up.
  const CheckedSceneRun semi =
      run_scene_checked("e3-pyramid", {"--steps", "5", "--solver", "semi_implicit"}, kDefaultMaxOutput);
  EXPECT_TRUE(std::isnan(semi.out.tables().front().columns()[2].numbers[0]));
}
