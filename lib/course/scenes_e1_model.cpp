// E1 scenes built on the engine: `e1-free-body` (the course's minimal example, §8-§9), `e1-robot`
// (the coordinate layout of a FREE root + two hinges, §5) and the benchmark `e1-free-bodies` (§10).
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/device.h"
#include "core/bare_copy.h"
#include "course/scenes.h"
#include "e1/integrator.h"
#include "e1/kinematics.h"
#include "e1/model.h"
#include "e1/solver_joint.h"
#include "e1/time_loop.h"

namespace impulse::course {

namespace {

int positive_int(const SceneArgs& a, const char* name, long long max) {
  long long v = a.integer(name);
  if (v < 1 || v > max)
    throw std::invalid_argument(std::string("option --") + name + " must be in [1, " + std::to_string(max) + "], got " +
                                a.text(name));
  return int(v);
}

// Difference of two hinge angles as an angle: a - b wrapped into [-pi, pi]. The stepped joint_q of a
// REVOLUTE joint accumulates (it passes pi after 315 steps of this scene), while eval_ik reads the
// angle back from the rotation, in (-pi, pi]; both name the same pose when they differ by 2 pi k.
real angle_error(real a, real b) { return std::abs(std::remainder(a - b, real(2 * M_PI))); }

// The minimal example's model: ground plane plus one free body whose box sits off the body origin.
Model free_body_model(real g, real offset) {
  ModelBuilder b(Axis::z, vec3{0, 0, -g});
  b.add_ground_plane();
  int body = b.add_body({vec3{0, 0, 1}, quat_identity()}, {}, false, false, "block");
  b.add_shape_box(body, {vec3{offset, 0, 0}, quat_identity()}, 0.10, 0.05, 0.025);
  return b.finalize();
}

struct Energy {
  real linear, rotational, potential;
};

// Kinetic energy (1/2 m v_C^2 + 1/2 w_B . I_B w_B) and potential -m g . c_W of body 0 [J].
Energy energy_of(const Model& m, const State& s) {
  transform X = s.body_q.to_host()[0];
  spatial_vector v = s.body_qd.to_host()[0];
  real mass = m.body_mass.to_host()[0];
  mat33 I = m.body_inertia.to_host()[0];
  vec3 w_B = quat_rotate_inv(X.q, v.ang);
  vec3 c = world_com(X, m.body_com.to_host()[0]);
  return {real(0.5) * mass * dot(v.lin, v.lin), real(0.5) * dot(w_B, I * w_B), -mass * dot(m.gravity, c)};
}

bool same_bits(const State& a, const State& b) {
  auto eq = [](const auto& x, const auto& y) {
    auto hx = x.to_host(), hy = y.to_host();
    return hx.size() == hy.size() && (hx.empty() || std::memcmp(hx.data(), hy.data(), sizeof(hx[0]) * hx.size()) == 0);
  };
  return eq(a.body_q, b.body_q) && eq(a.body_qd, b.body_qd) && eq(a.joint_q, b.joint_q) && eq(a.joint_qd, b.joint_qd);
}

int run_free_body(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const int frames = positive_int(a, "frames", 100000), substeps = positive_int(a, "substeps", 1000);
  const real fps = a.number("fps");
  if (!(fps > 0)) throw std::invalid_argument("option --fps must be positive, got " + a.text("fps"));
  Model m = free_body_model(a.number("g"), a.number("offset"));
  const vec3 w0{a.number("wx"), a.number("wy"), a.number("wz")};
  FrameConfig cfg{1 / fps, substeps, ControlHold::per_frame};

  // Two buffers from the model, the initial spin written into both, and the t = 0 snapshot.
  State buf_a = m.state(), buf_b = m.state();
  std::vector<spatial_vector> v0{{vec3{}, w0}};
  buf_a.body_qd.copy_from_host(v0.data());
  buf_b.body_qd.copy_from_host(v0.data());
  State initial = m.state();
  initial.assign(buf_a);

  SceneTable& csv = out.table("e1-free-body.csv");
  csv << "t_s,frame,buffer,p_x_m,p_y_m,p_z_m,c_x_m,c_y_m,c_z_m,q_x,q_y,q_z,q_w,v_x_mps,v_y_mps,v_z_mps,"
         "w_x_radps,w_y_radps,w_z_radps,E_lin_J,E_rot_J,E_pot_J,E_total_J,L_world_Nms\n";
  State first_frame = m.state();
  auto simulate = [&](bool record) {
    SolverRigidPredictor solver(m, 0);  // angular_damping = 0, as the course's example sets it
    Control control = m.control();
    State *s0 = &buf_a, *s1 = &buf_b;
    real t = 0;
    auto row = [&](int frame) {
      transform X = s0->body_q.to_host()[0];
      spatial_vector v = s0->body_qd.to_host()[0];
      vec3 c = world_com(X, m.body_com.to_host()[0]);
      Energy e = energy_of(m, *s0);
      mat33 I = m.body_inertia.to_host()[0];
      vec3 L = quat_rotate(X.q, I * quat_rotate_inv(X.q, v.ang));
      csv << t << ',' << frame << ',' << (s0 == &buf_a ? 'a' : 'b') << ',' << X.p.x << ',' << X.p.y << ',' << X.p.z << ','
          << c.x << ',' << c.y << ',' << c.z << ',' << X.q.x << ',' << X.q.y << ',' << X.q.z << ',' << X.q.w << ',' << v.lin.x
          << ',' << v.lin.y << ',' << v.lin.z << ',' << v.ang.x << ',' << v.ang.y << ',' << v.ang.z << ',' << e.linear << ','
          << e.rotational << ',' << e.potential << ',' << e.linear + e.rotational + e.potential << ',' << length(L) << '\n';
    };
    if (record) row(0);
    for (int f = 0; f < (record ? frames : 1); ++f) {
      simulate_frame(solver, s0, s1, control, cfg, t, [](State&, real) {}, [](Control&, real) {});
      if (f == 0 && record) first_frame.assign(*s0);
      if (record) row(f + 1);
    }
    State *latest = s0;
    return std::make_pair(latest, t);
  };
  auto [latest, t_end] = simulate(true);
  Energy e0 = energy_of(m, initial), e1 = energy_of(m, *latest);

  // Cold reset (§8 row 3): both buffers back to t = 0, new Control and solver, clock at zero; then
  // the first frame again, which must reproduce the recorded one.
  buf_a.assign(initial);
  buf_b.assign(initial);
  bool restored = same_bits(buf_a, initial) && same_bits(buf_b, initial);
  auto [again, t_again] = simulate(false);
  bool reproduced = same_bits(*again, first_frame);
  log << "e1-free-body: mass " << m.body_mass.to_host()[0] << " kg, body_com (" << m.body_com.to_host()[0].x << ", "
      << m.body_com.to_host()[0].y << ", " << m.body_com.to_host()[0].z << ") m, q/qd " << m.joint_coord_count << "/"
      << m.joint_dof_count << "; " << frames << " frame(s) of " << substeps << " substeps, h = " << cfg.frame_dt / substeps
      << " s, t = " << t_end << " s; total energy " << e0.linear + e0.rotational + e0.potential << " -> "
      << e1.linear + e1.rotational + e1.potential << " J; cold reset " << (restored ? "restored" : "FAILED")
      << ", first frame " << (reproduced ? "reproduced bit for bit" : "NOT reproduced") << " (t = " << t_again
      << " s); wrote e1-free-body.csv\n";
  return restored && reproduced ? 0 : 1;
}

// The exercise-1 robot: FREE root, then two hinges (z, then y), 0.3 m links.
ModelBuilder robot_builder() {
  ModelBuilder b(Axis::z, vec3{0, 0, 0});
  const transform I = transform_identity();
  int base = b.add_link({vec3{0, 0, 0.5}, quat_identity()}, {}, false, false, "base");
  b.add_shape_box(base, I, 0.1, 0.1, 0.05);
  int upper = b.add_link(I, {}, false, false, "upper");
  b.add_shape_capsule(upper, {vec3{0, 0, 0.15}, quat_identity()}, 0.03, 0.12);
  int lower = b.add_link(I, {}, false, false, "lower");
  b.add_shape_capsule(lower, {vec3{0, 0, 0.15}, quat_identity()}, 0.025, 0.12);
  int j0 = b.add_joint_free(base, I, I, -1, "root");
  int j1 = b.add_joint_revolute(base, upper, {vec3{0, 0, 0.05}, quat_identity()}, I, {0, 0, 1}, "shoulder");
  int j2 = b.add_joint_revolute(upper, lower, {vec3{0, 0, 0.3}, quat_identity()}, I, {0, 1, 0}, "elbow");
  b.add_articulation({j0, j1, j2}, "robot");
  return b;
}

int run_robot(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const int steps = positive_int(a, "steps", 1000000);
  const real h = a.number("dt");
  if (!(h > 0)) throw std::invalid_argument("option --dt must be positive, got " + a.text("dt"));
  ModelBuilder b = robot_builder();
  Model m = b.finalize();
  SceneTable& lay = out.table("e1-robot-layout.csv");
  lay << "joint,label,type,q_start,q_count,qd_start,qd_count\n";
  std::vector<int> qs = m.joint_q_start.to_host(), ds = m.joint_qd_start.to_host();
  for (int j = 0; j < m.joint_count; ++j)
    lay << j << ',' << m.joint_label[j] << ',' << joint_type_name(b.joint_type[j]) << ',' << qs[j] << ',' << qs[j + 1] - qs[j]
        << ',' << ds[j] << ',' << ds[j + 1] - ds[j] << '\n';

  // Generalised stepping at constant joint velocity; eval_fk gives the bodies, eval_ik reads back.
  SolverJointIntegrator solver(m);
  Control c = m.control();
  State s0 = m.state(), s1 = m.state();
  std::vector<real> qd(m.joint_dof_count, 0);
  qd[ds[0] + 0] = 0.2;   // root drifts along x [m/s]
  qd[ds[0] + 5] = 0.5;   // and turns about z [rad/s]
  qd[ds[1]] = 1.0;       // shoulder [rad/s]
  qd[ds[2]] = -0.8;      // elbow [rad/s]
  s0.joint_qd.copy_from_host(qd.data());
  eval_fk(m, s0.joint_q.view(), s0.joint_qd.view(), s0);
  SceneTable& csv = out.table("e1-robot.csv");
  csv << "t_s,root_x_m,root_yaw_rad,shoulder_rad,elbow_rad,tip_x_m,tip_y_m,tip_z_m,quat_norm,ik_error\n";
  State check = m.state();
  real t = 0, worst_ik = 0;
  for (int i = 0; i <= steps; ++i) {
    std::vector<real> q = s0.joint_q.to_host();
    transform lower = s0.body_q.to_host()[2];
    vec3 tip = transform_point(lower, {0, 0, 0.3});
    check.assign(s0);
    eval_ik(m, check, check.joint_q.view(), check.joint_qd.view());
    std::vector<real> q_ik = check.joint_q.to_host();
    real err = 0;
    for (int k = qs[1]; k < qs[3]; ++k) err = std::max(err, angle_error(q_ik[k], q[k]));
    worst_ik = std::max(worst_ik, err);
    real yaw = 2 * std::atan2(q[5], q[6]);
    csv << t << ',' << q[0] << ',' << yaw << ',' << q[qs[1]] << ',' << q[qs[2]] << ',' << tip.x << ',' << tip.y << ','
        << tip.z << ',' << quat_norm({q[3], q[4], q[5], q[6]}) << ',' << err << '\n';
    if (i == steps) break;
    solver.step(s0, s1, c, h);
    std::swap(s0, s1);
    t += h;
  }
  log << "e1-robot: joint_q " << m.joint_coord_count << " entries, joint_qd " << m.joint_dof_count
      << " (FREE 7/6 + REVOLUTE 1/1 + REVOLUTE 1/1); " << steps << " steps of " << h << " s; worst hinge eval_ik error "
      << worst_ik << " rad; wrote e1-robot-layout.csv and e1-robot.csv\n";
  return worst_ik < 1e-9 ? 0 : 1;
}

std::vector<Metric> bench_free_bodies(const SceneArgs& a) {
  const Device d = select_device(a.text("device"));
  const long long n = a.integer("n");
  const int steps = positive_int(a, "steps", 100000);
  if (n < 1 || n > 20000000) throw std::invalid_argument("option --n must be in [1, 2e7], got " + a.text("n"));
  ModelBuilder b;
  for (long long i = 0; i < n; ++i) {
    real s = real(i % 97) / 97;
    b.add_link({vec3{real(i % 1000), real(i / 1000), 1}, quat_from_axis_angle({s, 1, 0.3}, s)},
               {1, {0.1, 0, 0}, mat33_diag({0.00104167, 0.00354167, 0.00416667})});
  }
  Model m = b.finalize(d);
  std::vector<spatial_vector> v(n);
  for (long long i = 0; i < n; ++i) v[i] = {{0, 0, 0}, {0.5, 4, real(i % 7) * 0.1}};
  State s0 = m.state(), s1 = m.state();
  s0.body_qd.copy_from_host(v.data());
  Control c = m.control();
  SolverRigidPredictor solver(m);
  // The bytes one body-step streams: flags, the input pose and twist, the wrench (body_f, read in
  // place when there is no joint_f), COM, inertia and its inverse, inverse mass; the output pose
  // and twist. The reference is a bare copy of as many bytes (half read, half written, rounded up to
  // whole doubles), one parallel_for item per body as in the predictor, stepped alternately with it
  // so that both see the same machine.
  const std::int64_t bytes = sizeof(int) + 2 * sizeof(transform) + 3 * sizeof(spatial_vector) + sizeof(vec3) +
                             2 * sizeof(mat33) + sizeof(real);
  const std::int64_t per_body = (bytes / 2 + std::int64_t(sizeof(double)) - 1) / std::int64_t(sizeof(double));
  const std::int64_t words = n * per_body;
  Buffer<double> src(d, std::vector<double>(std::size_t(words), 1.0)), dst(d, words);
  solver.step(s0, s1, c, 1e-3);  // warm-up
  bare_copy(d, src.view(), dst.view(), per_body);
  double sec = 0, copy_sec = 0;
  for (int k = 0; k < steps; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    solver.step(s0, s1, c, 1e-3);
    std::swap(s0, s1);
    auto t1 = std::chrono::steady_clock::now();
    bare_copy(d, src.view(), dst.view(), per_body);
    auto t2 = std::chrono::steady_clock::now();
    sec += std::chrono::duration<double>(t1 - t0).count();
    copy_sec += std::chrono::duration<double>(t2 - t1).count();
  }
  return {{"bodies", double(n), "-"},
          {"steps", double(steps), "-"},
          {"seconds_per_step", sec / steps, "s"},
          {"body_steps_per_second", double(n) * steps / sec, "1/s"},
          {"bytes_per_body_step", double(bytes), "B"},
          {"copy_seconds_per_step", copy_sec / steps, "s"},
          {"fraction_of_copy", copy_sec / sec, "-"}};
}

}  // namespace

void register_e1_model_scenes(SceneCatalogue& c) {
  c.add({"e1-free-body", "E1",
         "the minimal example: eccentric box free body, double-buffered frames, cold reset (E1.8-minimal-example)",
         {{"frames", "-", "1", "frames to record"},
          {"fps", "1/s", "60", "frames per second (H = 1/fps)"},
          {"substeps", "-", "4", "substeps N per frame (h = H/N)"},
          {"g", "m/s^2", "9.81", "gravity magnitude along -z"},
          {"offset", "m", "0.1", "x offset of the box in its body (body_com)"},
          {"wx", "rad/s", "0.3", "initial angular velocity x (world)"},
          {"wy", "rad/s", "4", "initial angular velocity y (world)"},
          {"wz", "rad/s", "0.2", "initial angular velocity z (world)"}},
         run_free_body, nullptr});
  c.add({"e1-robot", "E1", "FREE root + two hinges: q/qd layout, generalised stepping, eval_fk / eval_ik (E1.5)",
         {{"steps", "-", "200", "steps to record"}, {"dt", "s", "0.01", "step size"}}, run_robot, nullptr});
  c.add({"e1-free-bodies", "E1", "benchmark of the §10 rigid-body prediction over N free bodies (E1.10-predictor-scope)",
         {{"n", "-", "100000", "number of bodies"},
          {"steps", "-", "20", "timed steps"},
          {"device", "-", "cpu", "cpu, cuda or auto"}},
         [](const SceneArgs& a, SceneOutput&, std::ostream& log) {
           for (const Metric& m : bench_free_bodies(a)) log << m.name << " = " << m.value << ' ' << m.unit << '\n';
           return 0;
         },
         bench_free_bodies});
}

}  // namespace impulse::course
