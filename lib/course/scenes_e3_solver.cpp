// E3 §4-§8 scenes: the XPBD readback demonstrations and the `e3-spheres` benchmark.
//   e3-readback   a box dropped onto a plane: readback over time for several h and iterations
//   e3-pyramid    a 3-2-1 pyramid: support readback, contact-count weighting on and off
//   e3-platform   two cubes on a static and on a kinematic platform
//                 (both: --solver xpbd on the fixture; the other solvers of E3 §6 on pipeline contacts)
//   e3-momentum   a cube pressed into two: total momentum per step, weighting on and off
//   e3-bounce     a sphere bouncing, restitution on and off: height, readback and momentum budget
//   e3-spheres    a pile of N spheres on a plane (bench: body-substeps per second, contacts per step)
// Contacts come from the analytic fixture lib/course/e3/contact_fixture.h (not the collision pipeline),
// except for e3-pyramid and e3-platform with --solver other than xpbd (SolverWorld below).
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core/device.h"
#include "course/scenes.h"
#include "course/e3/solver_compare.h"
#include "course/e3/xpbd_demos.h"
#include "e1/time_loop.h"

namespace impulse::course {

namespace {

int run_readback(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real T = a.positive("duration");
  SceneTable& csv = out.table("e3-readback.csv");
  csv << "h_s,iterations,t_s,Fz_over_mg,z_m\n";
  for (real h : {real(1) / 120, real(1) / 600})
    for (int iters : {1, 2, 8}) {
      XpbdWorld w(demo_box_on_plane(real(0.5), real(0.02)), 64, {}, iters);
      real mg = w.model->body_mass.to_host()[0] * real(9.81);
      int steps = int(std::lround(T / h));
      for (int k = 0; k < steps; ++k) {
        w.step(h);
        csv << h << ',' << iters << ',' << w.t << ',' << w.contact_force_on(0).z / mg << ','
            << w.state_0->body_q.to_host()[0].p.z << '\n';
      }
      log << "e3-readback: h = " << h << " s, " << iters << " iterations: final readback "
          << w.contact_force_on(0).z / mg << " m g at t = " << w.t << " s\n";
    }
  return 0;
}

// One substep of a fixture world as the E1 §7 frame loop calls a solver: collide (the analytic
// fixture), step, read the forces back, as XpbdWorld::step does.
struct FixtureSubstep {
  XpbdWorld& w;
  void step(State& in, State& out, const Control& c, real h) {
    collide_fixture(*w.model, in, *w.contacts, w.fixture);
    ContactsView v = w.contacts->view();
    w.solver->step(in, out, c, &v, h);
    w.solver->update_contacts(v);
  }
};

// A frame H of the world split into N substeps by the engine's one frame loop (simulate_frame,
// E1 §7); the world's two states follow the loop's swaps. N = 1 is XpbdWorld::step(H).
void step_frame(XpbdWorld& w, real H, int N) {
  State *s0 = w.state_0.get(), *s1 = w.state_1.get();
  FrameConfig f;
  f.frame_dt = H;
  f.substeps = N;
  FixtureSubstep sub{w};
  simulate_frame(sub, s0, s1, w.control, f, w.t, [](State&, real) {}, [](Control&, real) {});
  if (s0 != w.state_0.get()) std::swap(w.state_0, w.state_1);
}

// The world of e3-pyramid and e3-platform for --solver other than xpbd: the same bodies with every
// shape carrying kPileMaterial, contacts from the collision pipeline, stepped by the E3 §6 driver
// (GroundSceneStepper, as e3-solver-compare). The demo cubes weigh m = 1000 kg (1 m, density 1000).
// A middle cube touches up to 8 corner springs, and a pair of cubes moves with the reduced mass m/2:
//   stiffness  h sqrt(8 ke / (m/2)) = 0.67 < 2 at h = 1/600 s  (E3.6-symplectic-stability)
//   damping    h 8 kd / (m/2)       = 0.53 < 2 (explicit damping; kf alike for friction)
// with ke = 1e7 N/m (a corner sinks under a millimetre) and kd = kf = 2e4 N s/m (kd = kf = 1e5
// broke the second bound: the stacks jittered and crept sideways).
constexpr PenaltyMaterial kPileMaterial{1e7, 2e4, 2e4, 0, 0.5};

struct SolverWorld {
  SolverWorld(ModelBuilder b, SolverKind kind) {
    for (ShapeConfig& c : b.shape_config) {
      c.ke = kPileMaterial.ke;
      c.kd = kPileMaterial.kd;
      c.kf = kPileMaterial.kf;
      c.ka = kPileMaterial.ka;
      c.mu = kPileMaterial.mu;
      c.mu_torsional = c.mu_rolling = c.restitution = 0;
    }
    model = std::make_unique<Model>(b.finalize(Device::cpu));
    state = std::make_unique<State>(model->state());
    stepper = std::make_unique<GroundSceneStepper>(kind, *model, *state, kPileMaterial, GroundContactSource::pipeline);
  }
  std::unique_ptr<Model> model;
  std::unique_ptr<State> state;
  std::unique_ptr<GroundSceneStepper> stepper;
  std::vector<GroundSceneStepper::RecordForce> forces;
  real t = 0;  // [s]

