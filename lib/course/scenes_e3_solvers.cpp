// E3 §6 scenes: the stability bound of the penalty spring on both sides (`e3-penalty-stability`),
// one sliding box stepped by every solver built here (`e3-solver-compare`), and the falling-sphere
// benchmark behind `impulse bench e3-spheres --solver semi_implicit|featherstone|padmm|vbd`
// (bench_solver_spheres; the scene itself and its XPBD branch live in scenes_e3_solver.cpp).
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
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
// from the collision pipeline (collide before every step). The five run side by side: one step of
// the session is `every` steps of each solver, one row.
class Compare : public SceneSession {
 public:
  Compare(real v0, real mu, real h, int steps, int every)
      : SceneSession(steps / every), v0_(v0), mu_(mu), h_(h), every_(every) {
    for (SolverKind k : kKinds) {
      // Start at the penalty equilibrium depth m g / (4 ke), so no solver gets an initial kick.
      const PenaltyMaterial material{1e5, 300, 100, 0, mu};
      auto m = std::make_unique<Model>(ground_box_model(1, {0.1, 0.1, 0.1}, {0, 0, 0.1 - 9.81 / 4e5}, Device::cpu,
                                                        &material));
      auto st = std::make_unique<State>(m->state());
      auto qd = st->body_qd.to_host();
      qd[0].lin = {v0, 0, 0};
      st->body_qd.copy_from_host(qd.data());
      eval_ik(*m, *st, st->joint_q.view(), st->joint_qd.view());
      steppers_.push_back(std::make_unique<GroundSceneStepper>(k, *m, *st, material, GroundContactSource::pipeline));
      models_.push_back(std::move(m));
      states_.push_back(std::move(st));
    }
    SceneTable& csv = out.table("e3-solver-compare.csv");
    csv << "t_s";
    for (SolverKind k : kKinds) csv << ",x_" << solver_kind_name(k) << "_m,vx_" << solver_kind_name(k) << "_mps";
    csv << ",x_coulomb_m\n";
    row(0);
  }

 private:
  static constexpr SolverKind kKinds[] = {SolverKind::xpbd, SolverKind::semi_implicit, SolverKind::featherstone,
                                          SolverKind::padmm, SolverKind::vbd};
  void row(long long i) {
    const real t = real(i) * h_;
    SceneTable& csv = out.tables().front();
    csv << t;
    last_.clear();
    for (const auto& s : steppers_) {
      const GroundSample g = s->sample(t);
      csv << ',' << g.x.x << ',' << g.v.x;
      last_.push_back(g.x.x);
    }
    const real g = 9.81, t_stop = mu_ > 0 ? v0_ / (mu_ * g) : 1e30, tc = std::min(t, t_stop);
    csv << ',' << v0_ * tc - 0.5 * mu_ * g * tc * tc << '\n';
  }
  void advance(long long k) override {
    for (const auto& s : steppers_)
      for (int j = 0; j < every_; ++j) s->step(h_);
    row((k + 1) * every_);
  }
  int finish() override {
    log << "e3-solver-compare: final x [m]:";
    for (std::size_t k = 0; k < last_.size(); ++k) log << ' ' << solver_kind_name(kKinds[k]) << '=' << last_[k];
    log << "; wrote e3-solver-compare.csv\n";
    return 0;
  }
  const real v0_, mu_, h_;
  const int every_;
  std::vector<std::unique_ptr<Model>> models_;
  std::vector<std::unique_ptr<State>> states_;
  std::vector<std::unique_ptr<GroundSceneStepper>> steppers_;
  std::vector<real> last_;
};

std::unique_ptr<SceneSession> open_compare(const SceneArgs& a) {
  const real v0 = a.number("v0"), mu = a.number("mu"), h = a.positive("h"), T = a.positive("T");
  if (!(mu >= 0)) throw std::invalid_argument("option --mu must be >= 0, got " + a.text("mu"));
  const int steps = int(T / h), every = std::max(1, steps / 400);
  return std::make_unique<Compare>(v0, mu, h, steps, every);
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
  c.add(stepped_scene("e3-solver-compare", "E3",
         "one box sliding to rest on pipeline contacts, stepped by every rigid solver built here (no ranking)",
         {{"v0", "m/s", "1", "initial speed along x"},
          {"mu", "-", "0.5", "friction coefficient"},
          {"h", "s", "0.001", "step"},
          {"T", "s", "0.6", "duration"}},
         open_compare));
}

}  // namespace impulse::course
