// E3 scenes: `e3-contacts` (a small scene's Contacts record, for the chapter's figure),
// `e3-broadphase` (candidate-pair generation over N shapes, nxn or sap; a benchmark). The chapter's
// scaling figure sweeps that benchmark over N (docs/plots/e3_broadphase.py); no scene writes a
// wall-clock value, so every scene output is reproducible byte for byte.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/device.h"
#include "course/scenes.h"
#include "e3/collision/collision_kernels.h"
#include "e3/collision/collision_pipeline.h"

namespace impulse::course {

namespace {

// A resting scene drawn in the x-z plane (every rotation is about y): a ground plane, a tilted box
// sunk 2 mm at one corner, a sphere hovering 30 mm above the ground (a record within the gap), a
// capsule lying on the ground, and a small box resting on the big one.
struct ContactScene {
  ModelBuilder b;
};

ContactScene contact_scene(real gap) {
  ContactScene s;
  s.b.rigid_gap = gap;
  const quat about_y = quat_from_axis_angle({0, 1, 0}, 0.25);
  s.b.add_shape_plane(-1);
  const real hx = 0.3, hz = 0.15;
  // lowest corner of the tilted box at z = -0.002
  const real zc = -0.002 + hx * std::sin(0.25) + hz * std::cos(0.25);
  const transform I = transform_identity();
  s.b.add_shape_box(s.b.add_link({{0, 0, zc}, about_y}), I, hx, 0.2, hz);
  s.b.add_shape_sphere(s.b.add_link({{0.8, 0, 0.13}, quat_identity()}), I, 0.1);
  s.b.add_shape_capsule(s.b.add_link({{-0.85, 0, 0.06}, quat_from_axis_angle({0, 1, 0}, 1.5707963267948966)}), I,
                        0.06, 0.2);
  const vec3 up = quat_rotate(about_y, {0, 0, 1});
  s.b.add_shape_box(s.b.add_link({vec3{0, 0, zc} + (hz + 0.05 - 0.001) * up, about_y}), I, 0.08, 0.08, 0.05);
  return s;
}

int run_contacts(const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const real gap = a.number("gap");
  if (!(gap >= 0)) throw std::invalid_argument("option --gap must be >= 0 m, got " + a.text("gap"));
  ContactScene s = contact_scene(gap);
  const Model m = s.b.finalize();
  CollisionPipelineOptions o;
  o.broad_phase = parse_broad_phase_mode(a.text("mode"));
  CollisionPipeline p(m, o);
  Contacts c = p.contacts();
  const std::vector<transform> q = s.b.body_q;
  const View<const transform> bq{q.data(), static_cast<std::int64_t>(q.size())};
  p.collide(bq, c);
  const ContactGeometrySnapshot g = snapshot_contact_geometry(m, bq, c);
  const std::vector<int> s0 = c.rigid_contact_shape0.to_host(), s1 = c.rigid_contact_shape1.to_host();
  SceneTable& csv = out.table("e3-contacts.csv");
  csv << "shape0,shape1,p0_x,p0_z,p1_x,p1_z,n_x,n_z,d_m\n";
  for (int i = 0; i < g.count; ++i)
    csv << s0[i] << ',' << s1[i] << ',' << g.point0_world_m[i].x << ',' << g.point0_world_m[i].z << ','
        << g.point1_world_m[i].x << ',' << g.point1_world_m[i].z << ',' << g.normal_world[i].x << ','
        << g.normal_world[i].z << ',' << g.distance_m[i] << '\n';
  // Shapes for drawing: type, world pose (x, z, angle about y), sizes.
  SceneTable& shapes = out.table("e3-contacts-shapes.csv");
  shapes << "shape,type,x,z,angle_y_rad,size0,size1,size2\n";
  const std::vector<int> type = m.shape_type.to_host(), body = m.shape_body.to_host();
  const std::vector<transform> X = m.shape_transform.to_host();
  const std::vector<vec3> size = m.shape_scale.to_host();
  for (int i = 0; i < m.shape_count; ++i) {
    const transform W = body[i] >= 0 ? transform_multiply(q[body[i]], X[i]) : X[i];
    const real angle = 2 * std::atan2(W.q.y, W.q.w);
    shapes << i << ',' << shape_type_name(type[i]) << ',' << W.p.x << ',' << W.p.z << ',' << angle << ',' << size[i].x
           << ',' << size[i].y << ',' << size[i].z << '\n';
  }
  int separated = 0;
  for (real d : g.distance_m) separated += d > 0;
  log << "e3-contacts: " << g.count << " records (" << separated << " separated, within the gap) of capacity "
      << c.rigid_contact_max << "; wrote e3-contacts.csv\n";
  return 0;
}

// N spheres and boxes at a constant density (one shape per (0.25 m)^3 on average) in a cube; with
// per_world > 0 the shapes are split into worlds of per_world shapes, each world its own cube at
// the same place (replicated environments, Newton's usual layout).
Model broadphase_model(long long n, long long per_world, Device d, std::vector<transform>& q) {
  ModelBuilder b;
  b.rigid_gap = 0.01;
  const real side = 0.25 * std::cbrt(real(per_world > 0 ? std::min(per_world, n) : n));
  std::uint64_t s = 12345;
  auto rnd = [&]() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return real((s >> 11) & ((1ULL << 53) - 1)) / real(1ULL << 53);
  };
  for (long long i = 0; i < n; ++i) {
    const int body = b.add_link({{side * rnd(), side * rnd(), side * rnd()},
                                 quat_from_axis_angle({rnd() - 0.5, rnd() - 0.5, rnd() + 0.01}, 6 * rnd())});
    b.current_world = per_world > 0 ? static_cast<int>(i / per_world) : 0;
    const transform I = transform_identity();
    if (i % 2) b.add_shape_sphere(body, I, 0.05 + 0.05 * rnd());
    else b.add_shape_box(body, I, 0.03 + 0.05 * rnd(), 0.03 + 0.05 * rnd(), 0.03 + 0.05 * rnd());
  }
  q = b.body_q;
  return b.finalize(d);
}

struct BroadPhaseTiming {
  double seconds;            // best of the repeats, broad phase only [s]
  std::int64_t candidates;   // candidate pairs
};

BroadPhaseTiming time_broad_phase(const Model& m, const std::vector<transform>& q, BroadPhaseMode mode,
                                  long long repeat) {
  Buffer<transform> bq(m.device, q), pose(m.device, m.shape_count);
  Buffer<aabb> boxes(m.device, m.shape_count);
  Buffer<real> speed(m.device, m.shape_count);
  compute_shape_aabbs(m, bq.view(), {}, 0, 0, pose.view(), boxes.view(), speed.view());
  BroadPhaseTiming t{1e300, 0};
  std::int64_t capacity = estimate_shape_pairs_max(m);
  for (long long r = 0; r < repeat; ++r) {
    BroadPhaseScratch pairs(m.device, capacity);  // fresh each repeat: the working arrays are allocated in the timing
    const auto t0 = std::chrono::steady_clock::now();
    if (mode == BroadPhaseMode::nxn) broad_phase_nxn(m, boxes.view(), pairs);
    else broad_phase_sap(m, boxes.view(), pairs);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.candidates = pairs.found.to_host()[0];
    if (t.candidates > capacity) {  // more pairs than the estimate: measured again with room for all
      capacity = t.candidates;
      --r;
      continue;
    }
    t.seconds = std::min(t.seconds, seconds);
  }
  return t;
}

BroadPhaseMode timed_mode(const std::string& s) {
  const BroadPhaseMode m = parse_broad_phase_mode(s);
  if (m == BroadPhaseMode::explicit_pairs)
    throw std::invalid_argument("option --mode: the benchmark times nxn or sap (explicit needs an O(n^2) pair list)");
  return m;
}

std::vector<Metric> bench_broadphase(const SceneArgs& a) {
  const long long n = a.integer("n"), repeat = a.integer("repeat"), per_world = a.integer("per-world");
  if (n < 2) throw std::invalid_argument("option --n must be >= 2, got " + a.text("n"));
  if (per_world < 0) throw std::invalid_argument("option --per-world must be >= 0, got " + a.text("per-world"));
  if (repeat <= 0) throw std::invalid_argument("option --repeat must be positive, got " + a.text("repeat"));
  const BroadPhaseMode mode = timed_mode(a.text("mode"));
  const Device d = select_device(a.text("device"));
  std::vector<transform> q;
  const Model m = broadphase_model(n, per_world, d, q);
  const BroadPhaseTiming t = time_broad_phase(m, q, mode, repeat);
  return {{"shapes", double(n), "-"},
          {"candidate_pairs", double(t.candidates), "-"},
          {"seconds_per_broad_phase", t.seconds, "s"},
          {"shapes_per_second", double(n) / t.seconds, "1/s"}};
}

}  // namespace

void register_e3_scenes(SceneCatalogue& c) {
  c.add({"e3-contacts", "E3", "a resting scene's Contacts record: points, normals and gaps (E3 §2)",
         {{"gap", "m", "0.05", "the builder's default shape gap (rigid_gap)"},
          {"mode", "-", "sap", "broad phase: nxn, sap or explicit"}},
         run_contacts, nullptr});
  c.add({"e3-broadphase", "E3", "candidate pairs of N spheres and boxes at constant density (E3.2-broadphase-modes)",
         {{"n", "-", "10000", "number of shapes"},
          {"mode", "-", "sap", "nxn or sap"},
          {"per-world", "-", "0", "shapes per world (replicated worlds at one place); 0 = one world"},
          {"repeat", "-", "3", "timed passes (the best is reported)"},
          {"device", "-", "cpu", "cpu, cuda or auto"}},
         [](const SceneArgs& a, SceneOutput&, std::ostream& log) {
           for (const Metric& m : bench_broadphase(a)) log << m.name << " = " << m.value << ' ' << m.unit << '\n';
           return 0;
         },
         bench_broadphase});
}

}  // namespace impulse::course
