// Tests of lib/e1/time_loop.h, State::assign / clear_forces and the reset levels (course E1 §7, §8).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "course/scenes.h"

#include "e1/integrator.h"
#include "e1/kinematics.h"
#include "e1/model.h"
#include "e1/solver_joint.h"
#include "e1/time_loop.h"
#include "support/generators.h"
#include "support/golden.h"
#include "support/tolerance.h"

using namespace impulse;

namespace {

const transform kI = transform_identity();

Model course_box_model(vec3 g = {0, 0, -9.81}) {
  ModelBuilder b(Axis::z, g);
  int body = b.add_body({vec3{0, 0, 1}, quat_identity()});
  b.add_shape_box(body, {vec3{0.1, 0, 0}, quat_identity()}, 0.10, 0.05, 0.025);
  return b.finalize();
}

template <class T>
bool bits_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0);
}

bool states_equal(const State& a, const State& b) {
  return bits_equal(a.body_q.to_host(), b.body_q.to_host()) && bits_equal(a.body_qd.to_host(), b.body_qd.to_host()) &&
         bits_equal(a.body_f.to_host(), b.body_f.to_host()) && bits_equal(a.joint_q.to_host(), b.joint_q.to_host()) &&
         bits_equal(a.joint_qd.to_host(), b.joint_qd.to_host());
}

auto no_forces = [](State&, real) {};
auto no_control = [](Control&, real) {};

// A solver with inner iterations, as XPBD has: every iteration recomputes the step's output from
// state_in; without constraints each iteration reaches the same result, and none of them is time.
struct IteratingSolver {
  SolverRigidPredictor predictor;
  int iterations;
  void step(const State& in, State& out, const Control& c, real h) {
    for (int i = 0; i < iterations; ++i) predictor.step(in, out, c, h);
  }
};

}  // namespace

// --- E1.7-substep / E1.7-substep-example / E1.7-caller-time -------------------------------------------

TEST(E1_7_substep, GoldenCourseFramesAndSubsteps) { golden::expect_course_values("E1.7-substep"); }

RC_GTEST_PROP(E1_7_substep, NSubstepsAdvanceOneFrameAndFreeFallGivesGH, ()) {
  real H = *gen::in_range(0.001, 0.1);
  int N = *rc::gen::inRange(1, 9);
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  State a = m.state(), b = m.state();
  State *s0 = &a, *s1 = &b;
  Control c = m.control();
  real t = 0;
  simulate_frame(solver, s0, s1, c, {H, N, ControlHold::per_frame}, t, no_forces, no_control);
  RC_ASSERT(std::abs(t - H) <= 1e-14);
  RC_ASSERT(std::abs(s0->body_qd.to_host()[0].lin.z - (-9.81 * H)) <= 1e-12);
}

TEST(E1_7_substep_example, GoldenSixtyHertzFrameInFourSubstepsAndControlRates) {
  golden::expect_course_values("E1.7-substep-example");
  EXPECT_DOUBLE_EQ(substep_dt(1.0 / 60, 4), 1.0 / 240);
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  for (ControlHold hold : {ControlHold::per_frame, ControlHold::per_substep}) {
    State a = m.state(), b = m.state();
    State *s0 = &a, *s1 = &b;
    real t = 0;
    LoopTrace trace;
    simulate_frame(solver, s0, s1, c, {1.0 / 60, 4, hold}, t, no_forces, no_control, &trace);
    EXPECT_EQ(trace.steps, 4);
    EXPECT_EQ(trace.control_updates, hold == ControlHold::per_frame ? 1 : 4);  // 60 Hz hold vs 240 Hz
  }
}

TEST(E1_7_caller_time, OnlyTheCallerAdvancesTimeInSeconds) {
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  State a = m.state(), b = m.state();
  State *s0 = &a, *s1 = &b;
  Control c = m.control();
  real t = 0;
  for (int f = 0; f < 3; ++f) simulate_frame(solver, s0, s1, c, {0.02, 5, ControlHold::per_frame}, t, no_forces, no_control);
  EXPECT_NEAR(t, 0.06, 1e-15);
  EXPECT_THROW(substep_dt(0, 4), std::invalid_argument);
  EXPECT_THROW(substep_dt(0.02, 0), std::invalid_argument);
}

// --- E1.7-iterations-not-time ------------------------------------------------------------------------

