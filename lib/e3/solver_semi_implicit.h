// SolverSemiImplicit: penalty contacts on the current State, then the semi-implicit rigid-body
// integrator (course E3 §6). One force assembly per step, no contact iteration, no residual.
#pragma once

#include "e1/model.h"
#include "e3/penalty_contacts_view.h"

namespace impulse {

/// @formula E3.6-semiimplicit-single-pass  SolverSemiImplicit.step (course E3 §6):
///   wrench = body_f + joint_f(FREE) + sum_contacts eval_body_contact(state_in)     (assembled once)
///   state_out = integrate_bodies(state_in, wrench, gravity, angular_damping, h)    (E1 §10)
/// Scope: free rigid bodies (articulated joints are Featherstone's here); penalty contacts only.
class SolverSemiImplicit {
 public:
  /// angular_damping [1/s] (Newton default 0.05), friction_smoothing [m/s] the Huber delta (1.0).
  /// Throws std::invalid_argument for a model with joints other than FREE, or bad parameters.
  explicit SolverSemiImplicit(const Model& model, real angular_damping = real(0.05), real friction_smoothing = 1);

  real angular_damping;     // [1/s]
  real friction_smoothing;  // [m/s]

  /// Newton's step(state_in, state_out, control, contacts, dt); contacts may be null.
  void step(const State& state_in, State& state_out, const Control& control, const PenaltyContactsView* contacts,
            real dt);
  /// The once-per-step force assembly on a State: body_f + FREE joint_f + penalty contacts -> out.
  void assemble_body_forces(const State& state, const Control& control, const PenaltyContactsView* contacts,
                            View<spatial_vector> out);
  /// Always throws UpdateContactsNotImplemented: the contact kernel writes body forces only.
  void update_contacts(PenaltyContactsView& contacts) const;
  /// Number of contact-kernel launches so far (one per step with contacts: no iteration).
  long contact_passes() const { return contact_passes_; }

 private:
  const Model* model_;
  Buffer<spatial_vector> wrench_, scratch_A_, scratch_B_;
  long contact_passes_ = 0;
};

}  // namespace impulse
