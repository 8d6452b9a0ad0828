// Long runs that stay physical: 10^4 steps each of a resting box stack, the 3-2-1 pyramid and a
// jointed chain under every solver that takes them (course E3 §6 summary table: one scene, every
// solver). Each run checks, after every step, that every body pose and twist is finite and that the
// mechanical energy never rises above its start by more than a stated margin, and at the end that a
// resting scene has not drifted by more than a stated bound.
//
// Bounds, stated once (and why):
//   kRestDrift    2 mm: a resting stack or pyramid may settle into its penalty depth or XPBD slop
//                 (m g / ke per contact is under 0.1 mm here); walking, tipping or sinking through
//                 the floor moves a body by centimetres.
//   kEnergyGain   1e-3 of the scene's m g z scale for resting scenes: they can only lose energy
//                 (gravity is conservative, resting contacts do no net work); a solver that pumps
//                 energy in gains it step after step. The swinging chain states its own bound.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "e1/kinematics.h"
#include "e1/model.h"
#include "course/e3/solver_compare.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/solvers/vbd/vbd_rigid.h"
#include "course/e3/xpbd_demos.h"

using namespace impulse;

namespace {

// 10^4 steps; IMPULSE_SOAK_STEPS (1..10^4) shortens every run, as the sanitizer pass of ./run test
// does (the same checks on a shorter run: ASan makes a PADMM step tens of times slower).
int soak_steps() {
  const char* s = std::getenv("IMPULSE_SOAK_STEPS");
  if (s == nullptr) return 10000;
  const int n = std::atoi(s);
  if (n < 1 || n > 10000) throw std::invalid_argument("IMPULSE_SOAK_STEPS must be 1..10000");
  return n;
}
const int kSteps = soak_steps();
constexpr real kRestDrift = 0.002;   // [m]
constexpr real kEnergyGain = 1e-3;   // relative to sum m g z at the start

// Gravitational plus kinetic energy [J]; the bodies here have their COM at the body origin.
real mechanical_energy(const Model& m, const State& s) {
  const auto q = s.body_q.to_host();
  const auto qd = s.body_qd.to_host();
  const auto mass = m.body_mass.to_host();
  const auto inertia = m.body_inertia.to_host();
  real e = 0;
  for (std::size_t b = 0; b < q.size(); ++b) {
    const vec3 w_body = quat_rotate_inv(q[b].q, qd[b].ang);
    e += -mass[b] * dot(m.gravity, q[b].p) + real(0.5) * mass[b] * dot(qd[b].lin, qd[b].lin) +
         real(0.5) * dot(w_body, inertia[b] * w_body);
  }
  return e;
}

// sum m g z [J]: the energy scale of a scene.
real energy_scale(const Model& m, const State& s) {
  const auto q = s.body_q.to_host();
  const auto mass = m.body_mass.to_host();
  real e = 0;
  for (std::size_t b = 0; b < q.size(); ++b) e += mass[b] * length(m.gravity) * std::abs(q[b].p.z);
  return e;
}

bool finite_state(const State& s) {
  for (const transform& t : s.body_q.to_host())
    if (!std::isfinite(t.p.x + t.p.y + t.p.z + t.q.x + t.q.y + t.q.z + t.q.w)) return false;
  for (const spatial_vector& v : s.body_qd.to_host())
    if (!std::isfinite(v.lin.x + v.lin.y + v.lin.z + v.ang.x + v.ang.y + v.ang.z)) return false;
  return true;
}

struct SoakReport {
  int steps = 0;           // steps that ran with a finite state
  real energy_rise = 0;    // max over steps of E - E0, relative to the energy scale
  real drift = 0;          // max over bodies of |x_end - x_start| [m]
};

// Watches every step of a run: finiteness, the energy rise; the drift at the end.
class SoakWatch {
 public:
  SoakWatch(const Model& m, const State& start)
      : model_(m), e0_(mechanical_energy(m, start)), scale_(energy_scale(m, start)), x0_(start.body_q.to_host()) {}
  void on_step(const State& s) {
    if (report_.steps < 0) return;
    if (!finite_state(s)) {
      report_.steps = -report_.steps - 1;  // negative: failed after |steps| finite steps
      return;
    }
    ++report_.steps;
    report_.energy_rise = std::max(report_.energy_rise, (mechanical_energy(model_, s) - e0_) / scale_);
  }
  SoakReport finish(const State& end) {
    const auto x = end.body_q.to_host();
    for (std::size_t b = 0; b < x.size(); ++b) report_.drift = std::max(report_.drift, length(x[b].p - x0_[b].p));
    return report_;
  }

