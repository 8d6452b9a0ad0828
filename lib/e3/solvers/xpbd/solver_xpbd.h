// SolverXPBD: the rigid-body XPBD step as course E3 §4-§5 walks through it, and the force readback
// of §8 (update_contacts).
//
// step(state_in, state_out, control, contacts, h) is a list of stages, each a function of its own
// (solver_xpbd_kernels.cpp; the restitution pass is xpbd_restitution.cpp):
//   check_step              guards that need no read of the record
//   1. begin_step           on the device: each row's two bodies, per-body contact segments, zero
//                           impulses; rows past the record's count (or all, for a bad record) inert
//   2.+3. predict           body_f + joint_f and the E1 §10 predictor (integrate_bodies)
//   4. `iterations` times, no tolerance and no early exit:
//        solve_contacts (each body's XpbdSide once, then the rows, with the previous iteration's
//        readback impulses) -> apply_contact_deltas
//        (weighted) -> solve_joints -> apply_joint_deltas; then the last iteration's
//        accumulate_contact_impulses
//   5. store_impulses       position impulses for update_contacts, body_parent_f
//   6. apply_restitution    the §5 velocity pass, when enabled
//   restore_kinematic       kinematic bodies get their prescribed state back
//   finish_trace            the step's one readback: the record's status (a bad record throws here)
//                           and the trace's per-iteration counts
// On a GPU the row passes launch over the record's capacity and each row reads the count on the
// device, so that the step reads nothing back before its loop; on the CPU, whose device memory is
// host memory, they launch over the count read in place. Every buffer is sized at the first step and
// grown only when the capacity grows (no allocation per step).
// Accumulation is deterministic: each body sums its contacts' (or joints') deltas in a fixed order
// (contacts sorted by body, lib/core/reduce.h's segmented-sum pattern), never with atomics, so a
// CPU run is bitwise identical for any OpenMP thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer_grow.h"
#include "e1/model.h"
#include "e3/contacts/contacts_view.h"
#include "e3/solvers/xpbd/xpbd_step.h"

namespace impulse {

/// What the last step did (for tests, scenes and the book; not an input).
struct XpbdStepTrace {
  int contact_passes = 0;                 // contact kernel launches (== iterations when there are contacts)
  double contact_pass_seconds = 0;        // [s] host wall time of the step's solve_contacts + apply_contact_deltas
                                          // (on the CPU the passes; on a GPU only their launches)
  int joint_passes = 0;                   // joint kernel launches
  std::vector<int> active_contacts;       // per iteration: contacts with d < 0
  bool restitution_ran = false;
  int restitution_manifolds = 0;
  int restitution_max_manifold_size = 0;  // <= restitution_manifold_max_contacts
  int restitution_sweeps = 0;             // outer x inner sweeps run
  std::vector<real> restitution_lambda_min_per_outer;  // smallest accumulated row impulse per outer iteration [N s]
  std::vector<spatial_vector> restitution_body_dv;     // per body: velocity change of the pass [m/s, rad/s]
};

/// Bytes one contact iteration (solve_contacts + apply_contact_deltas) reads and writes, each array
/// element counted once: per row its record columns, body pair, flags, deltas (written, then read by
/// the readback and the apply), impulse and segment entries; per body its side (made from the pose,
/// twist and mass data, written, read), the apply's mass data, pose and twist (read, written),
/// segment start and count. linearised (SolverXPBD::contact_linearised): per row and iteration its
/// colour slot, shapes, body pair, linearised row, impulses (read, written) and flags, per body its
/// summed move (read, written), a pair's further sweeps counted as cache hits; once per step per row
/// the linearisation (record columns, sides, accumulators, both linearised arrays written) and the
/// readback (both read, impulse read and written), per body its side, move and the move onto the
/// pose. A measure for the bench (bytes per contact-iteration), never asserted.
struct XpbdContactPassBytes {
  std::int64_t per_row = 0, per_body = 0;            // [B] each iteration
  std::int64_t per_row_step = 0, per_body_step = 0;  // [B] once per step (linearised only)
};
XpbdContactPassBytes xpbd_contact_pass_bytes(bool linearised = false);

/// One row of the restitution pass's host grouping, computed on the device from the predicted state
/// (xpbd_restitution.cpp).
struct XpbdRestitutionCandidate {
  int body_a, body_b, ever_active;  // sides of the row; active in some position iteration
  real depth;                       // [m] separation at the predicted poses (negative: overlap)
  vec3 point_a;                     // [m] world contact point on side A
  real target;                      // [m/s] target normal velocity (E3.5-restitution-target)
};

/// The restitution pass's manifolds on the device (group_restitution_manifolds), shared by its
/// stages within one step. Sized to the record's capacity (manifolds <= rows) and grown only when it
/// grows; the manifold count stays on the device.
struct XpbdRestitutionPass {
  Buffer<std::int64_t> key;                    // per sorted row: pair_key of its bodies, or kNoManifold
  Buffer<int> order;                           // per sorted row: the contact row
  Buffer<std::int64_t> first, index;           // per sorted row: 1 where a manifold starts; its exclusive scan
  Buffer<int> run_begin;                       // per manifold: its first sorted row
  Buffer<int> kept;                            // per manifold: rows kept, min(run, restitution_manifold_max_contacts)
  Buffer<real> mind;                           // per sorted row: the selection's distance to the chosen [m]
  Buffer<int> taken;                           // per sorted row: chosen by the selection
  Buffer<std::int64_t> start;                  // per manifold: its first entry in rows (manifolds + 1)
  Buffer<int> rows, flip;                      // per manifold row: contact row; 1 when its shape0 is the pair's second body
  Buffer<real> target;                         // per manifold row: target normal velocity [m/s]
  Buffer<int> bodies;                          // per manifold: its two bodies (lower id first); -1 past the count
  Buffer<std::int64_t> body_start, body_entry, body_fill;  // per body: (manifold * 2 + side), in manifold order
  Buffer<spatial_vector> delta;                // per manifold side: velocity change of the last sweep [m/s, rad/s]
  Buffer<int> fired;                           // per manifold: some row took an impulse
  Buffer<real> lambda_min;                     // per outer iteration, per manifold: smallest row impulse [N s]
  Buffer<spatial_vector> body_dv;              // per body: the pass's accumulated velocity change
};

class SolverXPBD {
 public:
  /// The Model must outlive the solver. Gravity is cached (notify_model_changed after set_gravity).
  /// Joint rows: REVOLUTE, PRISMATIC, BALL, FIXED, DISTANCE and D6 with 0, 1 or 3 angular axes (a D6
  /// with two angular axes is refused with std::invalid_argument); FREE has none.
  explicit SolverXPBD(const Model& model, int iterations = 2);

