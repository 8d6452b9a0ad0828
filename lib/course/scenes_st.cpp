// Stewart-Trinkle scenes: the reading's bounce and block examples, the curved-gap bowl, the paper's
// falling rod, our four-ball pile with the Table 1 analogue and the friction-cone study, and the
// Lemke benchmark.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "course/scenes.h"
#include "st/bounce.h"
#include "st/experiments.h"
#include "st/lcp.h"
#include "st/lcp_file.h"

namespace impulse::course {

namespace {

using namespace impulse::st;

// The vertical point of seed 004 L53-L55, stepped with the general stepper; one row per step.
class PointBounce : public SceneSession {
 public:
  explicit PointBounce(const SceneArgs& a)
      : SceneSession(a.integer("steps")), m_(a.positive("m")), h_(a.positive("h")), g_(a.number("g")), sys_(m_, g_),
        q_(Eigen::VectorXd::Constant(1, a.number("q"))), v_(Eigen::VectorXd::Constant(1, a.number("v"))) {
    opt_.h = h_;
    SceneTable& csv = out.table("st-bounce.csv");
    csv << "step,t_s,q_m,v_mps,p_Ns,free_prediction_m,contact\n";
    csv << 0 << ',' << 0 << ',' << q_(0) << ',' << v_(0) << ',' << 0 << ",,\n";
  }
  /// The point drawn as a 1 mm sphere at height q above the ground.
  std::vector<SceneShape> shapes() const override {
    return {{"plane", {}, transform_identity()}, {"sphere", {0.001, 0, 0}, {{0, 0, q_(0)}, quat_identity()}}};
  }

 private:
  void advance(long long k) override {
    const BounceStep closed = bounce_step(m_, q_(0), v_(0), h_, g_);
    const StepResult r = st_step(sys_, q_, v_, active_, opt_);
    if (k == 0)
      log << "st-bounce: free prediction " << closed.free_prediction << " m -> "
          << (closed.contact ? "contact branch" : "free branch") << ": v+ = " << r.v(0) << " m/s, p = " << r.p_n(0)
          << " N s, q+ = " << r.q(0) << " m\n";
    active_ = active_contacts(r);
    q_ = r.q;
    v_ = r.v;
    out.tables().front() << k + 1 << ',' << double(k + 1) * h_ << ',' << q_(0) << ',' << v_(0) << ',' << r.p_n(0) << ','
                         << closed.free_prediction << ',' << (closed.contact ? 1 : 0) << '\n';
  }
  int finish() override {
    log << "st-bounce: wrote " << steps() + 1 << " rows to " << "st-bounce.csv\n";
    return 0;
  }
  const double m_, h_, g_;
  const VerticalPoint sys_;
  StepOptions opt_;
  Eigen::VectorXd q_, v_;
  std::vector<int> active_;
};

std::unique_ptr<SceneSession> open_bounce(const SceneArgs& a) {
  if (a.integer("steps") < 1) throw std::invalid_argument("option --steps must be >= 1");
  if (a.number("q") < 0) throw std::invalid_argument("option --q must be >= 0 (the point starts above the ground)");
  return std::make_unique<PointBounce>(a);
}

// The 1 kg block of seed 004 L86: same impulse, average force growing like 1/h.
int run_block(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const double m = a.positive("m"), speed = a.positive("v");
  const VerticalPoint sys(m, 0.0);
  SceneTable& csv = out.table("st-block.csv");
  csv << "h_s,p_Ns,F_avg_N,v_plus_mps\n";
  for (double h : {0.1, 0.01, 0.001, 0.0001}) {
    StepOptions opt;
    opt.h = h;
    const StepResult r = st_step(sys, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, -speed), {}, opt);
    csv << h << ',' << r.p_n(0) << ',' << average_force(r.p_n(0), h) << ',' << r.v(0) << '\n';
    log << "st-block: h = " << h << " s: p = " << r.p_n(0) << " N s, F_avg = " << average_force(r.p_n(0), h)
        << " N, v+ = " << r.v(0) << " m/s\n";
  }
  return 0;
}

int check_run(const Trajectory& tr, const std::string& what, std::ostream& log) {
  if (!tr.all_solved || tr.worst_complementarity > 1e-9) {
    log << what << ": an LCP was not solved to 1e-9 (worst relative complementarity " << tr.worst_complementarity
        << ")\n";
    return 1;
  }
  return 0;
}

// The falling rod (paper §4, Figs. 2-4): the main run one row per step; at its end the poses of the
// Fig. 2 analogue and the runs for several h of Figs. 3-4.
class Rod : public SceneSession {
 public:
  Rod(const RodSetup& s, const StepOptions& opt)
      : Rod(s, opt, std::make_unique<PlanarRod>(s.system())) {}
  /// The rod as a box of its length and diameter, the paper's plane (x along the ground, y up) drawn
  /// as the x-z plane: a turn theta from x toward up is a turn -theta about y.
  std::vector<SceneShape> shapes() const override {
    const Eigen::VectorXd& q = run_.trajectory().q.back();
    const double half = -0.5 * q(2);
    return {{"plane", {}, transform_identity()},
            {"box", {0.5 * s_.length, s_.radius, s_.radius}, {{q(0), 0, q(1)}, {0, std::sin(half), 0, std::cos(half)}}}};
  }

