// E3 §4-§8 scenes: the XPBD readback demonstrations and the `e3-spheres` benchmark.
//   e3-readback   a box dropped onto a plane: readback over time for several h and iterations
//   e3-pyramid    a 3-2-1 pyramid: support readback, contact-count weighting on and off
//   e3-momentum   a cube pressed into two: total momentum per step, weighting on and off
//   e3-bounce     a sphere bouncing, restitution on and off: height, readback and momentum budget
//   e3-spheres    a pile of N spheres on a plane (bench: body-substeps per second, contacts per step)
// Contacts come from the analytic fixture lib/course/e3/contact_fixture.h (not the collision pipeline).
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "core/device.h"
#include "course/scenes.h"
#include "course/e3/xpbd_demos.h"

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

int run_pyramid(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real h = a.positive("h");
  const long long steps = a.integer("steps");
  if (steps <= 0) throw std::invalid_argument("option --steps must be positive, got " + a.text("steps"));
  const int iterations = int(a.integer("iterations"));
  const real relaxation = real(a.number("relaxation"));
  SceneTable& csv = out.table("e3-pyramid.csv");
  csv << "weighting,t_s,ground_over_mg,middle_left_over_mg,middle_right_over_mg,top_over_mg\n";
  for (int weighting : {1, 0}) {
    XpbdWorld w(demo_pyramid(), 256, {}, iterations);
    w.solver->rigid_contact_con_weighting = weighting;
    w.solver->rigid_contact_relaxation = relaxation;
    real mg = w.model->body_mass.to_host()[0] * real(9.81);
    for (long long k = 0; k < steps; ++k) {
      w.step(h);
      real ground = w.support_force_on(0).z + w.support_force_on(1).z + w.support_force_on(2).z;
      csv << weighting << ',' << w.t << ',' << ground / mg << ',' << w.support_force_on(3).z / mg << ','
          << w.support_force_on(4).z / mg << ',' << w.support_force_on(5).z / mg << '\n';
    }
    log << "e3-pyramid: weighting " << (weighting ? "on" : "off") << ": ground " << (w.support_force_on(0).z +
           w.support_force_on(1).z + w.support_force_on(2).z) / mg << " m g (statics: 6), top "
        << w.support_force_on(5).z / mg << " m g (statics: 1) in the last step\n";
  }
  return 0;
}

// Two cubes on a platform, static (no body id) and kinematic (a body that never moves): with
// contact-count weighting each cube's readback is m g on the static platform and 2/3 m g on the
// kinematic one, whose contacts are counted although it never moves (E3.4-count-by-body-id).
int run_platform(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real h = a.positive("h");
  const long long steps = a.integer("steps");
  const int iterations = int(a.integer("iterations"));
  const real relaxation = real(a.number("relaxation"));
  const bool weighting = a.integer("weighting") != 0;
  SceneTable& csv = out.table("e3-platform.csv");
  csv << "kinematic,t_s,left_over_mg,right_over_mg,left_z_m\n";
  for (int kinematic : {0, 1}) {
    XpbdWorld w(demo_platform(kinematic != 0), 64, {}, iterations);
    w.solver->rigid_contact_con_weighting = weighting;
    w.solver->rigid_contact_relaxation = relaxation;
    const int right = w.model->body_count - 1, left = right - 1;
    const real mg = w.model->body_mass.to_host()[right] * real(9.81);
    for (long long k = 0; k < steps; ++k) {
      w.step(h);
      csv << kinematic << ',' << w.t << ',' << w.contact_force_on(left).z / mg << ','
          << w.contact_force_on(right).z / mg << ',' << w.state_0->body_q.to_host()[left].p.z << '\n';
    }
    log << "e3-platform: " << (kinematic ? "kinematic" : "static") << " platform, weighting "
        << (weighting ? "on" : "off") << ": each cube reads " << w.contact_force_on(right).z / mg
        << " m g in the last step\n";
  }
  return 0;
}

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

int run_bounce(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real h = a.positive("h"), e = a.number("e");
  if (e < 0 || e > 1) throw std::invalid_argument("option --e must lie in [0, 1], got " + a.text("e"));
  SceneTable& csv = out.table("e3-bounce.csv");
  csv << "restitution,t_s,z_m,vz_mps,readback_impulse_Ns,restitution_impulse_Ns,momentum_change_minus_gravity_Ns\n";
  for (int on : {0, 1}) {
    FixtureOptions fx;
    fx.restitution = e;
    fx.mu = 0;
    XpbdWorld w(demo_sphere_drop(real(0.1), real(0.5)), 16, fx);
    w.solver->enable_restitution = on;
    real m = w.model->body_mass.to_host()[0];
    real v0 = w.state_0->body_qd.to_host()[0].lin.z, p_read = 0, p_rest = 0, p_grav = 0;
    for (int k = 0; k < int(std::lround(1.5 / h)); ++k) {
      w.step(h);
      p_read += w.contact_force_on(0).z * h;
      p_grav -= m * real(9.81) * h;
      if (w.solver->trace().restitution_ran) p_rest += m * w.solver->trace().restitution_body_dv[0].lin.z;
      auto qd = w.state_0->body_qd.to_host()[0];
      csv << on << ',' << w.t << ',' << w.state_0->body_q.to_host()[0].p.z - real(0.1) << ',' << qd.lin.z << ','
          << p_read << ',' << p_rest << ',' << m * (qd.lin.z - v0) - p_grav << '\n';
    }
    log << "e3-bounce: restitution " << (on ? "on" : "off") << ", e = " << e << ": readback impulse " << p_read
        << " N s, restitution impulse " << p_rest << " N s (not in the readback)\n";
  }
  return 0;
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

void register_e3_solver_scenes(SceneCatalogue& c) {
  c.add({"e3-readback", "E3", "box dropped on a plane: XPBD force readback over time for several h and iterations",
         {{"duration", "s", "0.5", "simulated time per run"}}, run_readback, nullptr});
  c.add({"e3-pyramid", "E3", "3-2-1 pyramid: support readback with contact-count weighting on and off",
         {{"h", "s", "0.0016666666666666668", "step"},
          {"steps", "-", "900", "steps per run"},
          {"iterations", "-", "2", "SolverXPBD iterations per step (E3 §4: fixed, no early exit)"},
          {"relaxation", "-", "0.8", "rigid contact relaxation omega_r of p_n (E3 §4)"}},
         run_pyramid, nullptr});
  c.add({"e3-platform", "E3", "two cubes on a static and on a kinematic platform: the readback with contact-count weighting",
         {{"h", "s", "0.0016666666666666668", "step"},
          {"steps", "-", "200", "steps per run"},
          {"iterations", "-", "2", "SolverXPBD iterations per step"},
          {"relaxation", "-", "0.8", "rigid contact relaxation omega_r (E3 §4)"},
          {"weighting", "-", "1", "contact-count weighting on (1) or off (0) (E3 §4)"}},
         run_platform, nullptr});
  c.add({"e3-momentum", "E3", "a cube pressed into two cubes without gravity: momentum with weighting on and off",
         {{"h", "s", "0.0016666666666666668", "step"}}, run_momentum, nullptr});
  c.add({"e3-bounce", "E3", "sphere bounce with restitution on and off: the readback misses the restitution impulse",
         {{"h", "s", "0.0016666666666666668", "step"}, {"e", "-", "0.5", "restitution coefficient"}}, run_bounce, nullptr});
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
