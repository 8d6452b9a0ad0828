// E3 §6 scenes: the stability bound of the penalty spring on both sides (`e3-penalty-stability`),
// one sliding box stepped by every solver built here (`e3-solver-compare`), and the falling-sphere
// benchmark behind `impulse bench e3-spheres --solver semi_implicit|featherstone|padmm|vbd`
// (bench_solver_spheres; the scene itself and its XPBD branch live in scenes_e3_solver.cpp).
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "course/scenes.h"
#include "e1/kinematics.h"
#include "course/e3/penalty_contact_fixture.h"
#include "e3/solvers/shared/penalty_contact.h"
#include "course/e3/solver_compare.h"
#include "course/e3/solver_fixture_scenes.h"
#include "e3/solvers/penalty/solver_semi_implicit.h"

namespace impulse::course {

namespace {

// A sphere (mass m, no damping) resting on a ke spring, stepped by SolverSemiImplicit at
// h = ratio * h_crit below and above the bound h_crit = 2 sqrt(m / ke); the height offset from
// equilibrium is written for both, next to the 1-DOF spring of E3.6-symplectic-stability.
int run_stability(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real ke = a.positive("ke"), mass = a.positive("mass");
  const real below = a.positive("below"), above = a.positive("above");
  const long long steps = a.integer("steps");
  if (steps <= 0) throw std::invalid_argument("option --steps must be positive, got " + a.text("steps"));
  const real hc = semi_implicit_critical_step(ke, mass), r = 0.1, z_eq = r - mass * 9.81 / ke, x0 = 1e-4;
  auto run = [&](real ratio) {
    real h = ratio * hc;
    Model m = ground_sphere_model(mass, r, {0, 0, z_eq + x0});
    State s0 = m.state(), s1 = m.state();
    Control c = m.control();
    GroundContactFixture fx(m.device, 4, 1.0, PenaltyMaterial{ke, 0, 0, 0, 0});
    SolverSemiImplicit solver(m, 0);
    std::vector<real> dz{x0};
    for (long long i = 0; i < steps; ++i) {
      fx.generate(m, s0);
      ContactsView v = fx.view();
      solver.step(s0, s1, c, &v, h);
      std::swap(s0, s1);
      dz.push_back(s0.body_q.to_host()[0].p.z - z_eq);
    }
    return dz;
  };
  auto spring = [&](real ratio) {
    std::vector<real> xs{x0};
    real x = x0, v = 0;
    for (long long i = 0; i < steps; ++i) {
      semi_implicit_spring_step(x, v, ke, mass, ratio * hc);
      xs.push_back(x);
    }
    return xs;
  };
  auto lo = run(below), hi = run(above), slo = spring(below), shi = spring(above);
  // The run above h_crit diverges on purpose (E3.6-symplectic-stability): say so where a reader of
  // the CSV or of the summary meets its Inf/NaN, and say from which step.
  long long first_bad = -1;
  for (long long i = 0; i <= steps && first_bad < 0; ++i)
    if (!std::isfinite(hi[i]) || !std::isfinite(shi[i])) first_bad = i;
  // --above is in (1, 1.5] (its domain), so this run is always the unstable one.
  std::ostringstream note;
  note << "the run at " << above << " h_crit diverges on purpose (h > h_crit = 2 sqrt(m/ke)): ";
  if (first_bad < 0)
    note << "it grows without bound";
  else
    note << "non-finite from step " << first_bad;
  const std::string diverges = note.str();
  SceneTable& csv = out.table("e3-penalty-stability.csv");
  csv.note("e3-penalty-stability: " + diverges);
  csv << "step,dz_below_m,dz_above_m,x_spring_below_m,x_spring_above_m\n";
  for (long long i = 0; i <= steps; ++i) csv << i << ',' << lo[i] << ',' << hi[i] << ',' << slo[i] << ',' << shi[i] << '\n';
  real mlo = 0, mhi = 0;
  for (real z : lo) mlo = std::max(mlo, std::abs(z));
  for (real z : hi) mhi = std::max(mhi, std::abs(z));
  log << "e3-penalty-stability: h_crit = " << hc << " s; max |dz| = " << mlo << " m at " << below << " h_crit, " << mhi
      << " m at " << above << " h_crit; " << diverges << "; wrote e3-penalty-stability.csv\n";
  return 0;
}

// A 1 kg, 0.2 m box launched at v0 along x on the ground (mu), stepped by each solver on contacts
// from the collision pipeline (collide before every step).
int run_compare(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real v0 = a.number("v0"), mu = a.number("mu"), h = a.positive("h"), T = a.positive("T");
  if (!(mu >= 0)) throw std::invalid_argument("option --mu must be >= 0, got " + a.text("mu"));
  const int steps = int(T / h), every = std::max(1, steps / 400);
  const SolverKind kinds[] = {SolverKind::xpbd, SolverKind::semi_implicit, SolverKind::featherstone, SolverKind::padmm,
                              SolverKind::vbd};
  std::vector<std::vector<GroundSample>> runs;
  for (SolverKind k : kinds) {
    // Start at the penalty equilibrium depth m g / (4 ke), so no solver gets an initial kick.
    const PenaltyMaterial material{1e5, 300, 100, 0, mu};
    Model m = ground_box_model(1, {0.1, 0.1, 0.1}, {0, 0, 0.1 - 9.81 / 4e5}, Device::cpu, &material);
    State s = m.state();
    auto qd = s.body_qd.to_host();
    qd[0].lin = {v0, 0, 0};
    s.body_qd.copy_from_host(qd.data());
    eval_ik(m, s, s.joint_q.view(), s.joint_qd.view());
    runs.push_back(simulate_ground_scene(k, m, s, material, h, steps, every, {},
                                         GroundContactSource::pipeline));
  }
  SceneTable& csv = out.table("e3-solver-compare.csv");
  csv << "t_s";
  for (SolverKind k : kinds) csv << ",x_" << solver_kind_name(k) << "_m,vx_" << solver_kind_name(k) << "_mps";
  csv << ",x_coulomb_m\n";
  const real g = 9.81, t_stop = mu > 0 ? v0 / (mu * g) : 1e30;
  for (std::size_t i = 0; i < runs[0].size(); ++i) {
    real t = runs[0][i].t;
    csv << t;
    for (const auto& r : runs) csv << ',' << r[i].x.x << ',' << r[i].v.x;
    real tc = std::min(t, t_stop);
    csv << ',' << v0 * tc - 0.5 * mu * g * tc * tc << '\n';
  }
  log << "e3-solver-compare: final x [m]:";
  for (std::size_t k = 0; k < runs.size(); ++k) log << ' ' << solver_kind_name(kinds[k]) << '=' << runs[k].back().x.x;
  log << "; wrote e3-solver-compare.csv\n";
  return 0;
}

}  // namespace

std::vector<Metric> bench_solver_spheres(const SceneArgs& a) {
  const SolverKind kind = parse_solver_kind(a.text("solver"));
  const long long n = a.integer("n"), steps = a.integer("steps");
  if (n <= 0) throw std::invalid_argument("option --n must be positive, got " + a.text("n"));
  if (steps <= 0) throw std::invalid_argument("option --steps must be positive, got " + a.text("steps"));
  const real h = a.positive("h");
  Model m = sphere_grid_model(int(n), 1, 0.05, 0.06);
  State s0 = m.state(), s1 = m.state();
  Control c = m.control();
  AnySolver solver(kind, m);
  GroundContactFixture fx(m.device, int(8 * n + n * n), 0.01, PenaltyMaterial{1e5, 300, 100, 0, 0.5});
  // Only the solver is timed: the fixture's records are a host-side test generator, not a pipeline.
  double secs = 0, contacts = 0;
  for (long long i = 0; i < steps; ++i) {
    fx.generate(m, s0);
    contacts += fx.count();
    ContactsView v = fx.view();
    auto t0 = std::chrono::steady_clock::now();
    solver.step(s0, s1, c, &v, h);
    secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::swap(s0, s1);
  }
  return {{"bodies", double(n), "-"},
          {"steps", double(steps), "-"},
          {"contacts_per_step", contacts / double(steps), "-"},
          {"seconds_per_step", secs / double(steps), "s"},
          {"body_substeps_per_second", double(n) * double(steps) / secs, "1/s"}};
}

void register_e3_other_solver_scenes(SceneCatalogue& c) {
  c.add({"e3-penalty-stability", "E3",
         "SolverSemiImplicit on a penalty spring below and above h sqrt(k/m) = 2 (E3.6-symplectic-stability)",
         {{"ke", "N/m", "10000", "contact stiffness"},
          {"mass", "kg", "1", "sphere mass"},
          {"below", "-", "0.9", "h / h_crit of the stable run"},
          {"above", "-", "1.05", "h / h_crit of the unstable run"},
          {"steps", "-", "400", "steps per run"}},
         run_stability, nullptr});
  c.add({"e3-solver-compare", "E3",
         "one box sliding to rest on pipeline contacts, stepped by every rigid solver built here (no ranking)",
         {{"v0", "m/s", "1", "initial speed along x"},
          {"mu", "-", "0.5", "friction coefficient"},
          {"h", "s", "0.001", "step"},
          {"T", "s", "0.6", "duration"}},
         run_compare, nullptr});
}

}  // namespace impulse::course
