// What the C++ peer drivers (bullet_pile.cpp, ode_pile.cpp) share: reading the one pile
// description bench/peers/scenes/pile.toml, its layout rule, its quality columns and the JSON line
// every driver prints. The rule and the definitions are the file's header comment; impulse
// implements them in lib/bench/bench_pile.cpp and the MuJoCo driver in mujoco_pile.py; the layout
// checksum that each prints lets ./run bench-peers refuse a comparison of different scenes.
#pragma once

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace pile {

struct Spec {
  std::string kind;
  double h, gravity, density, mu, mu_rolling = 0, rest_window;
  int steps, peer_iterations, series_samples;
  double quality_window, settle_time;
  double size, pitch, shift, z0, rise;
  int layers;
  double density_top_ratio = 1;  // the top layer's density / density (heavy: 100)
};

inline double num(const toml::table& t, const std::string& table, const std::string& key) {
  const toml::node* n = t[table][key].node();
  if (!n || !(n->is_floating_point() || n->is_integer()))
    throw std::runtime_error("pile.toml: [" + table + "] needs a number '" + key + "'");
  return n->is_integer() ? double(n->as_integer()->get()) : n->as_floating_point()->get();
}

inline Spec read_spec(const std::string& file, const std::string& kind) {
  if (kind != "spheres" && kind != "boxes" && kind != "stack" && kind != "heavy")
    throw std::runtime_error("--kind must be spheres, boxes, stack or heavy, got '" + kind + "'");
  const toml::table t = toml::parse_file(file);
  Spec s;
  s.kind = kind;
  s.h = num(t, "common", "h");
  s.gravity = num(t, "common", "gravity");
  s.density = num(t, "common", "density");
  s.mu = num(t, "common", "mu");
  s.rest_window = num(t, "common", "rest_window");
  s.steps = int(num(t, "common", "steps"));
  s.peer_iterations = int(num(t, "common", "peer_iterations"));
  s.series_samples = int(num(t, "common", "series_samples"));
  s.quality_window = num(t, "common", "quality_window");
  s.settle_time = num(t, "common", "settle_time");
  s.size = num(t, kind, kind == "spheres" ? "radius" : "half");
  s.layers = int(num(t, kind, "layers"));
  s.pitch = num(t, kind, "pitch");
  s.shift = num(t, kind, "shift");
  s.z0 = num(t, kind, "z0");
  s.rise = num(t, kind, "rise");
  if (kind == "spheres") s.mu_rolling = num(t, kind, "mu_rolling");
  if (t[kind]["density_top_ratio"]) s.density_top_ratio = num(t, kind, "density_top_ratio");
  return s;
}

/// Density of body i of n: the top layer's bodies times density_top_ratio (pile.toml) [kg/m^3].
inline double density(const Spec& s, int i, int n) {
  const int per_layer = (n + s.layers - 1) / s.layers;
  return i / per_layer == (n - 1) / per_layer && n > per_layer ? s.density * s.density_top_ratio : s.density;
}

using V3 = std::array<double, 3>;

inline std::vector<V3> positions(const Spec& s, int n) {
  const int per_layer = (n + s.layers - 1) / s.layers;
  const int side = int(std::ceil(std::sqrt(double(per_layer))));
  std::vector<V3> p(n);
  for (int i = 0; i < n; ++i) {
    const int layer = i / per_layer, k = i % per_layer;
    const double sh = layer % 2 ? s.shift : 0;
    p[i] = {(k % side) * s.pitch + sh, (k / side) * s.pitch + sh, s.z0 + layer * s.rise};
  }
  return p;
}

inline double checksum(const std::vector<V3>& p) {
  double c = 0;
  for (const V3& x : p) c += x[0] + 2 * x[1] + 3 * x[2];
  return c;
}

/// One body's state as a driver reads it from its engine: COM position [m], rotation matrix
/// (row-major, body to world), linear and angular velocity [m/s, rad/s], mass [kg].
struct Body {
  V3 x, v, w;
  double R[9];
  double m;
};

inline double ground_penetration(const Spec& s, const Body& b) {
  if (s.kind == "spheres") return std::max(0.0, s.size - b.x[2]);
  double lowest = b.x[2];
  for (int c = 0; c < 8; ++c) {
    const double l[3] = {(c & 1 ? 1 : -1) * s.size, (c & 2 ? 1 : -1) * s.size, (c & 4 ? 1 : -1) * s.size};
    lowest = std::min(lowest, b.x[2] + b.R[6] * l[0] + b.R[7] * l[1] + b.R[8] * l[2]);
  }
  return std::max(0.0, -lowest);
}

struct Quality {
  double max_pen = 0, mean_pen = 0, kinetic = 0;
};

inline Quality quality(const Spec& s, const std::vector<Body>& bodies) {
  Quality q;
  int touching = 0;
  for (const Body& b : bodies) {
    const double p = ground_penetration(s, b);
    q.max_pen = std::max(q.max_pen, p);
    if (p > 0) q.mean_pen += p, ++touching;
    const double I = (s.kind == "spheres" ? 0.4 : 2.0 / 3.0) * b.m * s.size * s.size;
    const double v2 = b.v[0] * b.v[0] + b.v[1] * b.v[1] + b.v[2] * b.v[2];
    const double w2 = b.w[0] * b.w[0] + b.w[1] * b.w[1] + b.w[2] * b.w[2];
    q.kinetic += 0.5 * b.m * v2 + 0.5 * I * w2;
  }
  if (touching) q.mean_pen /= touching;
  return q;
}

/// Body-body penetration from poses (pile.toml's definition, as lib/bench/pile_overlap.h):
/// spheres 2 r - d; cubes the least overlap of their projections over the 15 separating axes.
inline double box_box_depth(double a, const Body& A, const Body& B) {
  V3 u[3], v[3];
  for (int k = 0; k < 3; ++k) u[k] = {A.R[k], A.R[3 + k], A.R[6 + k]}, v[k] = {B.R[k], B.R[3 + k], B.R[6 + k]};
  const V3 d = {B.x[0] - A.x[0], B.x[1] - A.x[1], B.x[2] - A.x[2]};
  auto dot = [](const V3& p, const V3& q) { return p[0] * q[0] + p[1] * q[1] + p[2] * q[2]; };
  double depth = 1e300;
  auto test = [&](V3 L) {
    const double len = std::sqrt(dot(L, L));
    if (len < 1e-9) return true;
    L = {L[0] / len, L[1] / len, L[2] / len};
    double ra = 0, rb = 0;
    for (int k = 0; k < 3; ++k) ra += std::abs(dot(u[k], L)), rb += std::abs(dot(v[k], L));
    const double overlap = a * (ra + rb) - std::abs(dot(d, L));
    if (overlap <= 0) return false;
    depth = std::min(depth, overlap);
    return true;
  };
  for (int k = 0; k < 3; ++k)
    if (!test(u[k]) || !test(v[k])) return 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const V3 c = {u[i][1] * v[j][2] - u[i][2] * v[j][1], u[i][2] * v[j][0] - u[i][0] * v[j][2],
                    u[i][0] * v[j][1] - u[i][1] * v[j][0]};
      if (!test(c)) return 0;
    }
  return depth;
}