  // Defaults as in the course and Newton 1.6 (newton-source-notes.md (c)).
  int iterations;                            // fixed position iterations per step (E3.4-iterations-fixed)
  real rigid_contact_relaxation = real(0.8); // [-]
  bool rigid_contact_con_weighting = true;   // divide each body's contact correction by its active count N
  real angular_damping = 0;                  // [1/s] of the predictor
  bool enable_restitution = false;           // the §5 velocity pass
  int rigid_contact_restitution_iterations = 2;  // outer iterations of the restitution pass
  XpbdJointParams joint;                     // compliance, damping, relaxation of joint rows
  /// impulse's extensions, off by default (Newton 1.6.1 has neither; the bench's matched-quality
  /// search uses them, lib/bench/bench_pile.h):
  /// rigid_contact_gauss_seidel: the contact rows are coloured so that no two rows of a colour move
  /// the same body (colour_contacts), and each iteration runs the colours in turn, each row applying
  /// its correction to its bodies at once (Gauss-Seidel by colour, as Box2D v3's constraint graph
  /// colouring); no count weighting. The readback impulses are the rows' summed corrections.
  bool rigid_contact_gauss_seidel = false;
  /// contact_warm_start (needs rigid_contact_gauss_seidel): each row accumulates its normal and
  /// friction impulses over the step, clamped (p >= 0, |t| <= mu p: xpbd_contact_delta_accumulated), and
  /// starts from the impulses of the last step's row of the same shape pair whose contact point on
  /// shape0 (its body frame) is nearest, within contact_warm_start_distance, times the scales.
  bool contact_warm_start = false;
  real contact_warm_start_scale = 1;              // [-] in [0, 1], normal impulses
  real contact_warm_start_friction_scale = 1;     // [-] in [0, 1], friction impulses
  real contact_warm_start_distance = real(0.01);  // [m] > 0
  /// contact_manifold_sweeps (rigid_contact_gauss_seidel only): 0 solves the rows one by one; n >= 1
  /// solves the rows of one shape pair together (xpbd_manifold_delta, n sweeps over them on the
  /// linearised poses, applied at once), so that a face's corners move it as a whole. A pair with
  /// one row is solved as a row either way.
  int contact_manifold_sweeps = 0;
  /// contact_linearised (rigid_contact_gauss_seidel only): the rows are linearised once per step at
  /// the poses after the warm start (xpbd_linearise_row) and the iterations move the bodies only
  /// through their summed small position changes u = h inv_m P, theta = h inv_I L
  /// (xpbd_linear_row, rate rigid_contact_relaxation, target gap 0); each body's pose and velocity
  /// are moved once after the iterations (xpbd_move_body), as Box2D v3 and Jolt solve prepared
  /// contact constraints. Torsion and rolling per row and pass as in E3.4-friction-anchor, on the
  /// velocities the position changes give, accumulated with their limits on the total
  /// (xpbd_linear_row_angular). A model with joint rows moves the bodies and
  /// linearises the rows again after every iteration (the joints work on poses). Rows accumulate
  /// their impulses (p >= 0, |t| <= mu p) whether or not contact_warm_start carries them over.
  bool contact_linearised = false;
  static constexpr int contact_colours = 64;        // colours of the graph colouring; rows past them go to one serial overflow colour
  static constexpr int contact_colour_rounds = 12;  // rounds of the colouring