  // A frame H in N substeps of H / N, each collide then step; the readback of the last substep.
  void step_frame(real H, int N) {
    for (int i = 0; i < N; ++i) stepper->step(H / N);
    if (stepper->has_record_forces()) forces = stepper->contact_forces(H / N);
    t += H;
  }
  // As XpbdWorld::contact_force_on (support_only: support_force_on); NaN where the solver has no
  // per-record readback (E3 §6 summary table).
  vec3 force_on(int b, bool support_only) const {
    if (!stepper->has_record_forces()) {
      const real nan = std::numeric_limits<real>::quiet_NaN();
      return {nan, nan, nan};
    }
    vec3 F{};
    for (const auto& r : forces) {
      if (!support_only && r.body0 == b) F += r.f;
      if (r.body1 == b) F -= r.f;
    }
    return F;
  }
};

// Runs of a fixture world one after another (weighting on, then off; a static, then a kinematic
// platform; restitution off, then on), one row per frame: the session of e3-pyramid, e3-platform
// and e3-bounce. With --solver other than xpbd (e3-pyramid, e3-platform) each run is a SolverWorld.
class FixtureRuns : public SceneSession {
 public:
  std::vector<SceneShape> shapes() const override {
    if (o_) return model_shapes(*o_->model, *o_->state);
    return w_ ? model_shapes(*w_->model, *w_->state_0) : std::vector<SceneShape>{};
  }

 protected:
  FixtureRuns(int runs, long long frames, real H, int substeps, SolverKind kind = SolverKind::xpbd)
      : SceneSession(runs * frames), frames_(frames), H_(H), substeps_(substeps), kind_(kind) {}
  virtual std::unique_ptr<XpbdWorld> make(int run) = 0;
  /// The bodies of run `run` for a solver other than xpbd.
  virtual ModelBuilder bodies(int) const { throw std::logic_error("this scene runs on xpbd only"); }
  virtual void row(int run) = 0;
  virtual void end_run(int run) = 0;
  void advance(long long k) override {
    const int run = int(k / frames_);
    if (k % frames_ == 0) {
      if (kind_ == SolverKind::xpbd)
        w_ = make(run);
      else
        o_ = std::make_unique<SolverWorld>(bodies(run), kind_);
    }
    if (o_)
      o_->step_frame(H_, substeps_);
    else
      step_frame(*w_, H_, substeps_);
    row(run);
    if (k % frames_ == frames_ - 1) end_run(run);
  }
  SceneTable& csv() { return out.tables().front(); }
  real t() const { return o_ ? o_->t : w_->t; }
  const Model& model() const { return o_ ? *o_->model : *w_->model; }
  const State& state() const { return o_ ? *o_->state : *w_->state_0; }
  vec3 contact_force_on(int b) const { return o_ ? o_->force_on(b, false) : w_->contact_force_on(b); }
  vec3 support_force_on(int b) const { return o_ ? o_->force_on(b, true) : w_->support_force_on(b); }
  /// " (solver NAME)" in a summary line for a solver other than xpbd, else "".
  std::string solver_note() const {
    if (kind_ == SolverKind::xpbd) return "";
    return std::string(" (solver ") + solver_kind_name(kind_) +
           (o_ && o_->stepper->has_record_forces() ? "" : ", no per-contact readback: NaN") +
           "; iterations, relaxation and weighting are XPBD's)";
  }

  std::unique_ptr<XpbdWorld> w_;
  std::unique_ptr<SolverWorld> o_;
  const long long frames_;
  const real H_;
  const int substeps_;
  const SolverKind kind_;
};

class Pyramid : public FixtureRuns {
 public:
  explicit Pyramid(const SceneArgs& a)
      : FixtureRuns(2, a.integer("steps"), a.positive("h"), int(a.integer("substeps")), parse_solver_kind(a.text("solver"))),
        iterations_(int(a.integer("iterations"))), relaxation_(real(a.number("relaxation"))) {
    out.table("e3-pyramid.csv") << "weighting,t_s,ground_over_mg,middle_left_over_mg,middle_right_over_mg,top_over_mg\n";
  }

