// SolverXPBD: the rigid-body XPBD step as course E3 §4-§5 walks through it, and the force readback
// of §8 (update_contacts).
//
// step(state_in, state_out, control, contacts, h):
//   1. fresh contact-impulse buffer (zero), 2. body_f + joint_f into a temporary wrench (state_in is
//   never written), 3. the E1 §10 predictor (integrate_bodies), 4. `iterations` times, no tolerance
//   and no early exit: clear deltas -> rigid contacts -> weighted apply -> joints -> apply,
//   5. the position impulses are saved for update_contacts, 6. the restitution pass when enabled,
//   then kinematic bodies get their prescribed state back.
// Accumulation is deterministic: each body sums its contacts' (or joints') deltas in a fixed order
// (contacts sorted by body, lib/core/reduce.h's segmented-sum pattern), never with atomics, so a
// CPU run is bitwise identical for any OpenMP thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "e1/model.h"
#include "e3/contacts_view.h"
#include "e3/xpbd_step.h"

namespace impulse {

/// What the last step did (for tests, scenes and the book; not an input).
struct XpbdStepTrace {
  int contact_passes = 0;                 // contact kernel launches (== iterations when there are contacts)
  int joint_passes = 0;                   // joint kernel launches
  std::vector<int> active_contacts;       // per iteration: contacts with d < 0
  bool restitution_ran = false;
  int restitution_manifolds = 0;
  int restitution_max_manifold_size = 0;  // <= restitution_manifold_max_contacts
  int restitution_sweeps = 0;             // outer x inner sweeps run
  std::vector<real> restitution_lambda_min_per_outer;  // smallest accumulated row impulse per outer iteration [N s]
  std::vector<spatial_vector> restitution_body_dv;     // per body: velocity change of the pass [m/s, rad/s]
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
  const XpbdStepTrace& trace() const { return trace_; }

  /// body_parent_f of the last step (body_count): the world wrench (f [N], tau [N m] about the child
  /// COM) that the parent exerts on each child through its inbound joint, from the joint position
  /// impulses divided by h, plus that joint's joint_f. Zero for bodies without one (roots, FREE).
  /// Newton writes it into State.body_parent_f; the E1 State here has no such array.
  const Buffer<spatial_vector>& body_parent_f() const { return body_parent_f_; }

 private:
  const Model* model_;
  vec3 gravity_;
  Buffer<real> inv_mass_eff_;     // [1/kg], zero for kinematic bodies
  Buffer<mat33> inv_inertia_eff_; // [1/(kg m^2)] body axes, zero for kinematic bodies
  Buffer<std::int64_t> joint_body_start_, joint_body_entry_;  // per body: (joint * 2 + is_child), in joint order
  bool has_joint_rows_ = false;   // some joint other than FREE
  Buffer<spatial_vector> wrench_;
  Buffer<spatial_vector> body_delta_;
  Buffer<int> body_count_;        // active contacts per body in the current iteration
  Buffer<spatial_vector> contact_impulse_;
  Buffer<spatial_vector> body_parent_f_;
  // Per-step work arrays, sized once (contact ones by the record's capacity) and reused.
  Buffer<spatial_vector> delta_a_, delta_b_;   // per contact: body0 / body1 deltas of an iteration
  Buffer<int> active_, ever_active_;           // per contact: d < 0 this iteration / in any iteration
  Buffer<spatial_vector> joint_impulse_, joint_delta_p_, joint_delta_c_;  // per joint
  int impulse_capacity_ = 0;
  bool have_impulse_ = false;
  real last_h_ = 0;
  XpbdStepTrace trace_;
};

// Host helpers of the step (lib/e3/solver_xpbd.cpp).

/// Body of each side of every stored record: side[2c] = body of shape0, side[2c+1] = body of shape1.
/// Throws std::invalid_argument for a shape ID outside [-1, shape_count).
std::vector<int> contact_bodies(const Model& model, const ContactsView& c, int count);

/// @formula E3.5-manifold-cap  Chooses at most max_contacts of the candidates of one manifold:
/// the deepest first (smallest d, lowest index on ties), then greedily the point farthest from
/// those chosen (largest minimum distance, lowest index on ties). Deterministic. Returns the
/// chosen candidate positions in increasing order. depth [m], point [m] world.
std::vector<int> select_manifold_contacts(const std::vector<real>& depth, const std::vector<vec3>& point, int max_contacts);

}  // namespace impulse