  static constexpr int restitution_manifold_max_contacts = 12;  // E3.5-manifold-cap
  static constexpr int restitution_inner_iterations = 8;        // Gauss-Seidel sweeps per outer iteration

  /// One step of h [s]. contacts may be null (no contact rows). Throws std::invalid_argument for
  /// h <= 0, iterations <= 0, rigid_contact_restitution_iterations <= 0, state_in == state_out,
  /// States or Control of the wrong size, a record made for another Model, an overflowed record
  /// (count > rigid_contact_max) or a record naming a shape outside the Model.
  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts, real h);

  /// @formula E3.8-update-guards  Writes contacts.force[i] = (accumulated position impulse of
  /// contact i) / h of the last step, for i < count, zero beyond (course E3 §8). The wrench is body1's
  /// on body0, at body0's COM, world. Restitution impulses are not included (E3.5).
  /// Guards, as in the course: force allocated, a previous step with contacts, same capacity; and an
  /// overflowed record is refused. A different record of the same capacity passes (the documented limit).
  void update_contacts(ContactsView& contacts) const;

  void notify_model_changed();

  /// The accumulated, readback-scaled position impulse of each contact in the last step
  /// (rigid_contact_max entries) [N s, N m s]; empty before the first step with contacts.
  const Buffer<spatial_vector>& contact_impulse() const { return contact_impulse_; }
  /// What the last step did; the restitution pass's part is read back from the device here, on
  /// the first call after a step, never inside the step.
  const XpbdStepTrace& trace() const;

  /// body_parent_f of the last step (body_count): the world wrench (f [N], tau [N m] about the child
  /// COM) that the parent exerts on each child through its inbound joint, from the joint position
  /// impulses divided by h, plus that joint's joint_f. Zero for bodies without one (roots, FREE).
  /// Newton writes it into State.body_parent_f; the E1 State here has no such array.
  const Buffer<spatial_vector>& body_parent_f() const { return body_parent_f_; }

  /// rigid_contact_gauss_seidel: each row's colour in the last step (its first rigid_contact_count
  /// entries; contact_colours is the serial overflow colour); empty before such a step.
  const Buffer<int>& contact_colour() const { return step_.colour; }

  // The stages of step(), in order (solver_xpbd_kernels.cpp, xpbd_restitution.cpp). Public because
  // nvcc allows its device lambdas only in public member functions; call step(), which runs them
  // in this order on one step's rows.
  void check_step(const State& in, const State& out, const Control& control, const ContactsView* contacts, real h);
  void begin_step(const ContactsView* contacts);
  void predict(const State& in, const Control& control, State& out, real h);
  void make_sides(const State& out);
  void solve_contacts(State& out, const ContactsView& c, int it, real h);
  void warm_start_contacts(State& out, const ContactsView& c, real h);
  void keep_contact_history(const ContactsView& c);
  void colour_contacts(const ContactsView& c);
  std::int64_t colour_again(const ContactsView& c, bool may_keep);
  void order_colours(std::int64_t fresh);
  void solve_contacts_coloured(State& out, const ContactsView& c, int it, real h);
  void linearise_contacts(const State& out, const ContactsView& c, real h, bool first);
  void move_linearised_bodies(State& out, real h);
  void apply_contact_deltas(State& out, int it, real h);
  void accumulate_contact_impulses(int it);
  void solve_joints(State& out, real h);
  void apply_joint_deltas(State& out, real h);
  void store_impulses(const State& in, const Control& control, const ContactsView* contacts, real h);
  void apply_restitution(State& out, const ContactsView& c, real h);
  void restitution_candidates(const ContactsView& c, std::int64_t rows, real h);
  void group_restitution_manifolds(std::int64_t rows);
  void restitution_sweep_manifolds(State& out, const ContactsView& c, std::int64_t rows, int outer);
  void restitution_mean_body_deltas(State& out);
  void restore_kinematic(const State& in, State& out);
  void finish_trace(const ContactsView* contacts);