 private:
  Rod(const RodSetup& s, const StepOptions& opt, std::unique_ptr<PlanarRod> sys)
      : SceneSession(std::lround(s.T / opt.h)), s_(s), opt_(opt), sys_(std::move(sys)),
        run_(*sys_, s.q0(), s.v0(), s.T, opt) {
    SceneTable& csv = out.table("st-rod.csv");
    csv << "t_s,x_m,y_m,theta_rad,vx_mps,vy_mps,omega_radps,contacts,impulse_Ns,lcp_size,complementarity,energy_J\n";
    row(0);
  }
  void row(std::size_t k) {
    const Trajectory& tr = run_.trajectory();
    const auto& q = tr.q[k];
    const auto& v = tr.v[k];
    const StepSummary st = k ? tr.steps[k - 1] : StepSummary{};
    out.tables().front() << tr.t[k] << ',' << q(0) << ',' << q(1) << ',' << q(2) << ',' << v(0) << ',' << v(1) << ','
                         << v(2) << ',' << st.contacts << ',' << st.impulse << ',' << st.lcp_size << ','
                         << st.lcp_complementarity << ',' << sys_->energy(q, v) << '\n';
  }
  void advance(long long k) override {
    run_.step();
    row(std::size_t(k + 1));
  }
  int finish() override {
    const Trajectory& tr = run_.trajectory();
    const double h = opt_.h;
    // Poses for the Fig. 2 analogue: end centres every 0.05 s.
    SceneTable& poses = out.table("st-rod-poses.csv");
    poses << "t_s,x0_m,y0_m,x1_m,y1_m\n";
    const long every = std::max(1L, std::lround(0.05 / h));
    for (std::size_t k = 0; k < tr.t.size(); k += std::size_t(every)) {
      const auto& q = tr.q[k];
      const double c = 0.5 * s_.length * std::cos(q(2)), sn = 0.5 * s_.length * std::sin(q(2));
      poses << tr.t[k] << ',' << q(0) - c << ',' << q(1) - sn << ',' << q(0) + c << ',' << q(1) + sn << '\n';
    }
    // Figs. 3-4 analogue: vertical and angular velocity for several h.
    SceneTable& refine = out.table("st-rod-refine.csv");
    refine << "h_s,t_s,vy_mps,omega_radps\n";
    int bad = check_run(tr, "st-rod", log);
    for (double hh : {0.01, 0.005, 0.0025, 0.00125}) {
      StepOptions o = opt_;
      o.h = hh;
      const Trajectory r = simulate(*sys_, s_.q0(), s_.v0(), s_.T, o);
      bad |= check_run(r, "st-rod (h = " + std::to_string(hh) + ")", log);
      for (std::size_t k = 0; k < r.t.size(); ++k)
        refine << hh << ',' << r.t[k] << ',' << r.v[k](1) << ',' << r.v[k](2) << '\n';
      // The p.14 spike: how far omega dips below its pre-impact value within 3 steps of the first impact.
      std::size_t k1 = 0;
      while (k1 < r.steps.size() && r.steps[k1].impulse <= 0) ++k1;
      double dip = 0;
      for (std::size_t j = k1; j < std::min(r.steps.size(), k1 + 3); ++j) dip = std::max(dip, r.v[k1](2) - r.v[j + 1](2));
      log << "st-rod: h = " << hh << " s: first impact at " << (k1 + 1) * hh << " s, omega dip " << dip << " rad/s\n";
    }
    double first = -1;
    for (const StepSummary& st : tr.steps)
      if (st.impulse > 0) {
        first = st.t;
        break;
      }
    log << "st-rod: first impact at t = " << first << " s; final y = " << tr.q.back()(1) << " m, theta = "
        << tr.q.back()(2) << " rad; worst LCP complementarity " << tr.worst_complementarity << "; wrote "
        << "st-rod.csv, st-rod-poses.csv, st-rod-refine.csv\n";
    if (bad) log << "st-rod: exit 1: a run above left an LCP unsolved to 1e-9 (its line names the step h)\n";
    return bad;
  }
  const RodSetup s_;
  const StepOptions opt_;
  std::unique_ptr<PlanarRod> sys_;  // held by pointer: the stepper keeps a reference to it
  TrajectoryStepper run_;
};

std::unique_ptr<SceneSession> open_rod(const SceneArgs& a) {
  RodSetup s;
  s.inertia = a.positive("inertia");
  s.mu = a.number("mu");
  s.T = a.positive("T");
  StepOptions opt;
  opt.h = a.positive("h");
  opt.max_nonlinear_iterations = int(a.integer("nonlinear"));
  if (opt.max_nonlinear_iterations < 0) throw std::invalid_argument("option --nonlinear must be >= 0");
  return std::make_unique<Rod>(s, opt);
}

// The bead in the bowl of ST §2: energy per step of the three ways to treat the curved gap.
int run_bowl(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  BowlSetup s;
  s.speed = a.positive("speed");
  s.T = a.positive("T");
  const double h = a.positive("h");
  struct Variant {
    const char* name;
    int nonlinear;
    bool at_iterate;
  };
  const Variant variants[] = {{"linearised", 0, false}, {"frozen_normals", 10, false}, {"iterate_normals", 10, true}};
  std::vector<DissipationAudit> audits;
  for (const Variant& v : variants) {
    StepOptions opt;
    opt.h = h;
    opt.max_nonlinear_iterations = v.nonlinear;
    opt.jacobians_at_iterate = v.at_iterate;
    audits.push_back(dissipation_audit(s.system(), s.q0(), s.v0(), s.T, opt, 1e-9));
    const DissipationAudit& d = audits.back();
    log << "st-bowl: " << v.name << ": " << d.gain_steps << " of " << d.phi_start.size()
        << " steps gain energy, largest rise above the start " << d.max_rise << " J, deepest gap " << d.worst_gap
        << " m\n";
  }
  SceneTable& csv = out.table("st-bowl.csv");
  csv << "t_s,energy_linearised_J,energy_frozen_normals_J,energy_iterate_normals_J\n";
  for (std::size_t k = 0; k < audits[0].t.size(); ++k)
    csv << audits[0].t[k] << ',' << audits[0].energy[k] << ',' << audits[1].energy[k] << ',' << audits[2].energy[k]
        << '\n';
  log << "st-bowl: wrote " << audits[0].t.size() << " rows to " << "st-bowl.csv\n";
  return 0;
}

// Our four-ball pile, the Table 1 analogue and the friction-cone study.
int run_balls(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  BallsSetup s;
  s.T = a.positive("T");
  const double h = a.positive("h");
  const int k = int(a.integer("directions"));
  const Balls sys = s.system();
  StepOptions opt;
  opt.h = h;
  opt.directions = k;
  const Trajectory tr = simulate(sys, s.q0(), s.v0(), s.T, opt);
  SceneTable& csv = out.table("st-balls.csv");
  csv << "t_s";
  for (const char* b : {"A", "B", "C", "D"}) csv << ',' << b << "_x_m," << b << "_y_m," << b << "_z_m";
  csv << ",contacts,lcp_size,pivots,complementarity\n";
  int max_lcp = 0, seven = 0;
  for (std::size_t i = 0; i < tr.t.size(); ++i) {
    csv << tr.t[i];
    for (int b = 0; b < 4; ++b) csv << ',' << tr.q[i](6 * b) << ',' << tr.q[i](6 * b + 1) << ',' << tr.q[i](6 * b + 2);
    const StepSummary st = i ? tr.steps[i - 1] : StepSummary{};
    csv << ',' << st.contacts << ',' << st.lcp_size << ',' << st.pivots << ',' << st.lcp_complementarity << '\n';
    max_lcp = std::max(max_lcp, st.lcp_size);
    seven += st.contacts == 7;
  }
  log << "st-balls: h = " << h << " s, " << k << " directions: largest LCP " << max_lcp << " x " << max_lcp << ", "
      << seven << " steps with 7 contacts\n";
  int bad = check_run(tr, "st-balls", log);

  SceneTable& table = out.table("st-balls-table.csv");
  table << "h_s,velocity_error,position_error_m,max_lcp,worst_complementarity\n";
  log << "st-balls: Table 1 analogue (ours), reference h = 0.00125 s, T = " << s.T << " s\n";
  for (const ConvergenceRow& r : convergence_table(s, {0.02, 0.01, 0.005, 0.0025}, 0.00125, k)) {
    table << r.h << ',' << r.error.velocity << ',' << r.error.position << ',' << r.max_lcp << ','
          << r.worst_complementarity << '\n';
    log << "  h = " << r.h << "  velocity error " << r.error.velocity << "  position error " << r.error.position
        << " m  (largest LCP " << r.max_lcp << ")\n";
    if (r.worst_complementarity > 1e-9) bad = 1;
  }

  SceneTable& cone = out.table("st-cone.csv");
  // No wall-clock column: scene outputs are byte-reproducible; the LCP's time is `impulse bench st-lcp`.
  cone << "k,polygon_error,direction_error_rad,stop_distance_m,stop_distance_circle_m,lcp_size,pivots\n";
  for (int kk : {4, 8, 16, 32}) {
    const ConeRow r = friction_cone_row(kk, 1e-4);
    const ContactLcp L = four_ball_seven_contact_lcp(s, 0.005, kk);
    const LcpResult sol = solve_lcp(L.A, L.b);
    cone << kk << ',' << r.polygon_error << ',' << r.direction_error << ',' << r.stop_distance << ','
         << r.stop_distance_circle << ',' << L.b.size() << ',' << sol.pivots << '\n';
    log << "st-cone: k = " << kk << ": polygon error " << r.polygon_error << ", direction error " << r.direction_error
        << " rad, slide " << r.stop_distance << " m (circle " << r.stop_distance_circle << " m), 7-contact LCP "
        << L.b.size() << " x " << L.b.size() << " in " << sol.pivots << " pivots\n";
  }
  // The main run's kind of LCP as a file for `impulse lcp` (and the fuzz corpus, verify/fuzz/).
  {
    const ContactLcp L = four_ball_seven_contact_lcp(s, h, k);
    std::ostringstream note;
    note << "st-balls: the four-ball pile's contact LCP (7 contacts, " << k << " friction directions, h = " << h
         << " s); solve with: impulse lcp FILE";
    write_lcp(out.text("st-balls-lcp.txt"), L.A, L.b, note.str());
  }
  log << "st-balls: wrote st-balls.csv, st-balls-table.csv, st-cone.csv, st-balls-lcp.txt\n";
  return bad;
}

std::vector<Metric> bench_lcp(const SceneArgs& a) {
  const long n = a.integer("n"), reps = a.integer("repeat"), k = a.integer("directions");
  if (k < 3) throw std::invalid_argument("option --directions must be >= 3, got " + a.text("directions"));
  if (n < k + 2 || n % (k + 2) != 0)
    throw std::invalid_argument("option --n must be a positive multiple of directions + 2 = " + std::to_string(k + 2) +
                                ", got " + a.text("n"));
  if (reps < 1) throw std::invalid_argument("option --repeat must be >= 1, got " + a.text("repeat"));
  const int contacts = int(n / (k + 2));
  int balls = 1;
  while (balls + balls * (balls - 1) / 2 < contacts) ++balls;
  const ContactLcp L = row_of_balls_lcp(balls, contacts, int(k), 0.01);
  const ContactLcp L70 = four_ball_seven_contact_lcp(BallsSetup{}, 0.005, 8);
  auto time = [reps](const ContactLcp& P, LcpResult& out) {
    out = solve_lcp(P.A, P.b);
    const auto t0 = std::chrono::steady_clock::now();
    for (long r = 0; r < reps; ++r) out = solve_lcp(P.A, P.b);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / double(reps);
  };
  LcpResult r, r70;
  const double s = time(L, r), s70 = time(L70, r70);
  return {{"lcp_size", double(L.b.size()), "-"},
          {"contacts", double(contacts), "-"},
          {"seconds_per_solve", s, "s"},
          {"pivots", double(r.pivots), "-"},
          {"solved", r.status == LcpStatus::solved ? 1.0 : 0.0, "-"},
          {"complementarity", r.complementarity, "-"},
          {"four_ball_lcp_size", double(L70.b.size()), "-"},
          {"four_ball_seconds_per_solve", s70, "s"},
          {"four_ball_pivots", double(r70.pivots), "-"}};
}

}  // namespace

