// E1 scenes: `e1-frames` (the §6 reference-point shift, swept along a line) and the batched
// origin-velocity benchmark `e1-spatial-shift`.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/device.h"
#include "course/scenes.h"
#include "e1/spatial_kernels.h"
#include "e1/spatial_shift.h"

namespace impulse::course {

void register_e1_model_scenes(SceneCatalogue& c);  // lib/course/scenes_e1_model.cpp

namespace {

// The course's §6 example, swept: a force f = (0, fy, 0) N acts at P = (px, 0, 0) m on a body whose
// COM is at the origin and which spins at omega = (0, 0, wz) with the COM at rest. For reference
// points O = (x, 0, 0) the scene writes the torque of the wrench about O and the velocity of O.
int run_frames(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const vec3 f{0, a.number("fy"), 0}, P{a.number("px"), 0, 0}, C{0, 0, 0}, omega{0, 0, a.number("wz")};
  const vec3 tau_C = moment_about(C, P, f);
  SceneTable& csv = out.table("e1-frames.csv");
  csv << "x_m,tau_z_Nm,v_y_mps\n";
  const int n = 61;
  for (int i = 0; i < n; ++i) {
    real x = -0.2 + 0.6 * i / (n - 1);
    vec3 r = vec3{x, 0, 0} - C;
    csv << x << ',' << shift_torque(tau_C, f, r).z << ',' << shift_velocity(vec3{}, omega, r).y << '\n';
  }
  vec3 tau_P = shift_torque(tau_C, f, P - C);
  log << "e1-frames: tau about the COM = (" << tau_C.x << ", " << tau_C.y << ", " << tau_C.z << ") N m; about P = ("
      << tau_P.x << ", " << tau_P.y << ", " << tau_P.z << ") N m; wrote " << n << " rows to " << "e1-frames.csv\n";
  return 0;
}

std::vector<Metric> bench_shift(const SceneArgs& a) {
  const Device d = select_device(a.text("device"));
  const long long n = a.integer("n");
  const long long reps = a.integer("repeat");
  if (n <= 0) throw std::invalid_argument("option --n must be positive, got " + a.text("n"));
  if (reps <= 0) throw std::invalid_argument("option --repeat must be positive, got " + a.text("repeat"));
  std::vector<vec3> v(n), w(n), c(n);
  std::vector<quat> q(n);
  for (long long i = 0; i < n; ++i) {
    real s = real(i % 97) / 97;
    v[i] = {s, 1 - s, 0.5};
    w[i] = {0.1, -s, 2};
    c[i] = {0.1, 0.02 * s, 0};
    q[i] = quat_from_axis_angle({s, 1, 0.3}, s);
  }
  Buffer<vec3> bv(d, v), bw(d, w), bc(d, c), out(d, n);
  Buffer<quat> bq(d, q);
  eval_origin_velocities(d, bv.view(), bw.view(), bq.view(), bc.view(), out.view());  // warm-up
  auto t0 = std::chrono::steady_clock::now();
  for (long long r = 0; r < reps; ++r)
    eval_origin_velocities(d, bv.view(), bw.view(), bq.view(), bc.view(), out.view());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  double bytes = double(n) * (4 * sizeof(vec3) + sizeof(quat));
  return {{"bodies", double(n), "-"},
          {"seconds_per_pass", s, "s"},
          {"body_shifts_per_second", double(n) / s, "1/s"},
          {"memory_traffic", bytes / s / 1e9, "GB/s"}};
}

}  // namespace

void register_e1_scenes(SceneCatalogue& c) {
  c.add({"e1-frames", "E1", "torque about and velocity of reference points along a line (E1 §6 example)",
         {{"fy", "N", "10", "force along y applied at P"},
          {"px", "m", "0.2", "x of the point of application P"},
          {"wz", "rad/s", "2", "spin about z with the COM at rest"}},
         run_frames, nullptr});
  c.add({"e1-spatial-shift", "E1", "batched COM-to-origin velocity shift over N bodies (E1.6-origin-velocity)",
         {{"n", "-", "1000000", "number of bodies"},
          {"repeat", "-", "20", "timed passes"},
          {"device", "-", "cpu", "cpu, cuda or auto"}},
         [](const SceneArgs& a, SceneOutput&, std::ostream& log) {
           for (const Metric& m : bench_shift(a)) log << m.name << " = " << m.value << ' ' << m.unit << '\n';
           return 0;
         },
         bench_shift});
  register_e1_model_scenes(c);
}

}  // namespace impulse::course