TEST(E1_7_iterations_not_time, IterationsChangeNeitherTheStateNorTheClock) {
  Model m = course_box_model();
  State out[2] = {m.state(), m.state()};
  real clock[2];
  for (int k = 0; k < 2; ++k) {
    IteratingSolver solver{SolverRigidPredictor(m), k == 0 ? 1 : 10};
    State a = m.state(), b = m.state();
    State *s0 = &a, *s1 = &b;
    Control c = m.control();
    real t = 0;
    simulate_frame(solver, s0, s1, c, {0.02, 5, ControlHold::per_frame}, t, no_forces, no_control);
    out[k].assign(*s0);
    clock[k] = t;
  }
  EXPECT_TRUE(states_equal(out[0], out[1]));
  EXPECT_EQ(clock[0], clock[1]);
}

// --- E1.7-xpbd-loop-order / E1.7-clear-forces / E1.7-reapply-forces ------------------------------------

TEST(E1_7_xpbd_loop_order, EachSubstepClearsWritesStepsSwapsThenAdvancesTime) {
  Model m = course_box_model({0, 0, 0});
  SolverRigidPredictor solver(m);
  State a = m.state(), b = m.state();
  State *s0 = &a, *s1 = &b;
  Control c = m.control();
  real t = 0;
  LoopTrace trace;
  auto push = [](State& s, real) {
    std::vector<spatial_vector> f{{{1, 0, 0}, {}}};
    s.body_f.copy_from_host(f.data());
  };
  simulate_frame(solver, s0, s1, c, {0.02, 2, ControlHold::per_frame}, t, push, no_control, &trace);
  std::vector<std::string> one{"clear_forces", "apply_forces", "step", "swap", "advance_time"};
  ASSERT_EQ(trace.events.size(), 1 + 2 * one.size());
  EXPECT_EQ(trace.events[0], "update_control");
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(trace.events[1 + i], one[i]);
    EXPECT_EQ(trace.events[1 + one.size() + i], one[i]);
  }
  EXPECT_NEAR(s0->body_qd.to_host()[0].lin.x, 0.02 * 1 / 1.0, 1e-15);  // the written force was seen by step
}

TEST(E1_7_clear_forces, ClearsOnlyTheBodyForceBuffer) {
  Model m = course_box_model();
  State s = m.state();
  Control c = m.control();
  std::vector<spatial_vector> f{{{1, 2, 3}, {4, 5, 6}}}, v{{{7, 8, 9}, {1, 1, 1}}};
  s.body_f.copy_from_host(f.data());
  s.body_qd.copy_from_host(v.data());
  c.joint_f[0] = 3;
  c.joint_target_pos[0] = 4;
  std::vector<transform> q = s.body_q.to_host();
  std::vector<real> jq = s.joint_q.to_host();
  s.clear_forces();
  EXPECT_TRUE(bits_equal(s.body_f.to_host(), std::vector<spatial_vector>(1)));
  EXPECT_TRUE(bits_equal(s.body_qd.to_host(), v));
  EXPECT_TRUE(bits_equal(s.body_q.to_host(), q));
  EXPECT_TRUE(bits_equal(s.joint_q.to_host(), jq));
  EXPECT_EQ(c.joint_f[0], 3);
  EXPECT_EQ(c.joint_target_pos[0], 4);
}

TEST(E1_7_reapply_forces, WriteThenClearLosesTheForceClearThenWriteKeepsIt) {
  Model m = course_box_model({0, 0, 0});
  SolverRigidPredictor solver(m);
  Control c = m.control();
  const std::vector<spatial_vector> f{{{2, 0, 0}, {}}};
  for (bool right : {false, true}) {
    State a = m.state(), b = m.state();
    State *s0 = &a, *s1 = &b;
    for (int i = 0; i < 3; ++i) {
      if (right) s0->clear_forces();
      s0->body_f.copy_from_host(f.data());
      if (!right) s0->clear_forces();
      solver.step(*s0, *s1, c, 0.01);
      std::swap(s0, s1);
    }
    EXPECT_NEAR(s0->body_qd.to_host()[0].lin.x, right ? 3 * 0.01 * 2 / 1.0 : 0, 1e-15);
  }
}

// --- E1.7-double-buffer-alias / E1.7-state-assign ------------------------------------------------------