struct Overlap {
  double max_depth = 0, mean_depth = 0;
  int pairs = 0;
};
inline Overlap overlap(const Spec& s, const std::vector<Body>& b) {
  const bool spheres = s.kind == "spheres";
  const double reach = spheres ? 2 * s.size : 2 * std::sqrt(3.0) * s.size;
  auto cell = [&](double x) { return long(std::floor(x / reach)); };
  auto key = [](long i, long j, long k) { return (i * 73856093L) ^ (j * 19349663L) ^ (k * 83492791L); };
  std::unordered_multimap<long, int> grid;
  for (std::size_t i = 0; i < b.size(); ++i) grid.emplace(key(cell(b[i].x[0]), cell(b[i].x[1]), cell(b[i].x[2])), int(i));
  Overlap r;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const long ci = cell(b[i].x[0]), cj = cell(b[i].x[1]), ck = cell(b[i].x[2]);
    for (long di = -1; di <= 1; ++di)
      for (long dj = -1; dj <= 1; ++dj)
        for (long dk = -1; dk <= 1; ++dk) {
          auto range = grid.equal_range(key(ci + di, cj + dj, ck + dk));
          for (auto it = range.first; it != range.second; ++it) {
            const int o = it->second;
            if (o <= int(i)) continue;
            if (cell(b[o].x[0]) != ci + di || cell(b[o].x[1]) != cj + dj || cell(b[o].x[2]) != ck + dk) continue;
            const double dx = b[o].x[0] - b[i].x[0], dy = b[o].x[1] - b[i].x[1], dz = b[o].x[2] - b[i].x[2];
            const double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 >= reach * reach) continue;
            const double depth = spheres ? 2 * s.size - std::sqrt(d2) : box_box_depth(s.size, b[i], b[o]);
            if (depth <= 0) continue;
            r.max_depth = std::max(r.max_depth, depth);
            r.mean_depth += depth;
            ++r.pairs;
          }
        }
  }
  if (r.pairs) r.mean_depth /= r.pairs;
  return r;
}

