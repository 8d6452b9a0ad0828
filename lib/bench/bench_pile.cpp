// e3-pile-spheres and e3-pile-boxes: the whole step of a pile, stage by stage (see bench_pile.h).
// A frame is simulate_frame (course E1 §7) with N substeps; each substep runs
//
//   collide(state_0)              broad (AABBs + filter + SAP) | narrow (GJK/EPA, manifolds) | record
//   fill_contact_materials        per-row materials   \ solve
//   SolverXPBD::step              the E3 §4 step      /
//   SolverXPBD::update_contacts   the §8 readback     readback
//
// (collide and the materials at the frame's first substep only, with collide_once).
//
// Measured, never asserted: the bench returns the figures; tests only check that it runs and
// that one and two threads give bitwise equal results.
#include "bench/bench_pile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/alloc_count.h"
#include "core/host_copies.h"
#include "core/bare_copy.h"
#include "core/device.h"
#include "core/threads.h"
#include "course/embedded.h"
#include "course/scenes.h"
#include "bench/pile_overlap.h"
#include "course/toml_values.h"
#include "e1/time_loop.h"
#include "e3/collision/collision_pipeline.h"
#include "e3/contacts/contact_materials.h"
#include "e3/solvers/xpbd/solver_xpbd.h"

namespace impulse::course {

namespace {

constexpr const char* kPileFile = "bench/peers/scenes/pile.toml";

const char* pile_text() {
  for (int i = 0; i < embedded_file_count; ++i)
    if (std::string(embedded_files[i].path) == kPileFile) return embedded_files[i].text;
  throw std::runtime_error(std::string("the pile description ") + kPileFile + " was not embedded at build time");
}

double number_at(const toml::table& t, const std::string& table, const std::string& key) {
  const toml::node* n = t[table][key].node();
  if (!n || !(n->is_floating_point() || n->is_integer()))
    throw std::runtime_error(std::string(kPileFile) + ": [" + table + "] needs a number '" + key + "'");
  return n->is_integer() ? double(n->as_integer()->get()) : n->as_floating_point()->get();
}

}  // namespace

real pile_density(const PileSpec& s, int i, int n) {
  const int per_layer = (n + s.layers - 1) / s.layers;
  return i / per_layer == (n - 1) / per_layer && n > per_layer ? s.density * s.density_top_ratio : s.density;
}

// pile.toml: S = ceil(settle_time / h), W = min(steps, ceil(quality_window / h)), w0 = min(S, steps - W).
PileWindowFrames pile_window_frames(const PileSpec& s, int steps, real h) {
  const int settle = int(std::ceil(double(s.settle_time) / double(h) - 1e-9));
  PileWindowFrames w;
  w.frames = std::clamp(int(std::ceil(double(s.quality_window) / double(h) - 1e-9)), 1, std::max(1, steps));
  w.start = std::max(0, std::min(settle, steps - w.frames));
  w.settled = w.start >= settle;
  return w;
}

PileSpec pile_spec(const std::string& kind) {
  if (kind != "spheres" && kind != "boxes" && kind != "stack" && kind != "heavy")
    throw std::invalid_argument("pile kind must be spheres, boxes, stack or heavy, got '" + kind + "'");
  const toml::table t = parse_toml(pile_text(), kPileFile);
  PileSpec s;
  s.kind = kind;
  s.h = number_at(t, "common", "h");
  s.gravity = number_at(t, "common", "gravity");
  s.density = number_at(t, "common", "density");
  s.mu = number_at(t, "common", "mu");
  s.steps = int(number_at(t, "common", "steps"));
  s.rest_window = number_at(t, "common", "rest_window");
  s.impulse_iterations = int(number_at(t, "common", "impulse_iterations"));
  s.series_samples = int(number_at(t, "common", "series_samples"));
  s.quality_window = number_at(t, "common", "quality_window");
  s.settle_time = number_at(t, "common", "settle_time");
  s.size = number_at(t, kind, kind == "spheres" ? "radius" : "half");
  s.layers = int(number_at(t, kind, "layers"));
  s.pitch = number_at(t, kind, "pitch");
  s.shift = number_at(t, kind, "shift");
  s.z0 = number_at(t, kind, "z0");
  s.rise = number_at(t, kind, "rise");
  s.gap = number_at(t, kind, "gap");
  s.mu_rolling = kind == "spheres" ? number_at(t, kind, "mu_rolling") : 0;
  if (t[kind]["density_top_ratio"]) s.density_top_ratio = number_at(t, kind, "density_top_ratio");
  if (t[kind]["n"]) s.default_n = int(number_at(t, kind, "n"));
  return s;
}

std::vector<vec3> pile_positions(const PileSpec& s, int n) {
  const int per_layer = (n + s.layers - 1) / s.layers;
  const int side = int(std::ceil(std::sqrt(double(per_layer))));
  std::vector<vec3> p(std::size_t(std::max(n, 0)));
  for (int i = 0; i < n; ++i) {
    const int layer = i / per_layer, k = i % per_layer;
    const real sh = layer % 2 ? s.shift : 0;
    p[i] = {(k % side) * s.pitch + sh, (k / side) * s.pitch + sh, s.z0 + layer * s.rise};
  }
  return p;
}

double pile_checksum(const std::vector<vec3>& p) {
  double c = 0;
  for (const vec3& x : p) c += x.x + 2 * x.y + 3 * x.z;
  return c;
}

real pile_ground_penetration(const PileSpec& s, const transform& X) {
  if (s.kind == "spheres") return std::max(real(0), s.size - X.p.z);
  real lowest = X.p.z;
  for (int c = 0; c < 8; ++c) {
    const vec3 corner{(c & 1 ? 1 : -1) * s.size, (c & 2 ? 1 : -1) * s.size, (c & 4 ? 1 : -1) * s.size};
    lowest = std::min(lowest, transform_point(X, corner).z);
  }
  return std::max(real(0), -lowest);
}

PileQuality pile_quality(const PileSpec& s, const Model& m, const State& st) {
  const std::vector<transform> q = st.body_q.to_host();
  const std::vector<spatial_vector> qd = st.body_qd.to_host();
  const std::vector<real> mass = m.body_mass.to_host();
  PileQuality r;
  int touching = 0;
  for (std::size_t b = 0; b < q.size(); ++b) {
    const real pen = pile_ground_penetration(s, q[b]);
    r.max_penetration = std::max(r.max_penetration, double(pen));
    if (pen > 0) r.mean_penetration += pen, ++touching;
    // sphere I = 2/5 m r^2, cube I = 2/3 m a^2 (a = half extent): both isotropic (pile.toml)
    const real I = (s.kind == "spheres" ? real(0.4) : real(2) / 3) * mass[b] * s.size * s.size;
    r.kinetic_energy += 0.5 * mass[b] * dot(qd[b].lin, qd[b].lin) + 0.5 * I * dot(qd[b].ang, qd[b].ang);
  }
  if (touching) r.mean_penetration /= touching;
  return r;
}

namespace {

// The whole chain for one pile; members in construction order (the pipeline keeps a reference
// to the Model).
struct PileWorld {
  std::unique_ptr<Model> model;
  std::unique_ptr<CollisionPipeline> pipeline;
  std::unique_ptr<Contacts> contacts;
  std::unique_ptr<SolverXPBD> solver;
  std::unique_ptr<State> state_a, state_b;
  State* s0 = nullptr;  // the input state of the next step (simulate_frame swaps the two)
  State* s1 = nullptr;
  Control control;