void register_st_scenes(SceneCatalogue& c) {
  c.add(stepped_scene("st-bounce", "ST", "the vertical point of ST §2: one complementarity condition, free and contact branches",
         {{"m", "kg", "1", "mass"},
          {"q", "m", "0.01", "initial height above the ground"},
          {"v", "m/s", "-1", "initial velocity (up positive)"},
          {"h", "s", "0.02", "step"},
          {"g", "m/s^2", "10", "gravity"},
          {"steps", "-", "25", "number of steps"}},
         open_bounce));
  c.add({"st-block", "ST", "the 1 kg block of ST §3: same impulse, average force p/h for several h",
         {{"m", "kg", "1", "mass"}, {"v", "m/s", "1", "downward speed at contact"}},
         run_block, nullptr});
  c.add(stepped_scene("st-rod", "ST", "the paper's falling rod (Figs. 2-4 analogue): poses, velocities for several h",
         {{"h", "s", "0.0025", "step of the main run"},
          {"T", "s", "1", "duration"},
          {"inertia", "kg m^2", "0.0208333333333", "rod inertia about its centre (ours: uniform rod m L^2/12)"},
          {"mu", "-", "0.6", "friction coefficient"},
          {"nonlinear", "-", "10", "§3.6 re-linearisations per step (0: linearised only)"}},
         open_rod));
  c.add({"st-bowl", "ST", "a bead in a circular bowl: energy of linearised and §3.6 steps on a concave gap",
         {{"h", "s", "0.02", "step"},
          {"T", "s", "2", "duration"},
          {"speed", "m/s", "3", "speed at the bottom of the 1 m bowl"}},
         run_bowl, nullptr});
  c.add({"st-balls", "ST", "our four-ball pile: 7 contacts, 70x70 LCP, Table 1 analogue, friction-cone study",
         {{"h", "s", "0.005", "step of the main run"},
          {"T", "s", "1", "duration"},
          {"directions", "-", "8", "friction directions per contact"}},
         run_balls, nullptr});
  c.add({"st-lcp", "ST", "Lemke on contact LCPs of size N (row of balls) and on the four-ball 70x70",
         {{"n", "-", "70", "LCP size, a multiple of directions + 2"},
          {"directions", "-", "8", "friction directions per contact"},
          {"repeat", "-", "5", "timed solves"}},
         [](const SceneArgs& a, SceneOutput&, std::ostream& log) {
           for (const Metric& m : bench_lcp(a)) log << m.name << " = " << m.value << ' ' << m.unit << '\n';
           return 0;
         },
         bench_lcp});
}

}  // namespace impulse::course