/// The settled pile over the quality window (as impulse's PileWindowQuality), at most 12 samples:
/// max of the deepest, mean of the means, mean kinetic energy, drift of the centre. pile.toml:
///   S = ceil(settle_time / h), W = min(steps, ceil(quality_window / h)), from frame w0 = min(S, steps - W)
struct Window {
  double ground_max = 0, ground_mean = 0, body_max = 0, body_mean = 0, kinetic = 0, centre_drift = 0;
  int samples = 0;
  V3 centre0{0, 0, 0}, centre1{0, 0, 0};
  double start = 0;  // w0 h [s]
  int settled = 0;   // 1 when w0 = S (the run holds settle_time + quality_window)
};
inline int settle_frames(const Spec& s) { return int(std::ceil(s.settle_time / s.h - 1e-9)); }
inline V3 centre(const std::vector<Body>& b) {
  V3 c{0, 0, 0};
  for (const Body& x : b)
    for (int k = 0; k < 3; ++k) c[k] += x.x[k];
  for (int k = 0; k < 3; ++k) c[k] /= std::max<std::size_t>(1, b.size());
  return c;
}

struct Args {
  std::string scene, kind;
  int n = 1000, steps = -1, iterations = -1;
};

inline Args parse_args(int argc, char** argv, const char* usage) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) throw std::runtime_error(std::string(usage));
    const std::string v = argv[++i];
    if (k == "--scene") a.scene = v;
    else if (k == "--kind") a.kind = v;
    else if (k == "--n") a.n = std::atoi(v.c_str());
    else if (k == "--steps") a.steps = std::atoi(v.c_str());
    else if (k == "--iterations") a.iterations = std::atoi(v.c_str());
    else throw std::runtime_error("unknown option '" + k + "'; " + usage);
  }
  if (a.scene.empty() || a.kind.empty()) throw std::runtime_error(usage);
  if (a.n < 1 || a.n > 1000000) throw std::runtime_error("--n must be in [1, 1000000], got " + std::to_string(a.n));
  return a;
}

/// What a driver measured, printed as one JSON object on stdout.
struct Report {
  std::string engine;
  int n = 0, steps = 0, iterations = 0;
  double checksum = 0;
  double seconds = 0, collide_seconds = -1, solve_seconds = -1;  // per step; -1: not exposed
  double contacts = 0;
  Quality q;
  double drift_mean = 0, drift_max = 0;
  Window w;
  std::vector<double> series_t, series_pen, series_ke;
};

inline void print(const Report& r, const Spec& s) {
  std::printf("{\"engine\": \"%s\", \"kind\": \"%s\", \"n\": %d, \"steps\": %d, \"iterations\": %d, "
              "\"layout_checksum\": %.17g, \"seconds_per_step\": %.9g, \"collide_seconds_per_step\": %.9g, "
              "\"solve_seconds_per_step\": %.9g, \"contacts_per_step\": %.9g, \"max_penetration\": %.9g, "
              "\"mean_penetration\": %.9g, \"kinetic_energy\": %.9g, \"drift_mean\": %.9g, \"drift_max\": %.9g, "
              "\"window_ground_penetration_max\": %.9g, \"window_ground_penetration_mean\": %.9g, "
              "\"window_body_penetration_max\": %.9g, \"window_body_penetration_mean\": %.9g, "
              "\"window_kinetic_energy\": %.9g, \"window_centre_drift\": %.9g, \"window_start\": %.9g, "
              "\"window_settled\": %d, \"series_t\": [",
              r.engine.c_str(), s.kind.c_str(), r.n, r.steps, r.iterations, r.checksum, r.seconds, r.collide_seconds,
              r.solve_seconds, r.contacts, r.q.max_pen, r.q.mean_pen, r.q.kinetic, r.drift_mean, r.drift_max,
              r.w.ground_max, r.w.ground_mean, r.w.body_max, r.w.body_mean, r.w.kinetic, r.w.centre_drift, r.w.start,
              r.w.settled);
  for (std::size_t i = 0; i < r.series_t.size(); ++i) std::printf("%s%.9g", i ? ", " : "", r.series_t[i]);
  std::printf("], \"series_max_penetration\": [");
  for (std::size_t i = 0; i < r.series_pen.size(); ++i) std::printf("%s%.9g", i ? ", " : "", r.series_pen[i]);
  std::printf("], \"series_kinetic_energy\": [");
  for (std::size_t i = 0; i < r.series_ke.size(); ++i) std::printf("%s%.9g", i ? ", " : "", r.series_ke[i]);
  std::printf("]}\n");
}