  PileWorld(const PileSpec& s, int n, int iterations, const PileRunOptions& o) {
    ShapeConfig cfg;
    cfg.density = s.density;
    cfg.mu = s.mu;
    cfg.mu_torsional = 0;
    cfg.mu_rolling = s.mu_rolling;
    ModelBuilder b(Axis::z, vec3{0, 0, -s.gravity});
    b.rigid_gap = s.gap;
    b.add_ground_plane(0, cfg);
    const std::vector<vec3> at = pile_positions(s, n);
    for (int i = 0; i < n; ++i) {
      const vec3 p = at[std::size_t(i)];
      cfg.density = pile_density(s, i, n);
      const int body = b.add_body({p, quat_identity()});
      if (s.kind == "spheres") b.add_shape_sphere(body, transform_identity(), s.size, cfg);
      else b.add_shape_box(body, transform_identity(), s.size, s.size, s.size, cfg);
    }
    model = std::make_unique<Model>(b.finalize());
    CollisionPipelineOptions po;
    po.broad_phase = BroadPhaseMode::sap;  // no all-pairs list (N^2/2 keys: 40 GB at 10^5)
    po.broad_phase_reuse = o.broad_phase_reuse;
    po.broad_phase_reuse_margin = o.broad_phase_reuse_margin;
    pipeline = std::make_unique<CollisionPipeline>(*model, po);
    contacts = std::make_unique<Contacts>(*model, pipeline->rigid_contact_max(), /*request_force=*/true);
    solver = std::make_unique<SolverXPBD>(*model, iterations);
    solver->contact_warm_start = o.contact_warm_start;
    solver->rigid_contact_gauss_seidel = o.gauss_seidel;
    solver->contact_manifold_sweeps = o.manifold_sweeps;
    solver->contact_linearised = o.linearised;
    solver->rigid_contact_relaxation = o.relaxation;
    solver->contact_warm_start_scale = o.warm_start_scale;
    solver->contact_warm_start_friction_scale = o.warm_start_friction_scale;
    state_a = std::make_unique<State>(model->state());
    state_b = std::make_unique<State>(model->state());
    s0 = state_a.get();
    s1 = state_b.get();
    control = model->control();
  }
};

using clock = std::chrono::steady_clock;
double since(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

struct StepCost {
  PileStageSeconds s;
  double contact_pass = 0;          // [s] the solver's contact iterations (XpbdStepTrace)
  double contact_iterations = 0;    // rows x iterations
  double body_iterations = 0;       // bodies x iterations of steps with contact rows
  double contact_rows = 0;          // rows of the steps
  double body_steps = 0;            // bodies of the steps with contact rows
  std::uint64_t alloc_collide = 0, alloc_solve = 0, alloc_readback = 0;
  std::uint64_t launch_collide = 0, launch_solve = 0, launch_readback = 0;
  std::uint64_t copy_collide = 0, copy_solve = 0, copy_readback = 0;  // host<->device copies (core/host_copies.h)
};

// The solver that simulate_frame steps: E3's collide inserted before the E1 step (E1 §7), the
// materials, SolverXPBD::step and the readback; it sums each stage's cost over the frame. named:
// its launches count under the stages pile.collide, pile.solve, pile.readback (core/alloc_count.h),
// else under no stage.
struct PileSubstep {
  PileWorld& w;
  bool collide_once;
  bool named;
  int substep = 0;
  StepCost c;

  void step(State& in, State& out, Control& control, real h) {
    std::uint64_t a0 = allocation_count(), l0 = launch_count(), h0 = host_copy_count();
    const bool collide = !collide_once || substep == 0;
    set_launch_stage(named ? "pile.collide" : nullptr);
    if (collide) {
      w.pipeline->collide(in.body_q.view(), *w.contacts);  // the input state (E1.7-sample-phase)
      const CollideStageSeconds& cs = w.pipeline->last_stage_seconds();
      c.s.broad += cs.broad;
      c.s.narrow += cs.narrow;
      c.s.contacts += cs.contacts;
    }
    std::uint64_t a1 = allocation_count(), l1 = launch_count(), h1 = host_copy_count();
    set_launch_stage(named ? "pile.solve" : nullptr);
    clock::time_point t = clock::now();
    if (collide) fill_contact_materials(*w.model, SolverPath::xpbd, *w.contacts);
    ContactsView v = w.contacts->view();
    w.solver->step(in, out, control, &v, h);
    const std::uint64_t h2 = host_copy_count();  // the bench's own count read below is not the step's
    c.s.solve += since(t);
    c.contact_pass += w.solver->trace().contact_pass_seconds;
    const double rows = double(w.contacts->count());
    c.contact_iterations += rows * w.solver->iterations;
    c.contact_rows += rows;
    if (rows > 0) c.body_iterations += double(w.model->body_count) * w.solver->iterations;
    if (rows > 0) c.body_steps += double(w.model->body_count);
    std::uint64_t a2 = allocation_count(), l2 = launch_count(), h2r = host_copy_count();
    set_launch_stage(named ? "pile.readback" : nullptr);
    t = clock::now();
    w.solver->update_contacts(v);
    c.s.readback += since(t);
    std::uint64_t a3 = allocation_count(), l3 = launch_count(), h3 = host_copy_count();
    set_launch_stage(nullptr);
    c.alloc_collide += a1 - a0;
    c.alloc_solve += a2 - a1;
    c.alloc_readback += a3 - a2;
    c.launch_collide += l1 - l0;
    c.launch_solve += l2 - l1;
    c.launch_readback += l3 - l2;
    c.copy_collide += h1 - h0;
    c.copy_solve += h2 - h1;
    c.copy_readback += h3 - h2r;
    ++substep;
  }
};

// One frame of w through simulate_frame (no applied forces, no control: the pile only falls).
StepCost step_world(PileWorld& w, const FrameConfig& f, bool collide_once, bool named = false) {
  PileSubstep sub{w, collide_once, named, 0, StepCost{}};
  real t = 0;
  simulate_frame(sub, w.s0, w.s1, w.control, f, t, [](State&, real) {}, [](Control&, real) {});
  return sub.c;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double x = q * double(v.size() - 1);
  const std::size_t i = std::size_t(x);
  const double f = x - double(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

vec3 centre_of(const std::vector<transform>& q) {
  vec3 c{0, 0, 0};
  for (const transform& X : q) c = c + X.p;
  return c * (real(1) / real(std::max<std::size_t>(1, q.size())));
}

// One sample of the quality window (or, at its start, only the centre the drift is measured from).
void sample_window(const PileSpec& spec, const Model& m, const State& st, bool at_start, vec3& centre_start,
                   PileWindowQuality& w) {
  const std::vector<transform> q = st.body_q.to_host();
  if (at_start) {
    centre_start = centre_of(q);
    return;
  }
  const PileQuality g = pile_quality(spec, m, st);
  const PileOverlap o = pile_overlap(spec.kind, spec.size, q);
  w.ground_max = std::max(w.ground_max, g.max_penetration);
  w.ground_mean += g.mean_penetration;
  w.body_max = std::max(w.body_max, o.max_depth);
  w.body_mean += o.mean_depth;
  w.kinetic_energy += g.kinetic_energy;
  ++w.samples;
}

void finish_window(PileWindowQuality& w, vec3 centre_start, vec3 centre_end) {
  if (w.samples) {
    w.ground_mean /= w.samples;
    w.body_mean /= w.samples;
    w.kinetic_energy /= w.samples;
  }
  w.centre_drift = length(centre_end - centre_start);
}

// Keeps the CPU thread count as it was when the run ends (or throws).
struct ThreadCount {
  int saved = cpu_threads();
  ~ThreadCount() { set_cpu_threads(saved); }
};

}  // namespace

PileRunResult run_pile(const PileSpec& spec, const PileRunOptions& o) {
  if (o.n < 1) throw std::invalid_argument("run_pile: n must be >= 1, got " + std::to_string(o.n));
  if (o.steps < 1) throw std::invalid_argument("run_pile: steps must be >= 1, got " + std::to_string(o.steps));
  if (o.iterations < 1) throw std::invalid_argument("run_pile: iterations must be >= 1, got " + std::to_string(o.iterations));
  if (!(o.h > 0)) throw std::invalid_argument("run_pile: h must be > 0 s, got " + std::to_string(o.h));
  if (o.threads < 1) throw std::invalid_argument("run_pile: threads must be >= 1, got " + std::to_string(o.threads));
  if (o.substeps < 1) throw std::invalid_argument("run_pile: substeps must be >= 1, got " + std::to_string(o.substeps));
  FrameConfig frame;
  frame.frame_dt = o.h;
  frame.substeps = o.substeps;
  ThreadCount keep;
  PileRunResult r;
  r.checksum = pile_checksum(pile_positions(spec, o.n));
  PileWorld a(spec, o.n, o.iterations, o);
  std::unique_ptr<PileWorld> b;
  if (o.compare_threads) b = std::make_unique<PileWorld>(spec, o.n, o.iterations, o);

  const int warmup = std::min(2, o.steps - 1);  // first steps size the buffers and touch the pages
  const int rest_start = std::min(o.steps - 1, int(std::floor(o.steps * (1 - spec.rest_window))));
  const int every = std::max(1, o.steps / std::max(1, spec.series_samples));
  std::vector<transform> rest_q;
  // the quality window (pile.toml), sampled at most kWindowSamples times
  const PileWindowFrames wf = pile_window_frames(spec, o.steps, o.h);
  const int window_frames = wf.frames, window_start = wf.start, window_end = wf.start + wf.frames;
  const int window_every = std::max(1, window_frames / kWindowSamples);
  r.window.start = double(window_start) * double(o.h);
  r.window.settled = wf.settled ? 1 : 0;
  vec3 centre_start = centre_of(a.s0->body_q.to_host());  // the window's start when it is the run's start
  vec3 centre_end = centre_start;
  std::vector<double> speedup;
  double two = 0;
  std::uint64_t al_c = 0, al_s = 0, al_r = 0, la_c = 0, la_s = 0, la_r = 0, hc_c = 0, hc_s = 0, hc_r = 0;
  const XpbdContactPassBytes pass_bytes = xpbd_contact_pass_bytes(o.gauss_seidel && o.linearised);
  // the bare copy: one item per contact row's share of the bytes (half read, half written)
  const std::int64_t per_item = std::max<std::int64_t>(1, (pass_bytes.per_row / 2 + 7) / 8);
  Buffer<double> copy_src(a.model->device, 0), copy_dst(a.model->device, 0);
  double copy_bytes = 0, copy_seconds = 0;
  const std::vector<LaunchSiteCount> sites_before = launch_site_counts();
  for (int k = 0; k < o.steps; ++k) {
    if (k == rest_start) rest_q = a.s0->body_q.to_host();
    set_cpu_threads(o.threads);
    const StepCost c = step_world(a, frame, o.collide_once, k >= warmup);
    r.contacts_per_step += a.contacts->count();
    if (k >= warmup) {
      r.seconds.broad += c.s.broad;
      r.seconds.narrow += c.s.narrow;
      r.seconds.contacts += c.s.contacts;
      r.seconds.solve += c.s.solve;
      r.seconds.readback += c.s.readback;
      al_c += c.alloc_collide;
      al_s += c.alloc_solve;
      al_r += c.alloc_readback;
      la_c += c.launch_collide;
      la_s += c.launch_solve;
      la_r += c.launch_readback;
      hc_c += c.copy_collide;
      hc_s += c.copy_solve;
      hc_r += c.copy_readback;
      const double bytes = c.contact_iterations * double(pass_bytes.per_row) +
                           c.body_iterations * double(pass_bytes.per_body) +
                           c.contact_rows * double(pass_bytes.per_row_step) +
                           c.body_steps * double(pass_bytes.per_body_step);
      r.contact_pass_seconds += c.contact_pass;
      r.contact_iterations += c.contact_iterations;
      r.contact_pass_bytes += bytes;
      // The copy moves one contact pass's bytes once per pass of the step (substeps x iterations), as
      // the passes revisit the same arrays: its buffers hold one pass, not the step's total (which
      // at 10^5 bodies and 8 x 16 was tens of GB).
      const int passes = frame.substeps * o.iterations;
      const std::int64_t words = std::int64_t(bytes / passes / 16 / double(per_item)) * per_item;
      if (words > 0) {
        if (copy_src.size() < words) {  // grown outside the timed stages
          copy_src = Buffer<double>(a.model->device, std::vector<double>(std::size_t(words), 1.0));
          copy_dst = Buffer<double>(a.model->device, words);
        }
        const clock::time_point t0 = clock::now();
        for (int p = 0; p < passes; ++p)
          bare_copy(a.model->device, View<const double>{copy_src.data(), words}, View<double>{copy_dst.data(), words},
                    per_item);
        copy_seconds += since(t0);
        copy_bytes += double(words) * 16 * passes;
      }
    }
    if (b) {
      set_cpu_threads(2);
      const StepCost c2 = step_world(*b, frame, o.collide_once);
      if (k >= warmup) {
        two += c2.s.total();
        r.two_thread_stages.broad += c2.s.broad / double(o.steps - warmup);
        r.two_thread_stages.narrow += c2.s.narrow / double(o.steps - warmup);
        r.two_thread_stages.contacts += c2.s.contacts / double(o.steps - warmup);
        r.two_thread_stages.solve += c2.s.solve / double(o.steps - warmup);
        r.two_thread_stages.readback += c2.s.readback / double(o.steps - warmup);
        speedup.push_back(c.s.total() / std::max(1e-12, c2.s.total()));
      }
    }
    if (k + 1 == window_start || (k >= window_start && k < window_end && (k + 1 - window_start) % window_every == 0))
      sample_window(spec, *a.model, *a.s0, k + 1 == window_start, centre_start, r.window);
    if (k + 1 == window_end) centre_end = centre_of(a.s0->body_q.to_host());
    if ((k + 1) % every == 0 || k + 1 == o.steps) {
      const PileQuality q = pile_quality(spec, *a.model, *a.s0);
      r.series_t.push_back((k + 1) * double(o.h));
      r.series_max_penetration.push_back(q.max_penetration);
      r.series_kinetic_energy.push_back(q.kinetic_energy);
    }
  }
  const double measured = double(o.steps - warmup);
  r.seconds.broad /= measured;
  r.seconds.narrow /= measured;
  r.seconds.contacts /= measured;
  r.seconds.solve /= measured;
  r.seconds.readback /= measured;
  r.contacts_per_step /= o.steps;
  r.broad_phase_rebuilds = double(a.pipeline->broad_phase_rebuild_count()) / o.steps;
  r.broad_phase_fallbacks = double(a.pipeline->broad_phase_fallback_count()) / o.steps;
  r.contact_pass_seconds /= measured;
  r.contact_iterations /= measured;
  r.contact_pass_bytes /= measured;
  r.copy_bytes_per_second = copy_seconds > 0 ? copy_bytes / copy_seconds : 0;
  r.launches_collide = double(la_c) / measured;
  r.launches_solve = double(la_s) / measured;
  r.launches_readback = double(la_r) / measured;
  r.copies_collide = double(hc_c) / measured;
  r.copies_solve = double(hc_s) / measured;
  r.copies_readback = double(hc_r) / measured;
  for (LaunchSiteCount site : launch_site_counts()) {
    if (site.stage.rfind("pile.", 0) != 0) continue;
    for (const LaunchSiteCount& old : sites_before)
      if (old.stage == site.stage && old.name == site.name) site.count -= old.count;
    if (site.count > 0) r.launch_sites.push_back({site.stage.substr(5), site.name, double(site.count) / measured});
  }
  if (allocation_hook_installed()) {
    r.allocations_collide = double(al_c) / measured;
    r.allocations_solve = double(al_s) / measured;
    r.allocations_readback = double(al_r) / measured;
  }
  r.quality = pile_quality(spec, *a.model, *a.s0);
  finish_window(r.window, centre_start, centre_end);
  r.final_body_q = a.s0->body_q.to_host();
  for (std::size_t i = 0; i < r.final_body_q.size(); ++i) {
    const double d = length(r.final_body_q[i].p - rest_q[i].p);
    r.drift_mean += d;
    r.drift_max = std::max(r.drift_max, d);
  }
  r.drift_mean /= double(std::max<std::size_t>(1, r.final_body_q.size()));
  if (b) {
    r.two_thread_seconds = two / measured;
    r.speedup_median = quantile(speedup, 0.5);
    r.speedup_p25 = quantile(speedup, 0.25);
    r.speedup_p75 = quantile(speedup, 0.75);
    const std::vector<transform> q2 = b->s0->body_q.to_host();
    const std::vector<spatial_vector> qd1 = a.s0->body_qd.to_host(), qd2 = b->s0->body_qd.to_host();
    r.bitwise_equal = std::memcmp(q2.data(), r.final_body_q.data(), sizeof(transform) * q2.size()) == 0 &&
                              std::memcmp(qd1.data(), qd2.data(), sizeof(spatial_vector) * qd1.size()) == 0
                          ? 1
                          : 0;
  }
  return r;
}

namespace {

PileRunOptions options_of(const SceneArgs& a) {
  PileRunOptions o;
  o.n = int(a.integer("n"));
  o.steps = int(a.integer("steps"));
  o.iterations = int(a.integer("iterations"));
  o.h = a.positive("h");
  o.substeps = int(a.integer("substeps"));
  o.collide_once = a.text("collide") == "once";
  o.threads = int(a.integer("threads"));
  o.compare_threads = a.integer("compare-threads") != 0;
  o.broad_phase_reuse = a.integer("broad-phase-reuse") != 0;
  o.broad_phase_reuse_margin = a.number("broad-phase-reuse-margin");
  o.contact_warm_start = a.integer("contact-warm-start") != 0;
  o.gauss_seidel = a.integer("gauss-seidel") != 0;
  o.warm_start_scale = a.number("warm-start-scale");
  o.warm_start_friction_scale = a.number("warm-start-friction-scale");
  o.relaxation = a.number("relaxation");
  o.manifold_sweeps = int(a.integer("manifold-sweeps"));
  o.linearised = a.integer("linearised") != 0;
  if (o.contact_warm_start && !o.gauss_seidel)
    throw std::invalid_argument("--contact-warm-start 1 needs --gauss-seidel 1 (the Jacobi contact pass has no warm start)");
  if (o.manifold_sweeps > 0 && !o.gauss_seidel)
    throw std::invalid_argument("--manifold-sweeps " + std::to_string(o.manifold_sweeps) +
                                " needs --gauss-seidel 1 (the Jacobi contact pass solves rows apart)");
  if (o.linearised && !o.gauss_seidel)
    throw std::invalid_argument("--linearised 1 needs --gauss-seidel 1 (the Jacobi contact pass applies rows apart)");
  return o;
}

std::vector<Metric> bench_pile(const std::string& kind, const SceneArgs& a) {
  const PileSpec spec = pile_spec(kind);
  const PileRunOptions o = options_of(a);
  const PileRunResult r = run_pile(spec, o);
  const double t = r.seconds.total();
  std::vector<Metric> m = {
      {"bodies", double(o.n), "-"},
      {"steps", double(o.steps), "-"},
      {"iterations", double(o.iterations), "-"},
      {"substeps", double(o.substeps), "-"},
      {"collide_once", o.collide_once ? 1.0 : 0.0, "-"},
      {"broad_phase_reuse", o.broad_phase_reuse ? 1.0 : 0.0, "-"},
      {"broad_phase_reuse_margin", double(o.broad_phase_reuse_margin), "m"},
      {"contact_warm_start", o.contact_warm_start ? 1.0 : 0.0, "-"},
      {"gauss_seidel", o.gauss_seidel ? 1.0 : 0.0, "-"},
      {"warm_start_scale", double(o.warm_start_scale), "-"},
      {"warm_start_friction_scale", double(o.warm_start_friction_scale), "-"},
      {"relaxation", double(o.relaxation), "-"},
      {"manifold_sweeps", double(o.manifold_sweeps), "-"},
      {"linearised", o.linearised ? 1.0 : 0.0, "-"},
      {"broad_phase_rebuilds_per_step", r.broad_phase_rebuilds, "-"},
      {"broad_phase_fallbacks_per_step", r.broad_phase_fallbacks, "-"},
      {"threads", double(o.threads), "-"},
      {"seconds_per_simulated_second", t / double(o.h), "s/s"},
      {"seconds_per_step", t, "s"},
      {"broad_seconds_per_step", r.seconds.broad, "s"},
      {"narrow_seconds_per_step", r.seconds.narrow, "s"},
      {"contacts_seconds_per_step", r.seconds.contacts, "s"},
      {"solve_seconds_per_step", r.seconds.solve, "s"},
      {"readback_seconds_per_step", r.seconds.readback, "s"},
      {"body_steps_per_second", o.n / t, "1/s"},
      {"contacts_per_step", r.contacts_per_step, "-"},
      {"max_penetration", r.quality.max_penetration, "m"},
      {"mean_penetration", r.quality.mean_penetration, "m"},
      {"kinetic_energy", r.quality.kinetic_energy, "J"},
      {"drift_mean", r.drift_mean, "m"},
      {"drift_max", r.drift_max, "m"},
      {"window_ground_penetration_max", r.window.ground_max, "m"},
      {"window_ground_penetration_mean", r.window.ground_mean, "m"},
      {"window_body_penetration_max", r.window.body_max, "m"},
      {"window_body_penetration_mean", r.window.body_mean, "m"},
      {"window_kinetic_energy", r.window.kinetic_energy, "J"},
      {"window_centre_drift", r.window.centre_drift, "m"},
      {"window_start", r.window.start, "s"},
      {"window_settled", double(r.window.settled), "-"},
      {"allocations_collide_per_step", r.allocations_collide, "-"},
      {"allocations_solve_per_step", r.allocations_solve, "-"},
      {"allocations_readback_per_step", r.allocations_readback, "-"},
      {"launches_collide_per_step", r.launches_collide, "-"},
      {"launches_solve_per_step", r.launches_solve, "-"},
      {"launches_readback_per_step", r.launches_readback, "-"},
      {"host_copies_collide_per_step", r.copies_collide, "-"},
      {"host_copies_solve_per_step", r.copies_solve, "-"},
      {"host_copies_readback_per_step", r.copies_readback, "-"},
      {"cuda_built", cuda_built() ? 1.0 : 0.0, "-"},
      {"xpbd_contact_pass_seconds_per_step", r.contact_pass_seconds, "s"},
      {"xpbd_contact_iterations_per_step", r.contact_iterations, "-"},
      {"xpbd_contact_pass_ns_per_contact_iteration",
       r.contact_iterations > 0 ? 1e9 * r.contact_pass_seconds / r.contact_iterations : 0, "ns"},
      {"xpbd_contact_pass_bytes_per_contact_iteration",
       r.contact_iterations > 0 ? r.contact_pass_bytes / r.contact_iterations : 0, "B"},
      {"xpbd_contact_pass_bytes_per_second",
       r.contact_pass_seconds > 0 ? r.contact_pass_bytes / r.contact_pass_seconds : 0, "B/s"},
      {"bare_copy_bytes_per_second", r.copy_bytes_per_second, "B/s"},
      {"xpbd_contact_pass_fraction_of_copy",
       r.contact_pass_seconds > 0 && r.copy_bytes_per_second > 0
           ? r.contact_pass_bytes / r.contact_pass_seconds / r.copy_bytes_per_second
           : 0,
       "-"},
      {"layout_checksum", r.checksum, "m"},
  };
  for (const PileLaunchSite& site : r.launch_sites)  // each launch by name, per step
    m.push_back({"launches." + site.stage + "." + site.name, site.per_step, "-"});
  if (o.compare_threads) {
    m.push_back({"two_thread_seconds_per_step", r.two_thread_seconds, "s"});
    m.push_back({"two_thread_broad_seconds", r.two_thread_stages.broad, "s"});
    m.push_back({"two_thread_narrow_seconds", r.two_thread_stages.narrow, "s"});
    m.push_back({"two_thread_contacts_seconds", r.two_thread_stages.contacts, "s"});
    m.push_back({"two_thread_solve_seconds", r.two_thread_stages.solve, "s"});
    m.push_back({"two_thread_readback_seconds", r.two_thread_stages.readback, "s"});
    m.push_back({"speedup_2_over_1_median", r.speedup_median, "-"});
    m.push_back({"speedup_2_over_1_p25", r.speedup_p25, "-"});
    m.push_back({"speedup_2_over_1_p75", r.speedup_p75, "-"});
    m.push_back({"threads_bitwise_equal", double(r.bitwise_equal), "-"});
  }
  return m;
}

int run_pile_scene(const std::string& kind, const SceneArgs& a, SceneOutput& out, std::ostream& log) {
  const PileSpec spec = pile_spec(kind);
  PileRunOptions o = options_of(a);
  o.compare_threads = false;
  const PileRunResult r = run_pile(spec, o);
  SceneTable& csv = out.table("e3-pile-" + kind + ".csv");
  csv << "t_s,max_penetration_m,kinetic_energy_J\n";
  for (std::size_t i = 0; i < r.series_t.size(); ++i)
    csv << r.series_t[i] << ',' << r.series_max_penetration[i] << ',' << r.series_kinetic_energy[i] << '\n';
  log << "e3-pile-" << kind << ": " << o.n << " bodies, " << o.steps << " steps: max ground penetration "
      << r.quality.max_penetration << " m, kinetic energy " << r.quality.kinetic_energy << " J, "
      << r.contacts_per_step << " contacts per step\n";
  return 0;
}

std::string exact(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::vector<SceneOption> pile_options(const PileSpec& s) {
  return {{"n", "-", std::to_string(s.default_n), "number of bodies"},
          {"steps", "-", std::to_string(s.steps), "steps (bench/peers/scenes/pile.toml)"},
          {"iterations", "-", std::to_string(s.impulse_iterations), "SolverXPBD iterations"},
          {"h", "s", exact(double(s.h)), "frame duration H (one step when substeps = 1)"},
          {"substeps", "-", "1", "N substeps of H / N per frame (simulate_frame, course E1 §7)"},
          {"collide", "-", "every", "every: collide at every substep; once: at each frame's first substep"},
          {"threads", "-", "1", "OpenMP threads of the timed run"},
          {"broad-phase-reuse", "-", "1", "0: the broad phase afresh at every collide (Newton's); 1: reuse the broad phase's candidates across collides (same pairs)"},
          {"broad-phase-reuse-margin", "m", "0.01", "growth of the reused AABBs on each side"},
          {"relaxation", "-", "0.8", "SolverXPBD rigid_contact_relaxation"},
          {"gauss-seidel", "-", "0", "1: SolverXPBD rigid_contact_gauss_seidel (contact rows by colour, each applied at once)"},
          {"manifold-sweeps", "-", "0", "SolverXPBD contact_manifold_sweeps (0: rows one by one; n: a shape pair's rows together, n sweeps; needs gauss-seidel 1)"},
          {"linearised", "-", "0", "1: SolverXPBD contact_linearised (rows linearised once per step, bodies moved once after the iterations; needs gauss-seidel 1)"},
          {"contact-warm-start", "-", "0", "1: SolverXPBD contact_warm_start (accumulated impulses from the last step; needs gauss-seidel 1)"},
          {"warm-start-scale", "-", "1", "SolverXPBD contact_warm_start_scale (the share of the last step's normal impulses carried over)"},
          {"warm-start-friction-scale", "-", "1", "SolverXPBD contact_warm_start_friction_scale"},
          {"compare-threads", "-", "1", "bench: 1 also steps a 2-thread copy, interleaved (ratio, bitwise check)"}};
}

}  // namespace

void register_pile_scenes(SceneCatalogue& c) {
  for (const char* kind : {"spheres", "boxes", "stack", "heavy"}) {
    const std::string k = kind;
    const PileSpec s = pile_spec(k);
    const std::string what = k == "stack"   ? "a stack of " + std::to_string(s.default_n) + " cubes"
                             : k == "heavy" ? "a heavy cube on a light one"
                                            : "a " + k + " pile";
    c.add({"e3-pile-" + k, "E3",
           "whole step of " + what + " (collide, SolverXPBD, update_contacts), stage by stage, with quality",
           pile_options(s),
           [k](const SceneArgs& a, SceneOutput& out, std::ostream& log) { return run_pile_scene(k, a, out, log); },
           [k](const SceneArgs& a) { return bench_pile(k, a); }});
  }
}

}  // namespace impulse::course
