// SolverFeatherstone (course E3 §6): generalized-coordinate stepping with penalty contacts, as a
// list of passes over core/parallel_for, one item per articulation (or per body where a pass is
// per body), so the same source runs on the CPU and on a GPU. The passes it shares with
// SolverGeneralizedIntegrator are articulation_passes.h's.
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.h"
#include "e1/model.h"
#include "e3/contacts/contacts_view.h"
#include "e3/solvers/generalized/articulation_passes.h"
#include "e3/solvers/shared/penalty_contact_kernels.h"

namespace impulse {

/// SolverFeatherstone.step, E3.6-featherstone (tagged on GeneralizedDynamics::mass_matrix) (course E3 §6):
///   FK(q, qd) -> body wrenches (body_f + penalty contacts) -> tau = J^T (...) + joint_f
///   H = J^T I J + armature (refreshed every update_mass_matrix_interval steps) -> Cholesky
///   qdd = H^-1 tau;  qd+ = qd + h qdd;  q+ = q + h N(q) qd+;  body_q/qd = FK(q+, qd+)
/// J, H and its Cholesky factor are per articulation (block-diagonal, never dense), each block a
/// row-major slice of one flat buffer at the articulation's offset, sized once at construction.
/// The matrix solve is not a contact iteration: contacts are the penalty law of eval_body_contact.
/// GeneralizedDynamics is the host reference of the same formulas (tests compare the two).
class SolverFeatherstone {
 public:
  /// update_mass_matrix_interval >= 1 (1: every step, Newton's default; larger reuses a cached
  /// factorization, an explicit approximation). armature [kg or kg m^2 per DOF]: empty = zeros.
  /// Throws std::invalid_argument for a model it cannot handle (see generalized_layout) or a
  /// kinematic-only world. The model may live on any device; the solver's buffers live there too.
  explicit SolverFeatherstone(const Model& model, int update_mass_matrix_interval = 1, real friction_smoothing = 1,
                              std::vector<real> armature = {});

  int update_mass_matrix_interval;
  real friction_smoothing;  // [m/s]

  /// Throws std::runtime_error naming the first articulation whose H is not symmetric positive
  /// definite (read back on the steps that refactor H), and what apply_penalty_contacts' record
  /// check throws, at the step's one readback (state_out then holds an unspecified step).
  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts,
            real dt);
  /// body_f + penalty contacts evaluated on the FK of state.joint_q/qd (world wrenches at each COM).
  void assemble_body_forces(const State& state, const ContactsView* contacts, View<spatial_vector> out);
  /// Always throws UpdateContactsNotImplemented (the contact kernel writes body forces only).
  void update_contacts(ContactsView& contacts) const;
  /// body_parent_f of the last step: the wrench each body received from its parent joint (world,
  /// at its COM) [N, N m] (body_count, on the model's device). Joint wrenches, kept apart from
  /// contact forces (there is no per-contact producer here).
  const Buffer<spatial_vector>& body_parent_f() const { return body_parent_f_; }
  /// How many times H was assembled and factored.
  long mass_matrix_updates() const { return mass_matrix_updates_; }

  // The passes of its own (solver_featherstone.cpp); step() calls them after the shared ones of
  // articulation_passes.h. nvcc allows its device lambdas only in public member functions.
  void eval_parent_joint_wrenches();                          // body_parent_f_
  void integrate(const State& in, State& out, real h);        // joint_q/qd of out, then FK
  void launch_body_forces(const State& s, const ContactsView* c, View<spatial_vector> out);  // assemble, no readback
  void read_back(const ContactsView* c, bool refactored);    // the step's one readback

 private:

  const Model* model_;
  long steps_ = 0, mass_matrix_updates_ = 0;
  ArticulationArrays A_;  // the layout, J, H (then L), tau (then qdd), the FK and the bias accelerations
  Buffer<spatial_vector> body_parent_f_;
  PenaltyContactScratch contact_scratch_;  // apply_penalty_contacts' arrays, kept between steps
  Buffer<spatial_vector> wrench_;          // (body_count) body_f + penalty contacts [N, N m]
};

}  // namespace impulse