TEST(E1_7_double_buffer_alias, AnAliasFollowsTheBufferAClonedSnapshotDoesNot) {
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  State a = m.state(), b = m.state();
  State *s0 = &a, *s1 = &b;
  View<transform> old_pose = s0->body_q.view();  // "old_pose = state_0.body_q": a reference
  Buffer<transform> saved = s0->body_q;          // "wp.clone(state_0.body_q)": a copy
  const real z0 = saved.to_host()[0].p.z;
  for (int i = 0; i < 2; ++i) {
    solver.step(*s0, *s1, c, 0.01);
    std::swap(s0, s1);
  }
  EXPECT_EQ(old_pose.data, s0->body_q.data());  // two swaps: the alias is the newest output again
  EXPECT_LT(old_pose[0].p.z, z0);
  EXPECT_EQ(saved.to_host()[0].p.z, z0);
}

TEST(E1_7_state_assign, AssignCopiesEveryArrayAndChecksTheLayout) {
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  solver.step(s0, s1, c, 0.01);
  State snapshot = m.state();
  snapshot.assign(s1);
  EXPECT_TRUE(states_equal(snapshot, s1));
  EXPECT_NE(snapshot.body_q.data(), s1.body_q.data());
  solver.step(s1, s0, c, 0.01);
  solver.step(s0, s1, c, 0.01);
  EXPECT_FALSE(states_equal(snapshot, s1));
  ModelBuilder other;
  other.add_body(kI, {1, {}, mat33_identity()});
  other.add_body(kI, {1, {}, mat33_identity()});
  State wrong = other.finalize().state();
  try {
    snapshot.assign(wrong);
    FAIL() << "a State of another layout was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("body_q"), std::string::npos) << e.what();
  }
}

// --- E1.8-base-reset / E1.8-mujoco-reset / E1.8-body-q-prev-deprecated / E1.8-reset-levels-table ------

TEST(E1_8_base_reset, BaseResetChangesNoStateArray) {
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  solver.step(s0, s1, c, 0.01);
  State before = m.state();
  before.assign(s1);
  solver.reset(s1);
  EXPECT_TRUE(states_equal(before, s1));
}

TEST(E1_8_mujoco_reset, GeneralisedResetOverwritesARestoredSnapshotOfTheSelectedJoints) {
  ModelBuilder b;
  int base = b.add_link(kI, {1, {}, mat33_diag({0.1, 0.1, 0.1})});
  int arm = b.add_link(kI, {1, {0.5, 0, 0}, mat33_diag({0.01, 0.1, 0.1})});
  int j0 = b.add_joint_revolute(-1, base, kI, kI, {0, 0, 1});
  int j1 = b.add_joint_revolute(base, arm, {vec3{1, 0, 0}, quat_identity()}, kI, {0, 1, 0});
  b.add_articulation({j0, j1});
  Model m = b.finalize();
  SolverJointIntegrator solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  std::vector<real> qd{1, -2};
  s0.joint_qd.copy_from_host(qd.data());
  for (int i = 0; i < 5; ++i) {
    solver.step(s0, s1, c, 0.01);
    std::swap(s0, s1);
  }
  State snapshot = m.state();
  snapshot.assign(s0);  // a mid-run snapshot, joint_q != model.joint_q
  s1.assign(snapshot);  // "restore" it ...
  solver.reset(s1, {0, 1});  // ... then reset joint 1 unconditionally
  std::vector<real> q = s1.joint_q.to_host(), q_snap = snapshot.joint_q.to_host();
  EXPECT_EQ(q[0], q_snap[0]);                // unselected joint keeps the snapshot
  EXPECT_EQ(q[1], m.joint_q.to_host()[1]);   // selected joint is back at the model's initial value
  EXPECT_NE(q_snap[1], m.joint_q.to_host()[1]);
}

TEST(E1_5_generalized_solvers, OverwritingOnlyBodyPosesDoesNotResetAGeneralisedSolver) {
  ModelBuilder b;
  int base = b.add_link(kI, {1, {}, mat33_diag({0.1, 0.1, 0.1})});
  b.add_articulation({b.add_joint_revolute(-1, base, kI, kI, {0, 0, 1})});
  Model m = b.finalize();
  SolverJointIntegrator solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  std::vector<real> q{1.0}, qd{0.5};
  s0.joint_q.copy_from_host(q.data());
  s0.joint_qd.copy_from_host(qd.data());
  s0.body_q.copy_from_host(m.body_q.to_host().data());  // "reset" only the body pose
  solver.step(s0, s1, c, 0.1);
  quat r = s1.body_q.to_host()[0].q;
  EXPECT_NEAR(2 * std::atan2(r.z, r.w), 1.05, 1e-12);  // follows joint_q, not the overwritten body_q
}