 private:
  const Model& model_;
  real e0_, scale_;
  std::vector<transform> x0_;
  SoakReport report_;
};

// 10^4 steps of a resting contact scene by one solver, contacts from the collision pipeline.
SoakReport soak_contacts(SolverKind k, Model& m, const PenaltyMaterial& mat, real h) {
  State s = m.state();
  SoakWatch watch(m, s);
  simulate_ground_scene(k, m, s, mat, h, kSteps, kSteps, [&](const State& st) { watch.on_step(st); },
                        GroundContactSource::pipeline);
  return watch.finish(s);
}

void expect_physical(const SoakReport& r, SolverKind k, bool resting) {
  EXPECT_EQ(r.steps, kSteps) << solver_kind_name(k) << ": non-finite state after step " << -r.steps;
  EXPECT_LT(r.energy_rise, kEnergyGain) << solver_kind_name(k);
  if (resting) EXPECT_LT(r.drift, kRestDrift) << solver_kind_name(k);
}

// Three 1 kg cubes (0.2 m) stacked on the ground, 10 s at h = 1 ms. ke = 2e4 N/m per contact point
// keeps the stiffest mode of the stack (three cubes on four corner springs each) inside the
// semi-implicit bound h omega < 2; kf = 100 N s/m keeps the explicit viscous friction stable at a
// cube's corner (h kf w_t < 2, w_t = 1/m + (r x t)^T I^-1 (r x t) = 2.5 1/kg). Sinking: m g / ke
// per contact point is under 0.4 mm at the bottom.
void soak_box_stack(SolverKind k) {
  const PenaltyMaterial mat{2e4, 100, 100, 0, 0.5};
  Model m = box_stack_model(3, 1, 0.1, Device::cpu, &mat);
  expect_physical(soak_contacts(k, m, mat, 1e-3), k, true);
}

// The 3-2-1 pyramid of demo_pyramid with 0.2 m cubes (8 kg each from the default density), 10 s at
// h = 1 ms; ke = 2e5 N/m per contact point (sinking under 0.3 mm at the bottom row).
void soak_pyramid(SolverKind k) {
  const PenaltyMaterial mat{2e5, 1e3, 100, 0, 0.5};
  ModelBuilder b = demo_pyramid(0.1);
  for (ShapeConfig& c : b.shape_config) {  // the pyramid's densities, the soak's material
    const ShapeConfig m = contact_shape_config(mat);
    c.ke = m.ke, c.kd = m.kd, c.kf = m.kf, c.ka = m.ka, c.mu = m.mu;
    c.mu_torsional = m.mu_torsional, c.mu_rolling = m.mu_rolling, c.restitution = m.restitution;
  }
  Model m = b.finalize();
  expect_physical(soak_contacts(k, m, mat, 1e-3), k, true);
}

// A three-link revolute chain (1 kg links, 0.3 m apart) released at 0.5 rad per joint, 10 s at
// h = 1 ms, with no contacts. The chain swings chaotically, so its energy is only bounded, not
// conserved: semi-implicit Euler's energy error is of order h omega E (omega = sqrt(g / l) = 5.7
// rad/s, about 0.6%); 3% is the stated bound. Each link must stay l from its joint within 5 mm
// (1.7% of l; maximal-coordinate solvers hold joints by iterations, not exactly).
void soak_chain(SolverKind k, real h = 1e-3, real vbd_rho = 0) {
  const real l = 0.3;
  Model m = pendulum_chain_model(3, 1, l, 0.05, 0.5);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  // vbd_rho > 0: a SolverVBD with that metric (10 iterations) instead of AnySolver's defaults.
  std::unique_ptr<AnySolver> any = vbd_rho > 0 ? nullptr : std::make_unique<AnySolver>(k, m);
  std::unique_ptr<SolverVBD> vbd = vbd_rho > 0 ? std::make_unique<SolverVBD>(m, 10, vbd_rho) : nullptr;
  auto step = [&](const State& a, State& b) {
    if (vbd) vbd->step(a, b, c, nullptr, h);
    else any->step(a, b, c, nullptr, h);
  };
  eval_fk(m, s0.joint_q.view(), s0.joint_qd.view(), s0);  // bodies where joint_q = q0 puts them
  SoakWatch watch(m, s0);
  real joint_error = 0;  // [m] max | |x_i - x_parent| - l |
  for (int i = 0; i < kSteps; ++i) {
    step(s0, s1);
    std::swap(s0, s1);
    watch.on_step(s0);
    const auto x = s0.body_q.to_host();
    for (std::size_t b = 0; b < x.size(); ++b) {
      const vec3 anchor = b == 0 ? vec3{0, 0, 0} : x[b - 1].p;
      joint_error = std::max(joint_error, std::abs(length(x[b].p - anchor) - l));
    }
  }
  const SoakReport r = watch.finish(s0);
  EXPECT_EQ(r.steps, kSteps) << solver_kind_name(k) << ": non-finite state after step " << -r.steps;
  EXPECT_LT(r.energy_rise, 0.03) << solver_kind_name(k);
  EXPECT_LT(joint_error, 0.005) << solver_kind_name(k);
}

}  // namespace