 private:
  static int weighting(int run) { return run == 0 ? 1 : 0; }
  std::unique_ptr<XpbdWorld> make(int run) override {
    auto w = std::make_unique<XpbdWorld>(demo_pyramid(), 256, FixtureOptions{}, iterations_);
    w->solver->rigid_contact_con_weighting = weighting(run);
    w->solver->rigid_contact_relaxation = relaxation_;
    return w;
  }
  ModelBuilder bodies(int) const override { return demo_pyramid(); }
  real mg() const { return model().body_mass.to_host()[0] * real(9.81); }
  real ground() const { return support_force_on(0).z + support_force_on(1).z + support_force_on(2).z; }
  void row(int run) override {
    csv() << weighting(run) << ',' << t() << ',' << ground() / mg() << ',' << support_force_on(3).z / mg() << ','
          << support_force_on(4).z / mg() << ',' << support_force_on(5).z / mg() << '\n';
  }
  void end_run(int run) override {
    log << "e3-pyramid: weighting " << (weighting(run) ? "on" : "off") << ": ground " << ground() / mg()
        << " m g (statics: 6), top " << support_force_on(5).z / mg() << " m g (statics: 1) in the last step"
        << solver_note() << "\n";
  }
  const int iterations_;
  const real relaxation_;
};

std::unique_ptr<SceneSession> open_pyramid(const SceneArgs& a) {
  if (a.integer("steps") <= 0) throw std::invalid_argument("option --steps must be positive, got " + a.text("steps"));
  return std::make_unique<Pyramid>(a);
}

// Two cubes on a platform, static (no body id) and kinematic (a body that never moves): with
// contact-count weighting each cube's readback is m g on the static platform and 2/3 m g on the
// kinematic one, whose contacts are counted although it never moves (E3.4-count-by-body-id).
class Platform : public FixtureRuns {
 public:
  explicit Platform(const SceneArgs& a)
      : FixtureRuns(2, a.integer("steps"), a.positive("h"), int(a.integer("substeps")), parse_solver_kind(a.text("solver"))),
        iterations_(int(a.integer("iterations"))), relaxation_(real(a.number("relaxation"))),
        weighting_(a.integer("weighting") != 0) {
    out.table("e3-platform.csv") << "kinematic,t_s,left_over_mg,right_over_mg,left_z_m\n";
  }

 private:
  std::unique_ptr<XpbdWorld> make(int kinematic) override {
    auto w = std::make_unique<XpbdWorld>(demo_platform(kinematic != 0), 64, FixtureOptions{}, iterations_);
    w->solver->rigid_contact_con_weighting = weighting_;
    w->solver->rigid_contact_relaxation = relaxation_;
    return w;
  }
  ModelBuilder bodies(int kinematic) const override { return demo_platform(kinematic != 0); }
  int right() const { return model().body_count - 1; }
  real mg() const { return model().body_mass.to_host()[right()] * real(9.81); }
  void row(int kinematic) override {
    csv() << kinematic << ',' << t() << ',' << contact_force_on(right() - 1).z / mg() << ','
          << contact_force_on(right()).z / mg() << ',' << state().body_q.to_host()[right() - 1].p.z << '\n';
  }
  void end_run(int kinematic) override {
    log << "e3-platform: " << (kinematic ? "kinematic" : "static") << " platform, weighting "
        << (weighting_ ? "on" : "off") << ": each cube reads " << contact_force_on(right()).z / mg()
        << " m g in the last step" << solver_note() << "\n";
  }
  const int iterations_;
  const real relaxation_;
  const bool weighting_;
};

int run_momentum(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real h = a.positive("h");
  SceneTable& csv = out.table("e3-momentum.csv");
  csv << "weighting,step,pz_kgmps\n";
  for (int weighting : {1, 0}) {
    ModelBuilder b(Axis::z, vec3{0, 0, 0});
    for (int i = 0; i < 2; ++i) {
      int body = b.add_body({{(i - real(0.5)) * real(1.01), 0, real(0.5)}, quat_identity()});
      b.add_shape_box(body, transform_identity(), real(0.5), real(0.5), real(0.5));
    }
    int top = b.add_body({{0, 0, real(1.49)}, quat_identity()});
    b.add_shape_box(top, transform_identity(), real(0.5), real(0.5), real(0.5));
    XpbdWorld w(b, 64);
    w.solver->rigid_contact_con_weighting = weighting;
    auto m = w.model->body_mass.to_host();
    real pz = 0;
    for (int k = 0; k <= 30; ++k) {
      if (k > 0) w.step(h);
      auto qd = w.state_0->body_qd.to_host();
      pz = 0;
      for (std::size_t i = 0; i < m.size(); ++i) pz += m[i] * qd[i].lin.z;
      csv << weighting << ',' << k << ',' << pz << '\n';
    }
    log << "e3-momentum: weighting " << (weighting ? "on" : "off") << ": total p_z after 30 steps " << pz
        << " kg m/s (started at 0, no gravity, no ground)\n";
  }
  return 0;
}

// A sphere dropped with restitution off, then on: the readback impulse misses the restitution
// impulse (E3 §5, §8).
class Bounce : public FixtureRuns {
 public:
  Bounce(const SceneArgs& a, long long frames) : FixtureRuns(2, frames, a.positive("h"), 1), e_(a.number("e")) {
    out.table("e3-bounce.csv") << "restitution,t_s,z_m,vz_mps,readback_impulse_Ns,restitution_impulse_Ns,"
                                  "momentum_change_minus_gravity_Ns\n";
  }