template <class S>
concept HasBodyQPrev = requires(S s) { s.body_q_prev; };

TEST(E1_8_body_q_prev_deprecated, StateHasNoPreviousPoseField) {
  static_assert(!HasBodyQPrev<State>, "history is cloned explicitly by the caller");
  SUCCEED();
}

TEST(E1_8_reset_levels_table, ReplayRestoreAndReinitialiseAreDifferentLevels) {
  Model m = course_box_model();
  SolverRigidPredictor solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  solver.step(s0, s1, c, 0.01);
  // Row 1, geometry replay: poses and a time tag only; velocities are not in it.
  Buffer<transform> pose_record = s1.body_q;
  const real t_record = 0.01;
  EXPECT_EQ(pose_record.size(), m.body_count);
  EXPECT_GT(t_record, 0);
  // Row 2, public State restore: all arrays of the same layout.
  State restored = m.state();
  restored.assign(s1);
  EXPECT_TRUE(states_equal(restored, s1));
  // Row 3, back to initial conditions: a new model.state(), a new Control and the clock at 0.
  State fresh = m.state();
  EXPECT_TRUE(bits_equal(fresh.body_q.to_host(), m.body_q.to_host()));
  EXPECT_FALSE(states_equal(fresh, s1));
}

TEST(E1_8_minimal_example, SimColdResetRestoresBothBuffersAndReproducesTheFirstFrame) {
  Model m = course_box_model();
  std::vector<spatial_vector> spin{{{0, 0, 0}, {1, 2, 3}}};
  State a = m.state(), b = m.state();
  a.body_qd.copy_from_host(spin.data());
  b.body_qd.copy_from_host(spin.data());
  State initial = m.state();
  initial.assign(a);
  auto run_frame = [&](State& x, State& y) {
    SolverRigidPredictor solver(m, 0);
    Control c = m.control();
    State *s0 = &x, *s1 = &y;
    real t = 0;
    simulate_frame(solver, s0, s1, c, {1.0 / 60, 4, ControlHold::per_frame}, t, no_forces, no_control);
    State out = m.state();
    out.assign(*s0);
    return std::make_pair(std::move(out), t);
  };
  auto [first, t1] = run_frame(a, b);
  // Cold reset: both buffers back to t = 0, a new Control and solver, the clock at zero.
  a.assign(initial);
  b.assign(initial);
  EXPECT_TRUE(states_equal(a, initial));
  EXPECT_TRUE(states_equal(b, initial));
  auto [second, t2] = run_frame(a, b);
  EXPECT_TRUE(states_equal(first, second));
  EXPECT_EQ(t1, t2);
}

namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) out.push_back(cell);
  return out;
}

}  // namespace

// Regression golden: the scene's last row after one frame, produced by the command written in the
// golden file's header. A change here is either a bug or a deliberate change that regenerates it.
TEST(E1_8_minimal_example, RegressionOneFrameOfTheScene) {
  using namespace impulse::course;
  const Scene* scene = scenes().find("e1-free-body");
  ASSERT_NE(scene, nullptr);
  const std::string dir = (std::filesystem::temp_directory_path() / "impulse-e1-regression").string();
  std::ostringstream log;
  ASSERT_EQ(run_scene_to_files(*scene, parse_scene_args(*scene, {"--frames", "1"}), dir, log), 0) << log.str();
  std::ifstream got_file(dir + "/e1-free-body.csv");
  std::string line, header, last;
  std::getline(got_file, header);
  while (std::getline(got_file, line)) last = line;
  std::stringstream want_text(golden::read_regression("e1-free-body-one-frame.csv"));
  std::string want_header, want_row;
  while (std::getline(want_text, line))
    if (!line.empty() && line[0] != '#') (want_header.empty() ? want_header : want_row) = line;
  ASSERT_EQ(header, want_header);
  std::vector<std::string> got = split_csv(last), want = split_csv(want_row), names = split_csv(header);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (names[k] == "buffer") {
      EXPECT_EQ(got[k], want[k]);
      continue;
    }
    double g = std::stod(got[k]), w = std::stod(want[k]);
    EXPECT_NEAR(g, w, 1e-12 * (1 + std::abs(w))) << names[k];
  }
  std::filesystem::remove_all(dir);
}
