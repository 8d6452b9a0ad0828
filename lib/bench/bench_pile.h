// The whole-step pile benchmarks `e3-pile-spheres` and `e3-pile-boxes` (issue 15): an E1 Model of
// N bodies on a ground plane, the E3 CollisionPipeline (broad phase, narrow phase, Contacts),
// SolverXPBD and update_contacts, stepped through the engine's one frame loop (simulate_frame,
// course E1 §7: a frame of H split into N substeps, collide and step each; or collide once per
// frame), timed stage by stage with the quality of the result beside the time. The layout and materials come from bench/peers/scenes/pile.toml, which the peer
// drivers (Bullet, ODE, MuJoCo; bench/peers/) read as well.
#pragma once

#include <string>
#include <vector>

#include "core/math.h"
#include "e1/model.h"

namespace impulse::course {

/// One pile of bench/peers/scenes/pile.toml ([common] and the kind's table), SI units.
struct PileSpec {
  std::string kind;             // "spheres" or "boxes"
  real h = 0;                   // step [s]
  real gravity = 0;             // [m/s^2] along -z
  real density = 0;             // [kg/m^3]
  real mu = 0;                  // [-]
  real mu_rolling = 0;          // [m] (spheres; 0 for boxes)
  int steps = 0;                // default steps of a run
  real rest_window = 0;         // last fraction of the run for drift at rest [-]
  int impulse_iterations = 0;   // SolverXPBD iterations
  int series_samples = 0;       // penetration-against-time samples
  real quality_window = 0;      // the seconds the settled-pile quality is taken over, from settle_time on [s]
  real settle_time = 0;         // the pile is at rest by then: the quality window starts here [s]
  real size = 0;                // sphere radius or cube half extent [m]
  int layers = 0;
  real pitch = 0, shift = 0, z0 = 0, rise = 0;  // layout [m]
  real gap = 0;                 // contact gap [m]
  real density_top_ratio = 1;   // density of the top layer's bodies / density [-]
  int default_n = 1000;         // the scene's body count (stack, heavy: the file's n)
};

/// Density of body i of n (pile.toml: the top layer's bodies times density_top_ratio) [kg/m^3].
real pile_density(const PileSpec& s, int i, int n);

/// Reads the pile of the given kind from the embedded pile.toml; throws std::runtime_error naming
/// the key when the file lacks it.
PileSpec pile_spec(const std::string& kind);

/// Initial body positions of the layout rule in pile.toml [m], and their checksum sum(x + 2y + 3z).
std::vector<vec3> pile_positions(const PileSpec& s, int n);
double pile_checksum(const std::vector<vec3>& p);

/// Ground penetration of each body (pile.toml's definition) from its pose [m].
real pile_ground_penetration(const PileSpec& s, const transform& X);

struct PileQuality {
  double max_penetration = 0;   // [m]
  double mean_penetration = 0;  // [m] over the bodies that penetrate
  double kinetic_energy = 0;    // [J]
};
PileQuality pile_quality(const PileSpec& s, const Model& m, const State& st);

/// Quality of the settled pile as a user judges it, over the quality window (pile.toml: W =
/// min(steps, ceil(quality_window / h)) frames from w0 = min(S, steps - W), S = ceil(settle_time / h):
/// from settle_time on when the run holds it, else the run's last W frames, no settled pile),
/// sampled at most kWindowSamples frames in it:
///   ground_* and body_* penetration: max over the samples of the deepest, mean over the samples
///   of the mean over the bodies (pairs) that penetrate; kinetic energy: mean over the samples;
///   centre drift: |mean body position at the window's end - at its start|.
struct PileWindowQuality {
  double ground_max = 0, ground_mean = 0;  // [m]
  double body_max = 0, body_mean = 0;      // [m]
  double kinetic_energy = 0;               // [J]
  double centre_drift = 0;                 // [m]
  int samples = 0;
  double start = 0;                        // w0 h [s]
  int settled = 0;                         // 1 when w0 = S (the window starts at settle_time)
};

/// The quality window of a run of `steps` frames of h (pile.toml): its first frame w0 and length W.
struct PileWindowFrames {
  int start = 0, frames = 1;
  bool settled = false;
};
PileWindowFrames pile_window_frames(const PileSpec& s, int steps, real h);
constexpr int kWindowSamples = 12;

struct PileRunOptions {
  int n = 1000;
  int steps = 300;              // frames
  int iterations = 4;
  real h = 0;                   // frame duration H [s]
  int substeps = 1;             // N: each frame is N substeps of H / N (simulate_frame)
  bool collide_once = false;    // collide at the frame's first substep only (else every substep)
  int threads = 1;              // OpenMP threads of the main (timed) run
  bool compare_threads = true;  // also step a 2-thread copy, interleaved step by step
  bool broad_phase_reuse = true;           // CollisionPipelineOptions::broad_phase_reuse
  real broad_phase_reuse_margin = 0.01;    // [m] CollisionPipelineOptions::broad_phase_reuse_margin
  bool contact_warm_start = false;         // SolverXPBD::contact_warm_start
  bool gauss_seidel = false;               // SolverXPBD::rigid_contact_gauss_seidel
  real warm_start_scale = 1;               // [-] SolverXPBD::contact_warm_start_scale
  real warm_start_friction_scale = 1;      // [-] SolverXPBD::contact_warm_start_friction_scale
  real relaxation = real(0.8);             // [-] SolverXPBD::rigid_contact_relaxation
  int manifold_sweeps = 0;                 // [-] SolverXPBD::contact_manifold_sweeps
  bool linearised = false;                 // SolverXPBD::contact_linearised
};

/// Seconds per step of each stage, averaged over the steps after warm-up.
struct PileStageSeconds {
  double broad = 0, narrow = 0, contacts = 0, solve = 0, readback = 0;
  double total() const { return broad + narrow + contacts + solve + readback; }
};

/// One launch site of the measured steps (core/alloc_count.h's names): its stage (collide, solve,
/// readback), its name (the launching function and line) and its launches per step [-].
struct PileLaunchSite {
  std::string stage, name;
  double per_step = 0;
};

struct PileRunResult {
  PileStageSeconds seconds;            // main run [s per step]
  double contacts_per_step = 0;        // rows of the record, mean over steps [-]
  double broad_phase_rebuilds = 0;     // broad_phase_reuse: candidate rebuilds per step, whole run [-]
  double broad_phase_fallbacks = 0;    // broad_phase_reuse: fresh broad phases per step, whole run [-]
  double allocations_collide = -1;     // per step after warm-up; -1 when not counted
  double allocations_solve = -1;
  double allocations_readback = -1;
  double launches_collide = 0;         // parallel_for launches per step after warm-up [-]
  double launches_solve = 0;
  double launches_readback = 0;
  double copies_collide = 0;           // host<->device copies per step after warm-up (core/host_copies.h) [-]
  double copies_solve = 0;             // (the solver step's: at most its one readback)
  double copies_readback = 0;          // (update_contacts, and the bench's own read of the count)
  std::vector<PileLaunchSite> launch_sites;  // each launch of a measured step by stage and name
  PileQuality quality;                 // at the end of the run
  PileWindowQuality window;            // over the quality window
  double drift_mean = 0, drift_max = 0;  // [m] over the rest window
  double checksum = 0;                 // layout checksum [m]
  // 1 vs 2 threads (compare_threads): seconds per step of the 2-thread copy, the per-step speedup
  // t1/t2 (median and quartiles) and whether the two runs ended bitwise equal.
  double two_thread_seconds = 0;
  PileStageSeconds two_thread_stages;  // the 2-thread copy's stages [s per step]
  double speedup_median = 0, speedup_p25 = 0, speedup_p75 = 0;
  int bitwise_equal = -1;              // 1, 0, or -1 when not compared
  // The XPBD contact pass (solve_contacts + apply_contact_deltas; linearised: linearise_contacts,
  // the coloured passes and move_linearised_bodies) of the main run, per step after warm-up, against
  // a bare copy of as many bytes (xpbd_contact_pass_bytes: half read, half written), run after each
  // measured step so that both see the same machine.
  double contact_pass_seconds = 0;     // [s per step]
  double contact_iterations = 0;       // rows x iterations per step [-]
  double contact_pass_bytes = 0;       // [B per step]
  double copy_bytes_per_second = 0;    // of the bare copy [B/s]
  std::vector<double> series_t, series_max_penetration, series_kinetic_energy;  // [s], [m], [J]
  std::vector<transform> final_body_q;
};

/// Steps the pile frame by frame through simulate_frame, each substep the whole chain (collide ->
/// fill_contact_materials -> SolverXPBD::step -> update_contacts; collide and materials only at a
/// frame's first substep with collide_once). Seconds are per frame. Throws std::invalid_argument
/// for n < 1, steps < 1, iterations < 1, substeps < 1, h <= 0, threads < 1.
PileRunResult run_pile(const PileSpec& spec, const PileRunOptions& o);

}  // namespace impulse::course