 private:
  /// What the stages of one step share: sized at the first step with contacts and grown only when
  /// the record's capacity grows; filled by begin_step.
  struct StepRows {
    int capacity = 0;                                   // rows of the record (rigid_contact_max)
    int launch = 0;                                     // rows a row pass launches over (begin_step)
    int impulse_rows = 0;                               // leading rows of contact_impulse_ that may be non-zero
    int contact_passes = 0;                             // contact iterations run so far
    Buffer<int> live;                                   // (1) rows the step works on: the count, or 0 for a bad record
    Buffer<int> side;                                   // per row: body of shape0, shape1 (-1 world; -2 a bad row)
    Buffer<std::int64_t> contact_start, contact_entry;  // per body: (row * 2 + is_shape1), in row order
    Buffer<std::int64_t> segment_fill;                  // per body: the segment builder's scratch
    Buffer<XpbdSide> sides;                             // per body: its XpbdSide at this iteration's poses
    Buffer<spatial_vector> dA, dB;                      // this iteration's row deltas [N s, N m s]
    Buffer<int> active;                                 // per iteration, per row: d < 0 (iterations x capacity)
    Buffer<int> ever_active;                            // per row: active in some iteration
    Buffer<int> status;                                 // per block of rows: first bad row, active counts per iteration
    std::vector<int> host_status;                       // its host copy (GPU only)
    Buffer<spatial_vector> joint_impulse;               // per joint: child-side position impulse [N s, N m s]
    Buffer<spatial_vector> joint_dP, joint_dC;          // this iteration's joint deltas
    Buffer<transform> q_pred;                           // predicted poses (restitution only)
    Buffer<spatial_vector> qd_pred;                     // predicted velocities (restitution only)
    Buffer<XpbdRestitutionCandidate> candidates;        // per row (restitution only)
    Buffer<int> manifolds;                              // (1) restitution manifolds of the step
    XpbdRestitutionPass restitution;                    // the restitution pass's device arrays
    // contact_warm_start only:
    Buffer<real> p_acc;                                 // per row: accumulated normal impulse [N s]
    Buffer<vec3> t_acc;                                 // per row: accumulated friction impulse on B [N s]
    Buffer<std::int64_t> key;                           // per row, sorted: (shape0, shape1) key; dead rows last
    Buffer<int> key_order;                              // per sorted row: the contact row
    Buffer<std::int64_t> history_key;                   // last step's sorted keys
    Buffer<real> history_p;                             // last step's p_acc in history_key order [N s]
    Buffer<vec3> history_t;                             // last step's t_acc in history_key order [N s]
    Buffer<vec3> history_point;                         // last step's contact point on shape0, in its body frame [m]
    Buffer<std::int64_t> history_count;                 // (1) rows in the history
    // contact_linearised only:
    Buffer<XpbdLinearRow> linear_rows;                  // per row: linearised at the step's poses
    Buffer<XpbdLinearRowRest> linear_rest;              // per row: its torsion and rolling parts, its impulses then
    Buffer<vec3> l_acc;                                 // per row: torsion and rolling impulse on B since then [N m s]
    Buffer<spatial_vector> body_move;                   // per body: summed (u [m], theta [rad]) since then
    // rigid_contact_gauss_seidel only:
    Buffer<int> colour;                                 // per row: its colour, -1 while uncoloured
    Buffer<int> tentative;                              // per row: the colour it proposed, -1 before
    Buffer<std::int64_t> priority;                      // per row: colour_priority, made once a step
    Buffer<int> colour_pending;                         // (1) rows left uncoloured after a round
    Buffer<int> entry_rank;                             // per (row, side): its rank at that body, -1 - rank when its proposal lost there
    Buffer<std::uint64_t> body_mask;                    // per body: colours its rows took
    Buffer<std::int64_t> colour_key;                    // per sorted row: colour (dead rows last)
    Buffer<int> colour_order;                           // per sorted row: the contact row
    Buffer<std::int64_t> colour_start;                  // per colour: first sorted row (contact_colours + 2)
    Buffer<int> colour_count;                           // per colour: rows (contact_colours + 1)
    Buffer<int> colour_shape;                           // per row: shape0, shape1 of the rows last coloured
    Buffer<int> colour_rows;                            // (1) rows last coloured
    Buffer<int> colour_redo;                            // (1) 1: colour afresh; 0: the last colouring stands
    bool coloured = false;                              // a colouring was made (host)
    bool coloured_heads = false;                        // ... of pair heads only (contact_manifold_sweeps != 0)
  };