 private:
  std::unique_ptr<XpbdWorld> make(int on) override {
    FixtureOptions fx;
    fx.restitution = e_;
    fx.mu = 0;
    auto w = std::make_unique<XpbdWorld>(demo_sphere_drop(real(0.1), real(0.5)), 16, fx);
    w->solver->enable_restitution = on;
    m_ = w->model->body_mass.to_host()[0];
    v0_ = w->state_0->body_qd.to_host()[0].lin.z;
    p_read_ = p_rest_ = p_grav_ = 0;
    return w;
  }
  void row(int on) override {
    p_read_ += w_->contact_force_on(0).z * H_;
    p_grav_ -= m_ * real(9.81) * H_;
    if (w_->solver->trace().restitution_ran) p_rest_ += m_ * w_->solver->trace().restitution_body_dv[0].lin.z;
    auto qd = w_->state_0->body_qd.to_host()[0];
    csv() << on << ',' << w_->t << ',' << w_->state_0->body_q.to_host()[0].p.z - real(0.1) << ',' << qd.lin.z << ','
          << p_read_ << ',' << p_rest_ << ',' << m_ * (qd.lin.z - v0_) - p_grav_ << '\n';
  }
  void end_run(int on) override {
    log << "e3-bounce: restitution " << (on ? "on" : "off") << ", e = " << e_ << ": readback impulse " << p_read_
        << " N s, restitution impulse " << p_rest_ << " N s (not in the readback)\n";
  }
  const real e_;
  real m_ = 0, v0_ = 0, p_read_ = 0, p_rest_ = 0, p_grav_ = 0;
};

std::unique_ptr<SceneSession> open_bounce(const SceneArgs& a) {
  const real h = a.positive("h"), e = a.number("e");
  if (e < 0 || e > 1) throw std::invalid_argument("option --e must lie in [0, 1], got " + a.text("e"));
  return std::make_unique<Bounce>(a, std::lround(1.5 / h));
}

// The pile: n spheres of radius 0.1 m in two layers on a plane.
struct PileRun {
  double seconds = 0;
  double contacts = 0;
  long long steps = 0;
};
PileRun run_pile(const SceneArgs& a, SceneTable* csv) {
  if (a.text("solver") != "xpbd")
    throw std::invalid_argument("option --solver of 'run e3-spheres': the CSV is written for xpbd only, got '" +
                                a.text("solver") + "' (all five solvers are timed by 'impulse bench e3-spheres --solver NAME')");
  const long long n = a.integer("n"), steps = a.integer("steps"), iters = a.integer("iterations");
  if (n <= 0) throw std::invalid_argument("option --n must be positive, got " + a.text("n"));
  if (steps <= 0) throw std::invalid_argument("option --steps must be positive, got " + a.text("steps"));
  if (iters <= 0) throw std::invalid_argument("option --iterations must be positive, got " + a.text("iterations"));
  const Device d = select_device(a.text("device"));
  const real h = a.positive("h");
  XpbdWorld w(demo_sphere_pile(int(n), real(0.1), 2), int(8 * n + 16), {}, int(iters), d);
  PileRun r;
  r.steps = steps;
  for (long long k = 0; k < steps; ++k) {
    // Only the solver is timed: the fixture's collide is a host-side test generator, not the pipeline.
    collide_fixture(*w.model, *w.state_0, *w.contacts, w.fixture);
    ContactsView v = w.contacts->view();
    auto t0 = std::chrono::steady_clock::now();
    w.solver->step(*w.state_0, *w.state_1, w.control, &v, h);
    w.solver->update_contacts(v);
    r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::swap(w.state_0, w.state_1);
    w.t += h;
    r.contacts += w.contacts->count();
    if (csv) *csv << w.t << ',' << w.contacts->count() << ',' << w.solver->trace().active_contacts.back() << '\n';
  }
  r.contacts /= double(steps);
  return r;
}

int run_spheres(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  SceneTable& csv = out.table("e3-spheres.csv");
  csv << "t_s,contacts,active_contacts_last_iteration\n";
  PileRun r = run_pile(a, &csv);
  log << "e3-spheres: " << a.text("n") << " spheres, " << r.steps << " steps, " << r.contacts
      << " contacts per step on average\n";
  return 0;
}

std::vector<Metric> bench_spheres(const SceneArgs& a) {
  if (a.text("solver") != "xpbd") return bench_solver_spheres(a);  // the E3 §6 solvers (scenes_e3_solvers.cpp)
  PileRun r = run_pile(a, nullptr);
  double n = double(a.integer("n"));
  return {{"bodies", n, "-"},
          {"steps", double(r.steps), "-"},
          {"contacts_per_step", r.contacts, "-"},
          {"seconds_per_step", r.seconds / double(r.steps), "s"},
          {"body_substeps_per_second", n * double(r.steps) / r.seconds, "1/s"}};
}

}  // namespace

constexpr const char* kSolverDoc =
    "xpbd (fixture contacts), or semi_implicit, featherstone, padmm, vbd on pipeline contacts (E3 §6)";

void register_e3_solver_scenes(SceneCatalogue& c) {
  c.add({"e3-readback", "E3", "box dropped on a plane: XPBD force readback over time for several h and iterations",
         {{"duration", "s", "0.5", "simulated time per run"}}, run_readback, nullptr});
  c.add(stepped_scene("e3-pyramid", "E3", "3-2-1 pyramid: support readback with contact-count weighting on and off",
         {{"h", "s", "0.0016666666666666668", "frame H: one row per frame"},
          {"steps", "-", "900", "frames per run"},
          {"iterations", "-", "2", "SolverXPBD iterations per step (E3 §4: fixed, no early exit)"},
          {"relaxation", "-", "0.8", "rigid contact relaxation omega_r of p_n (E3 §4)"},
          {"substeps", "-", "1", "substeps N per frame (E1 §7): each collides and steps with H / N"},
          {"solver", "-", "xpbd", kSolverDoc}},
         open_pyramid));
  c.add(stepped_scene("e3-platform", "E3", "two cubes on a static and on a kinematic platform: the readback with contact-count weighting",
         {{"h", "s", "0.0016666666666666668", "frame H: one row per frame"},
          {"steps", "-", "200", "frames per run"},
          {"iterations", "-", "2", "SolverXPBD iterations per step"},
          {"relaxation", "-", "0.8", "rigid contact relaxation omega_r (E3 §4)"},
          {"weighting", "-", "1", "contact-count weighting on (1) or off (0) (E3 §4)"},
          {"substeps", "-", "1", "substeps N per frame (E1 §7): each collides and steps with H / N"},
          {"solver", "-", "xpbd", kSolverDoc}},
         [](const SceneArgs& a) { return std::unique_ptr<SceneSession>(std::make_unique<Platform>(a)); }));
  c.add({"e3-momentum", "E3", "a cube pressed into two cubes without gravity: momentum with weighting on and off",
         {{"h", "s", "0.0016666666666666668", "step"}}, run_momentum, nullptr});
  c.add(stepped_scene("e3-bounce", "E3", "sphere bounce with restitution on and off: the readback misses the restitution impulse",
         {{"h", "s", "0.0016666666666666668", "step"}, {"e", "-", "0.5", "restitution coefficient"}}, open_bounce));
  c.add({"e3-spheres", "E3", "pile of N spheres on a plane stepped by SolverXPBD (fixture contacts)",
         {{"n", "-", "1000", "number of spheres"},
          {"solver", "-", "xpbd", "xpbd; bench also: semi_implicit, featherstone, padmm, vbd"},
          {"steps", "-", "20", "steps"},
          {"iterations", "-", "2", "XPBD iterations"},
          {"h", "s", "0.0016666666666666668", "step"},
          {"device", "-", "cpu", "cpu, cuda or auto"}},
         run_spheres, bench_spheres});
}

}  // namespace impulse::course
