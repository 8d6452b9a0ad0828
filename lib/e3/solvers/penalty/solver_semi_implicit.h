// SolverSemiImplicit: penalty joints and penalty contacts on the current State, then the
// semi-implicit rigid-body integrator (course E3 §6). One force assembly per step, no contact or
// joint iteration, no residual.
#pragma once

#include "e1/model.h"
#include "e3/contacts/contacts_view.h"
#include "e3/solvers/shared/penalty_contact_kernels.h"

namespace impulse {

/// @formula E3.6-semiimplicit-single-pass  SolverSemiImplicit.step (course E3 §6):
///   wrench = body_f + joint_f(FREE) + sum_joints eval_body_joint(state_in)
///          + sum_contacts eval_body_contact(state_in)                              (assembled once)
///   state_out = integrate_bodies(state_in, wrench, gravity, angular_damping, h)    (E1 §10)
/// Scope: every body is integrated as a free rigid body; REVOLUTE, BALL, FIXED and PRISMATIC joints
/// are penalty springs/dampers between the two joint frames (lib/e3/joints/maximal_joint.h, no limits or
/// target drives), FREE joints carry their joint_f; penalty contacts only. joint_q / joint_qd of
/// the State are not written (body coordinates only, as in Newton).
class SolverSemiImplicit {
 public:
  /// angular_damping [1/s] (Newton default 0.05), friction_smoothing [m/s] the Huber delta (1.0),
  /// joint_attach_ke > 0 [N/m] and joint_attach_kd >= 0 [N s/m] the joint spring and damper
  /// (Newton's defaults 1e4 and 1e2, solver_semi_implicit.py). Throws std::invalid_argument naming
  /// the joint for a DISTANCE or D6 joint, or naming the bad parameter.
  explicit SolverSemiImplicit(const Model& model, real angular_damping = real(0.05), real friction_smoothing = 1,
                              real joint_attach_ke = real(1e4), real joint_attach_kd = real(1e2));

  real angular_damping;     // [1/s]
  real friction_smoothing;  // [m/s]
  real joint_attach_ke;     // [N/m] (also N m/rad on the angular error)
  real joint_attach_kd;     // [N s/m] (also N m s/rad, scaled by 0.01, on the angular rate)

  /// Newton's step(state_in, state_out, control, contacts, dt); contacts may be null.
  void step(const State& state_in, State& state_out, const Control& control, const ContactsView* contacts,
            real dt);
  /// The once-per-step force assembly on a State: body_f + FREE joint_f + penalty joints + penalty
  /// contacts -> out.
  void assemble_body_forces(const State& state, const Control& control, const ContactsView* contacts,
                            View<spatial_vector> out);
  /// Always throws UpdateContactsNotImplemented: the contact kernel writes body forces only.
  void update_contacts(ContactsView& contacts) const;
  /// Number of contact-kernel launches so far (one per step with contacts: no iteration).
  PenaltyContactScratch contact_scratch_;  // apply_penalty_contacts' arrays, kept between steps
  long contact_passes() const { return contact_passes_; }

 private:
  const Model* model_;
  Buffer<spatial_vector> wrench_, joint_parent_w_, joint_child_w_;
  long contact_passes_ = 0;
  bool has_attached_joints_ = false;  // any joint other than FREE (the joint kernel is skipped otherwise)
};

}  // namespace impulse