  /// Count weighting of the contact deltas: off under rigid_contact_gauss_seidel, whose rows apply
  /// their corrections whole (the warm start's apply too).
  bool contact_weighting() const { return rigid_contact_con_weighting && !rigid_contact_gauss_seidel; }

  const Model* model_;
  vec3 gravity_;
  Buffer<real> inv_mass_eff_;     // [1/kg], zero for kinematic bodies
  Buffer<mat33> inv_inertia_eff_; // [1/(kg m^2)] body axes, zero for kinematic bodies
  Buffer<std::int64_t> joint_body_start_, joint_body_entry_;  // per body: (joint * 2 + is_child), in joint order
  bool has_joint_rows_ = false;   // some joint other than FREE
  bool has_kinematic_ = false;    // some kinematic body (restore_kinematic has work)
  Buffer<spatial_vector> wrench_;
  Buffer<spatial_vector> body_delta_;
  Buffer<int> body_count_;        // active contacts per body in the current iteration
  Buffer<spatial_vector> contact_impulse_;
  Buffer<spatial_vector> body_parent_f_;
  int impulse_capacity_ = 0;
  bool have_impulse_ = false;
  real last_h_ = 0;
  mutable XpbdStepTrace trace_;
  mutable bool restitution_trace_pending_ = false;  // the step ran the restitution pass; trace() reads it
  StepRows step_;
};

// Host helpers of the step (lib/e3/solvers/xpbd/solver_xpbd.cpp).


/// @formula E3.5-manifold-cap  Chooses at most max_contacts of the candidates of one manifold:
/// the deepest first (smallest d, lowest index on ties), then greedily the point farthest from
/// those chosen (largest minimum distance, lowest index on ties). Deterministic. Returns the
/// chosen candidate positions in increasing order. depth [m], point [m] world.
std::vector<int> select_manifold_contacts(const std::vector<real>& depth, const std::vector<vec3>& point, int max_contacts);

/// select_manifold_contacts on n candidates read through depth(i) [m] and point(i) [m], as device
/// code: writes the chosen positions, increasing, to chosen[0, return value); mind (n) and taken (n)
/// are the caller's scratch.
template <class Depth, class Point>
IMPULSE_HD int select_manifold_candidates(int n, const Depth& depth, const Point& point, int max_contacts, real* mind,
                                          int* taken, int* chosen) {
  if (n <= max_contacts) {
    for (int i = 0; i < n; ++i) chosen[i] = i;
    return n;
  }
  int deepest = 0;
  for (int i = 1; i < n; ++i)
    if (depth(i) < depth(deepest)) deepest = i;
  for (int i = 0; i < n; ++i) taken[i] = 0;
  int m = 0;
  chosen[m++] = deepest;
  taken[deepest] = 1;
  while (m < max_contacts) {
    const int last = chosen[m - 1];
    int best = -1;
    for (int i = 0; i < n; ++i) {
      if (taken[i]) continue;
      const real d = length(point(i) - point(last));
      if (m == 1 || d < mind[i]) mind[i] = d;  // the distance to the nearest chosen point
      if (best < 0 || mind[i] > mind[best]) best = i;
    }
    taken[best] = 1;
    chosen[m++] = best;
  }
  for (int a = 1; a < m; ++a)  // increasing order (insertion sort of at most max_contacts)
    for (int b = a; b > 0 && chosen[b - 1] > chosen[b]; --b) {
      const int t = chosen[b];
      chosen[b] = chosen[b - 1];
      chosen[b - 1] = t;
    }
  return m;
}

}  // namespace impulse