// One test per scene and solver, so that ctest runs them side by side and times each.
TEST(E3_6_summary_table, SoakBoxStackXpbd) { soak_box_stack(SolverKind::xpbd); }
TEST(E3_6_summary_table, SoakBoxStackSemiImplicit) { soak_box_stack(SolverKind::semi_implicit); }
TEST(E3_6_summary_table, SoakBoxStackFeatherstone) { soak_box_stack(SolverKind::featherstone); }
TEST(E3_6_summary_table, SoakBoxStackPadmm) { soak_box_stack(SolverKind::padmm); }
TEST(E3_6_summary_table, SoakBoxStackVbd) { soak_box_stack(SolverKind::vbd); }

TEST(E3_6_summary_table, SoakPyramidXpbd) { soak_pyramid(SolverKind::xpbd); }
TEST(E3_6_summary_table, SoakPyramidSemiImplicit) { soak_pyramid(SolverKind::semi_implicit); }
TEST(E3_6_summary_table, SoakPyramidFeatherstone) { soak_pyramid(SolverKind::featherstone); }
TEST(E3_6_summary_table, SoakPyramidPadmm) { soak_pyramid(SolverKind::padmm); }
TEST(E3_6_summary_table, SoakPyramidVbd) { soak_pyramid(SolverKind::vbd); }

// The chain under every solver that holds it, each at the settings it needs (stated below).
TEST(E3_6_summary_table, SoakJointedChainXpbd) { soak_chain(SolverKind::xpbd); }
TEST(E3_6_summary_table, SoakJointedChainFeatherstone) { soak_chain(SolverKind::featherstone); }
TEST(E3_6_summary_table, SoakJointedChainPadmm) { soak_chain(SolverKind::padmm); }
// SemiImplicit holds the chain with explicit joint springs (joint_attach_ke = 1e4 N m/rad on the
// angular error), so its step is bounded by h omega < 2 with omega = sqrt(ke / I): a link's
// I = 2/5 m r^2 = 1e-3 kg m^2 gives omega = 3.2e3 rad/s and h < 0.63 ms for one link alone, less
// for the coupled chain (h = 0.3 ms is non-finite after 1669 steps). At h = 0.1 ms (h omega = 0.32)
// it holds the chain for 10^4 steps (1 s).
TEST(E3_6_summary_table, SoakJointedChainSemiImplicit) { soak_chain(SolverKind::semi_implicit, 1e-4); }
// VBD holds the chain's hard joint rows (k = inf, so k_eff = rho) by dual ascent on the multiplier,
// once per sweep, at its defaults (10 iterations, rho = 1e5 N/m). Each joint row's metric is at
// least the row's inertial support m_red / h^2 (joint_row_metric): 1e6 and 5e5 N/m here. With the
// one fixed rho = 1e5 N/m for every row instead (impulse before this test), the multiplier
// oscillated with a growing amplitude from the first steps and the state was non-finite after
// about 2,500 steps at h = 1 ms (positions near 1e60 m in the parity case vbd-sphere-chain).
TEST(E3_6_summary_table, SoakJointedChainVbd) { soak_chain(SolverKind::vbd); }