/// The run loop every driver shares: step() advances the engine one step and returns the
/// seconds it took (and adds its stage seconds); read() returns the bodies; contacts() the
/// engine's contact points of the last step. Warm-up: the first two steps are not timed.
template <class Step, class Read, class Contacts>
void run(const Spec& s, Report& r, Step step, Read read, Contacts contacts, double* collide, double* solve) {
  const int warmup = std::min(2, r.steps - 1);
  const int rest_start = std::min(r.steps - 1, int(std::floor(r.steps * (1 - s.rest_window))));
  const int every = std::max(1, r.steps / std::max(1, s.series_samples));
  std::vector<Body> rest;
  double total = 0, c_sum = 0, s_sum = 0;
  const int window_frames = std::clamp(int(std::ceil(s.quality_window / s.h - 1e-9)), 1, r.steps);
  const int window_every = std::max(1, window_frames / 12);
  const int window_start = std::min(settle_frames(s), r.steps - window_frames);
  const int window_end = window_start + window_frames;
  r.w.start = window_start * s.h;
  r.w.settled = window_start >= settle_frames(s);
  if (window_start == 0) r.w.centre0 = centre(read());
  for (int k = 0; k < r.steps; ++k) {
    if (k == rest_start) rest = read();
    if (collide) *collide = 0;
    if (solve) *solve = 0;
    const double t = step();
    if (k >= warmup) {
      total += t;
      if (collide) c_sum += *collide;
      if (solve) s_sum += *solve;
    }
    r.contacts += contacts();
    if (k + 1 == window_start) r.w.centre0 = centre(read());
    if (k >= window_start && k < window_end && (k + 1 - window_start) % window_every == 0) {
      const std::vector<Body> now = read();
      const Quality g = quality(s, now);
      const Overlap o = overlap(s, now);
      r.w.ground_max = std::max(r.w.ground_max, g.max_pen);
      r.w.ground_mean += g.mean_pen;
      r.w.body_max = std::max(r.w.body_max, o.max_depth);
      r.w.body_mean += o.mean_depth;
      r.w.kinetic += g.kinetic;
      ++r.w.samples;
    }
    if (k + 1 == window_end) r.w.centre1 = centre(read());
    if ((k + 1) % every == 0 || k + 1 == r.steps) {
      r.series_t.push_back((k + 1) * s.h);
      const Quality g = quality(s, read());
      r.series_pen.push_back(g.max_pen);
      r.series_ke.push_back(g.kinetic);
    }
  }
  const double measured = r.steps - warmup;
  r.seconds = total / measured;
  if (collide) r.collide_seconds = c_sum / measured;
  if (solve) r.solve_seconds = s_sum / measured;
  r.contacts /= r.steps;
  const std::vector<Body> end = read();
  r.q = quality(s, end);
  if (r.w.samples) r.w.ground_mean /= r.w.samples, r.w.body_mean /= r.w.samples, r.w.kinetic /= r.w.samples;
  const V3& c = r.w.centre1;
  r.w.centre_drift = std::hypot(c[0] - r.w.centre0[0], c[1] - r.w.centre0[1], c[2] - r.w.centre0[2]);
  for (std::size_t i = 0; i < end.size(); ++i) {
    const double d = std::hypot(end[i].x[0] - rest[i].x[0], end[i].x[1] - rest[i].x[1], end[i].x[2] - rest[i].x[2]);
    r.drift_mean += d;
    r.drift_max = std::max(r.drift_max, d);
  }
  r.drift_mean /= std::max<std::size_t>(1, end.size());
}

using clock = std::chrono::steady_clock;
inline double since(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

}  // namespace pile
